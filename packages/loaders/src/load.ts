import { openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { DocmillError, type Engine, type ParseData, type ParseHints, type ParseOptions, parse } from '@docmill/core';
import { documentFiles, type FolderLimits } from './files.ts';
import { type DocmillRecord, formatsFor, type RecordOptions, recordsOf } from './records.ts';

/** A path (file or folder), or a document's bytes (give `filename`). */
export type DocmillInput = string | Blob | Uint8Array | ArrayBuffer;

export interface LoadOptions extends RecordOptions, FolderLimits {
  /** ParseOptions for every document (PDF mode, PII redaction, timeout, …); `formats` is set by `mode`. */
  parseOptions?: Omit<ParseOptions, 'formats'>;
  /** Any engine (`createEngine` with OCR, a worker pool): default core's `parse`. */
  engine?: Pick<Engine, 'parse'>;
  /** File name of bytes given directly (its extension helps detection); also their `source`. */
  filename?: string;
  /** Password of encrypted documents. */
  password?: string;
  signal?: AbortSignal;
  /**
   * Called for each document that could not be parsed, which is then skipped. Without it the
   * first failure is thrown (a DocmillError with `status` and `code`).
   */
  onError?: (source: string, error: Error) => void;
}

/** Parses one document with the options' engine, formats and hints. */
export function parseOne(
  input: Blob | Uint8Array | ArrayBuffer,
  filename: string | undefined,
  opts: LoadOptions,
): Promise<ParseData> {
  const hints: ParseHints = {};
  if (filename) hints.filename = filename;
  if (opts.password) hints.password = opts.password;
  if (opts.signal) hints.signal = opts.signal;
  const options: ParseOptions = { ...opts.parseOptions, formats: formatsFor(opts) };
  return opts.engine ? opts.engine.parse(input, options, hints) : parse(input, options, hints);
}

/**
 * The records of a path, a folder (every document in it, one after another) or bytes. Files are
 * opened as Blobs, so one over the engine's size limit (50 MB) is refused before it is read.
 */
export async function* docmillRecords(input: DocmillInput, opts: LoadOptions = {}): AsyncGenerator<DocmillRecord> {
  if (typeof input !== 'string') {
    const source = opts.filename ?? 'blob';
    const data = await parseOrSkip(source, opts, () => parseOne(input, opts.filename, opts));
    if (data) yield* recordsOf(data, source, opts);
    return;
  }
  const path = resolve(input);
  const st = await stat(path).catch(() => undefined);
  if (!st) throw new DocmillError(400, 'BAD_REQUEST', `No such file or folder: ${input}`);
  if (!st.isDirectory() && !st.isFile()) throw new DocmillError(400, 'BAD_REQUEST', `${input} is not a regular file.`);
  const files = st.isDirectory() ? await documentFiles(path, opts) : [path];
  for (const file of files) {
    opts.signal?.throwIfAborted();
    const data = await parseOrSkip(file, opts, async () => parseOne(await openAsBlob(file), basename(file), opts));
    if (data) yield* recordsOf(data, file, opts);
  }
}

async function parseOrSkip(
  source: string,
  opts: LoadOptions,
  work: () => Promise<ParseData>,
): Promise<ParseData | undefined> {
  try {
    return await work();
  } catch (err) {
    if (!opts.onError || opts.signal?.aborted) throw err;
    opts.onError(source, err instanceof Error ? err : new Error(String(err)));
    return undefined;
  }
}
