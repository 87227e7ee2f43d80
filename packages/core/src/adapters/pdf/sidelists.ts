import { type Line, sameRow } from './lines.ts';
import { bulletAlone, bulletWord, enumeratorValue } from './markers.ts';

/** Widest gap, in sizes, between a bullet drawn alone and its item's text. */
const MARK_GAP = 3;
/** Fewest rows holding an item in two columns or more that make lists side by side. */
const SHARED_ROWS = 2;
/** Widest gap between two rows of the lists, in sizes of the lower row's line. */
const ROW_GAP = 2;
/** Widest gap, in sizes, between a row of heads and the lists' first row. */
const HEAD_GAP = 2.5;

/** The lines of a region in reading order (`sorted`, by row) as rows: where each row starts, then the count. */
function rowStarts(sorted: readonly Line[]): number[] {
  const rows: number[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const prev = sorted[i - 1];
    if (!prev || !sameRow(sorted[i] as Line, prev)) rows.push(i);
  }
  rows.push(sorted.length);
  return rows;
}

/** Where the items opening on a row start (their bullets' left edges), left to right. */
function itemStarts(sorted: readonly Line[], from: number, to: number): number[] {
  const out: number[] = [];
  for (let k = from; k < to; k++) {
    const l = sorted[k] as Line;
    if (bulletWord.test(l.text)) out.push(l.x0);
    else if (markAlone(sorted, k, to)) {
      out.push(l.x0);
      k++;
    }
  }
  return out;
}

/** Whether line `k` is a bullet drawn alone with its item's text the next line on its row (rows end at `to`). */
function markAlone(sorted: readonly Line[], k: number, to: number): boolean {
  const l = sorted[k] as Line;
  const next = sorted[k + 1];
  return bulletAlone.test(l.text) && k + 1 < to && next !== undefined && next.x0 - l.x1 <= MARK_GAP * l.size;
}

/** The column (index into `starts`) a line of a row stands in, or -1 where it stands in none or across two. */
function columnOf(l: Line, starts: readonly number[], slack: number): number {
  for (let j = starts.length - 1; j >= 0; j--) {
    const x = starts[j] as number;
    if (l.x0 < x - slack) continue;
    const next = starts[j + 1];
    return next === undefined || l.x1 < next - slack ? j : -1;
  }
  return -1;
}

/** What a row of lists side by side holds in a column. */
const NONE = 0;
const OPENS = 1;
const WRAPS = 2;

/**
 * Two lists or more side by side, each a column of bulleted items, perhaps under a head of its own
 * ("Pros" and "Cons", each over its items): read row by row, each row joined an item of one list
 * to the item beside it in the other ("Fast start High price"). Found as rows (`listRows`) opening
 * items at the same bullets' edges, perhaps under a row of heads (`headRow`). Returns the lines in
 * reading order with each list read whole, its head first, and the lists left to right, or null
 * where the lines hold no such lists. A table's columns are found before reading order and are
 * not among the lines.
 */
export function listsSideBySide(sorted: readonly Line[]): Line[] | null {
  const rows = rowStarts(sorted);
  let out: Line[] | null = null;
  let done = 0;
  // A scan that failed from a row fails again from any row it read with the same edges: the rows
  // it reads and what it finds in them depend on the edges only.
  let failed: { starts: number[]; end: number } | null = null;
  for (let r = 0; r + 1 < rows.length; r++) {
    const from = rows[r] as number;
    const starts = itemStarts(sorted, from, rows[r + 1] as number);
    if (starts.length < 2) continue;
    if (failed && r < failed.end && sameEdges(failed.starts, starts, (sorted[from] as Line).size)) continue;
    const [end, found] = listRows(sorted, rows, r, starts);
    const head = found !== NOT_LISTS && r > 0 && (rows[r - 1] as number) >= done && headRow(sorted, rows, r, starts);
    if (found === NOT_LISTS || (found === HEADED && !head)) {
      failed = { starts, end };
      continue;
    }
    const top = head ? (rows[r - 1] as number) : from;
    const bottom = rows[end] as number;
    const columns: Line[][] = starts.map(() => []);
    // Each head stands in its column by its place on its row (`headRow`), each other line by its edge.
    for (let k = top; k < from; k++) columns[k - top]?.push(sorted[k] as Line);
    for (let k = from; k < bottom; k++) {
      const l = sorted[k] as Line;
      columns[columnOf(l, starts, l.size)]?.push(l);
    }
    out ??= [];
    for (let k = done; k < top; k++) out.push(sorted[k] as Line);
    for (const column of columns) for (const l of column) out.push(l);
    done = bottom;
    r = end - 1;
  }
  if (!out) return null;
  for (let k = done; k < sorted.length; k++) out.push(sorted[k] as Line);
  return out;
}

/** Whether two rows' bullets' edges are the same, within `slack`. */
const sameEdges = (a: readonly number[], b: readonly number[], slack: number): boolean =>
  a.length === b.length && a.every((x, j) => Math.abs(x - (b[j] as number)) <= slack);

/** What `listRows` found: no lists side by side, lists where a row of heads tops them, lists. */
type Found = typeof NOT_LISTS | typeof HEADED | typeof LISTS;
const NOT_LISTS = 0;
const HEADED = 1;
const LISTS = 2;

/**
 * The rows from row `r` on that read as lists side by side at bullets' edges `starts`: where they
 * end (the row after the last) and whether they do (`Found`). Every line of a row opens an item at a
 * column's edge, or wraps the item above it in its column (set in past the bullet, under a line
 * of that column); the rows stand a line's pitch or so apart. Two rows at least (`SHARED_ROWS`)
 * open items in two columns, and every column holds two items (under heads, one row and one item
 * a column are enough: "Cons" over its one item beside "Pros" over three); no column stands empty beside an
 * item opening in another while items of its own follow: two levels of a list set one beside the
 * other ("Fruit" beside "Apples", "Pears" under it) leave such gaps, lists side by side do not.
 */
function listRows(
  sorted: readonly Line[],
  rows: readonly number[],
  r: number,
  starts: readonly number[],
): [number, Found] {
  const kinds: number[][] = [];
  let end = r;
  for (let q = r; q + 1 < rows.length; q++) {
    const from = rows[q] as number;
    const to = rows[q + 1] as number;
    const first = sorted[from] as Line;
    const above = kinds[kinds.length - 1];
    if (above && first.y0 - (sorted[rows[q - 1] as number] as Line).y1 > ROW_GAP * first.size) break;
    const row = rowKinds(sorted, from, to, starts, above);
    if (!row) break;
    kinds.push(row);
    end = q + 1;
  }
  let shared = 0;
  const items = starts.map(() => 0);
  const lastOpen = starts.map(() => -1);
  for (const [q, row] of kinds.entries()) {
    let opening = 0;
    for (const [j, kind] of row.entries())
      if (kind === OPENS) {
        opening++;
        items[j] = (items[j] as number) + 1;
        lastOpen[j] = q;
      }
    if (opening >= 2) shared++;
  }
  if (shared < 1 || items.some((n) => n < 1)) return [end, NOT_LISTS];
  for (const [q, row] of kinds.entries()) {
    if (!row.includes(OPENS)) continue;
    for (const [j, kind] of row.entries()) if (kind === NONE && (lastOpen[j] as number) > q) return [end, NOT_LISTS];
  }
  return [end, shared < SHARED_ROWS || items.some((n) => n < 2) ? HEADED : LISTS];
}

/**
 * What each column holds on a row of lists side by side (`NONE`, `OPENS`, `WRAPS`), or null where
 * a line of the row is none of the lists' (`listRows`). `above` is the row above's, if in the lists.
 */
function rowKinds(
  sorted: readonly Line[],
  from: number,
  to: number,
  starts: readonly number[],
  above: readonly number[] | undefined,
): number[] | null {
  const row = starts.map(() => NONE);
  for (let k = from; k < to; k++) {
    const l = sorted[k] as Line;
    const j = columnOf(l, starts, l.size);
    if (j < 0) return null;
    const edge = starts[j] as number;
    if (bulletWord.test(l.text) || markAlone(sorted, k, to)) {
      if (Math.abs(l.x0 - edge) > l.size) return null;
      row[j] = OPENS;
      if (!bulletWord.test(l.text)) k++;
    } else if (l.x0 > edge + l.size * 0.5 && above && above[j] !== NONE) {
      if (row[j] === NONE) row[j] = WRAPS;
    } else return null;
  }
  return row;
}

/**
 * Whether the row above row `r` heads the lists opening there: as many lines as lists, each at
 * its list's edge (a size or two either way) and inside its column, set close above.
 */
function headRow(sorted: readonly Line[], rows: readonly number[], r: number, starts: readonly number[]): boolean {
  if (r === 0) return false;
  const from = rows[r - 1] as number;
  const to = rows[r] as number;
  if (to - from !== starts.length) return false;
  const below = sorted[to] as Line;
  let bottom = Number.NEGATIVE_INFINITY;
  for (let k = from; k < to; k++) {
    const l = sorted[k] as Line;
    const j = k - from;
    const x = starts[j] as number;
    if (Math.abs(l.x0 - x) > 2 * l.size || columnOf(l, starts, 2 * l.size) !== j) return false;
    bottom = Math.max(bottom, l.y1);
  }
  return below.y0 - bottom <= HEAD_GAP * below.size;
}

/** Fewest rows whose items are numbered on across a gutter that make it no gutter. */
const ACROSS_ROWS = 2;

const byBase = (a: Line, b: Line): number => a.base - b.base;

/**
 * Whether lines either side of a gutter from `g0` to `g1` are items numbered on across it, row by
 * row: a question's choices set two a row ("a) Sydney  b) Canberra" over "c) … d) …"), read left
 * column first as "a, c, b, d". Rows (`ACROSS_ROWS` at least, more than not) where the item on
 * the right goes on from the one on its left ("a)" then "b)"), each such row's left item two on
 * from the one before it or numbering anew (a next question's "a)"), say so. Two numbered lists
 * set in two columns pair "1." with "4." on a row; two whose numbers happen to pair so ("1." beside
 * "2.", then "2." beside "3.") step by one down the left.
 */
export function numberedAcross(lines: readonly Line[], g0: number, g1: number): boolean {
  const left: Line[] = [];
  const right: Line[] = [];
  for (const l of lines) {
    if (l.x1 <= g0 + 1 && enumeratorValue(l.text) !== null) left.push(l);
    else if (l.x0 >= g1 - 1 && enumeratorValue(l.text) !== null) right.push(l);
  }
  if (left.length < ACROSS_ROWS || right.length < ACROSS_ROWS) return false;
  left.sort(byBase);
  right.sort(byBase);
  let across = 0;
  let other = 0;
  let before: number | null = null;
  let j = 0;
  for (const l of left) {
    while (j < right.length && (right[j] as Line).base < l.base && !sameRow(right[j] as Line, l)) j++;
    const r = right[j];
    if (!r || !sameRow(r, l)) continue;
    const value = enumeratorValue(l.text) as number;
    if (enumeratorValue(r.text) === value + 1 && (before === null || value === before + 2 || value <= before)) across++;
    else other++;
    before = value;
  }
  return across >= ACROSS_ROWS && across > other;
}
