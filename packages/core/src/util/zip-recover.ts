/**
 * Recovery of a zip whose end is missing (an upload or download cut short). The central directory
 * sits at the end, so it is the first thing lost; every complete entry still starts with a local
 * header giving its name, method, sizes and CRC. This walks those headers from the start and writes
 * a fresh central directory for the entries whose data is complete. Nothing is inflated here.
 */

const LOCAL = 0x04034b50;
const DESCRIPTOR = 0x08074b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
/** General-purpose flag bit 3: sizes and CRC follow the data in a descriptor. */
const HAS_DESCRIPTOR = 0x0008;

interface LocalEntry {
  offset: number;
  /** The local header's version, flags, method, time, date: copied to the central record as is. */
  head: Uint8Array;
  crc: number;
  compressedSize: number;
  uncompressedSize: number;
  name: Uint8Array;
}

/**
 * Where the data of an entry written with a descriptor ends: the first descriptor whose compressed
 * size matches its distance from the data start; null when the entry is cut off.
 */
function descriptorEnd(view: DataView, dataStart: number): { end: number; crc: number; c: number; u: number } | null {
  for (let p = dataStart; p + 16 <= view.byteLength; p++) {
    if (view.getUint32(p, true) !== DESCRIPTOR) continue;
    const c = view.getUint32(p + 8, true);
    if (c === p - dataStart)
      return { end: p + 16, crc: view.getUint32(p + 4, true), c, u: view.getUint32(p + 12, true) };
  }
  return null;
}

/** The entry a zip was cut inside: its local header is whole, its data is not. */
export interface CutEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  /** The data that survived. */
  data: Uint8Array;
  /** The size the header declares (0 when it was to follow in a descriptor). */
  uncompressedSize: number;
}

function scan(bytes: Uint8Array, maxEntries: number): { entries: LocalEntry[]; end: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entries: LocalEntry[] = [];
  let p = 0;
  while (entries.length < maxEntries && p + 30 <= bytes.length && view.getUint32(p, true) === LOCAL) {
    const flags = view.getUint16(p + 6, true);
    const nameLen = view.getUint16(p + 26, true);
    const extraLen = view.getUint16(p + 28, true);
    const dataStart = p + 30 + nameLen + extraLen;
    if (dataStart > bytes.length) break;
    let crc = view.getUint32(p + 14, true);
    let compressedSize = view.getUint32(p + 18, true);
    let uncompressedSize = view.getUint32(p + 22, true);
    let next: number;
    if (flags & HAS_DESCRIPTOR) {
      const d = descriptorEnd(view, dataStart);
      if (!d) break;
      ({ crc, c: compressedSize, u: uncompressedSize } = d);
      next = d.end;
    } else {
      // Zip64 sizes live in the extra field; such entries are not recovered.
      if (compressedSize === 0xffffffff || uncompressedSize === 0xffffffff) break;
      next = dataStart + compressedSize;
      if (next > bytes.length) break;
    }
    entries.push({
      offset: p,
      head: bytes.slice(p + 4, p + 14),
      crc,
      compressedSize,
      uncompressedSize,
      name: bytes.slice(p + 30, p + 30 + nameLen),
    });
    p = next;
  }
  return { entries, end: p };
}

/**
 * The entry a zip without its central directory was cut inside, if the cut fell in an entry's data
 * (not in a header): what a reader can still partly recover.
 */
export function cutEntry(bytes: Uint8Array, maxEntries: number): CutEntry | null {
  const { end } = scan(bytes, maxEntries);
  if (end + 30 > bytes.length) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(end, true) !== LOCAL) return null;
  const nameLen = view.getUint16(end + 26, true);
  const dataStart = end + 30 + nameLen + view.getUint16(end + 28, true);
  if (dataStart >= bytes.length) return null;
  // The walk may also have stopped at its entry limit, before a whole entry.
  const whole =
    view.getUint16(end + 6, true) & HAS_DESCRIPTOR
      ? descriptorEnd(view, dataStart) !== null
      : dataStart + view.getUint32(end + 18, true) <= bytes.length;
  if (whole) return null;
  return {
    name: new TextDecoder().decode(bytes.subarray(end + 30, end + 30 + nameLen)),
    method: view.getUint16(end + 8, true),
    data: bytes.subarray(dataStart),
    uncompressedSize: view.getUint32(end + 22, true),
  };
}

/**
 * A copy of the complete entries of a zip without a central directory, with one written for them;
 * null when not even one entry is complete. At most `maxEntries` are walked (the caller's entry
 * limit then refuses the archive, as it would the original).
 */
export function recoverZip(
  bytes: Uint8Array,
  maxEntries: number,
): { bytes: Uint8Array /** Complete files, folders not counted. */; entries: number } | null {
  const { entries, end } = scan(bytes, maxEntries);
  if (!entries.length) return null;
  const centralSize = entries.reduce((n, e) => n + 46 + e.name.length, 0);
  const out = new Uint8Array(end + centralSize + 22);
  out.set(bytes.subarray(0, end));
  const view = new DataView(out.buffer);
  let p = end;
  for (const e of entries) {
    view.setUint32(p, CENTRAL, true);
    view.setUint16(p + 4, 20, true); // made by
    out.set(e.head, p + 6); // version needed, flags, method, time, date
    view.setUint32(p + 16, e.crc, true);
    view.setUint32(p + 20, e.compressedSize, true);
    view.setUint32(p + 24, e.uncompressedSize, true);
    view.setUint16(p + 28, e.name.length, true);
    // extra, comment, disk, attributes: 0
    view.setUint32(p + 42, e.offset, true);
    out.set(e.name, p + 46);
    p += 46 + e.name.length;
  }
  view.setUint32(p, END, true);
  view.setUint16(p + 8, entries.length, true);
  view.setUint16(p + 10, entries.length, true);
  view.setUint32(p + 12, centralSize, true);
  view.setUint32(p + 16, end, true);
  const files = entries.filter((e) => e.name[e.name.length - 1] !== 0x2f).length; // folders end in '/'
  return { bytes: out, entries: files };
}
