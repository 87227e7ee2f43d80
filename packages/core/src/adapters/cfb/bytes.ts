import { badInput } from '../../errors.ts';

/** Little-endian reads that fail as a 400 instead of returning undefined or throwing RangeError. */
export class Bytes {
  private readonly view: DataView;
  constructor(
    readonly data: Uint8Array,
    private readonly what: string,
  ) {
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }
  get length(): number {
    return this.data.length;
  }
  private need(off: number, n: number): void {
    if (!Number.isInteger(off) || off < 0 || off + n > this.data.length) {
      throw badInput(`The ${this.what} is damaged (read past its end).`);
    }
  }
  u8(off: number): number {
    this.need(off, 1);
    return this.data[off] as number;
  }
  u16(off: number): number {
    this.need(off, 2);
    return this.view.getUint16(off, true);
  }
  i16(off: number): number {
    this.need(off, 2);
    return this.view.getInt16(off, true);
  }
  u32(off: number): number {
    this.need(off, 4);
    return this.view.getUint32(off, true);
  }
  i32(off: number): number {
    this.need(off, 4);
    return this.view.getInt32(off, true);
  }
  slice(off: number, n: number): Uint8Array {
    this.need(off, n);
    return this.data.subarray(off, off + n);
  }
}

const utf16 = new TextDecoder('utf-16le');

// Node builds with small ICU decode windows-1252 wrongly, so the 0x80–0x9F block is mapped here;
// the rest of cp1252 coincides with Latin-1.
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/** Decodes cp1252 bytes; one character per byte, so character positions stay aligned. */
export function decode8(b: Uint8Array): string {
  let out = '';
  for (let i = 0; i < b.length; i += 4096) {
    const chunk = b.subarray(i, i + 4096);
    const chars = new Array<string>(chunk.length);
    for (let j = 0; j < chunk.length; j++) {
      const c = chunk[j] as number;
      chars[j] = c >= 0x80 && c < 0xa0 ? (CP1252_HIGH[c - 0x80] as string) : String.fromCharCode(c);
    }
    out += chars.join('');
  }
  return out;
}
export const decode16 = (b: Uint8Array): string => utf16.decode(b.length % 2 ? b.subarray(0, b.length - 1) : b);
