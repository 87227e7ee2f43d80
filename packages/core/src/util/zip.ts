import { badInput, throwIfAborted } from '../errors.ts';
import type { Limits } from '../limits.ts';
import { InflateLimitError, loadInflateRaw } from '../platform/inflate.ts';
import { listZipEntries, type ZipEntryInfo, type ZipListing } from './zip-directory.ts';
import { recoverZip } from './zip-recover.ts';

/**
 * Zip containers (OOXML, ODF, EPUB) are opened through this module only, so the zip-bomb limits
 * hold everywhere: entry count and declared total size are checked from the central directory
 * before anything is inflated, the per-entry ratio before each entry is inflated, and inflation
 * itself stops at the entry's declared size (plus slack) or the budget left, whichever is smaller,
 * so a lying header cannot inflate past the budget.
 *
 * Entries are inflated synchronously (zlib in Node, fflate in browsers: `platform/inflate.ts`),
 * and text parts up to `CACHE_UP_TO` are kept, decoded, for the parse: a part read twice (a
 * workbook's relationships, by the cells and by the charts) is inflated and charged to the budget
 * once. Bytes are not kept: they are pictures read once, and callers may change them.
 */

export { listZipEntries, type ZipEntryInfo, type ZipListing } from './zip-directory.ts';

export interface SafeZip {
  /** Entry names in archive order (directories excluded). */
  names: string[];
  has(name: string): boolean;
  /** Bytes of an entry, or undefined when absent. Case-insensitive fallback for sloppy writers. */
  bytes(name: string): Promise<Uint8Array | undefined>;
  /** Entry decoded as UTF-8 (BOM stripped), or undefined when absent. */
  text(name: string): Promise<string | undefined>;
}

/** Entries inflating to at most this many bytes are exempt from the compression-ratio rule. */
export const RATIO_CHECK_FROM = 4 * 1024 * 1024;
/** Text parts declared at most this large are kept for the rest of the parse. */
const CACHE_UP_TO = 4 * 1024 * 1024;

const LOCAL_HEADER = 0x04034b50;
const u16 = (b: Uint8Array, o: number) => (b[o] ?? 0) | ((b[o + 1] ?? 0) << 8);

const unreadable = (why?: unknown) =>
  badInput('The file is not a readable zip container (truncated or damaged).', why instanceof Error ? why : undefined);

/**
 * Where each entry's data lies. Refuses, as a whole, an archive with an encrypted entry, an
 * unknown compression method, or an entry whose local header or data is missing.
 */
function dataRanges(data: Uint8Array, entries: readonly ZipEntryInfo[]): Map<ZipEntryInfo, [number, number]> {
  const ranges = new Map<ZipEntryInfo, [number, number]>();
  for (const e of entries) {
    if (e.flags & 1 || (e.method !== 0 && e.method !== 8)) throw unreadable();
    const p = e.offset;
    if (p + 30 > data.length || (u16(data, p) | (u16(data, p + 2) << 16)) >>> 0 !== LOCAL_HEADER) throw unreadable();
    const start = p + 30 + u16(data, p + 26) + u16(data, p + 28);
    const end = start + e.compressedSize;
    if (end > data.length) throw unreadable();
    ranges.set(e, [start, end]);
  }
  return ranges;
}

/**
 * Opens a zip with the limits checked up front and inflation metered. `listing`, when it is for
 * these very bytes, spares reading the central directory again.
 */
export async function openZip(
  input: Uint8Array,
  limits: Limits,
  signal?: AbortSignal,
  warn?: (message: string) => void,
  listing?: ZipListing,
): Promise<SafeZip> {
  let data = input;
  let listed = listing?.bytes === input ? listing.entries : listZipEntries(data);
  if (!listed) {
    // No central directory (a download cut short): the complete entries still have their local
    // headers. The rebuilt archive goes through every check below, like any other.
    const rebuilt = recoverZip(data, limits.maxZipEntries + 1);
    if (rebuilt) {
      data = rebuilt.bytes;
      listed = listZipEntries(data);
      warn?.(
        `The file is truncated (its zip directory is missing): ${rebuilt.entries} complete part(s) were recovered and read; whatever followed them is lost.`,
      );
    }
  }
  if (!listed) throw unreadable();
  if (listed.length > limits.maxZipEntries) {
    throw badInput(`The zip container has ${listed.length} entries; the limit is ${limits.maxZipEntries}.`);
  }
  let declared = 0;
  for (const e of listed) declared += e.uncompressedSize;
  if (declared > limits.maxUnzippedBytes) {
    throw badInput(`The zip container would inflate to ${declared} bytes; the limit is ${limits.maxUnzippedBytes}.`);
  }
  const ranges = dataRanges(data, listed);
  const inflateRaw = await loadInflateRaw();
  // A later entry of the same name replaces an earlier one.
  const files = new Map<string, ZipEntryInfo>();
  const lower = new Map<string, string>();
  for (const e of listed) {
    if (e.folder) continue;
    files.set(e.name, e);
    lower.set(e.name.toLowerCase(), e.name);
  }
  let budget = limits.maxUnzippedBytes;
  const texts = new Map<string, string>();
  const resolveName = (name: string) => {
    // Most names asked for are an entry's exact name; a leading '/' is stripped (as below) first.
    if (name.charCodeAt(0) !== 47 && files.has(name)) return name;
    const n = name.replace(/^\/+/, '');
    return files.has(n) ? n : lower.get(n.toLowerCase());
  };

  const inflate = (key: string): Uint8Array => {
    const entry = files.get(key) as ZipEntryInfo;
    // The ratio rule is checked here, on the parts read, not on the archive: a picture that is only
    // referenced is never inflated, and a small part that compresses well (an EMF of empty records)
    // cannot hurt anyone.
    if (
      entry.compressedSize > 0 &&
      entry.uncompressedSize > RATIO_CHECK_FROM &&
      entry.uncompressedSize / entry.compressedSize > limits.maxCompressionRatio
    ) {
      throw badInput(
        `Zip entry "${key}" expands ${Math.round(entry.uncompressedSize / entry.compressedSize)}× (limit ${limits.maxCompressionRatio}×): refusing a likely zip bomb.`,
      );
    }
    // Stop inflating once the entry exceeds what its header declared (plus slack) or the budget.
    const cap = Math.min(budget, entry.uncompressedSize + 1024);
    const [start, end] = ranges.get(entry) as [number, number];
    const packed = data.subarray(start, end);
    const past = () => badInput(`Zip entry "${key}" inflates past its declared size or the unzip budget.`);
    let out: Uint8Array;
    if (entry.method === 0 || !packed.length) {
      if (packed.length > cap) throw past();
      out = packed.slice();
    } else {
      try {
        out = inflateRaw(packed, cap);
      } catch (err) {
        if (err instanceof InflateLimitError) throw past();
        throw badInput(`Zip entry "${key}" is damaged (its compressed data is invalid or cut short).`, err);
      }
    }
    budget -= out.length;
    return out;
  };

  return {
    names: [...files.keys()],
    has: (name) => resolveName(name) !== undefined,
    async bytes(name) {
      throwIfAborted(signal);
      const key = resolveName(name);
      return key === undefined ? undefined : inflate(key);
    },
    async text(name) {
      throwIfAborted(signal);
      const key = resolveName(name);
      if (key === undefined) return undefined;
      const kept = texts.get(key);
      if (kept !== undefined) return kept;
      const text = decodeUtf8(inflate(key));
      if ((files.get(key) as ZipEntryInfo).uncompressedSize <= CACHE_UP_TO) texts.set(key, text);
      return text;
    },
  };
}

const utf8 = new TextDecoder('utf-8');
/** UTF-8 (or UTF-16 with BOM) to string, BOM stripped. */
export function decodeUtf8(b: Uint8Array): string {
  if (b[0] === 0xff && b[1] === 0xfe) return new TextDecoder('utf-16le').decode(b.subarray(2));
  if (b[0] === 0xfe && b[1] === 0xff) return new TextDecoder('utf-16be').decode(b.subarray(2));
  const s = utf8.decode(b);
  return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s;
}

/**
 * A zip of stored (uncompressed) entries. Used to hand a library that inflates on its own only
 * bytes this module has already inflated under the limits. CRCs are left 0: the one reader fed by
 * it (SheetJS) does not check them, and computing them would cost as much as the copy.
 */
export function storedZip(entries: readonly (readonly [string, Uint8Array])[]): Uint8Array {
  const enc = new TextEncoder();
  const names = entries.map(([n]) => enc.encode(n));
  let size = 22;
  for (const [i, [, data]] of entries.entries()) size += 30 + 46 + 2 * (names[i] as Uint8Array).length + data.length;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  const offsets: number[] = [];
  let p = 0;
  const header = (sig: number, central: boolean, name: Uint8Array, len: number, offset: number) => {
    view.setUint32(p, sig, true);
    let q = p + 4;
    if (central) {
      view.setUint16(q, 20, true); // made by
      q += 2;
    }
    view.setUint16(q, 20, true); // version needed
    view.setUint16(q + 2, 0x0800, true); // UTF-8 names
    view.setUint16(q + 4, 0, true); // stored
    // time, date and CRC stay 0
    view.setUint32(q + 14, len, true);
    view.setUint32(q + 18, len, true);
    view.setUint16(q + 22, name.length, true);
    q += 26; // extra length 0
    if (central) {
      q += 8; // comment, disk, internal and external attributes: 0
      view.setUint32(q + 2, offset, true);
      q += 6;
    }
    out.set(name, q);
    p = q + name.length;
  };
  for (const [i, [, data]] of entries.entries()) {
    offsets.push(p);
    header(0x04034b50, false, names[i] as Uint8Array, data.length, 0);
    out.set(data, p);
    p += data.length;
  }
  const cd = p;
  for (const [i, [, data]] of entries.entries())
    header(0x02014b50, true, names[i] as Uint8Array, data.length, offsets[i] as number);
  view.setUint32(p, 0x06054b50, true);
  view.setUint16(p + 8, entries.length, true);
  view.setUint16(p + 10, entries.length, true);
  view.setUint32(p + 12, p - cd, true);
  view.setUint32(p + 16, cd, true);
  return out;
}
