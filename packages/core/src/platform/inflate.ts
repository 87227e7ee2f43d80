import { joinBytes } from '../util/bytes.ts';
import { once } from '../util/once.ts';
import { isNode } from './index.ts';

/**
 * Raw DEFLATE inflation (zip entries, encrypted OpenDocument parts, a part a zip was cut inside),
 * synchronous, refusing to produce more than `max` bytes. Node's zlib stops natively
 * (`maxOutputLength`); browsers get fflate's streaming inflater, fed in slices so that a bomb
 * inflates at most one slice's worth (DEFLATE expands at most 1032×) past the limit: about the
 * limit again, or 8 MiB for small limits.
 *
 * `upToCut` returns what the data gives before it ends or turns bad instead of the error (an
 * `InflateDataError` still when it gives nothing): the part of an entry a download was cut inside.
 * Both platforms give the same bytes then, the longest output any prefix of the data inflates to.
 *
 * Loaded once, through the platform seam: `node:zlib` is imported through a variable, so core's
 * browser build never reaches it, and Node never loads fflate.
 */
export type InflateRaw = (data: Uint8Array, max: number, upToCut?: boolean) => Uint8Array;

/** The data inflates to more than the limit given. */
export class InflateLimitError extends Error {}
/** The data is not a complete DEFLATE stream (invalid codes, or cut short). */
export class InflateDataError extends Error {}

const CHUNK_MAX = 1 << 20;

export async function nodeInflateRaw(): Promise<InflateRaw> {
  const id = 'node:zlib';
  const zlib = (await import(/* @vite-ignore */ id)) as typeof import('node:zlib');
  /** Inflates `data`; `partial` stops quietly where the data ends (a sync flush) instead of failing. */
  const run = (data: Uint8Array, max: number, partial: boolean): Uint8Array => {
    let out: Uint8Array;
    try {
      // Output buffers as large as the limit (the entry's declared size plus slack, usually), up to
      // 1 MiB: most parts then come out whole, with no 16 KiB chunks to allocate and join (20-30 %
      // less inflate time on parts of 300 B to 1 MB), and a header that overstates its size costs
      // one such buffer at most.
      out = zlib.inflateRawSync(data, {
        maxOutputLength: Math.max(1, max),
        chunkSize: Math.min(Math.max(64, max), CHUNK_MAX),
        ...(partial ? { finishFlush: zlib.constants.Z_SYNC_FLUSH } : {}),
      });
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new InflateLimitError();
      throw new InflateDataError((err as Error).message);
    }
    if (out.length > max) throw new InflateLimitError();
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  };
  return (data, max, upToCut = false) =>
    upToCut ? longestPrefixOutput(data, (d) => run(d, max, true)) : run(data, max, false);
}

/**
 * What the data gives up to where it ends or turns bad: the output of the longest prefix that
 * inflates without error (a prefix inflates when the bad codes lie past its end, so the search is a
 * bisection; a damaged path, rare). `inflate` reads a prefix as cut, not as a finished stream.
 */
function longestPrefixOutput(data: Uint8Array, inflate: (prefix: Uint8Array) => Uint8Array): Uint8Array {
  try {
    return nonEmpty(inflate(data));
  } catch (err) {
    if (!(err instanceof InflateDataError)) throw err;
  }
  let good = 0;
  let bad = data.length;
  let best: Uint8Array = new Uint8Array(0);
  while (bad - good > 1) {
    const mid = (good + bad) >>> 1;
    try {
      best = inflate(data.subarray(0, mid));
      good = mid;
    } catch (err) {
      if (!(err instanceof InflateDataError)) throw err;
      bad = mid;
    }
  }
  return nonEmpty(best);
}

/** Partial output must hold something: nothing at all is data that does not inflate. */
function nonEmpty(out: Uint8Array): Uint8Array {
  if (!out.length) throw new InflateDataError('nothing inflates');
  return out;
}

/** DEFLATE's largest expansion: 258 bytes from 2 bits. */
const MAX_RATIO = 1032;
const MIN_SLICE = 8192;

export async function browserInflateRaw(): Promise<InflateRaw> {
  const { Inflate } = await import('fflate');
  /** Inflates `data`; `partial` never ends the stream, so data cut short is not an error. */
  const run = (data: Uint8Array, max: number, partial: boolean): Uint8Array => {
    const chunks: Uint8Array[] = [];
    let total = 0;
    const stream = new Inflate((chunk) => {
      total += chunk.length;
      if (total > max) throw new InflateLimitError();
      chunks.push(chunk);
    });
    const slice = Math.max(MIN_SLICE, Math.ceil(max / MAX_RATIO));
    try {
      if (!data.length) stream.push(data, !partial);
      for (let p = 0; p < data.length; p += slice)
        stream.push(data.subarray(p, p + slice), !partial && p + slice >= data.length);
    } catch (err) {
      if (err instanceof InflateLimitError) throw err;
      throw new InflateDataError((err as Error).message);
    }
    return chunks.length === 1 ? (chunks[0] as Uint8Array) : joinBytes(chunks);
  };
  return (data, max, upToCut = false) =>
    upToCut ? longestPrefixOutput(data, (d) => run(d, max, true)) : run(data, max, false);
}

export const loadInflateRaw: () => Promise<InflateRaw> = once(() => (isNode ? nodeInflateRaw() : browserInflateRaw()));
