import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { extname, join, relative, resolve } from 'node:path';
import {
  ACCEPTED_EXTENSIONS,
  type Engine,
  IMAGE_EXTENSIONS,
  normalizeOptions,
  type ParseOptions,
  type ParseProgress,
  toDocmillError,
  withPasswordHint,
} from '@docmill/core';
import { readFileInput } from '@docmill/core/platform/node';
import { estimateCost, longestFirst, MAX_SCAN_BYTES } from './cost.ts';
import { CLI_PASSWORD_HINT, type OutputFormat, outputExtension, renderOutput, warningLines } from './output.ts';

export interface FolderEntry {
  /** Path relative to the source folder. */
  file: string;
  reason: string;
}

export interface FolderSummary {
  files: number;
  pages: number;
  errors: number;
  seconds: number;
  skipped: FolderEntry[];
  failed: FolderEntry[];
}

/** A file starting (`done: false`) or finished; `pages` counts the folder's pages so far. */
export interface FileEvent {
  /** Files finished before this event. */
  index: number;
  total: number;
  /** Path relative to the source folder. */
  file: string;
  done: boolean;
  pages: number;
  /** Finished: this file's pages (1 for documents without pages). */
  filePages?: number;
  /** Finished: the response's warning. */
  warning?: string | null;
  /** Finished with an error: its body. */
  error?: { status: number; code: string; message: string };
}

export interface FolderJob {
  src: string;
  out: string;
  options: ParseOptions;
  /** Tried on every encrypted document of the folder (`--password`). */
  password?: string;
  formats: readonly OutputFormat[];
  json: boolean;
  stderr: { write(s: string): unknown };
  /** Called as each file starts and ends (progress display); nothing else is written but warnings and errors. */
  onFile?: (event: FileEvent) => void;
  /** Passed to each parse as its `onProgress` hint. */
  onProgress?: ((p: ParseProgress) => void) | undefined;
  /** Documents in flight at once (one per worker of a pooled engine); 1 by default. */
  concurrency?: number;
}

const documents = new Set<string>(ACCEPTED_EXTENSIONS);
const images = new Set<string>(IMAGE_EXTENSIONS);

/**
 * Every file under `dir`, split into those we parse and those we skip (with the reason). Images are
 * documents only when the options name the image parser, as for a single file; otherwise the
 * reason says how to include them.
 */
async function listFiles(
  dir: string,
  exclude: string,
  withImages: boolean,
): Promise<{ files: string[]; skipped: string[][] }> {
  const files: string[] = [];
  const skipped: string[][] = [];
  const walk = async (d: string) => {
    for (const e of (await readdir(d, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        // The output folder may sit inside the input folder: never read back what we write.
        if (resolve(p) !== exclude) await walk(p);
        continue;
      }
      const ext = extname(e.name).toLowerCase();
      if (!e.isFile()) skipped.push([p, 'not a regular file']);
      else if (documents.has(ext) || (withImages && images.has(ext))) files.push(p);
      else if (images.has(ext))
        skipped.push([
          p,
          `${ext} is an image: OCR'd only with the image parser (--options '{"parsers":["pdf","image"]}')`,
        ]);
      else skipped.push([p, ext ? `${ext} is not a supported document type` : 'no file extension']);
    }
  };
  await walk(dir);
  return { files, skipped };
}

/** PDF bytes read ahead to rank a folder; a larger folder is ranked by file size alone. */
const RANK_READ_BUDGET = 256 << 20;

/**
 * The order files start in. One at a time, the folder's own (sorted) order. With several in flight,
 * longest expected first: the lanes then end close together instead of one finishing a slow scan
 * alone at the end. The guess reads each PDF once more, which only pays off with several lanes, and
 * only up to RANK_READ_BUDGET bytes in all, so a huge folder does not wait for a read of everything.
 */
export async function startOrder(
  files: readonly string[],
  concurrency: number,
  readBudget = RANK_READ_BUDGET,
): Promise<string[]> {
  if (concurrency <= 1 || files.length <= concurrency) return [...files];
  const sizes = new Map<string, number>();
  for (const f of files) {
    sizes.set(
      f,
      await stat(f)
        .then((s) => s.size)
        .catch(() => 0),
    );
  }
  const isPdf = (f: string) => /\.pdf$/i.test(f);
  const pdfBytes = files.reduce((t, f) => t + (isPdf(f) ? (sizes.get(f) ?? 0) : 0), 0);
  const costs = new Map<string, number>();
  for (const f of files) {
    const size = sizes.get(f) ?? 0;
    const read = pdfBytes <= readBudget && isPdf(f) && size <= MAX_SCAN_BYTES;
    const bytes = read ? await readFile(f).catch(() => undefined) : undefined;
    costs.set(f, estimateCost(f, size, bytes));
  }
  return longestFirst(files, (f) => costs.get(f) ?? 0);
}

/** Converts every accepted file under `src` into `out/<same path><ext>`; returns what happened. */
export async function convertFolder(engine: Pick<Engine, 'parse'>, job: FolderJob): Promise<FolderSummary> {
  const listed = await listFiles(job.src, resolve(job.out), normalizeOptions(job.options).imageParser);
  const { skipped } = listed;
  // The clock includes ranking the files: it is part of the conversion's cost.
  const t0 = performance.now();
  const files = await startOrder(listed.files, Math.max(1, job.concurrency ?? 1));
  const ext = outputExtension(job.formats, job.json);
  let pages = 0;
  const failed: FolderEntry[] = [];
  await mkdir(job.out, { recursive: true });
  // Files finished so far: with several in flight they end out of order, so the file index would not count them.
  let finished = 0;
  const one = async (i: number): Promise<void> => {
    const file = files[i] as string;
    const rel = relative(job.src, file);
    job.onFile?.({ index: finished, total: files.length, file: rel, done: false, pages });
    let outcome: Pick<FileEvent, 'filePages' | 'warning' | 'error'>;
    try {
      const { bytes, hints } = await readFileInput(file);
      const data = await engine.parse(bytes, job.options, {
        ...hints,
        onProgress: job.onProgress,
        ...(job.password === undefined ? {} : { password: job.password }),
      });
      const filePages = typeof data.metadata.numPages === 'number' ? data.metadata.numPages : 1;
      pages += filePages;
      const target = join(job.out, `${rel}${ext}`);
      await mkdir(join(target, '..'), { recursive: true });
      const body = job.json
        ? `${JSON.stringify({ success: true, data }, null, 2)}\n`
        : renderOutput(data, job.formats, rel);
      await writeFile(target, body);
      job.stderr.write(warningLines(data.warning, `${rel}: `));
      outcome = { filePages, warning: data.warning };
    } catch (err) {
      const e = toDocmillError(withPasswordHint(err, CLI_PASSWORD_HINT));
      failed.push({ file: rel, reason: `${e.status} ${e.code}: ${e.message}` });
      job.stderr.write(`error: ${rel}: ${e.status} ${e.code}: ${e.message}\n`);
      outcome = { filePages: 0, error: { status: e.status, code: e.code, message: e.message } };
    }
    job.onFile?.({ index: finished++, total: files.length, file: rel, done: true, pages, ...outcome });
  };
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < files.length) await one(next++);
  };
  await Promise.all(Array.from({ length: Math.max(1, job.concurrency ?? 1) }, lane));
  // Lanes finish in any order; the summary lists failures in file order all the same.
  failed.sort((a, b) => a.file.localeCompare(b.file));
  return {
    files: files.length,
    pages,
    errors: failed.length,
    seconds: (performance.now() - t0) / 1000,
    skipped: skipped.map(([p, reason]) => ({ file: relative(job.src, p as string), reason: reason as string })),
    failed,
  };
}

/** The closing lines of a folder conversion: totals, then each skipped and failed file with why. */
export function summaryText(s: FolderSummary): string {
  const rate = s.seconds > 0 ? (s.pages / s.seconds).toFixed(1) : '-';
  const lines = [
    `files: ${s.files}  pages: ${s.pages}  errors: ${s.errors}  skipped: ${s.skipped.length}  time: ${s.seconds.toFixed(1)} s  pages/s: ${rate}`,
    ...s.skipped.map((e) => `skipped: ${e.file} (${e.reason})`),
    ...s.failed.map((e) => `failed: ${e.file} (${e.reason})`),
  ];
  return `${lines.join('\n')}\n`;
}
