import type { ParseProgress } from '@docmill/core';
import type { FileEvent } from './folder.ts';
import type { CliStream } from './main.ts';

/** A parse shorter than this never shows a bar: a flash of progress is noise. */
const SHOW_AFTER_MS = 400;
/** Redraw at most this often; pages can finish every millisecond. */
const REDRAW_MS = 100;

function bar(fraction: number, width = 24): string {
  const filled = Math.max(0, Math.min(width, Math.round(fraction * width)));
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
}

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.ceil(seconds);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/** Rewrites one status line in place on a terminal; clears it before anything else is printed. */
class StatusLine {
  private shown = false;
  private lastDraw = -Infinity;
  constructor(
    private readonly stream: CliStream,
    private readonly now: () => number,
    private readonly start: number,
  ) {}
  draw(text: string, force = false): void {
    const t = this.now();
    if (t - this.start < SHOW_AFTER_MS || (!force && t - this.lastDraw < REDRAW_MS)) return;
    this.lastDraw = t;
    // A pseudo-terminal without a size reports 0 columns.
    const width = (this.stream.columns || 80) - 1;
    this.stream.write(`\r${text.slice(0, width)}\x1b[K`);
    this.shown = true;
  }
  clear(): void {
    if (this.shown) this.stream.write('\r\x1b[K');
    this.shown = false;
  }
}

export interface FileProgress {
  onProgress: ((p: ParseProgress) => void) | undefined;
  /** Removes the bar, before warnings and the result are written. */
  clear(): void;
}

/**
 * The bar for one long file: units done of total, rate and time left. On anything but a terminal
 * there is no bar at all (`onProgress` is undefined), so pipes and logs get only the result.
 */
export function fileProgress(stream: CliStream, now: () => number): FileProgress {
  if (!stream.isTTY) return { onProgress: undefined, clear() {} };
  const start = now();
  const line = new StatusLine(stream, now, start);
  return {
    onProgress(p) {
      const seconds = (now() - start) / 1000;
      const rate = seconds > 0 ? p.done / seconds : 0;
      const eta = rate > 0 ? (p.total - p.done) / rate : Number.POSITIVE_INFINITY;
      line.draw(
        `${bar(p.total ? p.done / p.total : 0)} ${p.done}/${p.total} ${p.unit}  ${rate.toFixed(1)} ${p.unit}/s  ETA ${duration(eta)}`,
        p.done === p.total,
      );
    },
    clear: () => line.clear(),
  };
}

export interface FolderProgress {
  onFile(e: FileEvent): void;
  onProgress: ((p: ParseProgress) => void) | undefined;
  clear(): void;
}

/** Folder mode on a terminal: files done of total, pages so far, and the current file's own progress. */
export function folderProgress(stream: CliStream, now: () => number): FolderProgress {
  if (!stream.isTTY) return { onFile() {}, onProgress: undefined, clear() {} };
  const start = now();
  const line = new StatusLine(stream, now, start);
  let state = { index: 0, total: 0, file: '', pages: 0, done: false };
  let inner = '';
  const render = (force: boolean) => {
    const seconds = (now() - start) / 1000;
    const files = state.index + (state.done ? 1 : 0);
    const rate = seconds > 0 ? (state.pages / seconds).toFixed(1) : '0.0';
    line.draw(
      `${bar(state.total ? files / state.total : 0)} ${files}/${state.total} files  ${state.pages} pages  ${rate} pages/s  ${state.file}${inner}`,
      force,
    );
  };
  return {
    onFile(e) {
      state = e;
      inner = '';
      render(true);
    },
    onProgress(p) {
      inner = ` ${p.done}/${p.total} ${p.unit}`;
      render(false);
    },
    clear: () => line.clear(),
  };
}
