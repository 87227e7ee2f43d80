import { badInput } from '../../errors.ts';
import type { Bytes } from '../cfb/bytes.ts';

/** The parts of the File Information Block ([MS-DOC] 2.5.1) this adapter needs. */
export interface Fib {
  /** 8: Word 97 and later; 6: Word 6.0 and Word 95 (nFib 101–105), whose tables sit in the WordDocument stream. */
  version: 8 | 6;
  tableStream: '0Table' | '1Table' | 'WordDocument';
  /** Word 6/95: the text of a file saved without a piece table runs from fcMin to fcMac. */
  fcMin: number;
  fcMac: number;
  complex: boolean;
  /** Word 6/95: FKP pages each bin table has, which may be more than its PLC lists. */
  cpnBteChp: number;
  cpnBtePap: number;
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

/** FIB magic numbers: Word 97 and later write 0xA5EC, Word 6.0 and Word 95 0xA5DC. */
const W97_IDENT = 0xa5ec;
const W6_IDENT = 0xa5dc;

export function readFib(word: Bytes): Fib {
  if (word.length < 0x22 || (word.u16(0) !== W97_IDENT && word.u16(0) !== W6_IDENT)) {
    throw badInput('The Word document is damaged (bad File Information Block).');
  }
  const flags = word.u16(0x0a);
  if (flags & 0x0100 || flags & 0x8000) {
    throw badInput(
      'The Word document is password-protected with an encryption this engine does not read (XOR obfuscation or Word 6/95 encryption).',
    );
  }
  // Word 6 and Word 95 (nFib 101–105) use an older FIB without the 14-word FibRgW97 and no table stream.
  if (word.u16(2) < 0xc0 && word.u16(0x20) !== 0x0e) return readFib6(word, flags);
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
    version: 8,
    tableStream: flags & 0x0200 ? '1Table' : '0Table',
    fcMin: word.u32(0x18),
    fcMac: word.u32(0x1c),
    complex: (flags & 0x0004) !== 0,
    cpnBteChp: 0,
    cpnBtePap: 0,
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

/**
 * Word 6/95 FIB offsets of the (fc, lcb) pairs read here, by their Word 97 FibRgFcLcb index: the
 * first 38 pairs are in the same order from 0x58; endnotes come after a 10-byte gap and four pairs
 * Word 97 dropped. Text boxes, drawings and LST/LFO lists have other structures there: not read.
 */
function pairOffset6(index: number): number | undefined {
  if (index < 38) return 0x58 + index * 8;
  if (index === FC.plcfendRef) return 0x1d2;
  if (index === FC.plcfendTxt) return 0x1da;
  return undefined;
}

function readFib6(word: Bytes, flags: number): Fib {
  const nFib = word.u16(2);
  if (nFib < 101 || word.length < 0x1e2) {
    throw badInput('Word for Windows 2 and older documents are not supported; save the file in a newer Word format.');
  }
  const ccp = (off: number) => Math.max(0, word.i32(off));
  return {
    version: 6,
    tableStream: 'WordDocument',
    fcMin: word.u32(0x18),
    fcMac: word.u32(0x1c),
    complex: (flags & 0x0004) !== 0,
    cpnBteChp: word.u16(0x14e),
    cpnBtePap: word.u16(0x150),
    ccpText: ccp(0x34),
    ccpFtn: ccp(0x38),
    ccpHdd: ccp(0x3c),
    ccpAtn: ccp(0x44),
    ccpEdn: ccp(0x48),
    ccpTxbx: 0,
    fcLcb(index) {
      const p = pairOffset6(index);
      if (p === undefined || p + 8 > word.length) return undefined;
      const lcb = word.u32(p + 4);
      return lcb > 0 ? { fc: word.u32(p), lcb } : undefined;
    },
  };
}
