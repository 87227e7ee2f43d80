import type { Bytes } from '../cfb/bytes.ts';
import { fkpPages, runAt } from './bte.ts';
import { FC, type Fib } from './fib.ts';
import { applyGrpprl, emptyProps, type ParaProps } from './sprm.ts';
import type { Style } from './styles.ts';

interface Run {
  fcStart: number;
  fcEnd: number;
  istd: number;
  /** grpprl bounds in WordDocument; applied over the style's own properties on lookup. */
  start: number;
  end: number;
  resolved?: ParaProps;
}

/** Paragraph properties by file offset, read from the PAPX FKPs named by PlcBtePapx ([MS-DOC] 2.9.177). */
export interface PapxIndex {
  at(fc: number): ParaProps | undefined;
}

export function readPapx(
  word: Bytes,
  table: Bytes,
  fib: Fib,
  styles: Map<number, Style>,
  signal: AbortSignal,
): PapxIndex {
  const runs: Run[] = [];
  for (const page of fkpPages(word, table, fib, FC.plcfBtePapx, signal)) readFkp(word, page, runs, fib.version);
  runs.sort((a, b) => a.fcStart - b.fcStart);
  return {
    at(fc) {
      const r = runAt(runs, fc);
      if (!r) return undefined;
      if (!r.resolved) {
        const base = styles.get(r.istd)?.props;
        const props: ParaProps = base ? { ...base } : emptyProps(r.istd);
        props.istd = r.istd;
        applyGrpprl(word, r.start, r.end, props, fib.version);
        r.resolved = props;
      }
      return r.resolved;
    },
  };
}

/**
 * One PAPX FKP. Word 97 BXs are 13 bytes (offset + PHE) and a PAPX of `cb` words is 2·cb−1 bytes
 * (or a second count byte when cb is 0); Word 6/95 BXs are 7 bytes and `cw` counts the words that follow.
 */
function readFkp(word: Bytes, page: number, runs: Run[], version: 6 | 8): void {
  const crun = word.u8(page + 511);
  const bx = version === 6 ? 7 : 13;
  if (crun === 0 || (crun + 1) * 4 + crun * bx > 511) return;
  for (let i = 0; i < crun; i++) {
    const fcStart = word.u32(page + i * 4);
    const fcEnd = word.u32(page + (i + 1) * 4);
    const bOffset = word.u8(page + (crun + 1) * 4 + i * bx);
    const run: Run = { fcStart, fcEnd, istd: 0, start: 0, end: 0 };
    if (bOffset !== 0) {
      let at = page + bOffset * 2;
      let cb = word.u8(at);
      at += 1;
      let size: number;
      if (version === 6) {
        size = cb * 2;
      } else if (cb === 0) {
        cb = word.u8(at);
        at += 1;
        size = cb * 2;
      } else {
        size = cb * 2 - 1;
      }
      const end = Math.min(at + size, page + 511);
      if (size >= 2 && end <= page + 511) {
        run.istd = word.u16(at);
        run.start = at + 2;
        run.end = end;
      }
    }
    if (fcEnd > fcStart) runs.push(run);
  }
}
