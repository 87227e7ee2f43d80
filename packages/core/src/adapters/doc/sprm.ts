import type { Bytes } from '../cfb/bytes.ts';
import { walkGrpprl6 } from './sprm6.ts';

/** Paragraph properties this adapter reads from a grpprl. */
export interface ParaProps {
  istd: number;
  inTable: boolean;
  ttp: boolean;
  itap: number;
  innerCell: boolean;
  innerTtp: boolean;
  ilfo: number;
  ilvl: number;
  /** Outline level 0–8, or 9 for body text / unset. */
  outLvl: number;
  /** Row layout from the table-row-end paragraph (sprmTDefTable, sprmTVertMerge). */
  row?: RowDef;
}

/** Cell boundaries (twips) and merge flags of one table row. */
export interface RowDef {
  /** itcMac + 1 cell edges, left to right. */
  edges: number[];
  /** Per cell: 0 none, 1 continues the cell above, 3 starts a vertical merge. */
  vmerge: number[];
  /** Per cell: 0 none, 1 first of a horizontal merge, 2/3 merged into the cell before. */
  hmerge: number[];
}

const MAX_CELLS = 64;

function readTDefTable(b: Bytes, at: number, end: number): RowDef | undefined {
  if (at + 3 > end) return undefined;
  const itcMac = Math.min(b.u8(at + 2), MAX_CELLS);
  let p = at + 3;
  if (p + (itcMac + 1) * 2 > end) return undefined;
  const edges: number[] = [];
  for (let i = 0; i <= itcMac; i++) edges.push(b.i16(p + i * 2));
  p += (itcMac + 1) * 2;
  const vmerge: number[] = [];
  const hmerge: number[] = [];
  for (let i = 0; i < itcMac; i++) {
    const tc = p + i * 20;
    const grf = tc + 2 <= end ? b.u16(tc) : 0;
    hmerge.push(grf & 0x3);
    vmerge.push((grf >> 5) & 0x3);
  }
  return { edges, vmerge, hmerge };
}

export const emptyProps = (istd = 0): ParaProps => ({
  istd,
  inTable: false,
  ttp: false,
  itap: 0,
  innerCell: false,
  innerTtp: false,
  ilfo: 0,
  ilvl: 0,
  outLvl: 9,
});

const SPRM = {
  pIstd: 0x4600,
  pIlvl: 0x260a,
  pIlfo: 0x460b,
  pFInTable: 0x2416,
  pFTtp: 0x2417,
  pOutLvl: 0x2640,
  pItap: 0x6649,
  pFInnerTableCell: 0x244b,
  pFInnerTtp: 0x244c,
  tVertMerge: 0xd62b,
  tDefTable: 0xd608,
  pChgTabs: 0xc615,
} as const;

/** Operand size of a sprm ([MS-DOC] 2.2.5.1); -1 when the grpprl cannot be walked further. */
function operandSize(b: Bytes, sprm: number, at: number): number {
  switch (sprm >> 13) {
    case 0:
    case 1:
      return 1;
    case 2:
    case 4:
    case 5:
      return 2;
    case 3:
      return 4;
    case 7:
      return 3;
    default:
      if (sprm === SPRM.tDefTable) return at + 2 <= b.length ? 2 + b.u16(at) - 1 : -1;
      if (sprm === SPRM.pChgTabs) {
        if (at >= b.length) return -1;
        const cb = b.u8(at);
        return cb === 255 ? -1 : 1 + cb;
      }
      return at < b.length ? 1 + b.u8(at) : -1;
  }
}

/**
 * Calls `visit(sprm, operandOffset)` for each sprm of a Word 97 grpprl [start, end); stops at a
 * malformed one. Word 6/95 grpprls (one-byte sprms) go through `walkGrpprl6` (sprm6.ts) instead.
 */
export function walkGrpprl(b: Bytes, start: number, end: number, visit: (sprm: number, at: number) => void): void {
  let p = start;
  const stop = Math.min(end, b.length);
  while (p + 2 <= stop) {
    const sprm = b.u16(p);
    const at = p + 2;
    const size = operandSize(b, sprm, at);
    if (size < 0 || at + size > stop) return;
    if (size > 0) visit(sprm, at);
    p = at + size;
  }
}

/** The grpprl walker of a file version: Word 6/95 sprms are reported under their Word 97 numbers. */
export const grpprlWalker = (version: 6 | 8) => (version === 6 ? walkGrpprl6 : walkGrpprl);

/** Applies the paragraph sprms of grpprl [start, end) to `props`. */
export function applyGrpprl(b: Bytes, start: number, end: number, props: ParaProps, version: 6 | 8 = 8): void {
  grpprlWalker(version)(b, start, end, (sprm, at) => {
    switch (sprm) {
      case SPRM.pIstd:
        props.istd = b.u16(at);
        break;
      case SPRM.pIlvl:
        props.ilvl = b.u8(at);
        break;
      case SPRM.pIlfo:
        props.ilfo = b.i16(at);
        break;
      case SPRM.pFInTable:
        props.inTable = b.u8(at) !== 0;
        break;
      case SPRM.pFTtp:
        props.ttp = b.u8(at) !== 0;
        break;
      case SPRM.pOutLvl:
        props.outLvl = b.u8(at);
        break;
      case SPRM.pItap:
        props.itap = b.i32(at);
        break;
      case SPRM.pFInnerTableCell:
        props.innerCell = b.u8(at) !== 0;
        break;
      case SPRM.pFInnerTtp:
        props.innerTtp = b.u8(at) !== 0;
        break;
      case SPRM.tDefTable: {
        const row = readTDefTable(b, at, at + operandSize(b, sprm, at));
        if (row) props.row = row;
        break;
      }
      case SPRM.tVertMerge: {
        const itc = b.u8(at + 1);
        if (props.row && at + 3 <= b.length && itc < props.row.vmerge.length) {
          // Copy before writing: the row object may be shared with a style's properties.
          const vmerge = [...props.row.vmerge];
          vmerge[itc] = b.u8(at + 2);
          props.row = { ...props.row, vmerge };
        }
        break;
      }
    }
  });
}
