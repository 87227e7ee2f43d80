import { badInput, throwIfAborted } from '../../errors.ts';
import type { Limits } from '../../limits.ts';
import { InflateDataError, InflateLimitError, loadInflateRaw } from '../../platform/inflate.ts';
import { joinBytes } from '../../util/bytes.ts';
import { RATIO_CHECK_FROM } from '../../util/zip.ts';

/** RFC 1952 header flags. */
const FHCRC = 0x02;
const FEXTRA = 0x04;
const FNAME = 0x08;
const FCOMMENT = 0x10;
const RESERVED = 0xe0;
const TRAILER = 8;

const damaged = (why: string, cause?: unknown) => badInput(`The gzip data is damaged: ${why}`, cause);

/** Where the DEFLATE body of the member starting at `at` begins (RFC 1952 §2.3), bounds-checked. */
function bodyStart(bytes: Uint8Array, at: number): number {
  if (bytes.length - at < 10) throw damaged('its header is cut short.');
  if (bytes[at] !== 0x1f || bytes[at + 1] !== 0x8b) throw damaged('incorrect header check.');
  if (bytes[at + 2] !== 8) throw damaged('unknown compression method.');
  const flags = bytes[at + 3] as number;
  if (flags & RESERVED) throw damaged('unknown header flags set.');
  let p = at + 10;
  if (flags & FEXTRA) {
    if (p + 2 > bytes.length) throw damaged('its header is cut short.');
    p += 2 + ((bytes[p] as number) | ((bytes[p + 1] as number) << 8));
  }
  // FNAME and FCOMMENT are zero-terminated (Latin-1); neither is used: the label names the file.
  for (const flag of [FNAME, FCOMMENT]) {
    if (!(flags & flag)) continue;
    const end = p < bytes.length ? bytes.indexOf(0, p) : -1;
    if (end < 0) throw damaged('its header is cut short.');
    p = end + 1;
  }
  // The header CRC (FHCRC) is skipped unchecked: core has no CRC-32.
  if (flags & FHCRC) p += 2;
  if (p > bytes.length) throw damaged('its header is cut short.');
  return p;
}

/**
 * Where the member whose body starts at `from` and inflated to `size` bytes ends: past the first
 * trailer whose ISIZE is `size` (mod 2^32) and that ends the data or is followed by another
 * member's magic. The inflater does not say how much input it read; a false match needs 7 chance
 * bytes. Undefined when there is no such trailer: the member was cut or damaged.
 */
function memberEnd(bytes: Uint8Array, from: number, size: number): number | undefined {
  const isize = size >>> 0;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let p = from; p + TRAILER <= bytes.length; p++) {
    if (view.getUint32(p + 4, true) !== isize) continue;
    const end = p + TRAILER;
    if (end === bytes.length || (bytes[end] === 0x1f && bytes[end + 1] === 0x8b && bytes[end + 2] === 8)) return end;
  }
  return undefined;
}

/**
 * gzip (RFC 1952) inflated with the platform inflater (`platform/inflate.ts`, as zip entries are),
 * member after member (at most `maxZipEntries`), metered: it stops past `maxUnzippedBytes`, or past
 * RATIO_CHECK_FROM bytes at more than `maxCompressionRatio` times the compressed size, the zip rules. A member cut short
 * or damaged keeps what inflated cleanly before the cut (the first member must give something);
 * bytes after the last complete member that start no member are ignored. The trailer's CRC-32 is
 * not checked: core has no CRC-32.
 */
export async function gunzip(bytes: Uint8Array, limits: Limits, signal?: AbortSignal): Promise<Uint8Array> {
  const inflate = await loadInflateRaw();
  const ratioCap = Math.max(RATIO_CHECK_FROM, Math.floor(bytes.length * limits.maxCompressionRatio));
  const cap = Math.min(limits.maxUnzippedBytes, ratioCap);
  const chunks: Uint8Array[] = [];
  let total = 0;
  let at: number | undefined = 0;
  let members = 0;
  while (at !== undefined && at < bytes.length) {
    throwIfAborted(signal);
    // Each member is one inflater call (about 0.3 ms of CPU even when empty: zlib's output buffer
    // is sized to the cap): a count bound keeps a file of tiny members from costing minutes, 10,000
    // members about 3 s. bgzip's 64 KiB blocks stay under it up to the 512 MB unzip budget.
    if (++members > limits.maxZipEntries)
      throw badInput(`The gzip data has more than ${limits.maxZipEntries} members (limit maxZipEntries).`);
    let start: number;
    try {
      start = bodyStart(bytes, at);
    } catch (err) {
      // A damaged header after complete members: keep what they gave.
      if (total > 0) break;
      throw err;
    }
    const body = bytes.subarray(start);
    let out: Uint8Array;
    let whole = true;
    try {
      try {
        out = inflate(body, cap - total);
      } catch (err) {
        if (!(err instanceof InflateDataError)) throw err;
        out = inflate(body, cap - total, true);
        whole = false;
      }
    } catch (err) {
      if (err instanceof InflateLimitError)
        throw badInput(
          cap === limits.maxUnzippedBytes
            ? `The gzip data inflates past ${limits.maxUnzippedBytes} bytes: refusing a likely bomb.`
            : `The gzip data expands more than ${limits.maxCompressionRatio}× (limit maxCompressionRatio): refusing a likely bomb.`,
        );
      // A damaged or cut member: keep what the members before it gave, if anything.
      if (total > 0) break;
      throw damaged((err as Error).message, err);
    }
    chunks.push(out);
    total += out.length;
    at = whole ? memberEnd(bytes, start, out.length) : undefined;
  }
  return chunks.length === 1 ? (chunks[0] as Uint8Array) : joinBytes(chunks);
}
