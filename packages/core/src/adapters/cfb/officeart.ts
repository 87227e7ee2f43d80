import type { Bytes } from './bytes.ts';

/** A raster picture found in OfficeArt data. */
export interface Picture {
  mime: string;
  bytes: Uint8Array;
}

const MAX_DEPTH = 8;
const FBSE = 0xf007;

/** Raster BLIP record types ([MS-ODRAW] 2.2.23–2.2.31) → MIME type. */
const RASTER = new Map<number, string>([
  [0xf01d, 'image/jpeg'],
  [0xf02a, 'image/jpeg'],
  [0xf01e, 'image/png'],
  [0xf01f, 'image/bmp'],
  [0xf029, 'image/tiff'],
]);

/** A packed DIB gains the 14-byte file header that makes it a .bmp. */
function dibToBmp(dib: Uint8Array): Uint8Array | undefined {
  if (dib.length < 16) return undefined;
  const v = new DataView(dib.buffer, dib.byteOffset, dib.byteLength);
  const headerSize = v.getUint32(0, true);
  if (headerSize < 12 || headerSize > dib.length) return undefined;
  const bitCount = headerSize === 12 ? v.getUint16(10, true) : v.getUint16(14, true);
  const used = headerSize >= 36 ? v.getUint32(32, true) : 0;
  const entry = headerSize === 12 ? 3 : 4;
  const palette = (used || (bitCount <= 8 ? 1 << bitCount : 0)) * entry;
  const out = new Uint8Array(14 + dib.length);
  const o = new DataView(out.buffer);
  out[0] = 0x42;
  out[1] = 0x4d;
  o.setUint32(2, out.length, true);
  o.setUint32(10, Math.min(14 + headerSize + palette, out.length), true);
  out.set(dib, 14);
  return out;
}

/**
 * The first raster BLIP in the OfficeArt records of [from, to), looking inside containers and FBSE
 * records ([MS-ODRAW] 2.2.32); metafile BLIPs are skipped.
 */
export function findBlip(data: Bytes, from: number, to: number, depth: number): Picture | undefined {
  let p = from;
  while (p + 8 <= to && depth <= MAX_DEPTH) {
    const verInst = data.u16(p);
    const type = data.u16(p + 2);
    const end = p + 8 + data.u32(p + 4);
    if (end > to) return undefined;
    const body = p + 8;
    const instance = verInst >> 4;
    const mime = RASTER.get(type);
    if (mime) {
      // Two 16-byte UIDs when the instance is odd, then a 1-byte tag.
      const start = body + 16 + (instance & 1 ? 16 : 0) + 1;
      if (start >= end) return undefined;
      const raw = data.slice(start, end - start);
      const bytes = type === 0xf01f ? dibToBmp(raw) : raw;
      return bytes ? { mime, bytes } : undefined;
    }
    if (type === FBSE && end - body > 36) {
      const nameLen = data.u8(body + 33);
      const found = findBlip(data, body + 36 + nameLen, end, depth + 1);
      if (found) return found;
    } else if ((verInst & 0xf) === 0xf) {
      const found = findBlip(data, body, end, depth + 1);
      if (found) return found;
    }
    p = end;
  }
  return undefined;
}

/** Pictures larger than this stay references: a data URI that size helps no reader. */
const MAX_INLINE_BYTES = 8 * 1024 * 1024;

/** A data URI for the picture, or undefined when it is too large to inline. */
export function dataUri(p: Picture): string | undefined {
  if (p.bytes.length > MAX_INLINE_BYTES) return undefined;
  let s = '';
  for (let i = 0; i < p.bytes.length; i += 0x8000) s += String.fromCharCode(...p.bytes.subarray(i, i + 0x8000));
  return `data:${p.mime};base64,${btoa(s)}`;
}
