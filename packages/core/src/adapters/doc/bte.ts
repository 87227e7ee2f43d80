import { throwIfAborted } from '../../errors.ts';
import type { Bytes } from '../cfb/bytes.ts';
import type { Fib } from './fib.ts';

/**
 * Byte offsets, in the WordDocument stream, of the distinct 512-byte FKP pages a bin table
 * (PlcBteChpx or PlcBtePapx, [MS-DOC] 2.8.x) names; pages past the stream's end are dropped.
 */
export function fkpPages(word: Bytes, table: Bytes, fib: Fib, fc: number, signal: AbortSignal): number[] {
  const plc = fib.fcLcb(fc);
  if (!plc || plc.fc + plc.lcb > table.length || plc.lcb < 8) return [];
  const n = Math.floor((plc.lcb - 4) / 8);
  const seen = new Set<number>();
  const pages: number[] = [];
  for (let i = 0; i < n; i++) {
    if ((i & 63) === 0) throwIfAborted(signal);
    const pn = table.u32(plc.fc + (n + 1) * 4 + i * 4) & 0x3fffff;
    if (seen.has(pn) || (pn + 1) * 512 > word.length) continue;
    seen.add(pn);
    pages.push(pn * 512);
  }
  return pages;
}

/** The run holding file offset `fc`, by binary search over runs sorted by start and not overlapping. */
export function runAt<R extends { fcStart: number; fcEnd: number }>(runs: readonly R[], fc: number): R | undefined {
  let lo = 0;
  let hi = runs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = runs[mid] as R;
    if (fc < r.fcStart) hi = mid - 1;
    else if (fc >= r.fcEnd) lo = mid + 1;
    else return r;
  }
  return undefined;
}
