import type { FileEvent, FolderSummary } from './folder.ts';
import type { CliStream } from './main.ts';

/**
 * `--progress`: a folder run's events as JSON lines on stderr, for logs and CI, whether or not
 * stderr is a terminal. A line per file started and per file finished (with its pages, time,
 * warning or error), then the summary; with it stderr holds nothing else, so every line parses.
 */
export function jsonProgress(stream: CliStream, now: () => number) {
  const started = new Map<string, number>();
  const line = (event: Record<string, unknown>) => stream.write(`${JSON.stringify(event)}\n`);
  return {
    onFile(e: FileEvent): void {
      if (!e.done) {
        started.set(e.file, now());
        line({ event: 'start', file: e.file, done: e.index, total: e.total });
        return;
      }
      const ms = Math.round(now() - (started.get(e.file) ?? now()));
      started.delete(e.file);
      const result = e.error
        ? { ok: false, status: e.error.status, code: e.error.code, error: e.error.message }
        : { ok: true, pages: e.filePages ?? 0, warning: e.warning ?? null };
      line({ event: 'done', file: e.file, ...result, ms, done: e.index + 1, total: e.total });
    },
    summary(s: FolderSummary): void {
      line({
        event: 'summary',
        files: s.files,
        pages: s.pages,
        errors: s.errors,
        seconds: Math.round(s.seconds * 10) / 10,
        skipped: s.skipped,
        failed: s.failed,
      });
    },
  };
}
