import { append, firstPlace, maxOf, median, nearRange } from '../../../util/arrays.ts';
import { ENDS_SENTENCE, LETTER, readsOn, STARTS_LOWER } from '../../../util/letters.ts';
import { CHECK_BOX } from '../boxes.ts';
import { inFootBand, inHeadBand } from '../furniture.ts';
import { endsHyphen, type Vocabulary } from '../hyphens.ts';
import { bulletWord, enumerator } from '../markers.ts';
import type { PageModel, Segment, TableRegion, TextItem } from '../model.ts';
import { projection } from '../spans.ts';
import { bandedTables } from './banded.ts';
import { byLeft, fillLayout, type Layout, looksTabular, rowBounds, slotLayout, slotOf } from './cells.ts';
import { turnedRuns, turnedStub } from './stub.ts';
import { type CellRuns, type Cut, cellRuns, cutsAcross, figure } from './tokens.ts';
import { endsInSpace, type LetterWords, letterWords, wordCount } from './words.ts';

/** Empty vertical bands at least this wide that run the height of the page split it into layout columns. */
const GUTTER = 36;
/** Gap between two runs of one line that makes them separate cells (in line heights; and points). */
const CELL_GAP = 1.2;
const MIN_CELL_GAP = 6;
/** Gap in the horizontal projection of a table's text that separates two columns. */
const COLUMN_GAP = 5;

export interface Row {
  items: number[];
  top: number;
  bottom: number;
  h: number;
  /** Horizontal extents of the row's cell-like chunks. */
  chunks: [number, number][];
}

/** Whether text from `top` to `bottom` lies inside the page's top and bottom margins (where furniture sits). */
const inBody = (top: number, bottom: number, pageHeight: number): boolean =>
  top > pageHeight * 0.045 && bottom < pageHeight * 0.955;

/**
 * Each item's horizontal extent. Every span array is built here, pushed into one literal: map
 * makes an empty result another kind of array than a full one, and `projection` would see both.
 */
function extents(items: TextItem[], idx: number[]): [number, number][] {
  const out: [number, number][] = [];
  for (const i of idx) {
    const it = items[i] as TextItem;
    out.push([it.x, it.x + it.w]);
  }
  return out;
}

/** An x range of the page and how far down its text runs. */
interface Band {
  a: number;
  b: number;
  top: number;
  bottom: number;
}

/** The one place bands are made: one object shape for the code that reads them. */
const band = (a: number, b: number, top: number, bottom: number): Band => ({ a, b, top, bottom });

/**
 * The band holding the item's centre (the first band when none does). Module-level, like the
 * comparators: a closure is a new function on every call, compiled again once earlier calls' copies
 * are collected.
 */
function bandOf(bands: Band[], it: TextItem): number {
  const cx = it.x + it.w / 2;
  for (let k = 0; k < bands.length; k++) {
    const b = bands[k] as Band;
    if (cx >= b.a && cx <= b.b) return k;
  }
  return 0;
}

/** Whether a band's text runs down a good part of the page. */
const tall = (b: Band, pageHeight: number): boolean => b.bottom - b.top >= pageHeight * 0.4;

/**
 * Layout columns of the page: x ranges separated by gutters that no text crosses, where the text on
 * each side runs down a good part of the page (a table's own wide column gap is not a gutter). Dot
 * leaders are no cells, but they cross the gap they fill: `bridges` are the page runs holding one
 * (alone or parted), so that a contents page's entries and its pages are one column of the layout.
 */
function regions(items: TextItem[], idx: number[], bridges: number[], pageHeight: number): number[][] {
  const bands: Band[] = [];
  for (const [a, b] of projection(extents(items, bridges.length ? [...idx, ...bridges] : idx), GUTTER))
    bands.push(band(a, b, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY));
  for (const i of idx) {
    const it = items[i] as TextItem;
    const band = bands[bandOf(bands, it)];
    // A page number or running head in a corner does not make the text above it a layout column
    // (a scanned form's "Page 2 of 3" under a table's last column split that column off).
    if (!band || !inBody(it.y, it.y + it.h, pageHeight)) continue;
    band.top = Math.min(band.top, it.y);
    band.bottom = Math.max(band.bottom, it.y + it.h);
  }
  for (let k = 0; k + 1 < bands.length; ) {
    const l = bands[k] as Band;
    const r = bands[k + 1] as Band;
    if (tall(l, pageHeight) && tall(r, pageHeight)) {
      k++;
      continue;
    }
    bands.splice(k, 2, band(l.a, r.b, Math.min(l.top, r.top), Math.max(l.bottom, r.bottom)));
  }
  const out: number[][] = [];
  for (let k = 0; k < bands.length; k++) out.push([]);
  for (const i of idx) out[bandOf(bands, items[i] as TextItem)]?.push(i);
  return out;
}

/**
 * Text lines of the given runs, top to bottom, with the cell-like chunks of each. Runs on either
 * side of one of the `cuts` (a leader between a contents entry and its page) are separate chunks.
 */
export function rowsOf(items: TextItem[], idx: number[], cuts: Cut[] = []): Row[] {
  const sorted = [...idx].sort((a, b) => {
    const A = items[a] as TextItem;
    const B = items[b] as TextItem;
    return A.y + A.h / 2 - (B.y + B.h / 2) || A.x - B.x;
  });
  const rows: Row[] = [];
  for (const i of sorted) {
    const it = items[i] as TextItem;
    const cy = it.y + it.h / 2;
    const row = rows[rows.length - 1];
    if (row && cy - (row.top + row.bottom) / 2 < Math.max(2, Math.min(row.h, it.h) * 0.6)) {
      row.items.push(i);
      row.top = Math.min(row.top, it.y);
      row.bottom = Math.max(row.bottom, it.y + it.h);
      row.h = Math.max(row.h, it.h);
    } else rows.push({ items: [i], top: it.y, bottom: it.y + it.h, h: it.h, chunks: [] });
  }
  for (const row of rows) {
    const gap = Math.max(MIN_CELL_GAP, row.h * CELL_GAP);
    const parts: number[] = [];
    for (const c of cutsAcross(cuts, row.top, row.bottom)) parts.push((c.x0 + c.x1) / 2);
    row.chunks = projection(extents(items, row.items), gap, parts);
  }
  return rows;
}

/**
 * Tables without rulings, from text alone: runs of consecutive lines that break into separate
 * cells, whose text leaves the same empty vertical channels (column gaps) on every line.
 * Conservative on purpose: at least three columns and three multi-cell lines, and the two wide
 * chunks of two-column prose never count as cells. `tries`, when given, gains the rows the tries
 * read (the try budget's measure, for its test).
 */
export function borderlessTables(
  page: PageModel,
  taken: Set<number>,
  vocab: () => Vocabulary,
  tries?: { rows: number },
): TableRegion[] {
  const candidates: number[] = [];
  for (const [i, it] of page.items.entries())
    if (!taken.has(i) && it.dir !== 'ttb' && !it.rotated && it.str.trim()) candidates.push(i);
  // Runs holding two cells' text (a label and its leader, two figures) are read as their parts.
  const parted = cellRuns(page.items, candidates);
  const { items, idx, origin, leaders } = parted;
  const out: TableRegion[] = [];
  const bridges = leaders.slice();
  // Vertical rulings, which may part groups of columns under a heading each (`spanHeadings`).
  const verticals = (page.segments ?? []).filter((g) => g.x1 - g.x0 < 1 && g.y1 - g.y0 > 2);
  // Group names set upward beside a table's rows, which may be its stub (`turnedStub`).
  const turned = turnedRuns(page.items, taken);
  for (const i of parted.led) bridges.push(origin[i] as number);
  for (const region of regions(items, idx, bridges, page.height)) {
    if (region.length < 6) continue;
    const g = regionReader(page, parted, region);
    const { rows, isMulti } = g;
    const found = out.length;
    // The last row of the table found before, which a later table must not take as its header.
    let lastTaken = -1;
    // A failed try is read again from its next row, each time to its end: on a page of thousands of
    // lines that nearly make a table, quadratic. Past a budget of rows read (far above any corpus
    // page's), a failed try's rows are not tried again as starts.
    let spent = 0;
    const budget = TRY_BUDGET * rows.length + 500;
    for (let s = 0; s < rows.length; s++) {
      if (!isMulti[s] || !g.rowInBody(rows[s] as Row)) continue;
      const read = readRun(g, s);
      const { end } = read;
      spent += end - s + 1;
      const spentOut = spent > budget;
      const tried = tryRun(g, s, read, lastTaken, { bridges, verticals, turned, vocab });
      if (!tried) {
        if (spentOut) s = end;
        continue;
      }
      let took = false;
      for (const table of tried.found) {
        if (!table || !wholeRuns(table, origin)) continue;
        table.itemIndices = pageRuns(
          table,
          origin,
          parted.heads.length ? [...leaders, ...parted.heads] : leaders,
          page.items,
        );
        out.push(table);
        for (const i of table.itemIndices) taken.add(i);
        s = tried.e;
        lastTaken = tried.e;
        took = true;
      }
      if (!took && spentOut) s = end;
    }
    if (tries) tries.rows += spent;
    // Rows that are bands of lines, where the tries found no rows of cells.
    if (out.length === found) {
      for (const banded of bandedTables(rows, items, vocab, (r) => chunkTexts(r, items).texts)) {
        banded.itemIndices = pageRuns(banded, origin, leaders, page.items);
        out.push(banded);
        for (const i of banded.itemIndices) taken.add(i);
      }
    }
  }
  return out;
}

/**
 * A region's rows and what the tries ask of each row, made once a region. Apart from the tries
 * (`readRun`, `tryRun`): each function compiles on its own, and the optimizing compiler's cost
 * grows faster than a function's size (one function of all three was compiled again, whole, at
 * every deopt, for as long as a page parse of a few hundred).
 */
interface RegionReader {
  page: PageModel;
  parted: CellRuns;
  items: TextItem[];
  rows: Row[];
  /** Starts of columns of short cells with a few long ones (`shortColumns`). */
  shortCols: number[];
  /** Whether each row is one of cells (several, or a contents entry). */
  isMulti: boolean[];
  /** Whether each row is a column of prose going on beside a label (`straddles`). */
  straddling: boolean[];
  /** Whether each row goes on in every cell of the multi-cell row right above it (`wrapsAll`). */
  goesOnAbove: boolean[];
  leadered: (r: Row) => boolean;
  narrow: (r: Row) => boolean;
  inOneColumn: (r: Row, from: number, to: number) => boolean;
  rowInBody: (r: Row) => boolean;
  wrapsCell: (r: Row, from: number, to: number, head?: Row) => boolean;
  opensWrap: (r: Row, below: Row | undefined, from: number, to: number) => boolean;
  sectionBar: (r: Row, above: Row) => boolean;
  entryWraps: (r: Row, below: Row | undefined) => boolean;
  wordyRow: (k: number) => boolean;
}

/** The rows of a region of the page and the tests the tries put to them (`RegionReader`). */
function regionReader(page: PageModel, parted: CellRuns, region: number[]): RegionReader {
  const { items } = parted;
  let x0 = Number.POSITIVE_INFINITY;
  let x1 = Number.NEGATIVE_INFINITY;
  for (const i of region) {
    x0 = Math.min(x0, (items[i] as TextItem).x);
    x1 = Math.max(x1, (items[i] as TextItem).x + (items[i] as TextItem).w);
  }
  const width = x1 - x0;
  // Whether a row's chunks are cells and make a row of them is judged beside the region's text and
  // beside half the page at least: a list of labels and values alone in its region is as wide as
  // its rows ("Date of birth   1980-02-03").
  const room = Math.max(width, page.width * 0.5);
  const rows = rowsOf(items, region, parted.cuts);
  const span = ([a, b]: [number, number]) => b - a;
  // A chunk as wide as a column of prose is prose (two-column layouts, margin headings beside
  // body text), not a cell.
  const leadered = (r: Row) => rowLeaders(r, parted, page.items) > 0;
  // A contents entry, however long, is a cell: its leader sets its page apart, a narrow chunk, or
  // a value of a list (a web address) narrower than a column of prose. Beside another list, an
  // entry runs at most across its own list, half the width.
  // A row of three cells or more may end in a long one, a description beside codes, where most
  // cells of its column are short; so may a line of that column alone, the cell wrapped.
  const shortCols = shortColumns(rows, width * 0.45, items);
  const inShortColumn = (c: [number, number]) => shortCols.some((x) => Math.abs(x - c[0]) <= 3);
  const cellLike = (r: Row) =>
    r.chunks.every((c) => span(c) < room * 0.45) ||
    (r.chunks.length >= 3 &&
      r.chunks.every((c, k) => span(c) < room * 0.45 || (k === r.chunks.length - 1 && inShortColumn(c)))) ||
    (((r.chunks.length === 2 && span(r.chunks[1] as [number, number]) < room * 0.45) ||
      r.chunks.every((c) => span(c) < room * 0.5)) &&
      leadered(r));
  // Two cells make a row when one is narrow, or a leader parts them, or the first is a span of
  // dates (a CV's "Jan 2019 – Mar 2023" beside its role, as wide as a column of prose's third).
  const multi = (r: Row) =>
    cellLike(r) &&
    (r.chunks.length >= 3 ||
      (r.chunks.length === 2 &&
        (r.chunks.some((c) => span(c) < room * 0.3) ||
          leadered(r) ||
          YEARS.test(chunkTexts(r, items).texts[0] as string))));
  const narrow = (r: Row) => r.chunks.length === 1 && span(r.chunks[0] as [number, number]) < width * 0.25;
  // A label on a row of its own ("Consumption:" over its items) stays inside one column of the
  // rows `from`…`to` above it, and is a few words long; a line of prose beside a table's column
  // has more words, or runs across the gaps.
  const inOneColumn = (r: Row, from: number, to: number) => {
    if (r.chunks.length !== 1 || !cellLike(r) || wordsIn(r, items) > LABEL_WORDS) return false;
    const [a, b] = r.chunks[0] as [number, number];
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    for (let k = from; k <= to; k++) {
      if (!isMulti[k]) continue;
      let overlaps = 0;
      for (const [c, d] of (rows[k] as Row).chunks) {
        if (c >= b || d <= a) continue;
        overlaps++;
        lo = Math.min(lo, c);
        hi = Math.max(hi, d);
      }
      if (overlaps > 1) return false;
    }
    return a >= lo - 2 * r.h && b <= hi + 2 * r.h;
  };
  // Running heads and page numbers sit in the page margins; furniture removal handles them as
  // text, so they must not become a table's first or last row.
  const rowInBody = (r: Row) => inBody(r.top, r.bottom, page.height);
  // Each row is asked again for every run that might start above it: decide it once.
  // A loop into a literal, not map: map's result is packed from the builtin but holey once the
  // caller is optimized, and the loops below would meet both kinds of array.
  const isMulti: boolean[] = [];
  for (const r of rows) isMulti.push(multi(r));
  // Rows where a column of running prose goes on beside a label that starts afresh: two layout
  // columns sharing lines, not a table row (decided once a row, each against a few rows above).
  const straddling: boolean[] = [];
  for (let k = 0; k < rows.length; k++) straddling.push(isMulti[k] === true && straddles(rows, k, items));
  // Lines that go on in every cell of the multi-cell line right above (captions wrapped side by
  // side) are that row's, not rows of their own: their words are no sign of prose.
  const goesOnAbove: boolean[] = [];
  for (const [k, r] of rows.entries()) {
    const above = rows[k - 1];
    goesOnAbove.push(
      above !== undefined &&
        isMulti[k] === true &&
        isMulti[k - 1] === true &&
        tightUnder(above, r) &&
        wrapsAll(above, r, items),
    );
  }
  /**
   * A wrapped line of a cell other than the first column: it starts where such a cell starts in
   * one of the multi-cell rows `from`…`to`, or, worded, set in from it by up to a line height (a
   * list of codes under the description it belongs to: '0 = not significant' under
   * 'Affiliation'; a page's folio under a contents list's pages is no such line). Under a bold
   * heading row (`head`), a line flush with a heading's column but the first, and with a cell
   * there, is that cell's however long: the heading says where the column starts, where too few
   * rows stand to tell a column of short cells ('End of Screen Message' over 'NO TRANSACTIONS
   * ARE POSTED TO THIS ENTITY or').
   */
  const wrapsCell = (r: Row, from: number, to: number, head?: Row) => {
    if (r.chunks.length !== 1) return false;
    const start = (r.chunks[0] as [number, number])[0];
    const wide = !(cellLike(r) || inShortColumn(r.chunks[0] as [number, number]));
    if (wide && !head?.chunks.some((c, k) => k > 0 && Math.abs(c[0] - start) < 3)) return false;
    let indent = -1;
    for (let k = from; k <= to; k++) {
      if (!isMulti[k]) continue;
      const chunks = (rows[k] as Row).chunks;
      for (let c = 1; c < chunks.length; c++) {
        const inset = start - (chunks[c] as [number, number])[0];
        if (Math.abs(inset) < 3) return true;
        if (inset > 0 && inset < r.h) indent = c;
      }
    }
    return !wide && indent > 0 && LETTER.test(chunkTexts(r, items).texts[0] as string);
  };
  /**
   * The first line of a cell's text wrapped over lines, set in from the lines under it (a
   * description going on from the page before, its first line indented): the line right under
   * it, at a paragraph's pitch, wraps a cell of the rows `from`…`to`.
   */
  const opensWrap = (r: Row, below: Row | undefined, from: number, to: number) => {
    if (r.chunks.length !== 1 || below?.chunks.length !== 1 || !tightUnder(r, below)) return false;
    const start = (r.chunks[0] as [number, number])[0];
    const under = (below.chunks[0] as [number, number])[0];
    return start >= under && start <= under + r.h && wrapsCell(below, from, to);
  };
  // A lone title on a shaded band as wide as the text ("Estimate Totals" on a form) opens a new
  // section: the rows below it are another table, however well their columns line up.
  // The band holds that line alone: a shaded header of two lines ("State funded" over "legal
  // aid") is the table's own.
  const sectionBar = (r: Row, above: Row) => {
    if (r.chunks.length !== 1) return false;
    const [a, b] = r.chunks[0] as [number, number];
    const mid = (r.top + r.bottom) / 2;
    return (page.rects ?? []).some(
      (q) =>
        q.x1 - q.x0 >= width * 0.6 &&
        q.x0 <= a &&
        q.x1 >= b &&
        q.y0 <= mid &&
        q.y1 >= mid &&
        q.y1 - q.y0 < r.h * 2.5 &&
        q.y0 >= (above.top + above.bottom) / 2,
    );
  };
  // A contents entry over two lines: its first line stands alone (beside another list's, half the
  // width at most), the line under it ends in the entry's leader and page.
  const entryWraps = (r: Row, below: Row | undefined) =>
    (r.chunks.length === 1 || (r.chunks.length === 2 && r.chunks.every((c) => span(c) < width * 0.5))) &&
    below !== undefined &&
    below.top - r.bottom < r.h &&
    leadered(below) &&
    !leadered(r);
  // Whether a row holds two wordy chunks, asked again by every try whose rows it is among: once a row.
  const wordy = new Int8Array(rows.length).fill(-1);
  const wordyRow = (k: number): boolean => {
    if (wordy[k] === -1) wordy[k] = wordyChunks(rows[k] as Row, items) >= 2 ? 1 : 0;
    return wordy[k] === 1;
  };
  return {
    page,
    parted,
    items,
    rows,
    shortCols,
    isMulti,
    straddling,
    goesOnAbove,
    leadered,
    narrow,
    inOneColumn,
    rowInBody,
    wrapsCell,
    opensWrap,
    sectionBar,
    entryWraps,
    wordyRow,
  };
}

/** The rows a try from row `s` reads (`readRun`). */
interface ReadRun {
  /** The try's last row, its cells' wrapped lines included. */
  e: number;
  /** The last row read, where a failed try's rows end. */
  end: number;
  /** The last line of a list carried under a bold heading row at `s` (`s` when none). */
  carriedTo: number;
  /** That heading row. */
  head: Row | undefined;
}

/** Rows from `s` on, as far as they go on as one table's rows (or lines wrapping its cells). */
function readRun(g: RegionReader, s: number): ReadRun {
  const { rows, items, isMulti } = g;
  let e = s;
  // Lines right under a bold heading row, inside its last column, are the end of a cell begun on
  // the page before (a list of codes carried over under the repeated heading): the header's, as
  // far as the gap under them goes.
  let carrying = boldRow(rows[s] as Row, items);
  let carriedTo = s;
  const head = carrying ? (rows[s] as Row) : undefined;
  // The run's last two rows of cells, which a label between two parts of the table is held to.
  let lastRow = s;
  let rowBefore = -1;
  // Whether the line at `e` is such a label, whose gap below may be a header's.
  let labelled = false;
  while (e + 1 < rows.length) {
    const next = rows[e + 1] as Row;
    const cur = rows[e] as Row;
    // A header may stand further above the rows than they stand apart (checked below).
    const gap = (e === s || carrying || labelled ? HEADER_GAP : ROW_GAP) * Math.max(cur.h, next.h);
    // Rows of cells set far apart at one pitch are one table's, however loose its layout.
    const evenRows = e > s && isMulti[e - 1] === true && isMulti[e] === true && isMulti[e + 1] === true;
    const far = next.top - cur.bottom > gap && !(evenRows && evenPitch(rows, e));
    const label =
      !isMulti[e + 1] &&
      isMulti[e + 2] === true &&
      partLabel(cur, next, rows[e + 2] as Row, items, [rows[lastRow] as Row, rows[rowBefore]]);
    if (
      (far && !label) ||
      !g.rowInBody(next) ||
      g.sectionBar(next, cur) ||
      sectionTitle(next, cur) ||
      (e > s && headsTable(cur, next, items))
    )
      break;
    carrying &&= !isMulti[e + 1] && inLastColumn(next, rows[s] as Row);
    if (carrying) carriedTo = e + 1;
    labelled = label;
    if (
      !carrying &&
      !label &&
      !isMulti[e + 1] &&
      !g.narrow(next) &&
      !g.inOneColumn(next, s, e) &&
      !g.wrapsCell(next, s, e, head) &&
      !g.opensWrap(next, rows[e + 2], s, e) &&
      !g.entryWraps(next, rows[e + 2])
    )
      break;
    e++;
    if (isMulti[e]) {
      rowBefore = lastRow;
      lastRow = e;
    }
  }
  // Lines after the last row of several cells are not the table's, but for those that wrap its cells.
  let last = e;
  while (last > s && !isMulti[last]) last--;
  const end = e;
  e = last;
  while (e < end && g.wrapsCell(rows[e + 1] as Row, last, last, head)) e++;
  return { e, end, carriedTo, head };
}

/** What a try hands on to the tables it finds, unchanged over the page. */
interface TryContext {
  bridges: number[];
  verticals: Segment[];
  turned: number[];
  vocab: () => Vocabulary;
}

/**
 * The tables of the rows a try from row `s` read (`read`), with the header lines above them, none
 * at or above `lastTaken`: the tables (null for one turned down) and the try's last row; null when
 * the first row, standing apart, heads no table.
 */
function tryRun(
  g: RegionReader,
  s: number,
  read: ReadRun,
  lastTaken: number,
  ctx: TryContext,
): { found: (TableRegion | null)[]; e: number } | null {
  const { page, parted, items, rows, isMulti } = g;
  const { carriedTo } = read;
  let { e } = read;
  const first = rows[s] as Row;
  const second = rows[s + 1];
  // A first row standing apart is a header over the rows, unless all stand so far apart.
  if (second && e > s && rowsApart(first, second) && !(s + 1 < e && evenPitch(rows, s + 1))) {
    if (!headerOver(first, rows.slice(s + 1, e + 1), items, page.height)) return null;
  }
  let top = s;
  // Lines of headings wrapped over one another above the first row, their columns too close
  // for a gap to part them: found against the columns of the rows, which are made once, when
  // asked; only over rows of figures (two at least in the row under the first).
  let bodyCols: HeadedColumns | null = null;
  const colsOfRun = () => {
    bodyCols ??= headedColumns(items, rows, s, e);
    return bodyCols;
  };
  const overFigures = s < e && figuresIn(rows[s + 1] as Row, items) >= 2;
  while (
    overFigures &&
    top - 1 > lastTaken &&
    headsColumns(rows[top - 1] as Row, rows[top] as Row, items, colsOfRun, page.height)
  )
    top--;
  const stacked = top < s ? top : -1;
  // Heading lines in bold stacked over the first row where no figures tell its columns.
  let boldStack = -1;
  while (
    stacked < 0 &&
    top - 1 > lastTaken &&
    boldHeading(rows[top - 1] as Row, rows[top] as Row, top === s, items, colsOfRun, page.height)
  )
    boldStack = --top;
  while (
    top - 1 > lastTaken &&
    (headsColumn(rows[top - 1] as Row, rows[top] as Row, items, page.height) ||
      spansGroup(rows[top - 1] as Row, rows[top] as Row, items, page.height, ctx.verticals))
  )
    top--;
  // A bold heading row over nothing but a list carried from the page before, three lines or more
  // in its last column (a display's code list filling the page under the repeated heading row),
  // is the table's header over the end of its last cell, with one row under the list at most;
  // not the page's foot, set at the rows' pitch. The list is one of codes ('02 = title holding
  // company'): the lines under a letterhead's name and address ('Invoice date: 3 May 2026') are
  // no cell of it.
  const headedList = top === s && carriedTo - s >= 3 && e <= carriedTo + 1 && codeList(rows, s + 1, carriedTo, items);
  if (headedList && inFootBand((rows[e] as Row).top, page.height)) e = carriedTo;
  e = phraseTail(rows, top, e, read.end, items, g.rowInBody);
  const run = rows.slice(top, e + 1);
  // A paragraph that starts beside the last row and runs on below it is not the table's.
  const aside = e > top ? runsOnBelow(rows, top, e, items) : -1;
  if (aside >= 0) run[run.length - 1] = withoutChunk(rows[e] as Row, aside, items);
  const multis = run.filter((_, k) => isMulti[top + k]);
  // Contents entries are wordy, but their leaders make them no prose.
  let prose = 0;
  let wrapped = 0;
  for (let k = top; k <= e; k++) {
    const r = rows[k] as Row;
    if (!isMulti[k]) continue;
    if (g.goesOnAbove[k]) wrapped++;
    else if (g.straddling[k] || (g.wordyRow(k) && !g.leadered(r))) prose++;
  }
  // A bold heading row over one row of cells, each over its own column, two of them figures or
  // codes (a display's last row, '24 48-50 Next Page Number', alone on its page under the
  // repeated heading), is a table of two rows. Labels of a diagram's boxes over their glosses
  // ('데이터' over '(DATA)') hold none.
  const headedRow =
    multis.length === 2 &&
    top === s &&
    boldRow(rows[s] as Row, items) &&
    !boldRow(multis[1] as Row, items) &&
    (multis[1] as Row).chunks.length >= 3 &&
    codesIn(multis[1] as Row, items) >= 2 &&
    headerOver(rows[s] as Row, rows.slice(s + 1, e + 1), items, page.height);
  const tabular =
    (multis.length >= 3 || headedRow || headedList) &&
    prose * 2 < multis.length - wrapped &&
    !numberedLists(run, items);
  // The heading lines stacked over the first row make one header row with it, a heading to a
  // column, when the rows stand further apart than those lines do.
  const next = rows[s + 1];
  const headed =
    stacked >= 0 && next !== undefined && s < e && !tightUnder(rows[s] as Row, next)
      ? stackHeadings(run, stacked - top, s - top, items, colsOfRun().edges)
      : boldStack >= 0
        ? stackHeadings(run, boldStack - top, s - top - 1, items, colsOfRun().edges)
        : run;
  // Two contents lists side by side are two tables, not one of four columns.
  const found = !tabular
    ? []
    : sideBySideLists(headed, parted, page.items)
      ? listsApart(headed, parted, ctx.bridges, g.leadered, ctx.vocab)
      : [
          tableOf(
            headed,
            items,
            g.leadered,
            ctx.vocab,
            parted.cuts,
            // The carried list's lines wrap in the heading's column.
            headedList ? [...g.shortCols, lastStart(rows[s] as Row)] : g.shortCols,
            ctx.verticals,
            page.height,
            ctx.turned,
            headedRow || headedList ? 2 : 3,
            headedList ? 0 : FILLED,
          ),
        ];
  return { found, e };
}

/**
 * Where columns of short cells with a few long ones start: the last chunks of rows of three chunks or
 * more, twice as many (three at least) narrower than `wide` or starting afresh, in a capital or a
 * figure, as wider and going on in lower case, where they start. A description beside codes runs
 * long now and then, or on most rows of a display of amounts ("The amount of the refundable
 * credit for" over its wrapped end), each a sentence of its own; paragraphs beside a table run long
 * on most lines, mostly mid-sentence.
 */
function shortColumns(rows: Row[], wide: number, items: TextItem[]): number[] {
  // Each row's last chunk judged once, then counted by where it starts through sorted starts and
  // running sums: a region of thousands of rows stays n log n, not every row against every other.
  const lastOf = (r: Row) => r.chunks[r.chunks.length - 1] as [number, number];
  const judged: { start: number; short: boolean }[] = [];
  for (const o of rows) {
    if (o.chunks.length < 3) continue;
    const [c, d] = lastOf(o);
    judged.push({
      start: c,
      short: d - c < wide || afresh.test(chunkTexts(o, items).texts[o.chunks.length - 1] as string),
    });
  }
  const sorted = [...judged].sort((a, b) => a.start - b.start);
  const at = sorted.map((j) => j.start);
  const shorts = [0];
  for (const j of sorted) shorts.push((shorts[shorts.length - 1] as number) + (j.short ? 1 : 0));
  const starts: number[] = [];
  for (const { start } of judged) {
    if (starts.some((x) => Math.abs(x - start) <= 3)) continue;
    const [lo, hi] = nearRange(at, start, 3);
    const short = (shorts[hi] as number) - (shorts[lo] as number);
    const long = hi - lo - short;
    if (short >= 3 && short >= long * 2) starts.push(start);
  }
  return starts;
}

/**
 * Whether a lone line between a table's rows labels the part of the table under it (a display's
 * 'TRANSACTION LINES', centred over its descriptions, its entity lines above): a few words in bold,
 * set in no larger type than the rows, right of the first column of the row above (titles and
 * captions start at the left), with a row under it, at most a header's gap away on either side,
 * whose cells stand each under a cell of one of the table's last two rows of cells (`known`): the
 * columns go on. A heading over a table of other columns ends the one above, and so does one over
 * a bold heading row of its own (`headsTable`).
 */
function partLabel(above: Row, line: Row, below: Row, items: TextItem[], known: (Row | undefined)[]): boolean {
  if (line.chunks.length !== 1 || below.chunks.length < 3 || wordsIn(line, items) > LABEL_WORDS) return false;
  if (headsTable(line, below, items)) return false;
  if (line.h > above.h * TITLE_SIZE || !allBold(line, items)) return false;
  if (line.top - above.bottom > HEADER_GAP * line.h || below.top - line.bottom > HEADER_GAP * line.h) return false;
  const under = (row: Row | undefined) =>
    row !== undefined &&
    row.chunks.length >= 2 &&
    (line.chunks[0] as [number, number])[0] > (row.chunks[0] as [number, number])[1] &&
    below.chunks.every(([a, b]) => row.chunks.some(([c, d]) => a < d && c < b));
  return known.some(under);
}

/** Whether every run of a row is set in bold. */
function allBold(row: Row, items: TextItem[]): boolean {
  return row.items.every((i) => (items[i] as TextItem).bold);
}

/** Whether a row is a heading row: three cells or more, set in bold throughout. */
function boldRow(row: Row, items: TextItem[]): boolean {
  return row.chunks.length >= 3 && allBold(row, items);
}

/**
 * Whether a lone bold line over a bold heading row is the title of the table that row heads
 * ("Results for 2025" over "Region Units Sales Cost"): the table above ends before it, however
 * close the two stand.
 */
function headsTable(line: Row, below: Row, items: TextItem[]): boolean {
  return line.chunks.length === 1 && allBold(line, items) && boldRow(below, items);
}

/** Where a row's last chunk starts. */
const lastStart = (row: Row): number => (row.chunks[row.chunks.length - 1] as [number, number])[0];

/**
 * Whether a lone line stands in the last column of the row `head`: it starts no further left than
 * that column's cell, and within two line heights right of it (a list's hanging indent).
 */
function inLastColumn(line: Row, head: Row): boolean {
  if (line.chunks.length !== 1) return false;
  const start = (line.chunks[0] as [number, number])[0];
  const column = lastStart(head);
  return start >= column - 3 && start <= column + 2 * line.h;
}

/** Text that starts afresh: a capital or a figure first. */
const afresh = /^\P{L}*[\p{Lu}\d]/u;

/**
 * Whether a lone line right above a table's first row is the top line of one column's heading
 * ("Combined" over "weighted school" over "participation", the other headings starting a line
 * lower): a few words set as the line under them, at the header's line pitch, over one cell of the
 * row below that is not the first column's (where titles and captions start), flush with it on the
 * left or right or centred over it. Left out, it stood as a paragraph above the table.
 */
function headsColumn(line: Row, below: Row, items: TextItem[], pageHeight: number): boolean {
  if (line.chunks.length !== 1 || below.chunks.length < 2 || wordsIn(line, items) > LABEL_WORDS) return false;
  if (line.h > below.h * TITLE_SIZE || below.top - line.bottom > line.h * 0.6) return false;
  if (!inBody(line.top, line.bottom, pageHeight)) return false;
  const [a, b] = line.chunks[0] as [number, number];
  let over = -1;
  for (const [k, [c, d]] of below.chunks.entries()) {
    if (c >= b || d <= a) continue;
    if (over >= 0) return false;
    over = k;
  }
  if (over < 1) return false;
  const [c, d] = below.chunks[over] as [number, number];
  const near = (x: number, y: number) => Math.abs(x - y) <= 2;
  if (!near(a, c) && !near(b, d) && !near(a + b, c + d)) return false;
  // Set as the heading line under it: a bold or larger line is a heading or a figure called out.
  const style = (row: Row, from: number, to: number) => {
    let bold = false;
    let size = 0;
    for (const i of row.items) {
      const it = items[i] as TextItem;
      if (it.x + it.w <= from || it.x >= to) continue;
      bold ||= it.bold;
      size = Math.max(size, it.size);
    }
    return { bold, size };
  };
  const mine = style(line, a, b);
  const under = style(below, c, d);
  return (!mine.bold || under.bold) && mine.size <= under.size * TITLE_SIZE && under.size <= mine.size * TITLE_SIZE;
}

/** Most words of one heading's line in one column ("deaths per", "1,000 births"). */
const HEADING_LINE_WORDS = 3;

/** Per column parted at `edges` (by the runs' centres) the x range of the row's runs there and their words. */
function perColumn(row: Row, items: TextItem[], edges: number[]): Map<number, [number, number, number]> {
  const out = new Map<number, [number, number, number]>();
  for (const i of row.items) {
    const it = items[i] as TextItem;
    const k = slotOf(edges, it.x + it.w / 2);
    const words = wordCount(it.str);
    const known = out.get(k);
    if (known) {
      known[0] = Math.min(known[0], it.x);
      known[1] = Math.max(known[1], it.x + it.w);
      known[2] += words;
    } else out.set(k, [it.x, it.x + it.w, words]);
  }
  return out;
}

/** The columns of a table's rows, and those of them holding figures under its first row. */
interface HeadedColumns {
  cols: [number, number][];
  /** Where they part, midway between them, and their outer ends (`slotOf`'s edges). */
  edges: number[];
  figured: Set<number>;
}

/** How many rows under a table's first row say which of its columns hold figures. */
const FIGURE_ROWS = 3;

/** A figure, or a code of figures: a line number ('23b'), a range of positions ('48-50'). */
const figureCode = /^\d+[a-z]?(?:\s?[-–]\s?\d+)?$/i;

/** Runs of a row that are figures or codes of figures. */
function codesIn(row: Row, items: TextItem[]): number {
  let n = 0;
  for (const i of row.items) {
    const t = (items[i] as TextItem).str.trim();
    if (figure.test(t) || figureCode.test(t)) n++;
  }
  return n;
}

/**
 * Whether the lone lines `from`…`to` are a list of codes: three or more, and most of them, open with
 * a figure or a code of figures ('02 = title holding company'); the others wrap an entry.
 */
function codeList(rows: Row[], from: number, to: number, items: TextItem[]): boolean {
  let codes = 0;
  for (let k = from; k <= to; k++) {
    const first = (chunkTexts(rows[k] as Row, items).texts[0] as string).split(/\s/)[0] as string;
    if (figure.test(first) || figureCode.test(first)) codes++;
  }
  return codes >= 3 && codes * 2 > to - from + 1;
}

/** Runs of a row that are figures. */
function figuresIn(row: Row, items: TextItem[]): number {
  let n = 0;
  for (const i of row.items) if (figure.test((items[i] as TextItem).str.trim())) n++;
  return n;
}

/** The columns of rows `s`…`e` and which hold figures in the rows right under row `s`. */
function headedColumns(items: TextItem[], rows: Row[], s: number, e: number): HeadedColumns {
  const { cols } = tableColumns(items, rows.slice(s, e + 1));
  const edges = [
    (cols[0] as [number, number])[0],
    ...columnEdges(cols),
    (cols[cols.length - 1] as [number, number])[1],
  ];
  const figured = new Set<number>();
  for (let k = s + 1; k <= Math.min(e, s + FIGURE_ROWS); k++)
    for (const i of (rows[k] as Row).items) {
      const it = items[i] as TextItem;
      if (figure.test(it.str.trim())) figured.add(slotOf(edges, it.x + it.w / 2));
    }
  return { cols, edges, figured };
}

/**
 * Whether a line right above a table's first row (or above a line found so) is a line of the
 * columns' headings, each wrapped over lines and centred or set flush over its column ("Live" over
 * "births per" over "1,000"), the columns so narrow that no cell gap parts the headings: a few
 * words in each of the columns of the rows below (`body`) it stands in, reaching over no other
 * column's text, each set as the heading line under it in its column is (same left, right or
 * centre), two of them over columns of figures, at the heading lines' pitch. Prose over a table
 * runs over the columns' edges and ignores them; a grid of names over addresses holds no figures.
 */
function headsColumns(
  line: Row,
  below: Row,
  items: TextItem[],
  body: () => HeadedColumns,
  pageHeight: number,
): boolean {
  if (line.h > below.h * TITLE_SIZE || below.top - line.bottom > line.h * 0.6) return false;
  if (!inBody(line.top, line.bottom, pageHeight)) return false;
  const { cols: cs, edges, figured } = body();
  if (cs.length < 3) return false;
  const mine = perColumn(line, items, edges);
  if (mine.size < 2) return false;
  const under = perColumn(below, items, edges);
  const near = (x: number, y: number) => Math.abs(x - y) <= 2;
  let aligned = 0;
  for (const [k, [a, b, words]] of mine) {
    if (words > HEADING_LINE_WORDS) return false;
    const left = cs[k - 1];
    const right = cs[k + 1];
    if ((left && a < left[1]) || (right && b > right[0])) return false;
    const u = under.get(k);
    if (!u) continue;
    if (!near(a, u[0]) && !near(b, u[1]) && !near(a + b, u[0] + u[1])) return false;
    if (figured.has(k)) aligned++;
  }
  return aligned >= 2;
}

/**
 * Whether a line right above a table's first row (`first`), or above a line found so, is a line of
 * its columns' headings in bold, stacked over lines without a gap to part them ('Display' over
 * 'File  MFT &' over 'Definer Source Tax Per Result', the columns too close for the last line to
 * break into cells): bold throughout, a few words in each column of the rows below (`body`, three
 * columns at least) and none reaching over another column's text, at the header's line pitch;
 * right over the first row, a heading over every column, the row itself not in bold. Prose or a
 * title over a table runs across the columns' gaps.
 */
function boldHeading(
  line: Row,
  below: Row,
  first: boolean,
  items: TextItem[],
  body: () => HeadedColumns,
  pageHeight: number,
): boolean {
  if (line.h > below.h * TITLE_SIZE || below.top - line.bottom > line.h * (first ? 1 : 0.6)) return false;
  if (!allBold(line, items) || !inBody(line.top, line.bottom, pageHeight)) return false;
  if (first && allBold(below, items)) return false;
  const { cols: cs, edges } = body();
  if (cs.length < 3) return false;
  const mine = perColumn(line, items, edges);
  if (first && mine.size < cs.length) return false;
  for (const [k, [a, b, words]] of mine) {
    if (words > HEADING_LINE_WORDS) return false;
    const left = cs[k - 1];
    const right = cs[k + 1];
    if ((left && a < left[1]) || (right && b > right[0])) return false;
  }
  return true;
}

/**
 * The run with its lines `from`…`to` (heading lines stacked over the first row, and that row) made
 * one row, its chunks the columns its runs stand in.
 */
function stackHeadings(run: Row[], from: number, to: number, items: TextItem[], edges: number[]): Row[] {
  const first = run[from] as Row;
  const head: Row = { items: [], top: first.top, bottom: first.bottom, h: first.h, chunks: [] };
  for (let k = from; k <= to; k++) {
    const r = run[k] as Row;
    append(head.items, r.items);
    head.bottom = Math.max(head.bottom, r.bottom);
    head.h = Math.max(head.h, r.h);
  }
  const parts = [...perColumn(head, items, edges).entries()].sort((p, q) => p[0] - q[0]);
  for (const [, [a, b]] of parts) head.chunks.push([a, b]);
  return [...run.slice(0, from), head, ...run.slice(to + 1)];
}

/**
 * Whether a lone line right above a table's first row heads a group of its columns, alone on its
 * line ("Top-20 accuracy" over six columns of figures, the labels' heading on the line under it): a
 * few words, no sentence, set as the line under it at the header's line pitch, centred over two or
 * more of that row's cells but its first (where titles and captions start), the group parted from
 * the cells beside it by a vertical rule or by a gap wider than any inside it (`centredGroup`, as
 * `spanHeadings` then spans it). Left out, it stood as a paragraph above the table.
 */
function spansGroup(line: Row, below: Row, items: TextItem[], pageHeight: number, verticals: Segment[]): boolean {
  const n = below.chunks.length;
  if (line.chunks.length !== 1 || n < 3 || wordsIn(line, items) > HEADING_WORDS) return false;
  if (line.h > below.h * TITLE_SIZE || below.h > line.h * TITLE_SIZE || below.top - line.bottom > line.h * 0.6)
    return false;
  if (!inBody(line.top, line.bottom, pageHeight)) return false;
  let last: TextItem | undefined;
  for (const i of line.items) {
    const it = items[i] as TextItem;
    if (!last || it.x + it.w > last.x + last.w) last = it;
  }
  if (/[.!?:]$/.test(last?.str.trim() ?? '.')) return false;
  const [a, b] = line.chunks[0] as [number, number];
  let first = -1;
  let end = -1;
  for (const [k, [c, d]] of below.chunks.entries()) {
    if (c >= b || d <= a) continue;
    if (first < 0) first = k;
    end = k;
  }
  if (first < 1) return false;
  const left = below.chunks.map((c) => c[0]);
  const right = below.chunks.map((c) => c[1]);
  let rules: boolean[] | null = null;
  const ruled = (j: number): boolean => {
    rules ??= ruledBoundaries(left, right, line.top, below.bottom, verticals);
    return rules[j] === true;
  };
  // Rules between the cells inside the group are let be: the line is a heading either way.
  const group = { left, right, ruled, partedInside: false };
  return centredGroup(group, [1, first], [end, n - 1], a, b) !== null;
}

/** Columns (or cells) side by side, where their text runs, and which boundaries a rule runs down. */
interface Columns {
  left: number[];
  right: number[];
  ruled: (j: number) => boolean;
  /** Whether a rule between two columns inside a group parts it (then it is no group). */
  partedInside: boolean;
}

/**
 * The widest group of columns p…q (two at least, `p` in `ps`, `q` in `qs`) that a heading whose text
 * runs from `x0` to `x1` is centred over, parted from the columns beside it by a rule or by a gap
 * wider than any inside it; null when there is none. Groups grow out from `ps[1]` and `qs[0]` (the
 * columns the heading's text stands over), the widest gap inside carried along.
 */
function centredGroup(
  cols: Columns,
  [pFrom, pTo]: [number, number],
  [qFrom, qTo]: [number, number],
  x0: number,
  x1: number,
): [number, number] | null {
  const { left, right, ruled, partedInside } = cols;
  const n = left.length;
  const gap = (j: number) => (left[j + 1] as number) - (right[j] as number);
  let inside = 0;
  for (let j = pTo; j < qFrom; j++) {
    if (partedInside && ruled(j)) return null;
    inside = Math.max(inside, gap(j));
  }
  const centre = (x0 + x1) / 2;
  const tolerance = Math.max(3, (x1 - x0) / 4);
  let found: [number, number] | null = null;
  let innerLeft = inside;
  for (let p = pTo; p >= pFrom; p--) {
    if (p < pTo) {
      if (partedInside && ruled(p)) break;
      innerLeft = Math.max(innerLeft, gap(p));
    }
    let inner = innerLeft;
    for (let q = qFrom; q <= qTo; q++) {
      if (q > qFrom) {
        if (partedInside && ruled(q - 1)) break;
        inner = Math.max(inner, gap(q - 1));
      }
      if (q === p || (found && q - p <= found[1] - found[0])) continue;
      if (Math.abs(((left[p] as number) + (right[q] as number)) / 2 - centre) > tolerance) continue;
      const apart = (j: number) => ruled(j) || gap(j) > inner * 1.5;
      if ((p > 0 && !apart(p - 1)) || (q + 1 < n && !apart(q))) continue;
      found = [p, q];
    }
  }
  return found;
}

/** How much larger than a table's rows a lone line's type is when it is a heading. */
const TITLE_SIZE = 1.15;

/**
 * A lone line set in larger type than the row above it: a section's heading ("Account
 * Representatives" at 10 pt between tables at 8 pt). The rows below it are another table, however
 * well their columns line up with the ones above (sections of a form read as one table of
 * misaligned cells).
 */
const sectionTitle = (r: Row, above: Row): boolean => r.chunks.length === 1 && r.h > above.h * TITLE_SIZE;

/** Most words of a label on a row of its own. */
const LABEL_WORDS = 6;

function wordsIn(row: Row, items: TextItem[]): number {
  let n = 0;
  for (const i of row.items) n += wordCount((items[i] as TextItem).str);
  return n;
}

/** Lines further apart than this many line heights are no longer one table... */
const ROW_GAP = 2;
/**
 * ...except under a header row, which may stand this far above the first row (4.7 line heights in
 * the IRM manual's Form 941 display).
 */
const HEADER_GAP = 5;

/** Rows set at one pitch stand at most this many line heights apart, however loose their table. */
const FAR_ROWS = 6;

/**
 * Whether rows `k - 1`, `k` and `k + 1` are set at one pitch (top to top, within a tenth), the
 * gap under row `k` at most `FAR_ROWS` line heights: evenly spaced rows, however far apart.
 */
function evenPitch(rows: Row[], k: number): boolean {
  const a = rows[k - 1];
  const b = rows[k];
  const c = rows[k + 1];
  if (!a || !b || !c) return false;
  const p = b.top - a.top;
  const q = c.top - b.top;
  return p > 0 && Math.abs(p - q) <= 0.1 * p && c.top - b.bottom <= FAR_ROWS * Math.max(b.h, c.h);
}

/** Whether line `b` stands further below `a` than the rows of one table stand apart. */
const rowsApart = (a: Row, b: Row): boolean => b.top - a.bottom > ROW_GAP * Math.max(a.h, b.h);

/** Rows a page's table tries may read, per row of the page (plus 500), before failed tries are not retried. */
export const TRY_BUDGET = 8;
/** Most words a heading spanning columns holds ("Marks in each subject", "Top-20"); more is prose. */
const HEADING_WORDS = 8;

/**
 * Whether a row standing apart above the rows below is their header: set in bold (form fields
 * above a table are not), with three cells or more, each over its own column of theirs (years
 * over columns of figures). A heading over none of their columns heads the one beside it that no
 * other heading is over ("LINE" left of the line numbers), as `headingsOverColumns` joins it to
 * that column once the table is found. A running foot under the rows (`bandRows`) sets no column.
 */
function headerOver(header: Row, body: Row[], items: TextItem[], height: number): boolean {
  if (!boldRow(header, items)) return false;
  const { from, to } = bandRows(body, height);
  const { cols } = tableColumns(items, from === 0 && to === body.length ? body : body.slice(from, to));
  const used = new Set<number>();
  // Between which columns each heading over none of them stands: the index of the column right of it.
  const beside: number[] = [];
  for (const [a, b] of header.chunks) {
    let hit = -1;
    let right = cols.length;
    for (const [k, [c, d]] of cols.entries()) {
      if (c >= b && right === cols.length) right = k;
      if (c >= b || d <= a) continue;
      if (hit >= 0) return false;
      hit = k;
    }
    if (hit < 0) beside.push(right);
    else if (used.has(hit)) return false;
    else used.add(hit);
  }
  for (const right of beside) {
    const next = right < cols.length && !used.has(right) ? right : right > 0 && !used.has(right - 1) ? right - 1 : -1;
    if (next < 0) return false;
    used.add(next);
  }
  return true;
}

/**
 * Chunks of a line holding three words or more, not all capitalised. Side-by-side columns of prose
 * fill every chunk with words; table rows mostly hold numbers, codes and short labels, with at most
 * one wordy cell, or names in title case side by side ("Cancer Council ACT | Cancer Council
 * Queensland"), which prose lines are not (scripts without case count as prose).
 */
function wordyChunks(row: Row, items: TextItem[]): number {
  let wordy = 0;
  const found: LetterWords = { words: 0, lower: false };
  for (const [a, b] of row.chunks) {
    found.words = 0;
    found.lower = false;
    for (const i of row.items) {
      const it = items[i] as TextItem;
      const cx = it.x + it.w / 2;
      if (cx < a || cx > b) continue;
      letterWords(it.str, found);
    }
    if (found.words >= 3 && found.lower) wordy++;
  }
  return wordy;
}

/** A row's text chunk by chunk: each chunk's text, left to right, and its leftmost run. */
interface ChunkTexts {
  texts: string[];
  firsts: (TextItem | undefined)[];
}

/** Each row's `ChunkTexts`, made once: rows are asked again by the rows below them. */
const chunkCache = new WeakMap<Row, ChunkTexts>();

/**
 * The text of each of a row's chunks: its runs sorted once and dealt out to the chunks (sorted, and
 * apart, as `projection` makes them) in one walk.
 */
function chunkTexts(row: Row, items: TextItem[]): ChunkTexts {
  const known = chunkCache.get(row);
  if (known) return known;
  const runs: TextItem[] = [];
  for (const i of row.items) runs.push(items[i] as TextItem);
  runs.sort(byLeft);
  const texts: string[] = [];
  const firsts: (TextItem | undefined)[] = [];
  for (let c = 0; c < row.chunks.length; c++) {
    texts.push('');
    firsts.push(undefined);
  }
  let c = 0;
  for (const it of runs) {
    const cx = it.x + it.w / 2;
    while (c + 1 < row.chunks.length && cx > (row.chunks[c] as [number, number])[1]) c++;
    const t = texts[c] as string;
    texts[c] = t && !endsInSpace(t) && !/^\s/.test(it.str) ? `${t} ${it.str}` : t + it.str;
    if (!firsts[c]) firsts[c] = it;
  }
  for (let k = 0; k < texts.length; k++) texts[k] = (texts[k] as string).trim();
  const out = { texts, firsts };
  chunkCache.set(row, out);
  return out;
}

/** The chunk of `row` overlapping the x range `[a, b]` that starts last (chunks sorted, apart); -1 if none. */
function chunkOver(row: Row, a: number, b: number): number {
  let lo = 0;
  let hi = row.chunks.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((row.chunks[mid] as [number, number])[0] < b) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found >= 0 && (row.chunks[found] as [number, number])[1] > a ? found : -1;
}

/** How many rows above a line its column's line above is looked for (other columns' lines between). */
const LOOK_BACK = 4;

/** How long a line of running prose is, at least, beside the next one (ragged right). */
const FULL_LINE = 0.75;

/** Words of a line of running prose, at least. */
const PROSE_WORDS = 4;

/**
 * Whether the row `k` is two layout columns sharing a line, not a table row: one of its chunks is a
 * line of running prose going on from the line above it in its column (both a few words long, the
 * sentence running on in lower case), while another, worded, starts afresh (a side menu's entry
 * beside the body text). A table's row starts all its cells; its wrapped line goes on in all.
 */
function straddles(rows: Row[], k: number, items: TextItem[]): boolean {
  const r = rows[k] as Row;
  if (r.chunks.length < 2 || !loneLineOver(rows, k)) return false;
  let goesOn = 0;
  let fresh = 0;
  const { texts } = chunkTexts(r, items);
  for (const [n, c] of r.chunks.entries()) {
    const text = texts[n] as string;
    if (!LETTER.test(text)) continue;
    let above = '';
    // The line above runs alone (the prose goes on where the labels leave a gap) and about as far
    // as this one: wrapped at the column's edge, mid-paragraph. A table's wrapped cell ends short.
    let runsOn = false;
    for (let j = k - 1; j >= 0 && j >= k - LOOK_BACK && !above; j--) {
      const o = rows[j] as Row;
      if (rowsApart(o, r)) break;
      const over = chunkOver(o, c[0], c[1]);
      if (over < 0) continue;
      above = chunkTexts(o, items).texts[over] as string;
      const [a, b] = o.chunks[over] as [number, number];
      runsOn = o.chunks.length === 1 && b - a >= (c[1] - c[0]) * FULL_LINE;
    }
    if (!above || !readsOn(above, text)) fresh++;
    else if (runsOn && wordCount(text) >= PROSE_WORDS && wordCount(above) >= PROSE_WORDS) goesOn++;
  }
  return goesOn > 0 && fresh > 0;
}

/**
 * Whether a lone line as wide as one of row `k`'s chunks stands over it within the rows `straddles`
 * looks back at: decided by place alone, before any text is read, so the rows of a table (whose
 * lines above hold cells, not running lines) cost no text.
 */
function loneLineOver(rows: Row[], k: number): boolean {
  const r = rows[k] as Row;
  for (let j = k - 1; j >= 0 && j >= k - LOOK_BACK; j--) {
    const o = rows[j] as Row;
    if (rowsApart(o, r)) break;
    if (o.chunks.length !== 1) continue;
    const [a, b] = o.chunks[0] as [number, number];
    for (const c of r.chunks) if (a < c[1] && b > c[0] && b - a >= (c[1] - c[0]) * FULL_LINE) return true;
  }
  return false;
}

/**
 * Which chunk of the last row `e` of the rows `top`…`e` is the first line of a paragraph beside the
 * table (-1 if none): a chunk in a column that no other of the rows fills, whose text reads on in the lone line
 * right under it, set flush with it ("‘We Care’ and will continue to" over "protect all our
 * stakeholders as the", a quote beside a contents list). A cell never goes on outside its table.
 */
function runsOnBelow(rows: Row[], top: number, e: number, items: TextItem[]): number {
  const last = rows[e] as Row;
  const below = rows[e + 1];
  if (below?.chunks.length !== 1 || last.chunks.length < 2) return -1;
  if (rowsApart(last, below)) return -1;
  const [b0] = below.chunks[0] as [number, number];
  const n = last.chunks.findIndex(([a]) => Math.abs(a - b0) <= 3);
  if (n < 0) return -1;
  const [c0, c1] = last.chunks[n] as [number, number];
  for (let k = top; k < e; k++) if (chunkOver(rows[k] as Row, c0, c1) >= 0) return -1;
  return readsOn(chunkTexts(last, items).texts[n] as string, chunkTexts(below, items).texts[0] as string) ? n : -1;
}

/** The row without its chunk `n` and the runs in it. */
function withoutChunk(row: Row, n: number, items: TextItem[]): Row {
  const [a, b] = row.chunks[n] as [number, number];
  const kept: number[] = [];
  for (const i of row.items) if (!within(items[i] as TextItem, [a, b])) kept.push(i);
  const chunks: [number, number][] = [];
  for (const [k, c] of row.chunks.entries()) if (k !== n) chunks.push(c);
  return { ...row, items: kept, chunks };
}

/** A page number set apart before a title ("14  We Care for an Inclusive"). */
const pageNumber = /^\d{1,3}$/;
/** `pageNumber` before trimming: what `trim` takes away is what `\s` matches. */
const paddedPageNumber = /^\s*\d{1,3}\s*$/;
const numberedTitle = /^\d{1,3}\s+\p{Lu}/u;

/**
 * Whether the rows are lists of entries led by their pages ("14 We Care for an Inclusive", a
 * designed contents page without leaders) that other text beside them meets on some lines: three
 * entries or more, in two columns or more (contents lists side by side), or a third of them alone on
 * their lines. A table's numbered rows ("1 Norway 0.957 …") hold their values on every line.
 */
function numberedLists(run: Row[], items: TextItem[]): boolean {
  const columns: number[] = [];
  let entries = 0;
  let alone = 0;
  for (const r of run) {
    // A chunk's first run is one of the row's: a row with no page number among them leads no
    // entry, and its text need not be put together.
    if (!r.items.some((i) => paddedPageNumber.test((items[i] as TextItem).str))) continue;
    const { texts, firsts } = chunkTexts(r, items);
    for (const [n, c] of r.chunks.entries()) {
      const first = firsts[n];
      if (!first || !pageNumber.test(first.str.trim()) || !numberedTitle.test(texts[n] as string)) continue;
      entries++;
      if (r.chunks.length === 1) alone++;
      // Two columns are enough to tell: the list stays that short whatever the rows.
      if (columns.length < 2 && !columns.some((x) => Math.abs(x - c[0]) <= 3)) columns.push(c[0]);
    }
  }
  return entries >= 3 && (columns.length >= 2 || alone * 3 >= entries);
}

/**
 * Whether two columns of text are a list of labels and values ("Revenue … 12.4 m" over
 * "Employees … 148", "Name: … Universal Studios"): three rows or more of exactly a label and a
 * value, the labels flush left, the values flush left or right, each a few words long, labels and
 * values differing in kind (below: colons, figures, a CV's years). A table of contents is such a list
 * too, its entries' leaders running to pages set flush right, whatever the entries' length and
 * indent. Two columns of prose or of bare figures, or two blocks of text side by side, are not.
 */
function pairList(run: Row[], items: TextItem[], leadered: (r: Row) => boolean): boolean {
  const pairs = run.filter((r) => r.chunks.length === 2);
  if (pairs.length < 3 || pairs.length * 2 < run.length) return false;
  const aligned = (xs: number[]) => maxOf(xs) - Math.min(...xs) <= 2;
  const lefts: number[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  let led = 0;
  for (const r of pairs) {
    const [label, value] = r.chunks as [[number, number], [number, number]];
    lefts.push(label[0]);
    starts.push(value[0]);
    ends.push(value[1]);
    if (leadered(r)) led++;
  }
  // A contents list: entries of any length, indented by level, whose leaders run to their pages set
  // flush right.
  if (led * 2 >= pairs.length) return led >= 3 && aligned(ends);
  if (figureGrid(run, pairs, items)) return true;
  for (const r of pairs) {
    const value = r.chunks[1] as [number, number];
    let labelWords = 0;
    let valueWords = 0;
    for (const i of r.items) {
      const it = items[i] as TextItem;
      const n = wordCount(it.str);
      if (it.x + it.w / 2 < value[0]) labelWords += n;
      else valueWords += n;
    }
    if (labelWords > LABEL_WORDS + 2 || valueWords > LABEL_WORDS) return false;
  }
  if (!aligned(lefts) || !(aligned(starts) || aligned(ends))) return false;
  // Labels and values differ in kind: labels end in a colon, or values hold figures (most of them),
  // or two values are figures alone and no label holds one (a person's record, "Date of birth …
  // 1980-02-03" beside "Employer … Acme Ltd"; a contact block's "Phone 0113 …" beside a name and
  // title is no value), or two labels are years alone beside words, most holding no figure (a
  // CV's "2015 - 2019 … Engineer, Acme").
  // Two blocks of text side by side (two authors' addresses) are alike on both sides.
  let colons = 0;
  let digits = 0;
  let figureValues = 0;
  let labelDigits = 0;
  let bareLabels = 0;
  for (const r of pairs) {
    const split = (r.chunks[1] as [number, number])[0];
    let label = '';
    let value = '';
    for (const i of r.items) {
      const it = items[i] as TextItem;
      if (it.x + it.w / 2 < split) label += it.str;
      else value += it.str;
    }
    // Labels of figures alone beside words differ only that way: a CV's years, not an item's number
    // or a manual's exhibit ("2.3.59-14  Command Code BMFOL Entity Display").
    const wordedValue = LETTER.test(value);
    const figured = /\d/.test(value);
    // A month's name in a CV's dates ("Jan 2019 – Mar 2023") beside a role of words is no word of a
    // label: the dates are such a label as years alone are. Beside figures ("Jan 2024  1,250.00",
    // "January 2024  Rent paid, 1,200") the month names a row of figures, as any label does.
    const worded = LETTER.test(label) && !(wordedValue && !figured && YEARS.test(label));
    if (!worded && (!wordedValue || !YEARS.test(label))) return false;
    if (!worded) bareLabels++;
    if (/:\s*$/.test(label)) colons++;
    if (figured) digits++;
    if (figured && !wordedValue) figureValues++;
    if (/\d/.test(label)) labelDigits++;
  }
  if (bareLabels) return bareLabels >= 2 && digits * 2 < pairs.length;
  return (
    colons * 2 > pairs.length ||
    digits * 2 > pairs.length ||
    (figureValues >= 2 && labelDigits === 0) ||
    headedPairs(run, pairs, items)
  );
}

/** Most words a column's head holds ("Pros", "Name", "Year of entry"). */
const HEAD_WORDS = 3;
/** Fewest rows of two cells under the heads. */
const HEADED_ROWS = 3;
/** How much further than the rows' gap heads not in bold stand above them. */
const HEAD_APART = 1.5;
/** A head: words of two letters or more, no figure, no stop or colon closing them ("A" over an index's column is none). */
const HEAD = /^(?=.*\p{L}{2})[^\d]*[^\d.:;,!?]$/u;

/**
 * Whether two columns of phrases stand under a row of heads ("Name  Role" over "Ann Lee  Chair";
 * "Pros  Cons" over "Fast start  High price"): the run opens with a pair of heads (a few words
 * each, set apart) over three pairs or more, a line of one column alone standing at that column's
 * edge (a longer list's last item, a phrase's wrapped end). The heads name the columns, so the
 * rows are a table's. Not where the cells are a list's items, or prose run into two columns
 * (more than a quarter of its lines open in lower case or end in a stop).
 */
function headedPairs(run: Row[], pairs: Row[], items: TextItem[]): boolean {
  const [head, ...body] = run;
  if (!head || head !== pairs[0] || pairs.length <= HEADED_ROWS) return false;
  const heads = chunkTexts(head, items).texts.map((t) => t.trim());
  if (heads.some((t) => !HEAD.test(t) || wordCount(t) > HEAD_WORDS)) return false;
  // Heads stand out: in bold over plain cells, or set further above them than the rows stand
  // apart. Two columns of names or words read on down the page (an index, a list of attendees)
  // have no such row.
  const pitch = median(body.slice(1).map((r, k) => r.top - (body[k] as Row).bottom));
  const apart = (body[0] as Row).top - head.bottom > pitch * HEAD_APART + 1;
  if (!apart && !(allBold(head, items) && !body.every((r) => allBold(r, items)))) return false;
  let cells = 0;
  let runOn = 0;
  for (const r of body) {
    if (r.chunks.length > 2) return false;
    if (r.chunks.length === 1 && !atHeadEdge(head, (r.chunks[0] as [number, number])[0])) return false;
    for (const text of chunkTexts(r, items).texts) {
      const t = text.trim();
      if (listMark(t)) return false;
      cells++;
      if (STARTS_LOWER.test(t) || ENDS_SENTENCE.test(t)) runOn++;
    }
  }
  return runOn * 4 <= cells;
}

/** Whether rows open with heads over columns of phrases (`headedPairs`). */
const phraseTable = (run: Row[], items: TextItem[]): boolean =>
  headedPairs(
    run,
    run.filter((r) => r.chunks.length === 2),
    items,
  );

/**
 * The last row of phrases under heads (`phraseTable`, rows `top`…`e`), where one column runs longer
 * than the other: its lines past the last row of both, read as far as `end`, each top at the rows'
 * step from the one above and at a head's edge, a phrase (no sentence, no item of a list) in the
 * cells' weight, inside the page's margins (`inBody`), are rows of their own ("Clear manual" under
 * "Works offline  No mobile app", the cell beside it empty). A line the next one reads on from
 * (a paragraph's first line set at the rows' step) ends them.
 */
function phraseTail(
  rows: Row[],
  top: number,
  e: number,
  end: number,
  items: TextItem[],
  inBody: (r: Row) => boolean,
): number {
  if (e >= end) return e;
  const run = rows.slice(top, e + 1);
  if (!phraseTable(run, items)) return e;
  const step = median(run.slice(2).map((r, k) => r.top - (run[k + 1] as Row).top));
  const head = run[0] as Row;
  const bold = run.slice(1).every((r) => allBold(r, items));
  /** A line of the tail: one phrase at a head's edge, a step under `above`. */
  const tailLine = (line: Row | undefined, above: Row): line is Row =>
    line?.chunks.length === 1 &&
    Math.abs(line.top - above.top - step) <= 1 &&
    atHeadEdge(head, (line.chunks[0] as [number, number])[0]) &&
    phrase(chunkTexts(line, items).texts[0] as string);
  while (e < end) {
    const line = rows[e + 1];
    if (!tailLine(line, rows[e] as Row) || !inBody(line) || allBold(line, items) !== bold) break;
    // A line under it at the step, in lower case or no phrase, goes on from it: a paragraph's.
    const below = e + 2 <= end ? rows[e + 2] : undefined;
    if (below && below.chunks.length === 1 && Math.abs(below.top - line.top - step) <= 1) {
      const text = chunkTexts(below, items).texts[0] as string;
      if (STARTS_LOWER.test(text) || !tailLine(below, line)) break;
    }
    e++;
  }
  return e;
}

/** Whether `x` stands where one of the heads of `head` starts. */
const atHeadEdge = (head: Row, x: number): boolean => head.chunks.some((c) => Math.abs(c[0] - x) <= 2);

/**
 * A cell of a column of phrases: a few words (as many as a label), no closing stop, no list's
 * marker or number.
 */
const phrase = (text: string): boolean =>
  wordCount(text) <= LABEL_WORDS && !ENDS_SENTENCE.test(text) && !listMark(text);

/** Whether a cell opens with a list's marker or number: an item, no cell of a column of phrases. */
const listMark = (text: string): boolean => bulletWord.test(text) || enumerator.test(text);

/** A phrase that cannot end there: a comma, a hyphen, a joining word ("Head of Finance and"). */
const OPEN_END = /(?:[,\-–&/]|\b(?:and|or|of|the|for|to|in|on|at|by|with|from|a|an))$/i;

/**
 * Whether a lone line in the tail of a table of phrases under heads (past the last row of both
 * columns) is the wrapped end of the cell above it: it opens in lower case, the cell ends where a
 * phrase cannot, or the line's first word would not have fitted after the cell's text before the
 * next column (the page's text edge for the last one). A line under a short phrase, or under an
 * empty cell, is a row of its own, its column the longer.
 */
function wrapsPhrase(above: Row, line: Row, items: TextItem[], cols: [number, number][], right: number): boolean {
  const first = chunkTexts(line, items).firsts[0];
  if (!first) return false;
  const text = first.str.trim();
  if (STARTS_LOWER.test(text)) return true;
  const c = cols.findLastIndex(([a]) => a <= first.x + 2);
  if (c < 0) return false;
  const from = (cols[c] as [number, number])[0] - 2;
  const limit = cols[c + 1]?.[0] ?? right;
  let end = Number.NEGATIVE_INFINITY;
  let last: TextItem | undefined;
  for (const i of above.items) {
    const it = items[i] as TextItem;
    const mid = it.x + it.w / 2;
    if (mid < from || mid >= limit || it.x + it.w <= end) continue;
    end = it.x + it.w;
    last = it;
  }
  if (!last) return false;
  if (OPEN_END.test(last.str.trim())) return true;
  const char = first.w / Math.max(1, first.str.length);
  const word = text.split(/\s/)[0] as string;
  // One blank before the word, one before the next column.
  return end + char * (word.length + 2) > limit;
}

/** Where the page's text ends on the right: its rightmost upright run inside the margins. */
function textRight(items: TextItem[], height: number): number {
  let right = 0;
  for (const it of items)
    if (it.str.trim() && !it.rotated && inBody(it.y, it.y + it.h, height)) right = Math.max(right, it.x + it.w);
  return right;
}

/** A month and year, a year or an academic year ("03/2019", "Mar 2019", "2019", "2019/20"). */
const WHEN =
  '(?:(?:\\d{1,2}[./])?(?:19|20)\\d\\d(?:/\\d\\d)?|(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?\\s+(?:19|20)\\d\\d)';
/**
 * A year, or a span of years or months, and nothing else: a CV's dates ("2019", "2015 - 2019",
 * "03/2019 – 05/2021", "Jan 2019 – Mar 2023", "2019/20 – 2022/23", "2019 – present", "since 2019").
 */
const YEARS = new RegExp(
  `^\\s*(?:since\\s+)?${WHEN}(?:(?:\\s*[-–—]\\s*|\\s+to\\s+)(?:${WHEN}|present|now|today|current|date)?)?\\s*$`,
  'i',
);

/**
 * Whether two columns are a grid of figures (a spreadsheet's two columns of numbers): five rows or
 * more, every one a pair of figures, each column set flush left or flush right. Such a grid has no
 * words to tell labels from values, and leaves the same gap on every line.
 */
function figureGrid(run: Row[], pairs: Row[], items: TextItem[]): boolean {
  if (pairs.length < 5 || pairs.length !== run.length) return false;
  const flush = (spans: [number, number][]) => {
    const near = (xs: number[]) => maxOf(xs) - Math.min(...xs) <= 2;
    return near(spans.map((c) => c[0])) || near(spans.map((c) => c[1]));
  };
  for (const r of pairs) for (const i of r.items) if (!figure.test((items[i] as TextItem).str.trim())) return false;
  return (
    flush(pairs.map((r) => r.chunks[0] as [number, number])) && flush(pairs.map((r) => r.chunks[1] as [number, number]))
  );
}

/**
 * Whether a lone line's text goes on in the row below, a row of several cells: the run there under
 * it starts in lower case, the rest of a label wrapped over two lines.
 */
function goesOnIn(line: Row, below: Row, items: TextItem[]): boolean {
  if (below.chunks.length < 2) return false;
  const [a, b] = line.chunks[0] as [number, number];
  let first: TextItem | undefined;
  for (const i of below.items) {
    const it = items[i] as TextItem;
    if (it.x + it.w <= a || it.x >= b) continue;
    if (!first || it.x < first.x) first = it;
  }
  return first !== undefined && STARTS_LOWER.test(first.str.trim());
}

/**
 * Whether a lone line is the label of the rows below it rather than the wrapped end of the cell
 * above: the next row, one of several cells, is indented under it in its column (from the right
 * in right-to-left text), as a group's items are under the group's name. Left to right, an item
 * may be indented past the label's end, into the gap before the next of the columns `cols`.
 */
function headsGroup(line: Row, below: Row | undefined, items: TextItem[], cols: [number, number][]): boolean {
  if (!below || below.chunks.length < 2) return false;
  const [a, b] = line.chunks[0] as [number, number];
  let rtl = 0;
  let chars = 0;
  for (const i of line.items) {
    const it = items[i] as TextItem;
    chars += it.str.length;
    if (it.dir === 'rtl') rtl += it.str.length;
  }
  const fromRight = rtl * 2 > chars;
  let next = b;
  if (!fromRight)
    for (const [c] of cols)
      if (c > b) {
        next = c;
        break;
      }
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const i of below.items) {
    const it = items[i] as TextItem;
    if (it.x + it.w <= a || it.x >= next) continue;
    lo = Math.min(lo, it.x);
    hi = Math.max(hi, it.x + it.w);
  }
  if (lo > hi) return false;
  const indent = Math.max(2, line.h * 0.5);
  return fromRight ? hi < b - indent : lo > a + indent;
}

/**
 * Whether a lone line is the wrapped end of a long cell of the row above, not a label of its own:
 * it stands in a column of short cells that now and then run long (`wrapping`, where descriptions
 * beside codes wrap), flush with that column's start, and the row above has text there (or set in
 * by two line heights at most: a paragraph's first line, a code of a list with a hanging indent,
 * "P = A TC 148 …" over "a non-filer account"). A label under a label stands in the table's first
 * column.
 */
function wrapsOn(line: Row, above: Row, items: TextItem[], wrapping: number[]): boolean {
  if (line.chunks.length !== 1) return false;
  const start = (line.chunks[0] as [number, number])[0];
  if (!wrapping.some((x) => Math.abs(x - start) <= 3)) return false;
  for (const i of above.items) {
    const x = (items[i] as TextItem).x;
    if (x >= start - 3 && x <= start + 2 * line.h) return true;
  }
  return false;
}

/**
 * Whether a lone line ends a word that the line above breaks at a hyphen: the text above it in its
 * column ends in a letter and a hyphen ("… an associ-"), and the line starts in lower case ("ated
 * Vestigial Entry").
 */
function breaksWord(above: Row, line: Row, items: TextItem[]): boolean {
  if (line.chunks.length !== 1) return false;
  const [a, b] = line.chunks[0] as [number, number];
  let last: TextItem | undefined;
  for (const i of above.items) {
    const it = items[i] as TextItem;
    if (it.x + it.w <= a || it.x >= b) continue;
    if (!last || it.x > last.x) last = it;
  }
  if (!last || !endsHyphen.test(last.str.trimEnd())) return false;
  let first: TextItem | undefined;
  for (const i of line.items) {
    const it = items[i] as TextItem;
    if (!first || it.x < first.x) first = it;
  }
  return first !== undefined && STARTS_LOWER.test(first.str.trimStart());
}

/**
 * Whether a table holds every part of each page run it took part of: a label whose figure fell
 * outside would vanish from the text with its run.
 */
function wholeRuns(table: TableRegion, origin: number[]): boolean {
  const parts = new Map<number, number>();
  for (let k = 0; k < origin.length; k++) {
    const o = origin[k] as number;
    if (o !== k) parts.set(o, (parts.get(o) ?? 0) + 1);
  }
  const taken = new Map<number, number>();
  for (const i of table.itemIndices) {
    const o = origin[i] as number;
    if (o !== i) taken.set(o, (taken.get(o) ?? 0) + 1);
  }
  for (const [o, n] of taken) if (parts.get(o) !== n) return false;
  return true;
}

/**
 * Whether the rows are two contents lists side by side (a label, its leader and page, twice on a
 * line): most rows hold two leaders, alone or parting a run. A statement has one leader a row.
 */
function sideBySideLists(run: Row[], runs: CellRuns, page: TextItem[]): boolean {
  let twice = 0;
  for (const r of run) if (rowLeaders(r, runs, page) >= 2) twice++;
  return twice * 2 > run.length;
}

/**
 * Two contents lists side by side as a table each, left first: the rows' text parted where the left
 * list's pages end and the right list's entries start (`listsSplit`), or else at the gap between the
 * lists that their entries, leaders and pages leave (`bridges`: the page runs holding a leader, which
 * spans from its entry to its page). Nothing when the text does not part in two.
 */
function listsApart(
  run: Row[],
  runs: CellRuns,
  bridges: number[],
  leadered: (r: Row) => boolean,
  vocab: () => Vocabulary,
): (TableRegion | null)[] {
  const { items, cuts } = runs;
  const idx = run.flatMap((r) => r.items);
  let split = listsSplit(run, runs);
  if (split === null) {
    const top = (run[0] as Row).top;
    const bottom = (run[run.length - 1] as Row).bottom;
    const spans = extents(items, idx);
    for (const i of bridges) {
      const it = items[i] as TextItem;
      const cy = it.y + it.h / 2;
      if (cy > top && cy < bottom) spans.push([it.x, it.x + it.w]);
    }
    const bands = projection(spans, COLUMN_GAP);
    if (bands.length !== 2) return [];
    split = ((bands[0] as [number, number])[1] + (bands[1] as [number, number])[0]) / 2;
  }
  const left: number[] = [];
  const right: number[] = [];
  for (const i of idx) {
    const it = items[i] as TextItem;
    (it.x + it.w / 2 < split ? left : right).push(i);
  }
  return [
    tableOf(rowsOf(items, left, cuts), items, leadered, vocab, cuts),
    tableOf(rowsOf(items, right, cuts), items, leadered, vocab, cuts),
  ];
}

/**
 * Where two contents lists side by side part: on each line with two leaders, between the page the
 * first leader runs to and the run after it (the right list's entry, which may stand as close as
 * a blank, a part heading set out to the left). The place every such line leaves; null if none.
 */
function listsSplit(run: Row[], runs: CellRuns): number | null {
  let lo = Number.NEGATIVE_INFINITY;
  let hi = Number.POSITIVE_INFINITY;
  let lines = 0;
  for (const r of run) {
    let first: Cut | undefined;
    let n = 0;
    for (const c of cutsAcross(runs.cuts, r.top, r.bottom)) {
      n++;
      if (!first || c.x0 < first.x0) first = c;
    }
    if (n < 2 || !first) continue;
    const after = r.items.map((i) => runs.items[i] as TextItem).filter((it) => it.x >= (first as Cut).x1 - 1);
    after.sort(byLeft);
    const [page, next] = after;
    if (!page || !next) continue;
    lo = Math.max(lo, page.x + page.w);
    hi = Math.min(hi, next.x);
    lines++;
  }
  return lines && lo <= hi + 0.5 ? (lo + hi) / 2 : null;
}

/**
 * Dot leaders on a row: the page runs a leader parted, and leaders drawn as runs of their own; and
 * the places of leaders a contents entry leaves no room for, before its page.
 */
function rowLeaders(r: Row, runs: CellRuns, page: TextItem[]): number {
  const found = new Set<number>();
  for (const i of r.items) if (runs.led.has(i)) found.add(runs.origin[i] as number);
  for (const i of runs.leaders) {
    const it = page[i] as TextItem;
    const cy = it.y + it.h / 2;
    if (cy > r.top && cy < r.bottom) found.add(i);
  }
  return found.size + cutsAcross(runs.lone, r.top, r.bottom).length;
}

/**
 * The page runs a table found among cell runs takes: each part's own run, and the leaders alone
 * (with their first dots drawn apart) on its rows.
 */
function pageRuns(table: TableRegion, origin: number[], leaders: number[], items: TextItem[]): number[] {
  const out = new Set<number>();
  for (const i of table.itemIndices) out.add(origin[i] as number);
  const [x0, y0, x1, y1] = table.bbox;
  for (const i of leaders) {
    const it = items[i] as TextItem;
    const cx = it.x + it.w / 2;
    const cy = it.y + it.h / 2;
    if (cx > x0 && cx < x1 && cy > y0 && cy < y1) out.add(i);
  }
  return [...out];
}

function tableOf(
  run: Row[],
  items: TextItem[],
  leadered: (r: Row) => boolean,
  vocab: () => Vocabulary,
  cuts: Cut[],
  wrapping: number[] = [],
  verticals: Segment[] = [],
  height = 0,
  turned: number[] = [],
  minRows = 3,
  minFilled = FILLED,
): TableRegion | null {
  const indices = run.flatMap((r) => r.items);
  const { every, cols, edge } = bodyColumns(items, run, height);
  // A contents entry too long for its line runs on over the gap before the pages, its leader and
  // page on the next line: the leaders still make the list a table of entries and pages.
  const longEntry = every === 1 && cols.length === 2 && run.filter(leadered).length >= 3;
  // A contents list's pages start where the leaders end, whatever entries run on into that column.
  const pages = contentsEdge(run, items, cuts);
  if (pages === null && ((every < 2 && !longEntry) || (every <= 2 && !pairList(run, items, leadered)))) return null;
  if (pages !== null && !pairList(run, items, leadered)) return null;
  const xs = [cols[0]?.[0] as number];
  if (pages !== null) xs.push(pages);
  else append(xs, columnEdges(cols));
  xs.push(cols[cols.length - 1]?.[1] as number);
  boxesWithLabels(xs, indices, items);
  // A line set tighter than the table's row pitch continues the cells above it (wrapped text),
  // unless it is a label below the header: under another lone label (a group's over its
  // subgroup's), or over a row indented under it. The header's own lines wrap.
  // A label whose figures stand on its second line ("Provisions for" over "restructuring  312.0")
  // goes down with that line, which goes on in lower case.
  // A contents entry whose leader and page stand on the line under it goes down with them.
  // Lone lines above the first row of cells are the top of a column's heading, a row of their own
  // as each line of the heading is.
  const heading = run.findIndex((r) => r.chunks.length >= 2);
  // The header's lines are rows of their own, each of several cells: those above the first row
  // holding a figure.
  let figureRow = run.findIndex((r) => chunkTexts(r, items).texts.some((t) => figure.test(t)));
  if (figureRow < 0) figureRow = run.length;
  // Under heads naming columns of phrases, a lone line past the last row of both columns is a row
  // unless it wraps the cell above.
  const phrased = pages === null && cols.length === 2 && phraseTable(run, items);
  const lastPair = phrased ? run.findLastIndex((r) => r.chunks.length === 2) : run.length;
  const right = phrased ? textRight(items, height) : 0;
  const merged: Row[] = [];
  let carried: Row | null = null;
  for (const [k, r] of run.entries()) {
    const prev = merged[merged.length - 1];
    const below = run[k + 1];
    if (
      !carried &&
      (k > heading || pages !== null) &&
      r.chunks.length === 1 &&
      below &&
      tightUnder(r, below) &&
      (goesOnIn(r, below, items) ||
        pageBelow(r, below, leadered) ||
        (pages !== null && entryGoesOn(r, below, items, leadered)))
    ) {
      carried = r;
      continue;
    }
    // A word broken over two lines at a hyphen is one cell's text, never a label under a label.
    const label =
      k > 1 &&
      !breaksWord(run[k - 1] as Row, r, items) &&
      (((run[k - 1] as Row).chunks.length < 2 && !(prev && wrapsOn(r, prev, items, wrapping))) ||
        headsGroup(r, below, items, cols));
    // Only single-chunk lines merge: a tight line with several cells is a row of a dense table,
    // unless each of its cells reads on from the one above it (captions wrapped side by side).
    const above = run[k - 1];
    if (
      prev &&
      !carried &&
      ((r.chunks.length === 1 &&
        tightUnder(prev, r) &&
        !label &&
        (k < lastPair || wrapsPhrase(prev, r, items, cols, right))) ||
        (k > figureRow && above !== undefined && tightUnder(above, r) && wrapsAll(above, r, items)))
    ) {
      append(prev.items, r.items);
      prev.bottom = Math.max(prev.bottom, r.bottom);
    } else if (carried) {
      merged.push({ ...r, top: carried.top, items: [...carried.items, ...r.items] });
      carried = null;
    } else merged.push({ ...r, items: [...r.items] });
  }
  if (merged.length < minRows) return null;
  const ys = rowBounds(
    merged.length,
    (k) => (merged[k] as Row).top,
    (k) => (merged[k] as Row).bottom,
  );
  const layout = slotLayout(headingsOverColumns(xs, ys, items, indices, edge), ys);
  const at = pages === null ? indentsLeft(cols) : undefined;
  if (at) spanHeadings(layout, items, indices, at, verticals);
  const { table, texts, bbox } = fillLayout(layout, items, indices, false, vocab, at);
  const filled = texts.filter(Boolean).length;
  if (!looksTabular(layout, texts) || filled < layout.cells.length * minFilled) return null;
  if (markerColumn(layout, texts) || chartScale(layout, texts)) return null;
  // Group names set upward beside the rows: a stub column, once the table stands without them.
  const stub = turned.length ? turnedStub(layout, items, turned) : null;
  if (stub) {
    append(indices, stub.runs);
    const withStub = fillLayout(stub.layout, items, indices, false, vocab, at);
    return {
      bbox: withStub.bbox,
      table: withStub.table,
      itemIndices: indices,
      ys: layout.ys,
      ruled: false,
      openHyphens: false,
    };
  }
  return { bbox, table, itemIndices: indices, ys: layout.ys, ruled: false, openHyphens: false };
}

/**
 * Columns of nothing but check boxes joined to the column on their right where that column is their
 * labels (a form's "☒ Yes  ☐ No" under one another): a cell "☒ Yes", not a cell "☒" beside a cell
 * "Yes". A box's label is set closer to it than whatever stands on its left in its row, and is the
 * same text all down the column; left-to-right text only. A column of boxes beside names (a task's
 * owner), beside more boxes (a rating scale) or after its labels ("Yes ☐  No ☐") stays apart. `xs`
 * are the columns' edges, left to right, changed in place.
 */
function boxesWithLabels(xs: number[], indices: readonly number[], items: readonly TextItem[]): void {
  if (xs.length < 3) return;
  const runs = indices.map((i) => items[i] as TextItem).filter((it) => it.str.trim());
  if (!runs.some((it) => CHECK_BOX.test(it.str)) || runs.some((it) => it.dir === 'rtl')) return;
  const columnOf = (it: TextItem): number => slotOf(xs, it.x + it.w / 2);
  for (let k = xs.length - 3; k >= 0; k--) {
    const inColumn = runs.filter((it) => columnOf(it) === k);
    if (!inColumn.length || !inColumn.every((it) => CHECK_BOX.test(it.str))) continue;
    const labels = new Set<string>();
    const labelled = inColumn.every((box) => {
      const row = runs.filter((it) => Math.abs(it.y + it.h / 2 - (box.y + box.h / 2)) < Math.max(it.h, box.h) / 2);
      const right = row.filter((it) => columnOf(it) === k + 1);
      const label = right.length === 1 ? (right[0] as TextItem) : undefined;
      if (!label || CHECK_BOX.test(label.str)) return false;
      labels.add(label.str.trim());
      const before = maxOf(row.filter((it) => it.x + it.w <= box.x + 0.5).map((it) => it.x + it.w));
      return label.x - (box.x + box.w) < box.x - before;
    });
    if (labelled && labels.size === 1) xs.splice(k + 1, 1);
  }
}

/**
 * Share of a table's cells that hold text, at least. A header over a list carried into its last
 * column fills one cell a row by its nature: it is let through with none.
 */
const FILLED = 0.35;

/** Whether line `b` is set under `a` at a paragraph's line pitch, tighter than rows stand apart. */
const tightUnder = (a: Row, b: Row): boolean => b.top - a.bottom < Math.min(a.h, b.h) * 0.6;

/**
 * Whether a line of several cells is the wrapped end of the cells of the line above: each cell is
 * under one of that line's, the two read on as one sentence ("carbon intensity from" over "our
 * Eastern Mediterranean", call-outs' captions side by side), and the line above holds no figure
 * alone. Rows of a dense table start their cells afresh, in capitals or figures.
 */
function wrapsAll(above: Row, line: Row, items: TextItem[]): boolean {
  if (line.chunks.length < 2) return false;
  const up = chunkTexts(above, items);
  const down = chunkTexts(line, items);
  // Both rows' chunks are sorted and apart: one walk pairs each cell with the one over it.
  let j = 0;
  let last = -1;
  for (const [n, [c0, c1]] of line.chunks.entries()) {
    while (j < above.chunks.length && (above.chunks[j] as [number, number])[1] <= c0) j++;
    const over = above.chunks[j];
    if (!over || over[0] >= c1 || j === last) return false;
    const next = above.chunks[j + 1];
    if (next && next[0] < c1) return false;
    last = j;
    const top = up.texts[j] as string;
    const text = down.texts[n] as string;
    // Phrases both: single words under single words ("yes" over "no") are a dense table's cells.
    if (figure.test(top) || wordCount(top) < 2 || wordCount(text) < 2 || !readsOn(top, text)) return false;
    // A name in bold over its address is two things; a caption wrapped is set alike on both lines.
    const a = up.firsts[j];
    const b = down.firsts[n];
    if (!a || !b || a.bold !== b.bold || Math.abs(a.size - b.size) >= 0.5) return false;
  }
  return true;
}

/**
 * Headings of an unruled table that span the columns under them, as one cell each (Markdown repeats
 * it per column, as ruled spans are): in the rows above the first that fills more than half the
 * columns, a heading with empty slots beside it spans the columns whose text its own runs across
 * ("Marks in each subject" over three), or the widest group of columns it is centred over when
 * wider ("Top-20" over five, "Top-20 accuracy" over six though its text runs across two), parted
 * from the columns beside the group by a rule (one of the page's vertical rulings `verticals`
 * beside the table's rows; none inside the group) or by a gap wider than any inside it.
 */
function spanHeadings(
  layout: Layout,
  items: TextItem[],
  indices: number[],
  at: (it: TextItem) => number,
  verticals: Segment[],
): void {
  const { xs, ys } = layout;
  const cols = xs.length - 1;
  const rows = ys.length - 1;
  if (cols < 3 || rows < 3) return;
  const lo = new Float64Array(rows * cols).fill(Number.POSITIVE_INFINITY);
  const hi = new Float64Array(rows * cols).fill(Number.NEGATIVE_INFINITY);
  // Per slot, its words and its last run: a sentence (a line of prose taken into a table) spans nothing.
  const words = new Uint32Array(rows * cols);
  const lastRun: (TextItem | undefined)[] = [];
  for (const i of indices) {
    const it = items[i] as TextItem;
    const k = slotOf(ys, it.y + it.h / 2) * cols + slotOf(xs, at(it));
    lo[k] = Math.min(lo[k] as number, it.x);
    hi[k] = Math.max(hi[k] as number, it.x + it.w);
    words[k] = (words[k] as number) + wordCount(it.str);
    const last = lastRun[k];
    if (!last || it.x + it.w > last.x + last.w) lastRun[k] = it;
  }
  const sentence = (k: number) =>
    (words[k] as number) > HEADING_WORDS || /[.!?]$/.test((lastRun[k] as TextItem | undefined)?.str.trim() ?? '');
  const filled = (r: number, c: number) => (lo[r * cols + c] as number) <= (hi[r * cols + c] as number);
  let body = 0;
  for (; body < rows; body++) {
    let n = 0;
    for (let c = 0; c < cols; c++) if (filled(body, c)) n++;
    if (n * 2 > cols) break;
  }
  if (body === 0 || body >= rows) return;
  // Where each column's text runs below the headings.
  const left: number[] = [];
  const right: number[] = [];
  for (let c = 0; c < cols; c++) {
    let a = Number.POSITIVE_INFINITY;
    let b = Number.NEGATIVE_INFINITY;
    for (let r = body; r < rows; r++) {
      a = Math.min(a, lo[r * cols + c] as number);
      b = Math.max(b, hi[r * cols + c] as number);
    }
    if (a > b) return;
    left.push(a);
    right.push(b);
  }
  // Which column boundaries a rule runs down, asked once per table and only if a heading may span.
  let rules: boolean[] | null = null;
  const ruled = (j: number): boolean => {
    rules ??= ruledBoundaries(left, right, ys[0] as number, ys[rows] as number, verticals);
    return rules[j] === true;
  };
  const columns: Columns = { left, right, ruled, partedInside: true };
  const spans: { r: number; a: number; b: number }[] = [];
  for (let r = 0; r < body; r++) {
    let from = 0;
    for (let c = 0; c < cols; c++) {
      if (!filled(r, c) || sentence(r * cols + c)) continue;
      let first = c;
      while (first > from && !filled(r, first - 1)) first--;
      let last = c;
      while (last + 1 < cols && !filled(r, last + 1)) last++;
      const x0 = lo[r * cols + c] as number;
      const x1 = hi[r * cols + c] as number;
      let a = c;
      let b = c;
      for (let j = first; j <= last; j++)
        if ((right[j] as number) > x0 + 1 && (left[j] as number) < x1 - 1) {
          a = Math.min(a, j);
          b = Math.max(b, j);
        }
      // A heading centred over a wider group than the columns its text runs across (one over six,
      // alone on its line) spans that group; rules (or cell shading's edges) between the columns
      // inside make no group.
      const group = centredGroup(columns, [first, a], [b, last], x0, x1);
      if (group) [a, b] = group;
      if (b > a) spans.push({ r, a, b });
      from = Math.max(c, b) + 1;
      c = Math.max(c, b);
    }
  }
  if (!spans.length) return;
  const covered = new Set<number>();
  for (const s of spans) for (let c = s.a + 1; c <= s.b; c++) covered.add(s.r * cols + c);
  const cells: Layout['cells'] = [];
  for (const cell of layout.cells) {
    if (covered.has(cell.r * cols + cell.c)) continue;
    const s = spans.find((x) => x.r === cell.r && x.a === cell.c);
    cells.push(s ? { ...cell, colSpan: s.b - s.a + 1 } : cell);
  }
  layout.cells = cells;
}

/**
 * For each boundary between neighbouring columns (`right[j]` to `left[j + 1]`), whether a vertical
 * ruling stands in it beside the rows from `top` to `bottom`. The rulings are sorted by x once per
 * list, and each boundary looks only at those in its own gap.
 */
function ruledBoundaries(
  left: number[],
  right: number[],
  top: number,
  bottom: number,
  verticals: Segment[],
): boolean[] {
  let sorted = verticalsByX.get(verticals);
  if (!sorted) {
    sorted = [...verticals].sort(byLeftEdge);
    verticalsByX.set(verticals, sorted);
  }
  const out: boolean[] = [];
  for (let j = 0; j + 1 < left.length; j++) {
    const from = (right[j] as number) - 1;
    const to = (left[j + 1] as number) + 1;
    let found = false;
    for (let k = firstPlace(sorted, (v) => v.x0 < from); k < sorted.length && !found; k++) {
      const v = sorted[k] as Segment;
      if (v.x0 > to) break;
      found = v.y0 < bottom && v.y1 > top;
    }
    out.push(found);
  }
  return out;
}

/** Vertical rulings sorted by x, kept per page's list. */
const verticalsByX = new WeakMap<Segment[], Segment[]>();
/** Comparator of rulings by x (module-level, as the other comparators). */
const byLeftEdge = (a: Segment, b: Segment): number => a.x0 - b.x0;

/**
 * Where a run stands across columns `cols`: a run wholly inside the gap after the label column (an
 * item indented under its group's label, short of the next column) at that column's end, the
 * column whose left edge is nearest on its left; any other run at its centre.
 */
function indentsLeft(cols: [number, number][]): (it: TextItem) => number {
  const [first, second] = cols;
  return (it) => {
    if (first && second && it.x >= first[1] && it.x + it.w <= second[0]) return first[1];
    return it.x + it.w / 2;
  };
}

/**
 * Column edges with each heading set beside the column it heads joined to that column: a heading
 * ("LINE") standing left or right of the figures under it, its own column empty below it, theirs
 * empty in the heading's row (a running foot `furniture` still in the table not counted). Apart,
 * they were two half-empty columns.
 */
function headingsOverColumns(
  xs: number[],
  ys: number[],
  items: TextItem[],
  indices: number[],
  furniture: number[] = [],
): number[] {
  const cols = xs.length - 1;
  const rows = ys.length - 1;
  if (rows < 2 || cols < 3) return xs;
  const head: boolean[] = [];
  const body: boolean[] = [];
  for (let c = 0; c < cols; c++) {
    head.push(false);
    body.push(false);
  }
  const skip = new Set(furniture);
  for (const i of indices) {
    if (skip.has(i)) continue;
    const it = items[i] as TextItem;
    const c = slotOf(xs, it.x + it.w / 2);
    if (slotOf(ys, it.y + it.h / 2) === 0) head[c] = true;
    else body[c] = true;
  }
  const out = xs.slice();
  const apart = (h: number, b: number) => head[h] && !body[h] && !head[b] && body[b];
  for (let c = cols - 2; c >= 0 && out.length > 3; c--) {
    if (apart(c, c + 1) || apart(c + 1, c)) out.splice(c + 1, 1);
  }
  return out;
}

/**
 * Whether the line under a lone line holds a leader and its page alone, the page right of where the
 * lone line starts and ending where it ends or further right (under its last words, as far as the
 * line runs on into the column of pages).
 */
function pageBelow(line: Row, below: Row, leadered: (r: Row) => boolean): boolean {
  const [a, b] = line.chunks[0] as [number, number];
  const [c, d] = below.chunks[0] as [number, number];
  return below.chunks.length === 1 && c > a + (b - a) / 2 && d >= b - 2 && leadered(below);
}

/**
 * Whether a lone line of a contents list is the first line of the entry below it, whose leader and
 * page end its last line ("The History of the Chantry: Chapter 1 -" over "The Imperium in flames
 * ..... 53"): the line below has them, starts no further left and is set alike (a heading of the
 * list set apart in bold or larger type stays a row of its own).
 */
function entryGoesOn(line: Row, below: Row, items: TextItem[], leadered: (r: Row) => boolean): boolean {
  if (below.chunks.length < 2 || !leadered(below)) return false;
  const start = (line.chunks[0] as [number, number])[0];
  if ((below.chunks[0] as [number, number])[0] < start - 2) return false;
  const firstOf = (r: Row) => {
    let first: TextItem | undefined;
    for (const i of r.items) {
      const it = items[i] as TextItem;
      if (!first || it.x < first.x) first = it;
    }
    return first;
  };
  const a = firstOf(line);
  const b = firstOf(below);
  return a !== undefined && b !== undefined && a.bold === b.bold && Math.abs(a.size - b.size) < 0.5;
}

/**
 * Where the pages of one contents list start: on three lines or more a leader (one a line, none
 * with two: that is two lists side by side) runs to a page, and those pages start no further left
 * than this. Entries long enough to run on into the column of pages stay the entries' (their runs
 * go by their middle). Null when the rows are not such a list.
 */
function contentsEdge(run: Row[], items: TextItem[], cuts: Cut[]): number | null {
  if (!cuts.length) return null;
  let left = Number.POSITIVE_INFINITY;
  let right = Number.NEGATIVE_INFINITY;
  for (const r of run)
    for (const i of r.items) {
      const it = items[i] as TextItem;
      left = Math.min(left, it.x);
      right = Math.max(right, it.x + it.w);
    }
  let edge = Number.POSITIVE_INFINITY;
  let lines = 0;
  for (const r of run) {
    let cut: Cut | undefined;
    for (const c of cutsAcross(cuts, r.top, r.bottom)) {
      // The other list's leaders, beside these rows, are not theirs.
      if (c.x0 < left - 1 || c.x1 > right + 1) continue;
      if (cut) return null;
      cut = c;
    }
    if (!cut) continue;
    let page: TextItem | undefined;
    for (const i of r.items) {
      const it = items[i] as TextItem;
      if (it.x >= cut.x1 - 1 && (!page || it.x < page.x)) page = it;
    }
    if (!page || (!figure.test(page.str.trim()) && !/^[ivxlc]{1,7}$/i.test(page.str.trim()))) continue;
    edge = Math.min(edge, page.x);
    lines++;
  }
  return lines >= 3 && lines * 2 >= run.length ? edge - 0.5 : null;
}

/**
 * Columns of a table's text: the gaps its runs leave in the horizontal projection. They come from
 * the rows that fill most of them, as a spanning header ("Top-20" over four columns) or a wrapped
 * line would bridge the gaps between the columns below it; those only refine the columns every row
 * leaves (`every` counts them), which alone decide whether the text is a table.
 */
export function tableColumns(
  items: TextItem[],
  rows: Row[],
  indents = false,
  all = columnsOf(items, rows),
): { every: number; cols: [number, number][] } {
  let most = 0;
  for (const r of rows) most = Math.max(most, r.chunks.length);
  const finerRows = rows.filter((r) => r.chunks.length >= most * 0.6);
  // Where every row is a fine one, the finer columns are the same (read once).
  const finer = finerRows.length === rows.length ? all : columnsOf(items, finerRows);
  // With `indents`, as many columns either way, but lines of few cells hold runs inside the gap the
  // full rows leave after the label column, short of the next (items indented under a group's
  // label, "Supplies" over "Paint Supplies"): the projection of all rows took them into that next
  // column, and moved its edge out over them. The full rows say where the columns are.
  const indented = indents && finer.length === all.length && indentedRuns(finer, items, rows);
  const cols = finer.length > all.length || indented ? finer : all;
  // Only the columns are refined by gaps that a row's long cell crosses: whether the text is a
  // table at all stays with the gaps every row leaves.
  return { every: all.length, cols: crossedColumns(cols, items, finer.length > all.length ? finerRows : rows) };
}

/**
 * A body cell a sheet sets flush left where its column's figures stand flush right: text, so set
 * under the head: a nil ("–", "n/a") or a figure with a note's mark ("5*").
 */
const sheetText = /^(?:[-–—]|n\/a|[-+(]?\d[\d.,]*%?\)?[*†‡])$/i;

/** A run's text without its blanks. */
const textOf = (items: TextItem[], i: number): string => (items[i] as TextItem).str.trim();

/** A part of a column (`sheetColumns`): its column, its extent, and what it holds. */
interface Part {
  col: number;
  a: number;
  b: number;
  /** Runs of the head rows, and none of the body but nils and marked figures (`sheetText`). */
  heads: boolean;
  /** Figures of the body only, two or more. */
  figures: boolean;
}

/**
 * Columns of a spreadsheet printed without its grid: each head set flush left in its cell and the
 * figures under it flush right, a cell's width on, so a column's figures end a point or two before
 * the next head starts, a gap narrower than COLUMN_GAP. The projection's columns ran from the
 * figures to the next head ("| first | second | third | |" over "| | 1 | 5 | 9 |"). Each column is
 * parted at its gaps of FIGURE_GAP, and a part holding nothing but the head's runs (the rows above
 * the first figure) followed by a part holding nothing but figures of the body make one column.
 */
function sheetColumns(cols: [number, number][], items: TextItem[], rows: Row[]): [number, number][] {
  const firstFigures = rows.findIndex((r) => figuresIn(r, items) > 0);
  if (firstFigures < 1 || cols.length < 2) return cols;
  const head = new Set<number>();
  for (let k = 0; k < firstFigures; k++) for (const i of (rows[k] as Row).items) head.add(i);
  const idx: number[] = [];
  for (const r of rows) append(idx, r.items);
  const inside = runsInColumns(cols, items, idx);
  const parts: Part[] = [];
  for (const [col, runs] of inside.entries())
    for (const [a, b] of projection(extents(items, runs), FIGURE_GAP)) {
      const mine = runs.filter((i) => within(items[i] as TextItem, [a, b]));
      const heads = mine.some((i) => head.has(i)) && mine.every((i) => head.has(i) || sheetText.test(textOf(items, i)));
      const figures = mine.length >= 2 && mine.every((i) => !head.has(i) && figure.test(textOf(items, i)));
      parts.push({ col, a, b, heads, figures });
    }
  const paired = new Set<number>();
  for (let p = 0; p + 1 < parts.length; p++)
    if ((parts[p] as Part).heads && (parts[p + 1] as Part).figures) {
      paired.add(p).add(p + 1);
      p++;
    }
  // A head left without figures, or figures without a head, is another layout: Word's figures
  // set flush left under heads centred over them pair each head with the next column's figures.
  for (const [p, part] of parts.entries()) if (!paired.has(p) && (part.heads || part.figures)) return cols;
  if (paired.size === 0) return cols;
  // A column that gave a pair gives its other parts as columns of their own (a column of words set
  // flush left after a column of figures: "Unit" over "box" after "Qty" over its figures).
  const split = new Set<number>();
  for (const p of paired) split.add((parts[p] as Part).col);
  const out: [number, number][] = [];
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p] as Part;
    const whole = cols[part.col] as [number, number];
    if (paired.has(p)) {
      out.push([part.a, (parts[p + 1] as Part).b]);
      p++;
    } else if (split.has(part.col)) out.push([part.a, part.b]);
    else if (out[out.length - 1] !== whole) out.push(whole);
  }
  return out;
}

/** The columns the runs of the rows leave between them (`tableColumns`' first step, its `every`). */
function columnsOf(items: TextItem[], rows: Row[]): [number, number][] {
  const idx: number[] = [];
  for (const r of rows) append(idx, r.items);
  return figureColumns(projection(extents(items, idx), COLUMN_GAP), items, idx);
}

/**
 * Where a run's rows start and end (`from` … `to`, exclusive) without its first or last row when that
 * row stands in the page's head or foot band: perhaps a running head or foot set at the rows' pitch
 * ("Cat. No. 28171E (12-12-2022)" under the line numbers and positions), which `dropFurnitureRows`
 * drops once the document's furniture is known. Its text may close or widen the columns' gaps.
 */
function bandRows(run: Row[], height: number): { from: number; to: number } {
  if (!height || run.length < 4) return { from: 0, to: run.length };
  const from = inHeadBand((run[0] as Row).bottom, height) ? 1 : 0;
  const to = inFootBand((run[run.length - 1] as Row).top, height) ? run.length - 1 : run.length;
  return { from, to };
}

/**
 * A found run's columns (`tableColumns` with indents), without a head or foot band row (`bandRows`)
 * that closes a gap all other rows leave. Its text still goes into the table's cells meanwhile;
 * `edge` lists its runs. With no page height given, all rows count.
 */
function bodyColumns(
  items: TextItem[],
  run: Row[],
  height: number,
): { every: number; cols: [number, number][]; edge: number[] } {
  const { from, to } = bandRows(run, height);
  const all = columnsOf(items, run);
  // A found table's columns only are read for a sheet's (`sheetColumns`): the tries before finding
  // one ask for columns many times a page.
  const sheet = (rows: Row[], found: { every: number; cols: [number, number][] }, edge: number[]) => ({
    every: found.every,
    cols: sheetColumns(found.cols, items, rows),
    edge,
  });
  if (from === 0 && to === run.length) return sheet(run, tableColumns(items, run, true, all), []);
  // Which rows' columns are refined is settled by the gaps every row leaves, with the band row and
  // without (`every`): only the winner is refined.
  const body = run.slice(from, to);
  const inner = columnsOf(items, body);
  if (inner.length <= all.length) return sheet(run, tableColumns(items, run, true, all), []);
  const edge = from ? (run[0] as Row).items.slice() : [];
  if (to < run.length) append(edge, (run[run.length - 1] as Row).items);
  return sheet(body, tableColumns(items, body, true, inner), edge);
}

/** Whether a run of the rows lies wholly inside the gap between the first two of the columns `cols`. */
function indentedRuns(cols: [number, number][], items: TextItem[], rows: Row[]): boolean {
  const [first, second] = cols;
  if (!first || !second) return false;
  for (const r of rows)
    for (const i of r.items) {
      const it = items[i] as TextItem;
      if (it.x >= first[1] && it.x + it.w <= second[0]) return true;
    }
  return false;
}

/**
 * Columns with a gutter that one row's long cell runs across parted again: the name that reaches
 * into the gap before the next column joined the two columns for every row. Where five rows or
 * more leave a gap inside a column and one row alone crosses it, with text on both sides in other
 * rows, the gap stands.
 */
function crossedColumns(cols: [number, number][], items: TextItem[], rows: Row[]): [number, number][] {
  if (rows.length < 5) return cols;
  const out: [number, number][] = [];
  // Each row's runs by their left edge, sorted once for all columns.
  const rowsLeftToRight: TextItem[][] = [];
  for (const r of rows) {
    const runs: TextItem[] = [];
    for (const i of r.items) {
      const it = items[i] as TextItem;
      // A run without a place covers no bin.
      if (!Number.isNaN(it.x) && !Number.isNaN(it.w)) runs.push(it);
    }
    if (!leftToRight(runs)) runs.sort(byLeft);
    rowsLeftToRight.push(runs);
  }
  for (const col of cols) {
    const [c0, c1] = col;
    const bins = Math.ceil(c1 - c0) + 1;
    if (bins < 3 * COLUMN_GAP) {
      out.push(col);
      continue;
    }
    // Rows covering each bin: a bin counts a row once, however many of its runs cross it. Each
    // row's runs, left to right, add the bins past the furthest any run before reached, as steps
    // of a running sum (one pass over the bins, not one a run).
    const steps = new Int32Array(bins + 1);
    for (const r of rowsLeftToRight) {
      let reach = 0;
      for (const it of r) {
        const a = Math.max(reach, Math.floor(it.x - c0));
        const b = Math.min(bins, Math.ceil(it.x + it.w - c0));
        if (!(a < b)) continue;
        steps[a] = (steps[a] as number) + 1;
        steps[b] = (steps[b] as number) - 1;
        reach = b;
      }
    }
    const cover = new Int32Array(bins);
    for (let k = 0, sum = 0; k < bins; k++) {
      sum += steps[k] as number;
      cover[k] = sum;
    }
    let start = 0;
    for (let k = 0; k < bins; ) {
      if ((cover[k] as number) > 1) {
        k++;
        continue;
      }
      let e = k;
      while (e < bins && (cover[e] as number) <= 1) e++;
      // A gap inside the column, wide enough, with most rows holding text on both sides of it.
      if (
        k > start &&
        e < bins &&
        e - k >= COLUMN_GAP &&
        bothSides(rows, items, col, c0 + k, c0 + e) * 2 >= rows.length
      ) {
        out.push([c0 + start, c0 + k]);
        start = e;
      }
      k = e;
    }
    out.push([c0 + start, c1]);
  }
  return out;
}

/** Whether the runs stand in order of their left edges. */
function leftToRight(runs: TextItem[]): boolean {
  for (let k = 1; k < runs.length; k++) if ((runs[k] as TextItem).x < (runs[k - 1] as TextItem).x) return false;
  return true;
}

/** Rows with a run of the column `col` ending left of `a` and another starting right of `b`. */
function bothSides(rows: Row[], items: TextItem[], col: [number, number], a: number, b: number): number {
  let n = 0;
  for (const r of rows) {
    let left = false;
    let right = false;
    for (const i of r.items) {
      const it = items[i] as TextItem;
      if (!within(it, col)) continue;
      if (it.x + it.w <= a) left = true;
      if (it.x >= b) right = true;
    }
    if (left && right) n++;
  }
  return n;
}

/** Gap, in points, that parts a column of figures into two when every row leaves it. */
const FIGURE_GAP = 1;

/**
 * Columns with the close columns of figures inside them parted. Figures set flush right a few
 * points apart ("1,540.0 9,522.6") leave a gap too narrow for COLUMN_GAP, but one that every row
 * leaves at the same place: a column holding nothing but figures splits there. Words are left
 * alone: their gaps are where the rows' runs happen to end.
 */
/**
 * The runs `idx` each of the columns `cols` holds: the column its centre lies in, found by a binary
 * search (the columns are a projection's, sorted and apart; a run between two is in neither). One
 * pass over the runs, not one a column.
 */
function runsInColumns(cols: [number, number][], items: TextItem[], idx: readonly number[]): number[][] {
  const insides: number[][] = [];
  for (let k = 0; k < cols.length; k++) insides.push([]);
  for (const i of idx) {
    const it = items[i] as TextItem;
    const cx = it.x + it.w / 2;
    const k = firstPlace(cols, (c) => c[0] <= cx) - 1;
    if (k < 0 || cx > (cols[k] as [number, number])[1]) continue;
    (insides[k] as number[]).push(i);
  }
  return insides;
}

function figureColumns(cols: [number, number][], items: TextItem[], idx: number[]): [number, number][] {
  const insides = runsInColumns(cols, items, idx);
  const out: [number, number][] = [];
  for (const [k, col] of cols.entries()) {
    const inside = insides[k] as number[];
    // A column kept whole is kept whatever its parts hold: nothing to count.
    if (inside.length < 4 || inside.some((i) => !figure.test(textOf(items, i)))) {
      out.push(col);
      continue;
    }
    const parts = projection(extents(items, inside), FIGURE_GAP);
    // Each part a column of its own: figures in two rows at least.
    const full =
      parts.length === 1 || parts.every((p) => inside.filter((i) => within(items[i] as TextItem, p)).length >= 2);
    append(out, full ? parts : [col]);
  }
  return out;
}

const within = (it: TextItem, [a, b]: [number, number]): boolean => it.x + it.w / 2 >= a && it.x + it.w / 2 <= b;

/** Boundaries between neighbouring columns: the middle of each gap. */
export function columnEdges(cols: [number, number][]): number[] {
  const out: number[] = [];
  for (let c = 1; c < cols.length; c++) out.push(((cols[c - 1]?.[1] as number) + (cols[c]?.[0] as number)) / 2);
  return out;
}
const marker = /^(?:[•◦▪▫‣●○■□►▸➢✓✔·\-–—*]|\uf0b7|\uf0a7|\uf076|\uf0d8)$/;

/**
 * Whether a column holds nothing but list markers. Bulleted lists set in two columns, or whose
 * items wrap, leave the same empty channels as a table; their "cells" are a bullet and its text.
 * A cell across columns is no column's: a list's head over its bullets and their items.
 */
function markerColumn(layout: Layout, texts: string[]): boolean {
  const seen = new Map<number, boolean>();
  for (const [k, c] of layout.cells.entries()) {
    const t = texts[k];
    if (!t || c.colSpan > 1) continue;
    seen.set(c.c, (seen.get(c.c) ?? true) && marker.test(t));
  }
  return [...seen.values()].some(Boolean);
}

/** A number as a chart's scale marks it: digits, a decimal part, a sign. */
const mark = /^[-−]?\d+(?:[.,]\d+)?$/;

/**
 * Whether a row is a chart's scale and the other rows leave its columns empty: a bar chart's
 * labels and the values printed on its bars, with the axis marks under them ("0 10 20 … 100"),
 * line up as a table would. A scale is five marks or more, evenly stepped; the rows above a
 * table's heading of years fill the years' columns, the bars' values fill one column a row.
 */
function chartScale(layout: Layout, texts: string[]): boolean {
  const cols = layout.xs.length - 1;
  const rows = layout.ys.length - 1;
  for (let r = 0; r < rows; r++) {
    const marks: number[] = [];
    const at: number[] = [];
    let numeric = true;
    for (let c = 0; c < cols && numeric; c++) {
      const t = texts[r * cols + c];
      if (!t) continue;
      at.push(c);
      for (const m of t.split(' ')) {
        // A row with a word is no scale: nothing more of it is read.
        if (!mark.test(m)) {
          numeric = false;
          break;
        }
        marks.push(Number(m.replace('−', '-').replace(',', '.')));
      }
    }
    if (!numeric || marks.length < 5 || !evenlyStepped(marks)) continue;
    let filled = 0;
    for (let o = 0; o < rows; o++) {
      if (o === r) continue;
      for (const c of at) if (texts[o * cols + c]) filled++;
    }
    return filled < (rows - 1) * at.length * 0.34;
  }
  return false;
}

function evenlyStepped(marks: number[]): boolean {
  const step = (marks[1] as number) - (marks[0] as number);
  if (step <= 0) return false;
  for (let k = 2; k < marks.length; k++)
    if (Math.abs((marks[k] as number) - (marks[k - 1] as number) - step) > step * 1e-6) return false;
  return true;
}
