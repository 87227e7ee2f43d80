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
  for (const page of fkpPages(word, table, fib, FC.plcfBtePapx, signal)) readFkp(word, page, runs);
  runs.sort((a, b) => a.fcStart - b.fcStart);
  return {
    at(fc) {
      const r = runAt(runs, fc);
      if (!r) return undefined;
      if (!r.resolved) {
        const base = styles.get(r.istd)?.props;
        const props: ParaProps = base ? { ...base } : emptyProps(r.istd);
        props.istd = r.istd;
        applyGrpprl(word, r.start, r.end, props);
        r.resolved = props;
      }
      return r.resolved;
    },
  };
}

function readFkp(word: Bytes, page: number, runs: Run[]): void {
  const crun = word.u8(page + 511);
  if (crun === 0 || (crun + 1) * 4 + crun * 13 > 511) return;
  for (let i = 0; i < crun; i++) {
    const fcStart = word.u32(page + i * 4);
    const fcEnd = word.u32(page + (i + 1) * 4);
    const bOffset = word.u8(page + (crun + 1) * 4 + i * 13);
    const run: Run = { fcStart, fcEnd, istd: 0, start: 0, end: 0 };
    if (bOffset !== 0) {
      let at = page + bOffset * 2;
      let cb = word.u8(at);
      at += 1;
      let size: number;
      if (cb === 0) {
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
