import type { Block, Table } from '../../../tree/types.ts';
import { append, replaceContents } from '../../../util/arrays.ts';
import { readsOn } from '../../../util/letters.ts';
import type { Vocabulary } from '../hyphens.ts';
import type { PageModel, TableRegion, TextItem } from '../model.ts';
import { columnEdges, rowsOf, tableColumns } from './borderless.ts';
import { lineItem, markerAlone } from './cell-lists.ts';
import {
  byLeft,
  byMiddle,
  cellText,
  clusterPositions,
  fillLayout,
  type Layout,
  layoutFromJoins,
  lineCells,
  looksTabular,
  runsBlocks,
  slotOf,
  textLines,
} from './cells.ts';
import { type NestedBox, nestedGrids } from './nested.ts';
import type { Grid, Line } from './rulings.ts';
import { wordCount } from './words.ts';

/** Rulings closer than this are one boundary (double rules, a stroke beside a fill edge). */
const SAME_EDGE = 4;
/** Share of a slot's side a ruling must cover to separate it from its neighbour. */
const COVER = 0.6;

const covered = (lines: Line[], at: number, from: number, to: number): boolean => {
  const need = (to - from) * COVER;
  let got = 0;
  for (const l of lines) {
    if (Math.abs(l.at - at) > SAME_EDGE) continue;
    got += Math.max(0, Math.min(l.to, to) - Math.max(l.from, from));
    if (got >= need) return true;
  }
  return false;
};

/**
 * A grid's two outer edges and its rulings' positions along one axis. Pushed into a literal, not
 * spread from a map: map's result is packed from the builtin but holey once the caller is optimized.
 */
function edges(first: number, last: number, lines: Line[]): number[] {
  const out = [first, last];
  for (const l of lines) out.push(l.at);
  return out;
}

/**
 * A table from one grid of rulings: boundaries where lines run, cells merged where an inner
 * ruling is missing, text runs assigned by their centre. Null when the grid frames no table
 * (a box around a paragraph, a figure's axes).
 */
export function ruledTable(
  grid: Grid,
  page: PageModel,
  taken: Set<number>,
  vocab: () => Vocabulary,
): TableRegion | null {
  // A table nested in a cell is read as a table inside that cell (`nestTables`); where the outer
  // grid is then no table (a layout's frame), the grid is read whole.
  const unnested = nestedGrids(grid);
  const outer = unnested ? gridTable(unnested.grid, page, taken, vocab, unnested.boxes) : null;
  return outer ?? gridTable(grid, page, taken, vocab, NONE_NESTED);
}

const NONE_NESTED: NestedBox[] = [];

function gridTable(
  grid: Grid,
  page: PageModel,
  taken: Set<number>,
  vocab: () => Vocabulary,
  nested: NestedBox[],
): TableRegion | null {
  const ys = clusterPositions(edges(grid.y0, grid.y1, grid.h), SAME_EDGE);
  if (grid.open) {
    const top = headerAbove(page, taken, grid);
    if (top !== null) ys.unshift(top);
  }
  const ruledXs = grid.open ? null : clusterPositions(edges(grid.x0, grid.x1, grid.v), SAME_EDGE);
  if (ruledXs && ys.length === 2) return loneRow(grid, page, taken, ruledXs, ys, vocab);
  if (ys.length < 3 || (ruledXs && ruledXs.length < 3)) return null;
  const x0 = ruledXs ? (ruledXs[0] as number) : grid.x0;
  const x1 = ruledXs ? (ruledXs[ruledXs.length - 1] as number) : grid.x1;
  const y0 = ys[0] as number;
  const y1 = ys[ys.length - 1] as number;
  const indices = itemsWithin(page, taken, x0, x1, y0, y1);
  if (indices.length < 4) return null;
  // The outer table's own runs: a nested table's lines say nothing of where its rows and columns
  // run (they are whole in their cell, and split into the nested table's columns).
  const own = nested.length ? indices.filter((i) => !inAnyBox(page.items[i] as TextItem, nested)) : indices;
  const xs = ruledXs ? closeGaps(ruledXs, page, own, 'x') : textColumnEdges(page, indices, x0, x1);
  replaceContents(ys, closeGaps(ys, page, own, 'y'));
  if (ruledXs) replaceContents(ys, withoutLabelTileEdges(xs, ys, grid, page, own));
  if (xs.length < 3 || ys.length < 3) return null;
  const split = textRowBreaks(xs, ys, page, own, grid.open);
  if (split.size) {
    append(ys, split);
    ys.sort((a, b) => a - b);
  }
  // Columns found in the text of an open grid are walls wherever no run crosses them.
  const crossed = grid.open ? crossings(page, indices, xs, ys) : null;
  const ruledAcross = (r: number) => {
    for (let c = 0; c + 1 < xs.length; c++)
      if (!covered(grid.h, ys[r + 1] as number, xs[c] as number, xs[c + 1] as number)) return false;
    return true;
  };
  // Asked only where a ruled grid leaves a row edge out: fully ruled tables never pay for it.
  let apart: Set<number> | undefined;
  const keptApart = (r: number, c: number) => {
    if (grid.open) return false;
    apart ??= rowsApart(bandLines(xs, ys, page, own), xs.length, ruledAcross);
    return apart.has(r * xs.length + c);
  };
  const layout = layoutFromJoins(
    xs,
    ys,
    (r, c) =>
      crossed
        ? crossed.has(r * xs.length + c + 1)
        : !covered(grid.v, xs[c + 1] as number, ys[r] as number, ys[r + 1] as number),
    (r, c) =>
      !split.has(ys[r + 1] as number) &&
      !covered(grid.h, ys[r + 1] as number, xs[c] as number, xs[c + 1] as number) &&
      !keptApart(r, c),
  );
  const { table, texts, runs, bbox } = fillLayout(layout, page.items, indices, !grid.open, vocab);
  if (!looksTabular(layout, texts) || framesLayout(runs, nested) || panelUnderHeads(layout, texts)) return null;
  if (grid.open && prose(texts)) return null;
  if (nested.length) nestTables(table, layout, runs, nested, page, taken, vocab);
  return { bbox, table, itemIndices: indices, ys: layout.ys, ruled: true, openHyphens: false };
}

/** Words of a box under a grid's heads beyond which it holds prose (`panelUnderHeads`). */
const PANEL_WORDS = 30;

/**
 * A row of heads over boxes as wide as the grid, one holding prose: tabs over a panel, a title
 * block over a drawing's frame. Read as a table, each box was written once under every head, as a
 * span is. A table's row across it (a section's title, "Best practice scenario") is short.
 */
function panelUnderHeads(layout: Layout, texts: string[]): boolean {
  const cols = layout.xs.length - 1;
  let prose = false;
  for (const [k, c] of layout.cells.entries()) {
    if (c.r === 0) continue;
    if (c.colSpan < cols) return false;
    if (wordCount(texts[k] ?? '') > PANEL_WORDS) prose = true;
  }
  return prose;
}

/** The top of each page's highest text (the middle of its highest run), found once per page. */
const textTops = new WeakMap<PageModel, number>();
function textTop(page: PageModel): number {
  let top = textTops.get(page);
  if (top === undefined) {
    top = Number.POSITIVE_INFINITY;
    for (const it of page.items) if (!it.rotated && it.str.trim()) top = Math.min(top, it.y + it.h / 2);
    textTops.set(page, top);
  }
  return top;
}

/**
 * A grid of one ruled row: the last row of a table that ran over the end of a page, printed alone
 * at the top of the next with no header repeated. Only a row with no text above it on its page and
 * two columns or more, each holding a short text; a box around a line, or a form's boxed fields
 * further down a page, is no such row. Its cells are no headings, which is how the document knows
 * to join it to the table that ends the page before (`joinContinuedTables`).
 */
function loneRow(
  grid: Grid,
  page: PageModel,
  taken: Set<number>,
  xs: number[],
  ys: number[],
  vocab: () => Vocabulary,
): TableRegion | null {
  const y0 = ys[0] as number;
  const y1 = ys[1] as number;
  if (xs.length < 3 || textTop(page) < y0) return null;
  const indices = itemsWithin(page, taken, xs[0] as number, xs[xs.length - 1] as number, y0, y1);
  const layout = layoutFromJoins(
    xs,
    ys,
    (_, c) => !covered(grid.v, xs[c + 1] as number, y0, y1),
    () => false,
  );
  if (layout.cells.length < 2) return null;
  const { table, texts, runs, bbox } = fillLayout(layout, page.items, indices, true, vocab);
  if (texts.some((t) => !t) || prose(texts) || framesLayout(runs, NONE_NESTED)) return null;
  for (const c of table.children[0]?.children ?? []) c.header = undefined;
  return { bbox, table, itemIndices: indices, ys: layout.ys, ruled: true, openHyphens: false };
}

/** Slots narrower than this that hold no text are the inside of a doubled rule. */
const GAP_SLOT = 2 * SAME_EDGE;

/**
 * Boundaries with the empty slots of doubled rules closed. Tables drawn as tiles (a filled box per
 * cell, a hairline of page between them) or with double rules have two or three edges a few points
 * apart at every boundary; each pair made a column or row of its own, empty, between the real ones
 * (a table of 8 columns read as 24, with empty rows between). A run of slots that narrow, with no
 * run's centre in them, is one boundary: its middle edge, or the middle of a pair, where `covered`
 * still finds the rules (within SAME_EDGE).
 */
function closeGaps(edges: number[], page: PageModel, indices: number[], axis: 'x' | 'y'): number[] {
  const out: number[] = [];
  for (let k = 0; k < edges.length; ) {
    let j = k;
    while (
      j + 1 < edges.length &&
      (edges[j + 1] as number) - (edges[j] as number) < GAP_SLOT &&
      !centreBetween(page, indices, axis, edges[j] as number, edges[j + 1] as number)
    )
      j++;
    const mid = (k + j) / 2;
    out.push(((edges[Math.floor(mid)] as number) + (edges[Math.ceil(mid)] as number)) / 2);
    k = j + 1;
  }
  return out;
}

/**
 * Row boundaries that only part a wrapped row label. Tables drawn as tiles give each line of a
 * first-column label a box of its own while the row's other cells are one box over both lines
 * ("Chlorine and inorganic compounds" over "(as HCl)", "10 000" beside them): the edge between the
 * label's boxes is a rule in the first column alone, and read as a boundary it made two rows with
 * the row's figures repeated in both. Such an edge goes where no other column is ruled there and
 * the label's second line goes on from the first (lower case, an opening parenthesis or a
 * parenthesis left open above); two labels sharing a figure keep their rows.
 */
function withoutLabelTileEdges(xs: number[], ys: number[], grid: Grid, page: PageModel, indices: number[]): number[] {
  if (xs.length < 4) return [...ys];
  const x0 = xs[0] as number;
  const x1 = xs[1] as number;
  const out = [ys[0] as number];
  for (let k = 1; k + 1 < ys.length; k++) {
    const y = ys[k] as number;
    let lone = covered(grid.h, y, x0, x1);
    for (let c = 1; lone && c + 1 < xs.length; c++) lone = !covered(grid.h, y, xs[c] as number, xs[c + 1] as number);
    if (
      !lone ||
      !continues(
        slotText(page, indices, x0, x1, out[out.length - 1] as number, y),
        slotText(page, indices, x0, x1, y, ys[k + 1] as number),
      )
    )
      out.push(y);
  }
  out.push(ys[ys.length - 1] as number);
  return out;
}

/** The text of the runs centred in a box, top to bottom. */
function slotText(page: PageModel, indices: number[], x0: number, x1: number, y0: number, y1: number): string {
  const runs: TextItem[] = [];
  for (const i of indices) {
    const it = page.items[i] as TextItem;
    if (centredIn(it, x0, x1, y0, y1)) runs.push(it);
  }
  return cellText(runs);
}

/** Whether a label's next line goes on from the one above rather than starting a label. */
function continues(above: string, below: string): boolean {
  if (!above || !below) return false;
  if (/^[\p{Ll}(]/u.test(below)) return true;
  return (above.match(/\(/g)?.length ?? 0) > (above.match(/\)/g)?.length ?? 0);
}

function centreBetween(page: PageModel, indices: number[], axis: 'x' | 'y', a: number, b: number): boolean {
  for (const i of indices) {
    const it = page.items[i] as TextItem;
    const c = axis === 'x' ? it.x + it.w / 2 : it.y + it.h / 2;
    if (c > a && c < b) return true;
  }
  return false;
}

/** Whether a run's centre lies inside the box. */
const centredIn = (it: TextItem, x0: number, x1: number, y0: number, y1: number): boolean => {
  const cx = it.x + it.w / 2;
  const cy = it.y + it.h / 2;
  return cx > x0 && cx < x1 && cy > y0 && cy < y1;
};

/** Runs not yet taken whose centre lies inside the box. */
function itemsWithin(page: PageModel, taken: Set<number>, x0: number, x1: number, y0: number, y1: number): number[] {
  const out: number[] = [];
  for (const [i, it] of page.items.entries()) {
    if (!taken.has(i) && it.str.trim() && centredIn(it, x0, x1, y0, y1)) out.push(i);
  }
  return out;
}

/**
 * The top of a header line set just above an open grid's first rule ("Animal  Action  Result",
 * then a rule, then the rows): the line right above it, within a line's height, whose runs stand
 * apart as cells inside the rules' width. Null when there is none.
 */
function headerAbove(page: PageModel, taken: Set<number>, grid: Grid): number | null {
  let line: TextItem[] = [];
  let bottom = Number.NEGATIVE_INFINITY;
  for (const [i, it] of page.items.entries()) {
    if (taken.has(i) || !it.str.trim() || it.rotated) continue;
    const cx = it.x + it.w / 2;
    if (cx <= grid.x0 || cx >= grid.x1 || it.y + it.h / 2 >= grid.y0) continue;
    const b = it.y + it.h;
    if (b > bottom + it.h * 0.5) {
      line = [it];
      bottom = b;
    } else if (b > bottom - it.h * 0.5) line.push(it);
  }
  const first = line[0];
  if (!first || grid.y0 - bottom > first.h * 1.5) return null;
  line.sort(byLeft);
  if (lineCells(line) < 2) return null;
  let top = Number.POSITIVE_INFINITY;
  for (const it of line) top = Math.min(top, it.y);
  return top - 1;
}

/** An open grid's outer edges and its column boundaries, from the gaps its text leaves. */
function textColumnEdges(page: PageModel, indices: number[], x0: number, x1: number): number[] {
  const { cols } = tableColumns(page.items, rowsOf(page.items, indices));
  const xs = [x0];
  append(xs, columnEdges(cols));
  xs.push(x1);
  return xs;
}

/**
 * Slot boundaries that a run crosses, keyed `r * xs.length + c` for boundary `xs[c]` in slot row
 * `r`: a header spanning two columns of an open grid is one cell across them.
 */
function crossings(page: PageModel, indices: number[], xs: number[], ys: number[]): Set<number> {
  const out = new Set<number>();
  for (const i of indices) {
    const it = page.items[i] as TextItem;
    const cy = it.y + it.h / 2;
    let r = 0;
    while (r < ys.length - 2 && cy >= (ys[r + 1] as number)) r++;
    for (let c = 1; c + 1 < xs.length; c++) {
      const b = xs[c] as number;
      if (it.x < b - 1 && it.x + it.w > b + 1) out.add(r * xs.length + c);
    }
  }
  return out;
}

/**
 * Whether the cells hold running text: horizontal rules also set off paragraphs, pull quotes and
 * sections, whose "cells" are many words long. Table cells are labels, numbers and short phrases.
 */
function prose(texts: string[]): boolean {
  let filled = 0;
  let long = 0;
  for (const t of texts) {
    if (!t) continue;
    filled++;
    if (t.split(' ').length > 12) long++;
  }
  return long * 3 > filled;
}

/** A text line inside one band of a ruled table: where it sits and which columns it fills. */
interface BandLine {
  mid: number;
  top: number;
  bottom: number;
  h: number;
  cols: Set<number>;
  /** A run of the line crosses a column boundary: a label spanning the columns under it. */
  spans: boolean;
  /** The line's runs, in the order met (`columnRuns` sorts a column's). */
  runs: TextItem[];
}

/**
 * Rows that the rulings leave out. Tables ruled only above and below a block of rows (booktabs,
 * column rules only) hold several text lines between two horizontal rulings; where those lines
 * run across two columns or more, each is a row of its own. A line with text in one column only
 * is a cell's wrapped text and stays with the line above. The header band keeps its lines:
 * headers wrap across columns.
 */
function textRowBreaks(xs: number[], ys: number[], page: PageModel, indices: number[], open: boolean): Set<number> {
  const bands = bandLines(xs, ys, page, indices);
  const breaks = new Set<number>();
  const starts = open
    ? openRowStarts(bands, xs.length - 1)
    : [[], ...ruledRowStarts(bands.slice(1), ys.length <= 4, xs)];
  for (const [b, ks] of starts.entries()) {
    const lines = bands[b] as BandLine[];
    for (const k of ks) breaks.add(((lines[k - 1] as BandLine).bottom + (lines[k] as BandLine).top) / 2);
  }
  return breaks;
}

/** The text lines of each band, top to bottom. */
function bandLines(xs: number[], ys: number[], page: PageModel, indices: number[]): BandLine[][] {
  const spans = (it: TextItem) => {
    for (let c = 1; c + 1 < xs.length; c++) {
      const b = xs[c] as number;
      if (it.x < b - 1 && it.x + it.w > b + 1) return true;
    }
    return false;
  };
  const bands: BandLine[][] = [];
  for (let r = 0; r + 1 < ys.length; r++) {
    const top = ys[r] as number;
    const bottom = ys[r + 1] as number;
    const lines: BandLine[] = [];
    // A loop and a module comparator, not map/filter/sort with closures made for every band.
    const inBand: TextItem[] = [];
    for (const i of indices) {
      const it = page.items[i] as TextItem;
      if (it.y + it.h / 2 > top && it.y + it.h / 2 < bottom) inBand.push(it);
    }
    inBand.sort(byMiddle);
    for (const it of inBand) {
      const mid = it.y + it.h / 2;
      const line = lines[lines.length - 1];
      const c = slotOf(xs, it.x + it.w / 2);
      if (line && Math.abs(mid - line.mid) < Math.max(2, Math.min(line.h, it.h) * 0.5)) {
        line.cols.add(c);
        line.top = Math.min(line.top, it.y);
        line.bottom = Math.max(line.bottom, it.y + it.h);
        line.spans ||= spans(it);
        line.runs.push(it);
      } else {
        const at = new Set([c]);
        lines.push({
          mid,
          top: it.y,
          bottom: it.y + it.h,
          h: it.h,
          cols: at,
          spans: spans(it),
          runs: [it],
        });
      }
    }
    bands.push(lines);
  }
  return bands;
}

/**
 * Row starts (line indices per band) of a grid with column rulings. Fully ruled grids draw every
 * row, so their several-line bands are wrapped cells; mostly tables ruled at the top, under the
 * header and at the bottom (`sparse`) leave rows out. Each row names itself in the first column;
 * lines beside a first-column label centred over them ("6 | OTSL …" over "HTML …") are sub-lines
 * of one row.
 */
function ruledRowStarts(bands: BandLine[][], sparse: boolean, xs: number[]): number[][] {
  const out: number[][] = [];
  for (const lines of bands) {
    const starts: number[] = [];
    out.push(starts);
    if (lines.some((l) => l.cols.size >= 2 && !l.cols.has(0)) || !lines[0] || !rowLine(lines[0])) continue;
    for (let k = 1; k < lines.length; k++)
      if (rowLine(lines[k] as BandLine) && !listGoesOn(lines, k, xs)) starts.push(k);
    if (!sparse && starts.length < 2) starts.length = 0;
  }
  return out;
}

/** A line's runs in column `c`, left to right. */
function columnRuns(l: BandLine, xs: number[], c: number): TextItem[] {
  const out: TextItem[] = [];
  for (const it of l.runs) if (slotOf(xs, it.x + it.w / 2) === c) out.push(it);
  return out.sort(byLeft);
}

/** The nearest line above line `k` with text in column `c`, or null. */
function lineAbove(lines: BandLine[], k: number, c: number): BandLine | null {
  for (let j = k - 1; j >= 0; j--) if ((lines[j] as BandLine).cols.has(c)) return lines[j] as BandLine;
  return null;
}

/**
 * Whether line `k` of a band goes on with lists inside its cells, and so starts no row: in some
 * column it opens a list's item (`lineItem`) under earlier text of that column (a second column's
 * items beside the first's: parallel lists, or a list beside a wrapped label), or, in the first
 * column, set in from the band's first line (items under their lead-in); and each of its other
 * columns is an item too, or reads on from the line above (a label's wrapped words). A line whose
 * other columns hold values beside an item ("• Servers" over "• Switches", each with its cost; a
 * feature matrix's "• Yes" beside a new label) starts a row, as does one whose first column opens
 * with a bullet at the column's edge (a checklist).
 */
function listGoesOn(lines: BandLine[], k: number, xs: number[]): boolean {
  const l = lines[k] as BandLine;
  let goesOn = false;
  for (const c of l.cols) {
    const runs = columnRuns(l, xs, c);
    if (lineItem(runs)) {
      if (c > 0) goesOn ||= lineAbove(lines, k, c) !== null;
      else {
        const first = columnRuns(lines[0] as BandLine, xs, 0)[0];
        const lead = runs[0] as TextItem;
        goesOn ||= !!first && lead.x > first.x + lead.h;
      }
      continue;
    }
    const above = lineAbove(lines, k, c);
    if (!above) return false;
    const aboveRuns = columnRuns(above, xs, c);
    if (!readsOn((aboveRuns[aboveRuns.length - 1] as TextItem).str.trim(), (runs[0] as TextItem).str.trim()))
      return false;
  }
  return goesOn;
}

/** A line that starts a row of a ruled table: it names the row in the first column and fills another. */
const rowLine = (l: BandLine): boolean => l.cols.size >= 2 && l.cols.has(0);

/**
 * Slots kept apart where a ruled column runs on without a rule, keyed `r * xs.length + c` for the
 * boundary under slot row `r` in column `c`. Rows coloured one by one in a single column (an
 * "Accuracy Level" column shaded per row, groups of rows ruled across the table) give row edges in
 * that column alone, and the other columns read each group as one cell of five names. Where both
 * sides of such an edge hold a row (a line naming itself in the first column), a column with one
 * line of text on each side holds two rows' values. A cell spanning the rows with its text on one
 * side only (a group's level beside its middle row) stays one cell, as do a paragraph wrapped
 * down a cell that spans several rows and a first-column label beside rows that do not name
 * themselves. The header's bands are left as they are.
 */
function rowsApart(bands: BandLine[][], width: number, ruledAcross: (r: number) => boolean): Set<number> {
  const out = new Set<number>();
  // The header ends at the first rule across the whole table; above it, a heading wraps over a
  // rule drawn under a spanning label only ("# enc-layers" beside "TEDs" over "simple complex").
  let start = 0;
  while (start + 1 < bands.length && !ruledAcross(start)) start++;
  /** Lines of the band with text in each column. */
  const lineCounts = (lines: BandLine[]) => {
    const n = new Map<number, number>();
    for (const l of lines) for (const c of l.cols) n.set(c, (n.get(c) ?? 0) + 1);
    return n;
  };
  for (let r = start + 1; r + 1 < bands.length; r++) {
    const above = bands[r] as BandLine[];
    const below = bands[r + 1] as BandLine[];
    if (!above.some(rowLine) || !below.some(rowLine)) continue;
    const a = lineCounts(above);
    for (const [c, n] of lineCounts(below)) if (n === 1 && a.get(c) === 1) out.add(r * width + c);
  }
  return out;
}

/**
 * Row starts of an open grid (horizontal rules only), header band first. Where most bands below
 * the header hold one line of several cells, the rules draw every row and the other lines are
 * wrapped cells (one animal per band, its sound over six lines). Otherwise (booktabs) every line
 * that fills about as many columns as the band's fullest is a row; a first-column label set beside
 * the middle of its rows ("Single" over three retrievers) just fills one line more, and a label
 * wrapped under its row's first line stays in that row.
 */
function openRowStarts(bands: BandLine[][], columns: number): number[][] {
  const full = (l: BandLine) => l.cols.size >= 2;
  let ruledRows = 0;
  for (const lines of bands.slice(1)) if (lines.filter(full).length === 1) ruledRows++;
  const every = ruledRows * 2 >= bands.length - 1;
  const out: number[][] = [];
  for (const [b, lines] of bands.entries()) {
    const starts: number[] = [];
    out.push(starts);
    let most = 0;
    for (const l of lines) most = Math.max(most, l.cols.size);
    const enough = Math.max(2, most - Math.floor(columns / 5));
    for (let k = 1; k < lines.length; k++) {
      const l = lines[k] as BandLine;
      // A label spanning the columns under it is a row above theirs, in the header too.
      if ((lines[k - 1] as BandLine).spans && !l.spans) starts.push(k);
      else if (b > 0 && !every && l.cols.size >= enough) starts.push(k);
    }
  }
  return out;
}

/** A nested table read, and where it stands. */
interface Nested {
  box: NestedBox;
  inner: Table;
}

const middle = (b: NestedBox): number => (b.y0 + b.y1) / 2;

/**
 * The one cell holding a nested table's runs, or -1: one that runs across the outer table's rows
 * (an outer table ruled only at its head and foot, its rows found from its text) is left as read.
 */
function onlyCell(runs: TextItem[][], box: NestedBox): number {
  let at = -1;
  for (const [k, rs] of runs.entries()) {
    if (!rs.some((it) => inBox(it, box))) continue;
    if (at >= 0) return -1;
    at = k;
  }
  return at;
}

/**
 * Puts each nested table in its cell as a table of its own, with the cell's text above, between
 * and under such tables as paragraphs (renderers that cannot nest a table flatten it: Markdown joins
 * its rows with line breaks and its cells with bars). A nested grid that reads as no table stays
 * part of its cell's text.
 */
function nestTables(
  table: Table,
  layout: Layout,
  runs: TextItem[][],
  nested: NestedBox[],
  page: PageModel,
  taken: Set<number>,
  vocab: () => Vocabulary,
): void {
  const byCell = new Map<number, Nested[]>();
  for (const box of nested) {
    const k = onlyCell(runs, box);
    const inner = k < 0 ? null : gridTable(box.grid, page, taken, vocab, NONE_NESTED);
    if (!inner) continue;
    const list = byCell.get(k) ?? [];
    list.push({ box, inner: inner.table });
    byCell.set(k, list);
  }
  for (const [k, inners] of byCell) {
    const spot = layout.cells[k] as Layout['cells'][number];
    let j = 0;
    for (let q = 0; q < k; q++) if ((layout.cells[q] as Layout['cells'][number]).r === spot.r) j++;
    const target = table.children[spot.r]?.children[j];
    if (!target) continue;
    inners.sort((a, b) => a.box.y0 - b.box.y0);
    // The cell's own runs, each before the first nested table whose middle is under it.
    const gaps: TextItem[][] = [];
    for (let g = 0; g <= inners.length; g++) gaps.push([]);
    for (const it of runs[k] as TextItem[]) {
      if (inners.some((n) => inBox(it, n.box))) continue;
      const mid = it.y + it.h / 2;
      let g = 0;
      while (g < inners.length && mid > middle((inners[g] as Nested).box)) g++;
      (gaps[g] as TextItem[]).push(it);
    }
    const blocks: Block[] = [];
    for (const [g, gap] of gaps.entries()) {
      append(blocks, runsBlocks(gap, vocab));
      const inner = inners[g];
      if (inner) blocks.push(inner.inner);
    }
    target.children = blocks;
  }
}

/** Whether a run's middle stands in a nested table's box. */
const inBox = (it: TextItem, b: NestedBox): boolean => centredIn(it, b.x0, b.x1, b.y0, b.y1);

/** Whether a run's middle stands in any of the boxes. */
const inAnyBox = (it: TextItem, boxes: readonly NestedBox[]): boolean => boxes.some((b) => inBox(it, b));

/**
 * Whether the grid is a frame around a layout rather than a table: its "cells" hold lines that
 * are themselves broken into columns by wide gutters (a key/value box, a totals block inside a page
 * border or section boxes). A real ruled table gives each column its own cell, so its cells' lines
 * are single runs of words; the text of a frame reads better as the paragraphs and borderless
 * tables it holds.
 */
function framesLayout(runs: TextItem[][], nested: NestedBox[]): boolean {
  let lines = 0;
  let split = 0;
  for (const cellRuns of runs) {
    // A nested table's rows are split into its columns: they are its cells, not the outer one's.
    const outer = nested.length ? cellRuns.filter((it) => !inAnyBox(it, nested)) : cellRuns;
    for (const line of textLines(outer)) {
      lines++;
      // A list item's bullet stands a tab before its text: the item is one cell's line.
      const marked = line.length > 1 && markerAlone(line);
      if (lineCells(marked ? line.slice(1) : line) >= 2) split++;
    }
  }
  // Across the corpus real ruled tables have no such line at all; a stray one (a value with a
  // tab stop inside a cell) must not cost a table its rulings.
  return split >= 3 && split >= lines * 0.15;
}
