import { cell, link, list, listItem, paragraph, row, table, text } from '../../../tree/build.ts';
import type { BBox, Block, Inline, Link, ListItem, Strong, TableCell, TableRow } from '../../../tree/types.ts';
import { append } from '../../../util/arrays.ts';
import { ENDS_LETTER, STARTS_LOWER } from '../../../util/letters.ts';
import { hyphenVerdict, lastChars, OPEN_HYPHEN, type Vocabulary } from '../hyphens.ts';
import { makeLine, pictographEdge, sizesClose } from '../lines.ts';
import { mayOpenItem } from '../markers.ts';
import { round2, type TextItem } from '../model.ts';
import { addressRunsOn, cleanText, isCjk, runsOnAt } from '../text.ts';
import { uprightRun } from '../turned.ts';
import { cellParts } from './cell-lists.ts';
import { partOf, widths } from './tokens.ts';
import { endsInSpace } from './words.ts';

/*
 * Comparators of the table code's sorts. Module-level: a closure written inline is a new function
 * on every call, compiled again once earlier calls' copies are collected.
 */
const ascending = (a: number, b: number): number => a - b;
/** Pieces of a row by left edge. */
export const byLeft = (a: { x: number }, b: { x: number }): number => a.x - b.x;
/** Runs by vertical centre. */
export const byMiddle = (a: TextItem, b: TextItem): number => a.y + a.h / 2 - (b.y + b.h / 2);
const byMiddleThenLeft = (a: TextItem, b: TextItem): number => byMiddle(a, b) || byLeft(a, b);
const bySlot = (a: { r: number; c: number }, b: { r: number; c: number }): number => a.r - b.r || a.c - b.c;
const byFirstSlot = (a: { r0: number; c0: number }, b: { r0: number; c0: number }): number =>
  a.r0 - b.r0 || a.c0 - b.c0;

/** A table laid out as slot boundaries and the rectangles of slots each cell covers. */
export interface Layout {
  xs: number[];
  ys: number[];
  /** Cells in reading order: first slot row, first slot column, spans. */
  cells: { r: number; c: number; rowSpan: number; colSpan: number }[];
}

/** Sorted positions with neighbours closer than `tol` merged into their mean. */
export function clusterPositions(values: number[], tol: number): number[] {
  const sorted = [...values].sort(ascending);
  const out: number[] = [];
  let sum = 0;
  let n = 0;
  let last = Number.NEGATIVE_INFINITY;
  for (const v of sorted) {
    if (n && v - last > tol) {
      out.push(sum / n);
      sum = 0;
      n = 0;
    }
    sum += v;
    n++;
    last = v;
  }
  if (n) out.push(sum / n);
  return out;
}

/**
 * Cells from slot merges: `joinRight(r, c)` says slot (r, c) is one cell with (r, c + 1),
 * `joinDown(r, c)` with (r + 1, c). Merged groups become their bounding rectangle of slots.
 */
export function layoutFromJoins(
  xs: number[],
  ys: number[],
  joinRight: (r: number, c: number) => boolean,
  joinDown: (r: number, c: number) => boolean,
): Layout {
  const rows = ys.length - 1;
  const cols = xs.length - 1;
  const parent = Array.from({ length: rows * cols }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i] as number] as number;
      i = parent[i] as number;
    }
    return i;
  };
  const union = (a: number, b: number) => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      if (c + 1 < cols && joinRight(r, c)) union(r * cols + c, r * cols + c + 1);
      if (r + 1 < rows && joinDown(r, c)) union(r * cols + c, (r + 1) * cols + c);
    }
  }
  const boxes = new Map<number, { r0: number; c0: number; r1: number; c1: number; slots: number }>();
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const k = find(r * cols + c);
      const b = boxes.get(k);
      if (!b) boxes.set(k, { r0: r, c0: c, r1: r, c1: c, slots: 1 });
      else {
        b.r1 = Math.max(b.r1, r);
        b.c0 = Math.min(b.c0, c);
        b.c1 = Math.max(b.c1, c);
        b.slots++;
      }
    }
  }
  // A merge that is not a rectangle (an L of missing rulings) would take over its neighbours' slots
  // and their text, and a renderer that repeats spans would copy that text over the whole box:
  // such groups fall back to single slots.
  const owner = new Int32Array(rows * cols).fill(-1);
  const cells: Layout['cells'] = [];
  const sortedBoxes = [...boxes.values()].sort(byFirstSlot);
  const free = (b: { r0: number; c0: number; r1: number; c1: number; slots: number }) => {
    if (b.slots !== (b.r1 - b.r0 + 1) * (b.c1 - b.c0 + 1)) return false;
    for (let r = b.r0; r <= b.r1; r++) for (let c = b.c0; c <= b.c1; c++) if (owner[r * cols + c] !== -1) return false;
    return true;
  };
  for (const b of sortedBoxes) {
    if (free(b)) {
      for (let r = b.r0; r <= b.r1; r++) for (let c = b.c0; c <= b.c1; c++) owner[r * cols + c] = cells.length;
      cells.push({ r: b.r0, c: b.c0, rowSpan: b.r1 - b.r0 + 1, colSpan: b.c1 - b.c0 + 1 });
    }
  }
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      if (owner[r * cols + c] !== -1) continue;
      owner[r * cols + c] = cells.length;
      cells.push({ r, c, rowSpan: 1, colSpan: 1 });
    }
  }
  cells.sort(bySlot);
  return { xs, ys, cells };
}

/**
 * Bounds of a layout's `n` rows, each from its `top` to its `bottom`: a point outside the first and
 * the last, halfway between each two.
 */
export function rowBounds(n: number, top: (k: number) => number, bottom: (k: number) => number): number[] {
  const ys = [top(0) - 1];
  for (let k = 1; k < n; k++) ys.push((bottom(k - 1) + top(k)) / 2);
  ys.push(bottom(n - 1) + 1);
  return ys;
}

/** A layout of one cell a slot between the column bounds `xs` and the row bounds `ys`. */
export function slotLayout(xs: number[], ys: number[]): Layout {
  const layout: Layout = { xs, ys, cells: [] };
  for (let r = 0; r < ys.length - 1; r++)
    for (let c = 0; c < xs.length - 1; c++) layout.cells.push({ r, c, rowSpan: 1, colSpan: 1 });
  return layout;
}

/**
 * The slot between `edges` (sorted, the outer two included) that `v` falls in: past either end, the
 * outer slot; on an edge, the slot after it.
 */
export const slotOf = (edges: number[], v: number): number => {
  let i = 0;
  while (i < edges.length - 2 && v >= (edges[i + 1] as number)) i++;
  return i;
};

/**
 * Runs of one text line that stand apart: a gap wider than 1.2 times the taller neighbour's height
 * is no word space but a column gutter. The runs must be sorted by x.
 */
export function lineCells(line: { x: number; w: number; h: number }[]): number {
  let cells = line.length ? 1 : 0;
  for (let i = 1; i < line.length; i++) {
    const prev = line[i - 1] as { x: number; w: number; h: number };
    const cur = line[i] as { x: number; h: number };
    if (cur.x - (prev.x + prev.w) > Math.max(prev.h, cur.h) * 1.2) cells++;
  }
  return cells;
}

/** Runs grouped into text lines (by vertical centre), top to bottom, each sorted left to right. */
export function textLines(runs: TextItem[]): TextItem[][] {
  const sorted = [...runs].sort(byMiddleThenLeft);
  const lines: TextItem[][] = [];
  for (const it of sorted) {
    const line = lines[lines.length - 1];
    const first = line?.[0];
    if (line && first && Math.abs(it.y + it.h / 2 - (first.y + first.h / 2)) < Math.max(2, first.h * 0.5))
      line.push(it);
    else lines.push([it]);
  }
  for (const line of lines) line.sort(byLeft);
  return lines;
}

const isTurned = (it: TextItem): boolean => it.rotated !== false;

/**
 * A cell's text lines in reading order. Turned runs (a vertical heading) are lines of their own,
 * read in the frame that shows them upright, after any upright text of the cell.
 */
function cellLines(runs: TextItem[]): TextItem[][] {
  if (!runs.some(isTurned)) return textLines(runs);
  const upright: TextItem[] = [];
  const turned: TextItem[] = [];
  for (const it of runs) {
    if (it.rotated) turned.push(uprightRun(it, 0, 0));
    else upright.push(it);
  }
  const lines = textLines(upright);
  append(lines, textLines(turned));
  return lines;
}

/** Index of an element: the identity map over a line's own runs. Module-level, like the comparators. */
const position = (_: unknown, i: number): number => i;

/** Whether most of a line's characters are in right-to-left runs. */
function rightToLeft(line: TextItem[]): boolean {
  let rtl = 0;
  let all = 0;
  for (const it of line) {
    all += it.str.length;
    if (it.dir === 'rtl') rtl += it.str.length;
  }
  return rtl * 2 > all;
}

/**
 * Where a cell ends on the right, for words broken there with no hyphen (`brokenWords`): its bound
 * where the caller knows it (a ruling, the next column's start: `fillLayout`); `true` where only
 * its lines tell, their rightmost end (a slot's text read alone); `false` where its column has no
 * width of its own (a column of labels is as wide as its widest label, and two labels' lines of
 * one width say nothing).
 */
export type CellEdge = number | boolean;

/**
 * Text of the runs in one cell: lines top to bottom, runs left to right, wrapped lines joined as
 * paragraph lines are (`vocab`: the page's words, which decide line-end hyphens; `edge`: see
 * `CellEdge`).
 */
export function cellText(runs: TextItem[], vocab?: () => Vocabulary, edge: CellEdge = true): string {
  const parts: string[] = [];
  // Each line's right end and width of a character, for words broken with no hyphen (`brokenAt`).
  const rights: number[] = [];
  const chars: number[] = [];
  const sizes: number[] = [];
  for (const line of cellLines(runs)) {
    const last = line[line.length - 1] as TextItem;
    // A right-to-left line reads from its right end, with numbers and Latin words in it turned
    // round as the text flow has them.
    if (rightToLeft(line)) {
      parts.push(cleanText(makeLine(line, line.map(position)).text).trim());
      rights.push(Number.NaN);
      chars.push(0);
      sizes.push(0);
      continue;
    }
    let s = '';
    let prev: TextItem | null = null;
    for (const it of line) {
      const t = cleanText(it.str);
      // Runs split at a font change meet edge to edge; a real gap between them is a word space, and
      // so is the edge between a pictograph and text.
      if (prev && s && !endsInSpace(s) && !/^\s/.test(t) && !isCjk(s.slice(-1))) {
        const gap = it.x - (prev.x + prev.w);
        if (gap > it.h * 0.15 || pictographEdge(prev, it, gap)) s += ' ';
      }
      s += t;
      prev = it;
    }
    s = s.trim();
    parts.push(s);
    rights.push(last.x + last.w);
    chars.push(s.length ? (last.x + last.w - (line[0] as TextItem).x) / s.length : 0);
    // The line's largest run: a footnote mark at its end is set small.
    sizes.push(largestSize(line));
  }
  // Wrapped lines of one cell: a hyphen at a line end runs on into the next line's word, and goes
  // where it broke a word ("Procure-" "ment"), by the rule paragraphs follow; a compound keeps it
  // ("Ring-" "dingding", "Wa-pa-pa-pa-" "pa-pow"). A word too long for its cell, broken with no
  // hyphen, is joined again. Otherwise a space, but after a slash, between CJK characters and inside
  // an address cut after a dot, as in paragraphs. Korean lines wrapped in a narrow cell are mostly
  // short labels set over two lines ("분류" over "기준"): the paragraph rule that joins a word broken
  // at a line end would fuse them.
  const broken =
    edge !== false && parts.length > 1
      ? brokenWords(parts, rights, chars, sizes, edge === true ? undefined : edge)
      : null;
  let out = '';
  for (const [k, p] of parts.entries()) {
    if (!p) continue;
    const end = lastChars(out);
    if (!out) out = p;
    else if (/[\p{L}\p{N}]-$/u.test(end) && /^[\p{L}\p{N}]/u.test(p)) {
      // A break the page's words leave open is decided later with the document's, as a
      // paragraph's is: the same lines read as prose on one backend can be a table on the other.
      const verdict = hyphenVerdict(out.slice(0, -1), p, vocab);
      out = out.slice(0, -1) + (verdict === 'join' ? '' : verdict === 'open' && vocab ? OPEN_HYPHEN : '-') + p;
    } else out += runsOnAt(end, p) || addressRunsOn(out, p) || broken?.[k] ? p : ` ${p}`;
  }
  return out.replace(/\s+/g, ' ');
}

/**
 * Lines that go on with a word broken at the cell's edge with no hyphen, as a word too long for a
 * narrow column is ("Parastratiosph" "ecomyiastratio" "sphecomyioid" "es"): the line before and
 * this one are one word each, the one before reaches the cell's right edge (the rightmost line end,
 * within a character) and ends in a letter, this one goes on in lower case, and a second line of
 * the word reaches the edge too (this one or the one before that). A single long word over a short
 * one ("Telecommunications" "equipment") has only one line at the edge: it was wrapped at a blank.
 * A word's pieces share one size: a heading's one letter over a line of text ("A" set large over
 * "text") reaches the edge by its width alone. Where the cell's bound is known, a piece ends within
 * two characters and a size of it (the cell's padding): two words wrapped at their blank in a
 * narrow cell ("Merged" over "column") end as far right as each other, short of it.
 */
function brokenWords(
  parts: string[],
  rights: number[],
  chars: number[],
  sizes: number[],
  bound: number | undefined,
): boolean[] {
  let widest = Number.NEGATIVE_INFINITY;
  for (const r of rights) if (r > widest) widest = r;
  const full = (k: number): boolean => {
    const p = parts[k];
    const right = rights[k] as number;
    const char = chars[k] as number;
    return (
      !!p &&
      !p.includes(' ') &&
      right >= widest - char &&
      (bound === undefined || right >= bound - 2 * char - (sizes[k] as number))
    );
  };
  const out: boolean[] = [];
  for (let k = 0; k < parts.length; k++) {
    const p = parts[k] as string;
    out.push(
      k > 0 &&
        full(k - 1) &&
        !p.includes(' ') &&
        STARTS_LOWER.test(p) &&
        ENDS_LETTER.test(parts[k - 1] as string) &&
        sizesClose(sizes[k] as number, sizes[k - 1] as number) &&
        (full(k) || (k > 1 && full(k - 2))),
    );
  }
  return out;
}

/**
 * A run cut where it crosses a ruling from one cell into the next: a cell's text that ran on into
 * the next column ("Michael or Patricia 1664" over the rule before "Van Buren Ave."), or two
 * cells' words drawn as one run. The cut falls at the blank nearest the boundary, within a character or two of
 * it; a run crossing a boundary inside one spanning cell (`cellAt` gives the same cell on both
 * sides), or with no blank near it, stays whole.
 */
function cellPieces(it: TextItem, xs: number[], cellAt: (c: number) => number): TextItem[] {
  const cuts: number[] = [];
  const cum = widths(it.str);
  const total = cum[cum.length - 1] || 1;
  const near = it.h;
  for (let c = 1; c < xs.length - 1; c++) {
    const b = xs[c] as number;
    if (it.x >= b - 1 || it.x + it.w <= b + 1 || cellAt(c - 1) === cellAt(c)) continue;
    let best = -1;
    let bestDist = near;
    for (let k = 1; k < it.str.length; k++) {
      if (it.str.charAt(k) !== ' ') continue;
      const d = Math.abs(it.x + (it.w * (cum[k] as number)) / total - b);
      if (d < bestDist) {
        best = k;
        bestDist = d;
      }
    }
    if (best > 0) cuts.push(best);
  }
  if (!cuts.length) return [it];
  const out: TextItem[] = [];
  let from = 0;
  for (const cut of [...cuts, it.str.length]) {
    let a = from;
    let b = cut;
    while (a < b && it.str.charAt(a) === ' ') a++;
    while (b > a && it.str.charAt(b - 1) === ' ') b--;
    if (a < b) out.push(partOf(it, cum, a, b));
    from = cut;
  }
  return out;
}

/** A run (or part of one) and the slot its centre falls in. */
interface Placed {
  piece: TextItem;
  r: number;
  c: number;
}

/**
 * Word ends drawn over a column rule moved back to the word's cell. Spreadsheets print a value
 * too long for its cell clipped at the rule, and some producers draw its last letters as a run of
 * their own, glued to the rest of the word and reaching past the rule, under the next cell's text
 * ("Dean, College of Desig" + "n" over the rule, then "UMN"): by its centre the letter joined the
 * next cell ("nUMN"). A run that starts left of its slot's rule, right where a run of the slot
 * before it ends with no blank between, finishes that run's word.
 */
function keepWordsWhole(placed: Placed[], xs: number[], cellAt: (r: number, c: number) => number): void {
  for (const p of placed) {
    const { piece, r, c } = p;
    const rule = xs[c] as number;
    if (c === 0 || piece.x >= rule || /^\s/.test(piece.str) || cellAt(r, c) === cellAt(r, c - 1)) continue;
    const glue = piece.h * 0.15;
    const cy = piece.y + piece.h / 2;
    for (const q of placed) {
      const end = q.piece.x + q.piece.w;
      if (
        q.r === r &&
        q.c === c - 1 &&
        Math.abs(end - piece.x) <= glue &&
        end <= rule &&
        !/\s$/.test(q.piece.str) &&
        Math.abs(q.piece.y + q.piece.h / 2 - cy) < piece.h / 2
      ) {
        p.c = c - 1;
        break;
      }
    }
  }
}

/**
 * Words of a cell cut where its rule clips them, drawn on under the next cell's text, moved back to
 * their cell. A sheet prints a cell too narrow for its text clipped at the rule: Calc writes the
 * text cut to about what shows, its last letters a few points past the rule, others the whole text.
 * Cut at the blank nearest the rule, those letters went into the next cell ("What are the sp" and
 * "The AI is applied": "spThe AI is applied"). A piece past the cut that another run of its row
 * and cell overlaps lies under that run, hidden: it stays with the piece before it. Two cells'
 * words written as one run across the rule have nothing drawn over them, and part there.
 */
function clippedUnder(placed: Placed[], tails: Map<Placed, Placed>): void {
  for (const [tail, before] of tails) {
    const a = tail.piece.x;
    const b = a + tail.piece.w;
    // Another run starting over the piece: drawn after it, on top.
    const under = placed.some(
      (q) => q.r === tail.r && q.c === tail.c && tails.get(q) !== tail && q.piece.x > a && q.piece.x < b - 0.5,
    );
    if (under) tail.c = before.c;
  }
}

/** Where a run stands across the columns: its centre, unless the caller knows better (`fillLayout`). */
const centre = (it: TextItem): number => it.x + it.w / 2;

/**
 * Assigns text runs to the layout's cells (by their centre, or the x that `at` gives) and builds
 * the tree table. `edged`: the columns have widths of their own, each cell's right bound its edge
 * (`CellEdge`).
 */
export function fillLayout(
  layout: Layout,
  items: TextItem[],
  indices: number[],
  ruled: boolean,
  vocab: () => Vocabulary,
  at: (it: TextItem) => number = centre,
  edged = true,
) {
  const { xs, ys, cells } = layout;
  const cols = xs.length - 1;
  const owner = new Int32Array((ys.length - 1) * cols);
  for (const [k, c] of cells.entries()) {
    for (let r = c.r; r < c.r + c.rowSpan; r++) for (let q = c.c; q < c.c + c.colSpan; q++) owner[r * cols + q] = k;
  }
  // Loops into literals, not map or Array.from: map's result is packed from the builtin but holey
  // once the caller is optimized, and the code reading these arrays would meet both kinds.
  const runs: TextItem[][] = [];
  for (let k = 0; k < cells.length; k++) runs.push([]);
  const placed: Placed[] = [];
  // Each piece a cut made past a run's first, with the piece before it (`clippedUnder`).
  const tails = new Map<Placed, Placed>();
  for (const i of indices) {
    const it = items[i] as TextItem;
    const r = slotOf(ys, it.y + it.h / 2);
    // Rulings are where a cell ends: a run across one is cut. Text gaps move with the text.
    const pieces = ruled ? cellPieces(it, xs, (c) => owner[r * cols + c] as number) : [it];
    let before: Placed | null = null;
    for (const piece of pieces) {
      const p: Placed = { piece, r, c: slotOf(xs, at(piece)) };
      placed.push(p);
      if (before) tails.set(p, before);
      before = p;
    }
  }
  if (ruled) keepWordsWhole(placed, xs, (r, c) => owner[r * cols + c] as number);
  if (tails.size) clippedUnder(placed, tails);
  for (const p of placed) runs[owner[p.r * cols + p.c] as number]?.push(p.piece);
  const texts: string[] = [];
  // The cell's right bound, where its column has a width of its own.
  const edges: CellEdge[] = [];
  for (const c of cells) edges.push(edged ? (xs[c.c + c.colSpan] as number) : false);
  for (const [k, r] of runs.entries()) texts.push(cellText(r, vocab, edges[k] as CellEdge));
  const rowsOut: TableCell[][] = [];
  for (let r = 0; r < ys.length - 1; r++) rowsOut.push([]);
  // A table set in bold throughout has nothing in bold that stands out: it is read plain.
  const styled = runs.some(hasPlainWords);
  const headRows = headerRows(cells);
  for (const [k, c] of cells.entries()) {
    // All three options every time (`cell` sets only a header and spans above 1): one shape of
    // options object, not one per combination of conditionally added fields.
    const header = c.r < headRows;
    const opts = { header, rowSpan: c.rowSpan, colSpan: c.colSpan };
    const value = texts[k] as string;
    (rowsOut[c.r] as TableCell[]).push(
      cell(cellContent(value, runs[k] as TextItem[], header, styled, vocab, edges[k] as CellEdge), opts),
    );
  }
  // A literal, not map: map's result is packed from the builtin but holey once the caller is
  // optimized, and code reading boxes would meet both kinds of array.
  const bbox = [
    round2(xs[0] as number),
    round2(ys[0] as number),
    round2(xs[xs.length - 1] as number),
    round2(ys[ys.length - 1] as number),
  ];
  const rows: TableRow[] = [];
  for (const cs of rowsOut) rows.push(row(cs));
  return { table: table(rows), texts, runs, bbox: bbox as BBox };
}

const worded = /[\p{L}\p{N}]/u;

/**
 * How many rows the header takes: the first, and the rows under it that its cells run down into
 * when it groups columns ("Session" over "Room" and "Course", with "Day" and "Time" beside it
 * spanning both rows): the sub-headings' row is a header row too. A first row with no grouped
 * heading is the header alone, whatever its cells span (a label beside several rows of data).
 */
function headerRows(cells: Layout['cells']): number {
  let grouped = 0;
  let down = 1;
  for (const c of cells) {
    if (c.r !== 0) break;
    if (c.colSpan > 1) grouped = Math.max(grouped, c.rowSpan);
    down = Math.max(down, c.rowSpan);
  }
  // No further than the sub-headings' row: a side label running down the whole table beside a
  // grouped heading does not make its data rows headings.
  return grouped ? Math.min(down, grouped + 1) : 1;
}

/**
 * A cell's content: its text, with its bold (where `styled`: some cell of the table has plain words)
 * and its links, as paragraphs have them; the plain text where it has neither.
 */
function cellContent(
  cellValue: string,
  runs: TextItem[],
  header: boolean,
  styled: boolean,
  vocab: () => Vocabulary,
  edge: CellEdge,
): Block[] | string {
  const parts = cellValue && runs.some(marksItem) && !runs.some(isTurned) ? cellParts(textLines(runs)) : null;
  if (!parts) return inlineContent(cellValue, runs, header, styled, vocab, edge);
  // A list in the cell: its lead-in and the text after it are paragraphs, its items one list. Each
  // part is read as a cell of its own (its footnote marks, bold and links measured in it alone).
  const blocks: Block[] = [];
  let items: ListItem[] | null = null;
  let ordered = false;
  for (const part of parts) {
    const body = asBlocks(inlineContent(cellText(part.runs, vocab, edge), part.runs, header, styled, vocab, edge));
    if (!part.item) {
      items = null;
      append(blocks, body);
    } else if (items && ordered === (part.number !== null)) items.push(listItem(body));
    else {
      items = [listItem(body)];
      ordered = part.number !== null;
      blocks.push(list(ordered, items, part.number ?? undefined));
    }
  }
  return blocks;
}

/** A cell's content as blocks: its plain text one paragraph. */
const asBlocks = (content: Block[] | string): Block[] =>
  typeof content === 'string' ? (content ? [paragraph(content)] : []) : content;

/**
 * Runs of a cell read as its content is, as blocks: the text beside a table nested in the cell. Its
 * table is taken as styled (a cell's own bold counts) and its bound as its lines' rightmost end.
 */
export function runsBlocks(runs: TextItem[], vocab: () => Vocabulary): Block[] {
  return asBlocks(cellContent(cellText(runs, vocab), runs, false, true, vocab, true));
}

/** Whether a run opens with a list item's marker (a cheap test before a cell's lines are made). */
const marksItem = (it: TextItem): boolean => mayOpenItem.test(it.str);

/** The content of a cell's text, or of one part of it (a list's item), with its bold and links. */
function inlineContent(
  cellValue: string,
  runs: TextItem[],
  header: boolean,
  styled: boolean,
  vocab: () => Vocabulary,
  edge: CellEdge,
): Block[] | string {
  if (!cellValue) return cellValue;
  const marks = footnoteMarks(runs);
  const value = marks ? markedText(runs, marks, vocab, edge) : cellValue;
  const bold = styled ? boldLength(value, runs, header, vocab, marks, edge) : 0;
  const links = linkRanges(value, runs, vocab, edge);
  if (!bold && !links) return value;
  return [paragraph(marked(value, bold, links ?? []))];
}

/**
 * How much of a cell's text, from its start, is in bold. A cell set in bold throughout is bold, but
 * in the header rows, whose cells are the table's headings already; one that opens in bold and goes
 * on in another weight ("Note: ...") has that opening bold; a right-to-left one, whose opening is at
 * its right end, only when bold throughout. Bold on a lone symbol (a tick, a bullet) is noise, not
 * styling, and so is a footnote mark's weight.
 */
function boldLength(
  value: string,
  runs: TextItem[],
  header: boolean,
  vocab: () => Vocabulary,
  marks: Set<TextItem> | null,
  edge: CellEdge,
): number {
  let bold = 0;
  let plain = 0;
  let rtl = false;
  for (const it of runs) {
    if (it.dir === 'rtl') rtl = true;
    if (!worded.test(it.str) || marks?.has(it)) continue;
    if (it.bold) bold++;
    else plain++;
  }
  if (!bold) return 0;
  if (!plain) return header ? 0 : value.length;
  if (rtl) return 0;
  const opening: TextItem[] = [];
  for (const line of textLines(runs))
    for (const it of line) {
      if (!it.bold && worded.test(it.str)) {
        // The opening counts where its text is where the cell's text begins.
        const head = cellText(opening, vocab, edge);
        return head && worded.test(head) && value.startsWith(head) ? head.length : 0;
      }
      opening.push(it);
    }
  return 0;
}

/** A stretch of a cell's text under one link. */
interface LinkRange {
  start: number;
  end: number;
  href: string;
}

/**
 * Where a cell's linked runs stand in its text: runs in reading order under one link make one
 * stretch, its text built as the cell's is (a web address wrapped over two lines stays one), found
 * in the cell's text after the stretch before. Blank runs belong to no stretch; two stretches of
 * one link with only blanks between are one.
 */
function linkRanges(value: string, runs: TextItem[], vocab: () => Vocabulary, edge: CellEdge): LinkRange[] | null {
  if (!runs.some(linked)) return null;
  const out: LinkRange[] = [];
  let group: TextItem[] = [];
  let href: string | undefined;
  let from = 0;
  const flush = () => {
    // Unlinked stretches are found too, so a link is looked for after them: "the data, then the
    // data" with the second linked links the second.
    const t = group.length ? cellText(group, vocab, edge) : '';
    const at = t ? value.indexOf(t, from) : -1;
    if (at >= 0) {
      const last = out[out.length - 1];
      if (href && last && last.href === href && !value.slice(last.end, at).trim()) last.end = at + t.length;
      else if (href) out.push({ start: at, end: at + t.length, href });
      from = at + t.length;
    }
    group = [];
  };
  for (const line of textLines(runs))
    for (const it of line) {
      if (!it.str.trim()) continue;
      if (it.href !== href) {
        flush();
        href = it.href;
      }
      group.push(it);
    }
  flush();
  return out.length ? out : null;
}

const linked = (it: TextItem): boolean => it.href !== undefined;

/** A cell's text as inline content: its first `bold` characters strong, its link stretches links. */
function marked(value: string, bold: number, links: LinkRange[]): Inline[] {
  const cuts = new Set([0, value.length]);
  if (bold > 0 && bold < value.length) cuts.add(bold);
  for (const l of links) {
    cuts.add(l.start);
    cuts.add(l.end);
  }
  const at = [...cuts].sort(ascending);
  const out: Inline[] = [];
  let openRange: LinkRange | undefined;
  let openNode: Link | undefined;
  let k = 0;
  for (let i = 0; i + 1 < at.length; i++) {
    const a = at[i] as number;
    const s = value.slice(a, at[i + 1] as number);
    const node = a < bold && worded.test(s) ? strong(s) : text(s);
    while (k < links.length && (links[k] as LinkRange).end <= a) k++;
    const range = links[k];
    if (range && range.start <= a) {
      if (openNode && openRange === range) openNode.children.push(node);
      else {
        openRange = range;
        openNode = link(range.href, [node]);
        out.push(openNode);
      }
    } else out.push(node);
  }
  return out;
}

/** The size of the largest of `runs` (0 for none). */
function largestSize(runs: readonly TextItem[]): number {
  let size = 0;
  for (const it of runs) if (it.size > size) size = it.size;
  return size;
}

/** A footnote mark is at most this many characters ("1", "a", "*", "1,2", "†‡"). */
const MARK_CHARS = 3;

/**
 * The cell's footnote marks: short runs set smaller than the rest of their line (under 85 % of its
 * size) and raised above its baseline by more than a sixth of it, as a "1" or "a" after a figure
 * or a heading is. Null when there are none (most cells: one pass over the runs says so).
 */
function footnoteMarks(runs: TextItem[]): Set<TextItem> | null {
  const big = largestSize(runs);
  let small = false;
  for (const it of runs) if (it.size < big * 0.85) small = true;
  if (!small) return null;
  let marks: Set<TextItem> | null = null;
  for (const line of textLines(runs)) {
    let size = 0;
    let base = 0;
    for (const it of line)
      if (it.size > size + 0.01) {
        size = it.size;
        base = it.y + it.h;
      }
    for (const it of line) {
      const t = it.str.trim();
      if (!t || t.length > MARK_CHARS || it.size >= size * 0.85 || it.y + it.h > base - size * 0.17) continue;
      marks ??= new Set();
      marks.add(it);
    }
  }
  return marks;
}

/**
 * Brackets a mark's text in the cell's text while cellText joins the runs, which keeps them in place.
 * Private-use code points: a run holding this pair itself has its inside raised, a cosmetic slip.
 */
const MARK_OPEN = '\ue000';
const MARK_CLOSE = '\ue001';
const markPieces = new RegExp(`${MARK_OPEN}([^${MARK_CLOSE}]*)${MARK_CLOSE}`, 'g');

/** The superscript forms of the characters footnote marks are made of. */
const superscripts: Record<string, string> = {
  ...Object.fromEntries([...'0123456789'].map((c, i) => [c, '⁰¹²³⁴⁵⁶⁷⁸⁹'[i]])),
  '(': '⁽',
  ')': '⁾',
  '+': '⁺',
  '-': '⁻',
  '=': '⁼',
  a: 'ᵃ',
  b: 'ᵇ',
  c: 'ᶜ',
  d: 'ᵈ',
  e: 'ᵉ',
  f: 'ᶠ',
  g: 'ᵍ',
  h: 'ʰ',
  i: 'ⁱ',
  j: 'ʲ',
  k: 'ᵏ',
  l: 'ˡ',
  m: 'ᵐ',
  n: 'ⁿ',
  o: 'ᵒ',
  p: 'ᵖ',
  r: 'ʳ',
  s: 'ˢ',
  t: 'ᵗ',
  u: 'ᵘ',
  v: 'ᵛ',
  w: 'ʷ',
  x: 'ˣ',
  y: 'ʸ',
  z: 'ᶻ',
};

/** What parts a mark's raised characters ("1,2", "3-5"): kept as they are between them. */
const markSeparators = new Set([',', '-', '–']);

/**
 * A mark in superscript characters where each has one, its separators kept ("15,110²", "23ʳᵈ",
 * "15,110¹,²"), else as it is ("North*": a symbol cannot run into a figure as a digit would).
 */
function raisedMark(mark: string): string {
  let out = '';
  for (const c of mark) {
    const up = superscripts[c] ?? (markSeparators.has(c) ? c : undefined);
    if (up === undefined) return mark;
    out += up;
  }
  return out;
}

/**
 * The cell's text with its footnote marks raised: a table cell is plain text, and a mark joined to
 * a figure as a digit would change the figure ("15,110" with mark "2" is not "15,1102").
 */
function markedText(runs: TextItem[], marks: Set<TextItem>, vocab: () => Vocabulary, edge: CellEdge): string {
  const bracketed: TextItem[] = [];
  for (const it of runs)
    bracketed.push(marks.has(it) ? { ...it, str: `${MARK_OPEN}${it.str.trim()}${MARK_CLOSE}` } : it);
  return cellText(bracketed, vocab, edge).replace(markPieces, (_, mark: string) => raisedMark(mark));
}

/** Whether a cell's runs hold a word not in bold. */
const hasPlainWords = (runs: TextItem[]): boolean => runs.some((it) => !it.bold && worded.test(it.str));

const strong = (value: string): Strong => ({ type: 'strong', children: [text(value)] });

/** Whether the filled cells look like a table: text in at least two rows and two columns. */
export function looksTabular(layout: Layout, texts: string[]): boolean {
  const rows = new Set<number>();
  const cols = new Set<number>();
  let filled = 0;
  for (const [k, c] of layout.cells.entries()) {
    if (!texts[k]) continue;
    filled++;
    rows.add(c.r);
    cols.add(c.c);
  }
  return filled >= 4 && rows.size >= 2 && cols.size >= 2;
}
