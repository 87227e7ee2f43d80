import type { Bytes } from '../cfb/bytes.ts';

/**
 * Word 6/95 property modifiers: a one-byte sprm, then an operand whose size the sprm fixes (or a
 * count byte gives). Only the properties the Word 97 reader uses are reported, under their Word 97
 * sprm; the rest are skipped by size. An sprm missing from the table ends the walk of that grpprl
 * (its size is unknown), which costs formatting, never text.
 */

/** Variable operand: a count byte, then that many bytes. */
const VAR = -1;
/** Variable operand with a two-byte count (table definitions), sized like Word 97's sprmTDefTable. */
const VAR2 = -2;
/** sprmPChgTabs: a count byte whose value 255 announces a longer form. */
const TABS = -3;

/** Operand sizes by Word 6 sprm ([MS-DOC] predecessor, Word 6.0 binary file format). */
const SIZE = new Map<number, number>([
  // paragraph
  [2, 2],
  [3, VAR],
  [4, 1],
  [5, 1],
  [6, 1],
  [7, 1],
  [8, 1],
  [9, 1],
  [10, 1],
  [11, 1],
  [12, VAR],
  [13, 1],
  [14, 1],
  [15, VAR],
  [16, 2],
  [17, 2],
  [18, 2],
  [19, 2],
  [20, 4],
  [21, 2],
  [22, 2],
  [23, TABS],
  [24, 1],
  [25, 1],
  [26, 2],
  [27, 2],
  [28, 2],
  [29, 1],
  [30, 2],
  [31, 2],
  [32, 2],
  [33, 2],
  [34, 2],
  [35, 2],
  [36, 2],
  [37, 1],
  [38, 2],
  [39, 2],
  [40, 2],
  [41, 2],
  [42, 2],
  [43, 2],
  [44, 1],
  [45, 2],
  [46, 2],
  [47, 2],
  [48, 2],
  [49, 2],
  [50, 1],
  [51, 1],
  // character
  [65, 1],
  [66, 1],
  [67, 1],
  [68, VAR],
  [69, 2],
  [70, 4],
  [71, 1],
  [72, 2],
  [73, 3],
  [74, VAR],
  [75, 1],
  [80, 2],
  [81, VAR],
  [82, 0],
  [83, 0],
  [85, 1],
  [86, 1],
  [87, 1],
  [88, 1],
  [89, 1],
  [90, 1],
  [91, 1],
  [92, 1],
  [93, 2],
  [94, 1],
  [95, 3],
  [96, 2],
  [97, 2],
  [98, 1],
  [99, 2],
  [100, 1],
  [101, 2],
  [102, 1],
  [103, VAR],
  [104, 1],
  [105, VAR],
  [106, VAR],
  [107, 2],
  [108, VAR],
  [109, 2],
  [110, 2],
  [117, 1],
  [118, 1],
  // picture
  [119, 1],
  [120, 12],
  [121, 2],
  [122, 2],
  [123, 2],
  [124, 2],
  // section
  [131, 1],
  [132, 1],
  [133, VAR],
  [136, 3],
  [137, 3],
  [138, 1],
  [139, 1],
  [140, 2],
  [141, 2],
  [142, 1],
  [143, 1],
  [144, 2],
  [145, 2],
  [146, 1],
  [147, 1],
  [148, 2],
  [149, 2],
  [150, 1],
  [151, 1],
  [152, 1],
  [153, 1],
  [154, 2],
  [155, 2],
  [156, 2],
  [157, 2],
  [158, 1],
  [159, 1],
  [160, 2],
  [161, 2],
  [162, 1],
  [163, 1],
  [164, 2],
  [165, 2],
  [166, 2],
  [167, 2],
  [168, 2],
  [169, 2],
  [170, 2],
  [171, 2],
  // table
  [182, 2],
  [183, 2],
  [184, 2],
  [185, 1],
  [186, 1],
  [187, 12],
  [188, VAR2],
  [189, 2],
  [190, VAR2],
  [191, VAR],
  [192, 4],
  [193, 5],
  [194, 4],
  [195, 2],
  [196, 4],
  [197, 2],
  [198, 2],
  [199, 5],
  [200, 4],
]);

/** Word 6 sprm → the Word 97 sprm of the same property and operand layout, for those the reader uses. */
const AS_WORD97 = new Map<number, number>([
  [2, 0x4600], // sprmPIstd
  [24, 0x2416], // sprmPFInTable
  [25, 0x2417], // sprmPFTtp
  [65, 0x0800], // sprmCFStrikeRM: deleted revision
  [85, 0x0835], // sprmCFBold
  [86, 0x0836], // sprmCFItalic
  [87, 0x0837], // sprmCFStrike
  [92, 0x083c], // sprmCFVanish
  [104, 0x2a48], // sprmCIss: superscript / subscript
]);

function operandSize(b: Bytes, kind: number, at: number): number {
  if (kind >= 0) return kind;
  if (at >= b.length) return -1;
  if (kind === VAR2) return at + 2 <= b.length ? 2 + b.u16(at) - 1 : -1;
  const cb = b.u8(at);
  if (kind === TABS && cb === 255) return -1;
  return 1 + cb;
}

export function walkGrpprl6(b: Bytes, start: number, end: number, visit: (sprm: number, at: number) => void): void {
  let p = start;
  const stop = Math.min(end, b.length);
  while (p < stop) {
    const sprm = b.u8(p);
    const kind = SIZE.get(sprm);
    if (kind === undefined) return;
    const at = p + 1;
    const size = operandSize(b, kind, at);
    if (size < 0 || at + size > stop) return;
    const mapped = AS_WORD97.get(sprm);
    if (mapped !== undefined && size > 0) visit(mapped, at);
    p = at + size;
  }
}
