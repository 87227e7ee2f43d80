import { throwIfAborted } from '../../errors.ts';
import { intervalAt } from '../../util/intervals.ts';
import type { Bytes } from '../cfb/bytes.ts';
import { FC, type Fib } from './fib.ts';

/**
 * Byte offsets, in the WordDocument stream, of the distinct 512-byte FKP pages a bin table
 * (PlcBteChpx or PlcBtePapx, [MS-DOC] 2.8.x) names; pages past the stream's end are dropped.
 */
export function fkpPages(word: Bytes, table: Bytes, fib: Fib, fc: number, signal: AbortSignal): number[] {
  const plc = fib.fcLcb(fc);
  // Word 6/95 page numbers are 2 bytes, Word 97's 4.
  const pnSize = fib.version === 6 ? 2 : 4;
  if (!plc || plc.fc + plc.lcb > table.length || plc.lcb < 4 + pnSize) return [];
  const n = Math.floor((plc.lcb - 4) / (4 + pnSize));
  const seen = new Set<number>();
  const pages: number[] = [];
  const add = (pn: number) => {
    if (seen.has(pn) || (pn + 1) * 512 > word.length) return;
    seen.add(pn);
    pages.push(pn * 512);
  };
  let last = -1;
  for (let i = 0; i < n; i++) {
    if ((i & 63) === 0) throwIfAborted(signal);
    const at = plc.fc + (n + 1) * 4 + i * pnSize;
    last = fib.version === 6 ? table.u16(at) : table.u32(at) & 0x3fffff;
    add(last);
  }
  // Word 6/95 may list fewer pages than it wrote; the rest follow the last one listed.
  const total = fc === FC.plcfBteChpx ? fib.cpnBteChp : fib.cpnBtePap;
  if (fib.version === 6 && last >= 0) for (let k = n; k < Math.min(total, n + 4096); k++) add(last + k - n + 1);
  return pages;
}

/** The run holding file offset `fc`, by binary search over runs sorted by start and not overlapping. */
export function runAt<R extends { fcStart: number; fcEnd: number }>(runs: readonly R[], fc: number): R | undefined {
  return intervalAt(
    runs,
    fc,
    (r) => r.fcStart,
    (r) => r.fcEnd,
  );
}
