/**
 * The zip central directory (names, declared sizes, where each entry is). Detection reads it and
 * hands it to the zip reader, so it is read once per file; it stays apart from the reader so that
 * detection does not pull the inflater in.
 */

export interface ZipEntryInfo {
  name: string;
  compressedSize: number;
  uncompressedSize: number;
  /** 0 stored, 8 deflated; anything else is not read. */
  method: number;
  /** General-purpose flags (bit 0: encrypted). */
  flags: number;
  /** Where the entry's local header starts. */
  offset: number;
  /** A folder: named with a trailing '/', or marked so in its MS-DOS attributes. */
  folder: boolean;
}

/** A central directory already read (by detection) for exactly these bytes. */
export interface ZipListing {
  bytes: Uint8Array;
  entries: ZipEntryInfo[];
}

const u16 = (b: Uint8Array, o: number) => (b[o] ?? 0) | ((b[o + 1] ?? 0) << 8);
const u32 = (b: Uint8Array, o: number) => (u16(b, o) | (u16(b, o + 2) << 16)) >>> 0;

/** Reads the central directory (names and sizes) without inflating. Null when not a readable zip. */
export function listZipEntries(bytes: Uint8Array): ZipEntryInfo[] | null {
  // End of central directory: signature 0x06054b50 within the last 64 KiB + 22 bytes.
  const min = Math.max(0, bytes.length - 0xffff - 22);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= min; i--) {
    if (bytes[i] === 0x50 && bytes[i + 1] === 0x4b && bytes[i + 2] === 0x05 && bytes[i + 3] === 0x06) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  let count = u16(bytes, eocd + 10);
  let offset = u32(bytes, eocd + 16);
  // Zip64 locator just before the EOCD.
  if ((count === 0xffff || offset === 0xffffffff) && eocd >= 20 && u32(bytes, eocd - 20) === 0x07064b50) {
    const z64 = Number(readU64(bytes, eocd - 20 + 8));
    if (u32(bytes, z64) === 0x06064b50) {
      count = Number(readU64(bytes, z64 + 32));
      offset = Number(readU64(bytes, z64 + 48));
    }
  }
  const entries: ZipEntryInfo[] = [];
  let p = offset;
  const decoder = new TextDecoder('utf-8', { fatal: false });
  for (let i = 0; i < count; i++) {
    if (p + 46 > bytes.length || u32(bytes, p) !== 0x02014b50) return entries.length ? entries : null;
    const flags = u16(bytes, p + 8);
    const method = u16(bytes, p + 10);
    let compressedSize = u32(bytes, p + 20);
    let uncompressedSize = u32(bytes, p + 24);
    const nameLen = u16(bytes, p + 28);
    const extraLen = u16(bytes, p + 30);
    const commentLen = u16(bytes, p + 32);
    const attributes = u32(bytes, p + 38);
    let offset = u32(bytes, p + 42);
    const name = decoder.decode(bytes.subarray(p + 46, p + 46 + nameLen));
    if (uncompressedSize === 0xffffffff || compressedSize === 0xffffffff || offset === 0xffffffff) {
      // Zip64 extended information extra field (id 0x0001).
      let e = p + 46 + nameLen;
      const end = e + extraLen;
      while (e + 4 <= end) {
        const id = u16(bytes, e);
        const size = u16(bytes, e + 2);
        if (id === 1) {
          let q = e + 4;
          if (uncompressedSize === 0xffffffff) {
            uncompressedSize = Number(readU64(bytes, q));
            q += 8;
          }
          if (compressedSize === 0xffffffff) {
            compressedSize = Number(readU64(bytes, q));
            q += 8;
          }
          if (offset === 0xffffffff) offset = Number(readU64(bytes, q));
        }
        e += 4 + size;
      }
    }
    const folder = name.endsWith('/') || (attributes & 0x10) !== 0;
    entries.push({ name, compressedSize, uncompressedSize, method, flags, offset, folder });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

function readU64(b: Uint8Array, o: number): bigint {
  return BigInt(u32(b, o)) | (BigInt(u32(b, o + 4)) << 32n);
}
