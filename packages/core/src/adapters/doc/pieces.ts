import { badInput } from '../../errors.ts';
import { intervalAt } from '../../util/intervals.ts';
import { type Bytes, decode8, decode16 } from '../cfb/bytes.ts';
import { FC, type Fib } from './fib.ts';

/** One run of the piece table: characters [cpStart, cpEnd) stored at file offset `fc`. */
export interface Piece {
  cpStart: number;
  cpEnd: number;
  fc: number;
  compressed: boolean;
}

export interface DocText {
  /** Every character of every story, in character-position order. */
  text: string;
  pieces: Piece[];
  /** File offset (in WordDocument) of the character at `cp`, or -1 when no piece holds it. */
  fcOf(cp: number): number;
}

/** Reads the CLX piece table ([MS-DOC] 2.9.38) and assembles the document text from its pieces. */
export function readText(word: Bytes, table: Bytes, fib: Fib): DocText {
  const clx = fib.fcLcb(FC.clx);
  if (fib.version === 6 && (!fib.complex || !clx)) return plainText6(word, fib);
  if (!clx) throw badInput('The Word document is damaged (no piece table).');
  let off = clx.fc;
  const end = Math.min(table.length, clx.fc + clx.lcb);
  // Skip Prc entries (property modifiers referenced from pieces) to reach the Pcdt.
  while (off < end && table.u8(off) === 0x01) off += 3 + Math.max(0, table.i16(off + 1));
  if (off >= end || table.u8(off) !== 0x02) throw badInput('The Word document is damaged (bad piece table).');
  const lcb = table.u32(off + 1);
  const plc = off + 5;
  if (lcb < 4 || plc + lcb > table.length) throw badInput('The Word document is damaged (piece table out of range).');
  const n = Math.floor((lcb - 4) / 12);
  const pieces: Piece[] = [];
  const parts: string[] = [];
  let total = 0;
  let byteTotal = 0;
  for (let i = 0; i < n; i++) {
    const cpStart = table.u32(plc + i * 4);
    const cpEnd = table.u32(plc + (i + 1) * 4);
    const pcd = plc + (n + 1) * 4 + i * 8;
    const raw = table.u32(pcd + 2);
    // Word 6/95 text is all 8-bit and its piece offsets are plain byte offsets.
    const compressed = fib.version === 6 || (raw & 0x40000000) !== 0;
    const fc = fib.version === 6 ? raw : compressed ? (raw & 0x3fffffff) / 2 : raw & 0x3fffffff;
    if (cpEnd < cpStart || cpStart !== total)
      throw badInput('The Word document is damaged (piece table out of order).');
    const count = cpEnd - cpStart;
    const size = compressed ? count : count * 2;
    // Pieces of a real file never share bytes; more text than the stream holds is a crafted loop.
    byteTotal += size;
    if (byteTotal > word.length) throw badInput('The Word document is damaged (piece table larger than the text).');
    const bytes = word.slice(fc, size);
    const s = compressed ? decode8(bytes) : decode16(bytes);
    parts.push(s);
    total += count;
    pieces.push({ cpStart, cpEnd, fc, compressed });
  }
  return withLookup(parts.join(''), pieces);
}

/** Word 6/95 saved in full (no piece table): one run of 8-bit text from fcMin to fcMac. */
function plainText6(word: Bytes, fib: Fib): DocText {
  const end = Math.min(fib.fcMac, word.length);
  if (fib.fcMin <= 0 || end <= fib.fcMin) throw badInput('The Word document is damaged (no text range).');
  const count = end - fib.fcMin;
  return withLookup(decode8(word.slice(fib.fcMin, count)), [
    { cpStart: 0, cpEnd: count, fc: fib.fcMin, compressed: true },
  ]);
}

function withLookup(text: string, pieces: Piece[]): DocText {
  return {
    text,
    pieces,
    fcOf(cp) {
      const p = intervalAt(
        pieces,
        cp,
        (x) => x.cpStart,
        (x) => x.cpEnd,
      );
      return p ? p.fc + (cp - p.cpStart) * (p.compressed ? 1 : 2) : -1;
    },
  };
}
