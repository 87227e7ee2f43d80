/**
 * Blank spacer columns and rows are layout, not structure: a financial statement puts a blank column
 * between its labels and its figures, a contents sheet one between the topics and their `Page`
 * column. Touching-cell regions split such a table in pieces; this joins pieces back together when
 * their cells line up as one table, and leaves apart the side-by-side or stacked tables that each
 * carry their own header row.
 */
import type { GridCell, Region } from './regions.ts';

/** Widest blank gap (columns or rows) still read as a spacer inside one table. */
const MAX_GAP = 2;
/** Share of the smaller piece's lines that must line up with the other piece's lines. */
const MIN_ALIGNED = 0.6;
/** Beyond this many pieces a sheet is a scatter of values, not a few tables: no joining (stays linear). */
const MAX_PIECES = 500;

const NUMERIC = /^[-+−(]?\s*[$€£¥]?\s*[\d][\d.,\s]*%?\)?$/;

interface Piece extends Region {
  rows: Set<number>;
  cols: Set<number>;
  /** The cells inside the box, by row. */
  byRow: Map<number, GridCell[]>;
  /** `figureShare` and `headerAt` its first row, worked out once: the search asks for them per pair. */
  figures: number | undefined;
  headed: boolean | undefined;
}

/** Every piece made with one shape, its cached answers unset (filled in as they are asked). */
function newPiece(
  r0: number,
  c0: number,
  r1: number,
  c1: number,
  rows: Set<number>,
  cols: Set<number>,
  byRow: Map<number, GridCell[]>,
): Piece {
  return { r0, c0, r1, c1, rows, cols, byRow, figures: undefined, headed: undefined };
}

function pieceOf(region: Region, cells: GridCell[]): Piece {
  const piece = newPiece(region.r0, region.c0, region.r1, region.c1, new Set(), new Set(), new Map());
  for (const c of cells) {
    piece.rows.add(c.r);
    for (let k = c.c; k < c.c + c.colSpan; k++) piece.cols.add(k);
    const list = piece.byRow.get(c.r) ?? [];
    list.push(c);
    piece.byRow.set(c.r, list);
  }
  return piece;
}

const isNumeric = (c: GridCell) => NUMERIC.test(c.text);

/** Share of the piece's cells below its first row that are figures. */
function figureShare(p: Piece): number {
  p.figures ??= countFigures(p);
  return p.figures;
}

function countFigures(p: Piece): number {
  let all = 0;
  let figures = 0;
  for (const [r, list] of p.byRow) {
    if (r === p.r0 && p.byRow.size > 1) continue;
    all += list.length;
    figures += list.filter(isNumeric).length;
  }
  return all ? figures / all : 0;
}

/**
 * A row of two or more text cells over numbers in the same piece: the header of a table of its own.
 */
function headerAt(p: Piece, r: number): boolean {
  const row = p.byRow.get(r) ?? [];
  if (row.length < 2 || row.some(isNumeric)) return false;
  const cols = new Set(row.map((c) => c.c));
  for (const [rr, list] of p.byRow) if (rr > r && list.some((c) => cols.has(c.c) && isNumeric(c))) return true;
  return false;
}

function opensWithHeader(p: Piece): boolean {
  p.headed ??= headerAt(p, p.r0);
  return p.headed;
}

function overlap(a: Set<number>, b: Set<number>): number {
  let n = 0;
  for (const x of a) if (b.has(x)) n++;
  return n;
}

/** Blank columns between box `a` and box `b` on its right (below 1: they touch or overlap). */
const gapRight = (a: Region, b: Region) => b.c0 - a.c1 - 1;
/** Blank rows between box `a` and box `b` under it. */
const gapBelow = (a: Region, b: Region) => b.r0 - a.r1 - 1;
/** A gap a join may bridge: one blank line at least, `MAX_GAP` at most. */
const narrow = (gap: number) => gap >= 1 && gap <= MAX_GAP;

/**
 * Left piece `a`, right piece `b`, a narrow blank gap between: one table when their rows line up and
 * the right piece holds figures (amounts, page numbers) for the labels on the left. Text beside text
 * (a data-sheet form's captions and values) is left as laid out.
 */
function joinsSideways(a: Piece, b: Piece): boolean {
  if (!narrow(gapRight(a, b)) || figureShare(b) < 0.5) return false;
  const shared = overlap(a.rows, b.rows);
  if (shared < 2 || shared < MIN_ALIGNED * Math.min(a.rows.size, b.rows.size)) return false;
  // A table beside another starts with its own header where its neighbour already has figures.
  for (const [own, other] of [
    [a, b],
    [b, a],
  ] as const) {
    if (own.r0 > other.r0 && opensWithHeader(own) && (other.byRow.get(own.r0) ?? []).some(isNumeric)) return false;
  }
  return true;
}

/**
 * Upper piece `a`, lower piece `b`, a blank row or two between: one table when both carry figures in
 * the same columns (the sections of a statement), unless the lower one opens with its own header.
 */
function joinsDownwards(a: Piece, b: Piece): boolean {
  if (!narrow(gapBelow(a, b)) || figureShare(a) < 0.3 || figureShare(b) < 0.3) return false;
  const shared = overlap(a.cols, b.cols);
  const union = a.cols.size + b.cols.size - shared;
  // Two columns at least: a lone title or note above a table is its own block.
  if (shared < 2 || shared / union < 0.75) return false;
  // A table stacked under another repeats a header row of its own.
  return !opensWithHeader(b);
}

/** Rows (or columns) the spans `[a0, a1]` and `[b0, b1]` have in common. */
const common = (a0: number, a1: number, b0: number, b1: number) => Math.min(a1, b1) - Math.max(a0, b0) + 1;

/**
 * What the boxes alone allow: `b` right of `a` or below it across a narrow gap, the two sharing at
 * least the two rows (or columns) a join needs. Without such a pair no piece is built.
 */
function mayJoin(a: Region, b: Region): boolean {
  if (narrow(gapRight(a, b)) && common(a.r0, a.r1, b.r0, b.r1) >= 2) return true;
  return narrow(gapBelow(a, b)) && common(a.c0, a.c1, b.c0, b.c1) >= 2;
}

const intersects = (p: Region, q: Region) => p.r0 <= q.r1 && q.r0 <= p.r1 && p.c0 <= q.c1 && q.c0 <= p.c1;

function union(a: Piece, b: Piece): Piece {
  const byRow = new Map(a.byRow);
  for (const [r, list] of b.byRow)
    byRow.set(
      r,
      [...(byRow.get(r) ?? []), ...list].sort((x, y) => x.c - y.c),
    );
  return newPiece(
    Math.min(a.r0, b.r0),
    Math.min(a.c0, b.c0),
    Math.max(a.r1, b.r1),
    Math.max(a.c1, b.c1),
    new Set([...a.rows, ...b.rows]),
    new Set([...a.cols, ...b.cols]),
    byRow,
  );
}

/**
 * Joins touching-cell regions split only by blank spacer columns or rows. The joined box must not
 * take in any other region, so a join never reorders content. `sheetRows`: the sheet's cells by row,
 * each row in column order.
 */
export function joinAcrossGaps(regions: Region[], sheetRows: ReadonlyMap<number, readonly GridCell[]>): Region[] {
  if (regions.length < 2 || regions.length > MAX_PIECES) return regions;
  if (!regions.some((a) => regions.some((b) => mayJoin(a, b)))) return regions;
  let pieces = regions.map((g) => {
    const inside: GridCell[] = [];
    for (let r = g.r0; r <= g.r1; r++)
      for (const c of sheetRows.get(r) ?? []) if (c.c >= g.c0 && c.c <= g.c1) inside.push(c);
    return pieceOf(g, inside);
  });
  let changed = true;
  while (changed) {
    changed = false;
    search: for (let i = 0; i < pieces.length; i++) {
      for (let j = 0; j < pieces.length; j++) {
        const a = pieces[i] as Piece;
        const b = pieces[j] as Piece;
        if (i === j || !(joinsSideways(a, b) || joinsDownwards(a, b))) continue;
        const joined = union(a, b);
        if (pieces.some((p, k) => k !== i && k !== j && intersects(p, joined))) continue;
        pieces = pieces.filter((_, k) => k !== i && k !== j);
        pieces.push(joined);
        changed = true;
        break search;
      }
    }
  }
  return pieces.map(({ r0, c0, r1, c1 }) => ({ r0, c0, r1, c1 })).sort((a, b) => a.r0 - b.r0 || a.c0 - b.c0);
}
