import { bullet, bulletAlone } from './markers.ts';
import type { Mark, Rect, TextItem } from './model.ts';

/**
 * Bullets a file draws as shapes rather than sets in a font: a browser's print draws a list's discs,
 * circles and squares as paths, so its items read as plain lines and their list is lost. Each such
 * shape that stands where a bullet stands becomes a run of the bullet's glyph, and every reader of
 * lists (paragraphs, cells, nesting by indent) sees it as it sees a bullet in a font.
 */
const GLYPH: Record<Mark['shape'], string> = { disc: '•', ring: '◦', square: '▪' };

/**
 * Where a bullet stands against its item's first run, in the run's font sizes: its right edge a
 * little before the run (Chromium sets its discs 0.7 of a size before the text, a word processor a
 * tab), its height a letter's at most, its middle in the run's lower part, where the letters' middle
 * is (a shape level with a capital's top is an ornament or a mark of a figure).
 */
const GAP_MIN = 0.1;
const GAP_MAX = 2.5;
const HEIGHT_MIN = 0.15;
const HEIGHT_MAX = 0.75;
const MIDDLE_FROM = 0.35;
const MIDDLE_TO = 0.95;
/**
 * Text ending nearer than this before a shape (in sizes) makes it a mark inside its line, with every
 * shape on the row before it: a legend's keys ("● Revenue ● Costs"), a question's radio buttons
 * ("○ Yes ○ No"). A list in a table's second column stands further from the first column's text
 * (the cell's padding and the list's indent). Where that text is another shape's item, `PAIRED` is
 * the distance: lists side by side stand a column's gap and an indent apart.
 */
const INLINE = 1.2;
const PAIRED = 2;
/**
 * A bullet stands clear of other shapes by this much (in its item's sizes) down its column and
 * along its row: a pattern of dots, a chart's markers or a figure's callouts stand closer. Items'
 * bullets stand a line apart; lists side by side a column apart.
 */
const CLEAR_DOWN = 0.5;
const CLEAR_ALONG = 2;
/** Two shapes whose middles are this near (points) are one bullet drawn twice (filled, then outlined). */
const SAME_SPOT = 1;
/**
 * Bullets of one height (within `SAME_HEIGHT`) a document must show, on the page or before it,
 * before any is read: a dot or ring alone before a heading, a page number or a figure's label is an
 * ornament. A list of one item drawn so loses its bullet and reads as the paragraph it is.
 */
const MIN_BULLETS = 2;
const SAME_HEIGHT = 0.1;
/**
 * A column of shapes (one shape, one left edge within `SAME_EDGE` points) each of which stands
 * between text on its row and an item followed by a gap this wide (in sizes) and more text is a
 * table's column of markers ("Mail ● Active Ann"), not a list.
 */
const CELL_GAP = 1.5;
const SAME_EDGE = 1;

interface Candidate {
  mark: Mark;
  /** The run the mark stands before. */
  at: number;
  /** Distance from the nearest text before the mark on its row to the mark; Infinity where there is none. */
  before: number;
  /** The run that text ends with, or -1. */
  beforeRun: number;
  /** Text goes on past a cell's gap after the item's run, on its row. */
  after: boolean;
}

/**
 * The page's runs with a bullet's run put before each item whose bullet is drawn (`marks`).
 * `heights` holds the heights of the bullets read on earlier pages, and gets this page's: a list
 * whose last item is alone on its page keeps its bullet.
 */
export function drawnBullets(items: TextItem[], marks: readonly Mark[], heights: number[] = []): TextItem[] {
  if (!marks.length || (marks.length < MIN_BULLETS && !heights.length)) return items;
  const rows = byTop(items);
  const found: Candidate[] = [];
  const taken = new Set<number>();
  for (const mark of marks) {
    const at = itemAfter(items, rows, mark);
    if (at < 0 || taken.has(at)) continue;
    const run = items[at] as TextItem;
    if (crowded(mark, marks, run.size)) continue;
    const around = rowAround(items, rows, mark, run);
    if (!around) continue;
    taken.add(at);
    found.push({ mark, at, ...around });
  }
  const inLine = new Map<Candidate, number>();
  for (const c of found) {
    const kind = inLineKind(c, found, items);
    if (kind) inLine.set(c, kind);
  }
  const kept = found.filter((c) => !inLine.has(c) && !rowBefore(c, inLine, found, items) && !markerColumn(c, found));
  const before = new Map<number, TextItem>();
  const read: number[] = [];
  for (const { mark, at } of kept) {
    const height = mark.y1 - mark.y0;
    const alike = (h: number): boolean => Math.abs(h - height) <= SAME_HEIGHT * height;
    const count = kept.filter((c) => alike(c.mark.y1 - c.mark.y0)).length + (heights.some(alike) ? 1 : 0);
    if (count < MIN_BULLETS) continue;
    before.set(at, bulletRun(mark, items[at] as TextItem));
    if (!heights.some(alike) && !read.some(alike)) read.push(height);
  }
  if (!before.size) return items;
  // Each height once: a long document's bullets are of a few.
  heights.push(...read);
  const out: TextItem[] = [];
  for (const [i, it] of items.entries()) {
    const mark = before.get(i);
    if (mark) out.push(mark);
    out.push(it);
  }
  return out;
}

/** The run of a drawn bullet: its glyph where the shape stands, on its item's line and in its font. */
function bulletRun(mark: Mark, run: TextItem): TextItem {
  return {
    str: GLYPH[mark.shape],
    x: mark.x0,
    y: run.y,
    w: mark.x1 - mark.x0,
    h: run.h,
    size: run.size,
    fontName: run.fontName,
    fontId: run.fontId,
    bold: false,
    italic: false,
    dir: 'ltr',
    hasEOL: false,
    rotated: false,
    href: undefined,
  };
}

/** Runs with text set level (either way), by their tops, and the tallest run's height: what the searches walk. */
interface Rows {
  order: number[];
  tallest: number;
}

function byTop(items: readonly TextItem[]): Rows {
  const order: number[] = [];
  let tallest = 0;
  for (const [i, it] of items.entries()) {
    if (it.rotated || it.dir === 'ttb' || it.size <= 0 || !it.str.trim()) continue;
    order.push(i);
    tallest = Math.max(tallest, it.h);
  }
  order.sort((a, b) => (items[a] as TextItem).y - (items[b] as TextItem).y);
  return { order, tallest };
}

/** The indices of the runs whose box holds height `y` (a run's top is no further above it than the tallest run's height). */
function* runsAcross(items: readonly TextItem[], rows: Rows, y: number): Generator<number> {
  const { order } = rows;
  let lo = 0;
  let hi = order.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((items[order[mid] as number] as TextItem).y < y - rows.tallest) lo = mid + 1;
    else hi = mid;
  }
  for (let k = lo; k < order.length; k++) {
    const index = order[k] as number;
    const it = items[index] as TextItem;
    if (it.y > y) break;
    if (it.y + it.h >= y) yield index;
  }
}

/** The index of the run a shape stands before as its bullet, or -1. */
function itemAfter(items: readonly TextItem[], rows: Rows, mark: Mark): number {
  const height = mark.y1 - mark.y0;
  const y = middle(mark);
  let best = -1;
  let bestGap = Number.POSITIVE_INFINITY;
  for (const i of runsAcross(items, rows, y)) {
    const it = items[i] as TextItem;
    const gap = it.x - mark.x1;
    if (gap < GAP_MIN * it.size || gap > GAP_MAX * it.size || gap >= bestGap) continue;
    if (height < HEIGHT_MIN * it.size || height > HEIGHT_MAX * it.size) continue;
    if (y < it.y + MIDDLE_FROM * it.h || y > it.y + MIDDLE_TO * it.h) continue;
    best = i;
    bestGap = gap;
  }
  // An item already marked (a bullet set in a font, which the drawing doubles) takes no second one.
  if (best >= 0 && bullet.test((items[best] as TextItem).str.trimStart())) return -1;
  if (best >= 0 && bulletAlone.test((items[best] as TextItem).str.trim())) return -1;
  return best;
}

/**
 * The text on the mark's row around it: how far the text before it ends before it (Infinity where
 * there is none) and the run it ends with (-1), and whether text goes on past a cell's gap after the
 * item's run (`CELL_GAP`); null where text covers the mark.
 */
function rowAround(
  items: readonly TextItem[],
  rows: Rows,
  mark: Mark,
  run: TextItem,
): Pick<Candidate, 'before' | 'beforeRun' | 'after'> | null {
  let before = Number.POSITIVE_INFINITY;
  let beforeRun = -1;
  const right: TextItem[] = [];
  for (const i of runsAcross(items, rows, middle(mark))) {
    const it = items[i] as TextItem;
    if (it.x > run.x) right.push(it);
    if (it.x >= run.x) continue;
    if (it.x + it.w > mark.x0) return null;
    if (mark.x0 - (it.x + it.w) < before) {
      before = mark.x0 - (it.x + it.w);
      beforeRun = i;
    }
  }
  right.sort((a, b) => a.x - b.x);
  let end = run.x + run.w;
  let after = false;
  for (const it of right) {
    if (it.x - end > CELL_GAP * run.size) {
      after = true;
      break;
    }
    end = Math.max(end, it.x + it.w);
  }
  return { before, beforeRun, after };
}

/** Whether another shape stands nearer the mark than a bullet's neighbours do (`CLEAR_DOWN`, `CLEAR_ALONG`). */
function crowded(mark: Mark, marks: readonly Mark[], size: number): boolean {
  const down = CLEAR_DOWN * size;
  const along = CLEAR_ALONG * size;
  const mx = (mark.x0 + mark.x1) / 2;
  const my = middle(mark);
  for (const o of marks) {
    if (o === mark) continue;
    if (Math.abs((o.x0 + o.x1) / 2 - mx) < SAME_SPOT && Math.abs(middle(o) - my) < SAME_SPOT) continue;
    if (o.x0 < mark.x1 + along && o.x1 > mark.x0 - along && o.y0 < mark.y1 + down && o.y1 > mark.y0 - down) return true;
  }
  return false;
}

/** Half way down a box: where a shape's row is told. */
const middle = (r: Rect): number => (r.y0 + r.y1) / 2;

const sameRow = (a: Candidate, b: Candidate, size: number): boolean =>
  Math.abs(middle(a.mark) - middle(b.mark)) < CLEAR_DOWN * size;

/** Whether two candidates' shapes are one shape with one left edge (`SAME_EDGE`): a column of bullets or markers. */
const sameEdge = (a: Candidate, b: Candidate): boolean =>
  a.mark.shape === b.mark.shape && Math.abs(a.mark.x0 - b.mark.x0) <= SAME_EDGE;

/** How a candidate stands inside its line: text just before it, or another shape's item before it alone. */
const CLOSE = 1;
const LONE = 2;

/**
 * Whether a candidate is a mark inside its line (`CLOSE`): text ends just before it (`INLINE`),
 * or another shape's item does (`PAIRED`); or (`LONE`) another shape's item ends before it, however
 * far, and no shape stands at its edge on another row (a chart's keys along one row, where lists
 * side by side repeat their bullets' edges down the rows). 0 where it is none.
 */
function inLineKind(c: Candidate, found: readonly Candidate[], items: readonly TextItem[]): number {
  const size = (items[c.at] as TextItem).size;
  if (c.before < INLINE * size) return CLOSE;
  if (!found.some((o) => o.at === c.beforeRun && sameRow(o, c, size))) return 0;
  if (c.before < PAIRED * size) return CLOSE;
  return inColumn(c, found, size) ? 0 : LONE;
}

/** Whether another candidate of its shape stands at its left edge on another row. */
function inColumn(c: Candidate, found: readonly Candidate[], size: number): boolean {
  return found.some((o) => o !== c && sameEdge(o, c) && !sameRow(o, c, size));
}

/**
 * Whether a candidate stands on its row before a mark inside the line (`inLineKind`): the first of a
 * row of radio buttons, or of keys where it stands in no column either.
 */
function rowBefore(
  c: Candidate,
  inLine: ReadonlyMap<Candidate, number>,
  found: readonly Candidate[],
  items: readonly TextItem[],
): boolean {
  const size = (items[c.at] as TextItem).size;
  for (const [o, kind] of inLine) {
    if (o.mark.x0 <= c.mark.x1 || !sameRow(o, c, size)) continue;
    if (kind === CLOSE || !inColumn(c, found, size)) return true;
  }
  return false;
}

/** Whether a candidate stands in a table's column of markers, text on both sides of it on every row (`CELL_GAP`). */
function markerColumn(c: Candidate, found: readonly Candidate[]): boolean {
  const column = found.filter((o) => sameEdge(o, c));
  return column.length >= 2 && column.every((o) => Number.isFinite(o.before) && o.after);
}
