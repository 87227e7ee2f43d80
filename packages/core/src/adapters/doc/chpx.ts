import type { Bytes } from '../cfb/bytes.ts';
import { fkpPages, runAt } from './bte.ts';
import { FC, type Fib } from './fib.ts';
import { grpprlWalker } from './sprm.ts';

/** Character formatting bits carried by text segments. */
export const FMT = { bold: 1, italic: 2, strike: 4, sup: 8, sub: 16 } as const;

export interface CharProps {
  /** FMT bits. */
  fmt: number;
  /** Hidden text or a tracked deletion: not part of the visible document. */
  skip: boolean;
  /** sprmCPicLocation: offset of an inline picture's PICF in the Data stream. */
  pic?: number;
}

interface Run {
  fcStart: number;
  fcEnd: number;
  start: number;
  end: number;
  resolved?: CharProps;
}

const PLAIN: CharProps = { fmt: 0, skip: false };

// Toggle operands: 0 off, 1 on, 0x80 as the style, 0x81 opposite of the style (taken as on).
const on = (v: number): boolean => v === 1 || v === 0x81;

/** Direct character formatting by file offset, from the CHPX FKPs named by PlcBteChpx ([MS-DOC] 2.9.176). */
export function readChpx(word: Bytes, table: Bytes, fib: Fib, signal: AbortSignal): (fc: number) => CharProps {
  const runs: Run[] = [];
  for (const page of fkpPages(word, table, fib, FC.plcfBteChpx, signal)) {
    const crun = word.u8(page + 511);
    if (crun === 0 || (crun + 1) * 4 + crun > 511) continue;
    for (let k = 0; k < crun; k++) {
      const fcStart = word.u32(page + k * 4);
      const fcEnd = word.u32(page + (k + 1) * 4);
      const off = word.u8(page + (crun + 1) * 4 + k) * 2;
      let start = 0;
      let end = 0;
      if (off !== 0 && off < 511) {
        const cb = word.u8(page + off);
        start = page + off + 1;
        end = Math.min(start + cb, page + 511);
      }
      if (fcEnd > fcStart) runs.push({ fcStart, fcEnd, start, end });
    }
  }
  runs.sort((a, b) => a.fcStart - b.fcStart);
  let last: Run | undefined;
  const resolve = (r: Run): CharProps => {
    if (r.resolved) return r.resolved;
    const props: CharProps = { fmt: 0, skip: false };
    grpprlWalker(fib.version)(word, r.start, r.end, (sprm, at) => {
      switch (sprm) {
        case 0x0835:
          if (on(word.u8(at))) props.fmt |= FMT.bold;
          break;
        case 0x0836:
          if (on(word.u8(at))) props.fmt |= FMT.italic;
          break;
        case 0x0837:
          if (on(word.u8(at))) props.fmt |= FMT.strike;
          break;
        case 0x2a48: {
          const v = word.u8(at);
          if (v === 1) props.fmt |= FMT.sup;
          else if (v === 2) props.fmt |= FMT.sub;
          break;
        }
        case 0x6a03:
          props.pic = word.u32(at);
          break;
        case 0x083c: // sprmCFVanish: hidden text
        case 0x0800: // sprmCFRMarkDel: deleted revision
          if (on(word.u8(at))) props.skip = true;
          break;
      }
    });
    r.resolved = props;
    return props;
  };
  return (fc) => {
    if (last && fc >= last.fcStart && fc < last.fcEnd) return resolve(last);
    const r = runAt(runs, fc);
    if (!r) return PLAIN;
    last = r;
    return resolve(r);
  };
}
