import type { DocmillError, ErrorBody, ParseData, ParseHints, ParseOptions, PasswordProblem } from '@docmill/core';

/** What a caller may say about the bytes; signals and callbacks do not survive Redis. */
export type JobHints = Pick<ParseHints, 'filename' | 'contentType' | 'sourceURL' | 'password'>;

/**
 * One parse job as stored in Redis. BullMQ stores job data as JSON, where a Buffer becomes an
 * array of numbers (≈ 3.5–4 characters per byte); base64 costs 4 characters per 3 bytes (+33 %),
 * so a 50 MB upload is ≈ 67 MB in Redis while it waits.
 */
export interface ParseJobData {
  /** Base64 of the document; removed when a zero-data-retention job starts. */
  bytes?: string;
  options: ParseOptions;
  hints: JobHints;
  zeroDataRetention: boolean;
}

/**
 * A failed job's error: the HTTP contract's body, plus the DocmillError's `password` marker so the
 * error rebuilt on the caller's side still says whether a password was missing or wrong.
 */
export type JobError = ErrorBody & { password?: PasswordProblem };

/** The job's outcome: the HTTP contract's body, success or error. */
export type ParseResult = { success: true; data: ParseData } | JobError;

/** The body a failed job stores. */
export const jobError = (e: DocmillError): JobError => ({
  ...e.toJSON(),
  ...(e.password ? { password: e.password } : {}),
});

/**
 * What a zero-data-retention job returns to BullMQ: its real result lives under `resultKey`
 * (read once, then deleted), because BullMQ also copies return values into the events stream.
 */
export interface StoredMarker {
  stored: true;
  success: boolean;
}

/** Names shared by workers and clients: the BullMQ prefix and the queue name. */
export interface QueueNames {
  /** BullMQ key prefix, default `bull`; wrap it in braces (`{docmill}`) on Redis Cluster. */
  prefix?: string;
  name: string;
}

export const DEFAULT_PREFIX = 'bull';

/** The key a zero-data-retention result waits under until the client reads it. */
export function resultKey(names: QueueNames, jobId: string): string {
  return `${names.prefix ?? DEFAULT_PREFIX}:${names.name}:docmill-result:${jobId}`;
}

export function encodeBytes(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

export function decodeBytes(b64: string): Uint8Array {
  const buf = Buffer.from(b64, 'base64');
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

/** A failure's error body travels as the job's `failedReason`; anything else becomes a 500 body. */
export function errorBodyFrom(failedReason: string | undefined): JobError {
  if (failedReason) {
    try {
      const body = JSON.parse(failedReason) as JobError;
      if (body && body.success === false && typeof body.code === 'string') return body;
    } catch {
      // not one of ours: a stall limit or a Redis error, reported below
    }
  }
  return { success: false, code: 'UNKNOWN_ERROR', error: `The parse job failed. ${failedReason ?? ''}`.trim() };
}
