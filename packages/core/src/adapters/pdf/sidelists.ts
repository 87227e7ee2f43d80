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
    else if (bulletAlone.test(l.text)) {
      const next = sorted[k + 1];
      if (k + 1 < to && next && next.x0 - l.x1 <= MARK_GAP * l.size && /^\p{L}/u.test(next.text)) {
        out.push(l.x0);
        k++;
      }
    }
  }
  return out;
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

/**
 * Two lists or more side by side, each a column of bulleted items, perhaps under a head of its own
 * ("Pros" and "Cons", each over its items): read row by row, each row joined an item of one list
 * to the item beside it in the other ("Fast start High price"). Found as rows (`SHARED_ROWS` at
 * least) opening an item in two columns or more at the same bullets' edges, every line of the
 * rows between them inside one column (a wrapped item's next line), the rows a line's pitch or so
 * apart, and every column holding two items at least. A row just above whose lines each stand at
 * one of the columns' edges is their heads. Returns the lines in reading order with each list read
 * whole, its head first, and the lists left to right, or null where the lines hold no such lists.
 * A table's columns are found before reading order and are not among the lines.
 */
export function listsSideBySide(sorted: readonly Line[]): Line[] | null {
  const rows = rowStarts(sorted);
  let out: Line[] | null = null;
  let done = 0;
  for (let r = 0; r + 1 < rows.length; r++) {
    const from = rows[r] as number;
    const starts = itemStarts(sorted, from, rows[r + 1] as number);
    if (starts.length < 2) continue;
    const end = listRows(sorted, rows, r, starts);
    if (end < 0) continue;
    const top =
      r > 0 && (rows[r - 1] as number) >= done && headRow(sorted, rows, r, starts) ? (rows[r - 1] as number) : from;
    const bottom = rows[end] as number;
    const columns: Line[][] = starts.map(() => []);
    for (let k = top; k < bottom; k++) {
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

/**
 * Where the rows from row `r` on that read as lists side by side at bullets' edges `starts` end
 * (the row after the last), or -1 where they do not.
 */
function listRows(sorted: readonly Line[], rows: readonly number[], r: number, starts: readonly number[]): number {
  const items = starts.map(() => 0);
  let shared = 0;
  let end = r;
  for (let q = r; q + 1 < rows.length; q++) {
    const from = rows[q] as number;
    const to = rows[q + 1] as number;
    const first = sorted[from] as Line;
    if (q > r) {
      const above = sorted[rows[q - 1] as number] as Line;
      if (first.y0 - above.y1 > ROW_GAP * first.size) break;
    }
    let fits = true;
    for (let k = from; k < to && fits; k++) {
      const l = sorted[k] as Line;
      if (columnOf(l, starts, l.size) < 0) fits = false;
    }
    if (!fits) break;
    const opened = itemStarts(sorted, from, to);
    let opening = 0;
    for (const x of opened) {
      const j = starts.findIndex((s) => Math.abs(s - x) <= first.size);
      if (j >= 0) {
        items[j] = (items[j] as number) + 1;
        opening++;
      }
    }
    if (opening >= 2) shared++;
    end = q + 1;
  }
  return shared < SHARED_ROWS || items.some((n) => n < 2) ? -1 : end;
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
 * the right goes on from the one on its left ("a)" then "b)") say so; two numbered lists set in
 * two columns pair "1." with "4." on a row.
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
  let j = 0;
  for (const l of left) {
    while (j < right.length && (right[j] as Line).base < l.base && !sameRow(right[j] as Line, l)) j++;
    const r = right[j];
    if (!r || !sameRow(r, l)) continue;
    if (enumeratorValue(r.text) === (enumeratorValue(l.text) as number) + 1) across++;
    else other++;
  }
  return across >= ACROSS_ROWS && across > other;
}
