import { badInput } from '../../errors.ts';
import type { Bytes } from '../cfb/bytes.ts';

/** The parts of the File Information Block ([MS-DOC] 2.5.1) this adapter needs. */
export interface Fib {
  tableStream: '0Table' | '1Table';
  ccpText: number;
  ccpFtn: number;
  ccpHdd: number;
  ccpAtn: number;
  ccpEdn: number;
  ccpTxbx: number;
  /** (fc, lcb) pairs of FibRgFcLcb, by index. */
  fcLcb: (index: number) => { fc: number; lcb: number } | undefined;
}

export const FC = {
  stshf: 1,
  plcffndRef: 2,
  plcffndTxt: 3,
  plcfBteChpx: 12,
  plcfBtePapx: 13,
  clx: 33,
  plcSpaMom: 40,
  plcfendRef: 46,
  plcfendTxt: 47,
  plcftxbxTxt: 56,
  plfLst: 73,
  plfLfo: 74,
} as const;

export function readFib(word: Bytes): Fib {
  if (word.length < 0x22 || word.u16(0) !== 0xa5ec) {
    throw badInput('The Word document is damaged (bad File Information Block).');
  }
  const flags = word.u16(0x0a);
  if (flags & 0x0100 || flags & 0x8000) {
    throw badInput('The Word document is password-protected (encrypted); remove the password and try again.');
  }
  // Word 6 and Word 95 (nFib 101–105) use an older FIB without the 14-word FibRgW97 and no table stream.
  if (word.u16(2) < 0xc0 && word.u16(0x20) !== 0x0e) {
    throw badInput('Word 6/95 documents are not supported; save the file as a Word 97–2003 or newer document.');
  }
  let off = 0x20;
  const csw = word.u16(off);
  off += 2 + csw * 2;
  const cslw = word.u16(off);
  const lw = off + 2;
  off = lw + cslw * 4;
  const cbRgFcLcb = word.u16(off);
  const fcBase = off + 2;
  const ccp = (i: number): number => (i < cslw ? word.i32(lw + i * 4) : 0);
  const fib: Fib = {
    tableStream: flags & 0x0200 ? '1Table' : '0Table',
    ccpText: Math.max(0, ccp(3)),
    ccpFtn: Math.max(0, ccp(4)),
    ccpHdd: Math.max(0, ccp(5)),
    ccpAtn: Math.max(0, ccp(7)),
    ccpEdn: Math.max(0, ccp(8)),
    ccpTxbx: Math.max(0, ccp(9)),
    fcLcb(index) {
      if (index >= cbRgFcLcb) return undefined;
      const p = fcBase + index * 8;
      if (p + 8 > word.length) return undefined;
      const fc = word.u32(p);
      const lcb = word.u32(p + 4);
      return lcb > 0 ? { fc, lcb } : undefined;
    },
  };
  return fib;
}
