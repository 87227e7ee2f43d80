import { STARTS_LOWER } from '../../util/letters.ts';
import { type Line, sameRow } from './lines.ts';
import { bulletAlone, bulletWord, enumeratorValue } from './markers.ts';

/** Fewest rows holding an item in two columns or more that make lists side by side. */
const SHARED_ROWS = 2;
/** Widest gap between two rows of the lists, in sizes of the lower row's line. */
const ROW_GAP = 2;
/** Widest gap, in sizes, between a row of heads and the lists' first row. */
const HEAD_GAP = 2.5;

/** The lines of a region in reading order (`sorted`, by row) as rows: where each row starts, then the count. */
export function rowStarts(sorted: readonly Line[]): number[] {
  const rows: number[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const prev = sorted[i - 1];
    if (!prev || !sameRow(sorted[i] as Line, prev)) rows.push(i);
  }
  rows.push(sorted.length);
  return rows;
}

/** Whether row `q` stands further below the row above than `ROW_GAP` sizes of its first line (by their first lines). */
function apartFromAbove(sorted: readonly Line[], rows: readonly number[], q: number): boolean {
  const first = sorted[rows[q] as number] as Line;
  return first.y0 - (sorted[rows[q - 1] as number] as Line).y1 > ROW_GAP * first.size;
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

/**
 * Whether line `k` is a bullet drawn alone with its item's text the next line on its row (rows
 * end at `to`), however far apart (a hanging indent), as `blocks.ts` reads it.
 */
function markAlone(sorted: readonly Line[], k: number, to: number): boolean {
  return bulletAlone.test((sorted[k] as Line).text) && k + 1 < to;
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

/** Lines (in reading order by row) read again in runs of rows, each run column by column. */
class ColumnRuns {
  private out: Line[] | null = null;
  /** Where the lines not yet read start. */
  done = 0;
  constructor(private readonly sorted: readonly Line[]) {}

  /** Reads lines `top` to `bottom` (the lines before them first) in `count` columns, `column(k)` line `k`'s. */
  add(top: number, bottom: number, count: number, column: (k: number) => number): void {
    this.out ??= [];
    const out = this.out;
    for (let k = this.done; k < top; k++) out.push(this.sorted[k] as Line);
    for (let j = 0; j < count; j++)
      for (let k = top; k < bottom; k++) if (column(k) === j) out.push(this.sorted[k] as Line);
    this.done = bottom;
  }

  /** All the lines, each run read again; null where no run was. */
  result(): Line[] | null {
    if (!this.out) return null;
    for (let k = this.done; k < this.sorted.length; k++) this.out.push(this.sorted[k] as Line);
    return this.out;
  }
}

/** What a row of lists side by side holds in a column. */
const NONE = 0;
const OPENS = 1;
const WRAPS = 2;

/** What `listRows` found: no lists side by side, lists where a row of heads tops them, lists. */
type Found = typeof NOT_LISTS | typeof HEADED | typeof LISTS;
const NOT_LISTS = 0;
const HEADED = 1;
const LISTS = 2;

/** Rows read at most by the scans for lists side by side, per row of the region. */
const SCAN_BUDGET = 8;

/**
 * Two lists or more side by side, each a column of bulleted items, perhaps under a head of its own
 * ("Pros" and "Cons", each over its items): read row by row, each row joined an item of one list
 * to the item beside it in the other ("Fast start High price"). Found as rows (`listRows`) opening
 * items at the same bullets' edges, perhaps under a row of heads (`headRow`). Returns the lines in
 * reading order with each list read whole, its head first, and the lists left to right, or null
 * where the lines hold no such lists. A table's columns are found before reading order and are
 * not among the lines.
 */
export function listsSideBySide(sorted: readonly Line[], rows = rowStarts(sorted)): Line[] | null {
  const runs = new ColumnRuns(sorted);
  // A scan that fails is tried again from the next row: a page of rows that nearly make lists
  // would be read over and over. Past a budget of rows read, no more scans start.
  let spent = 0;
  const budget = SCAN_BUDGET * rows.length + 100;
  for (let r = 0; r + 1 < rows.length && spent <= budget; r++) {
    const from = rows[r] as number;
    if ((rows[r + 1] as number) - from < 2) continue;
    const starts = itemStarts(sorted, from, rows[r + 1] as number);
    if (starts.length < 2) continue;
    const run = listRows(sorted, rows, r, starts);
    spent += run.end - r + 1;
    const head =
      run.found !== NOT_LISTS && r > 0 && (rows[r - 1] as number) >= runs.done && headRow(sorted, rows, r, starts);
    if (run.found === NOT_LISTS || (run.found === HEADED && !head)) continue;
    const top = head ? (rows[r - 1] as number) : from;
    const bottom = rows[run.end] as number;
    // Each head stands in its column by its place on its row (`headRow`), each other line where
    // the scan placed it.
    runs.add(top, bottom, starts.length, (k) => (k < from ? k - top : (run.columns[k - from] as number)));
    r = run.end - 1;
  }
  return runs.result();
}

/** The rows a scan read as lists side by side: where they end, what they are, each line's column. */
interface ListRun {
  /** The row after the last. */
  end: number;
  found: Found;
  /** The column of each line of the rows, from the first row's first line on. */
  columns: number[];
}

/**
 * The rows from row `r` on that read as lists side by side at bullets' edges `starts`. Every line
 * of a row opens an item at a column's edge, or goes on under a line of its column in the row
 * above, set in past the bullet (an item's wrapped line, or an item of a level under it); the rows
 * stand a line's pitch or so apart. They end at a wider gap, or at a row holding a line outside
 * the columns or in one column only (a note under the lists); a row of lines in two columns or
 * more that reads otherwise (a wrapped line back at the bullets' edge) makes them none. Two rows
 * at least (`SHARED_ROWS`) open items in two columns, and every column holds two items (under
 * heads, one row and one item a column are enough: "Cons" over its one item beside "Pros" over
 * three); and no column stands empty beside an item opening in another while items of its own
 * follow: two levels of a list set one beside the other ("Fruit" beside "Apples", "Pears" under
 * it) leave such gaps, lists side by side do not.
 */
function listRows(sorted: readonly Line[], rows: readonly number[], r: number, starts: readonly number[]): ListRun {
  const kinds: number[][] = [];
  const columns: number[] = [];
  let end = r;
  for (let q = r; q + 1 < rows.length; q++) {
    const from = rows[q] as number;
    const to = rows[q + 1] as number;
    const above = kinds[kinds.length - 1];
    if (above && apartFromAbove(sorted, rows, q)) break;
    const row = rowKinds(sorted, from, to, starts, above, columns);
    if (!row) {
      if (spreads(sorted, from, to, starts)) return { end: q + 1, found: NOT_LISTS, columns };
      break;
    }
    kinds.push(row);
    end = q + 1;
  }
  const found = (shared: number, least: number): Found =>
    shared < 1 || least < 1 ? NOT_LISTS : shared < SHARED_ROWS || least < 2 ? HEADED : LISTS;
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
  for (const [q, row] of kinds.entries()) {
    if (!row.includes(OPENS)) continue;
    for (const [j, kind] of row.entries())
      if (kind === NONE && (lastOpen[j] as number) > q) return { end, found: NOT_LISTS, columns };
  }
  return { end, found: found(shared, Math.min(...items)), columns };
}

/**
 * What each column holds on a row of lists side by side (`NONE`, `OPENS`, `WRAPS`), or null where
 * a line of the row is none of the lists' (`listRows`). `above` is the row above's, if in the
 * lists. Each line's column is added to `columns`, kept only where the row is in the lists.
 */
function rowKinds(
  sorted: readonly Line[],
  from: number,
  to: number,
  starts: readonly number[],
  above: readonly number[] | undefined,
  columns: number[],
): number[] | null {
  const row = starts.map(() => NONE);
  const placed = columns.length;
  const fail = (): null => {
    columns.length = placed;
    return null;
  };
  for (let k = from; k < to; k++) {
    const l = sorted[k] as Line;
    const j = columnOf(l, starts, l.size);
    if (j < 0) return fail();
    const edge = starts[j] as number;
    const under = above !== undefined && above[j] !== NONE;
    const alone = markAlone(sorted, k, to);
    if (alone || bulletWord.test(l.text)) {
      if (Math.abs(l.x0 - edge) <= l.size) row[j] = OPENS;
      else if (!(l.x0 > edge + l.size && under)) return fail();
      else if (row[j] === NONE) row[j] = WRAPS;
      columns.push(j);
      if (alone) {
        // The item's text, drawn apart from its bullet, stands in the bullet's column.
        const text = sorted[k + 1] as Line;
        if (columnOf(text, starts, text.size) !== j) return fail();
        columns.push(j);
        k++;
      }
    } else if (under && (l.x0 > edge + l.size * 0.5 || (l.x0 > edge - l.size * 0.5 && flushWrap(l.text)))) {
      // Set in under its item, or at its edge going on in lower case (a step wrapped flush).
      if (row[j] === NONE) row[j] = WRAPS;
      columns.push(j);
    } else return fail();
  }
  return row;
}

/** Whether a row's lines stand in two of the columns at bullets' edges `starts` or more, by where they start. */
function spreads(sorted: readonly Line[], from: number, to: number, starts: readonly number[]): boolean {
  let seen = -1;
  for (let k = from; k < to; k++) {
    const l = sorted[k] as Line;
    let j = starts.length - 1;
    while (j > 0 && l.x0 < (starts[j] as number) - l.size) j--;
    if (seen >= 0 && j !== seen) return true;
    seen = j;
  }
  return false;
}

/**
 * Whether the row above row `r` heads the lists opening there: as many lines as lists, each at
 * its list's edge (a size or two either way) and inside its column, set close above.
 */
function headRow(sorted: readonly Line[], rows: readonly number[], r: number, starts: readonly number[]): boolean {
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
 * column first as "a, c, b, d"; steps three or four a row. Rows (`ACROSS_ROWS` at least, more than
 * not) whose items go on by one from left to right ("a)" then "b)"), each such row opening one on
 * from the last of the row before or numbering anew (a next question's "a)"), say so; two
 * numbered lists set in two columns pair "1." with "4." on a row, or step by one down the left. Only where such
 * items, and the lines they wrap to (which `itemsAcross` reads with them), are all there is beside
 * the gutter over their rows, and no row over or under them holds lines on both its sides: choices
 * over or under two columns of text keep the columns (and are read a, c, b, d).
 */
export function numberedAcross(lines: readonly Line[], g0: number, g1: number): boolean {
  // The numbered lines either side of the gutter, each with its item's place; most regions hold
  // too few to go on, and nothing else is made for them.
  const numbered: [Line[], Line[]] = [[], []];
  const values = new Map<Line, number>();
  for (const line of lines) {
    const side = sideOf(line, g0, g1);
    if (side < 0) continue;
    const value = enumeratorValue(line.text);
    if (value === null) continue;
    (numbered[side] as Line[]).push(line);
    values.set(line, value);
  }
  const [left, right] = numbered;
  if (left.length < ACROSS_ROWS || right.length < ACROSS_ROWS) return false;
  left.sort(byBase);
  right.sort(byBase);
  let across = 0;
  let other = 0;
  // The first and last numbers of the row before.
  let first: number | null = null;
  let end: number | null = null;
  let top = Number.POSITIVE_INFINITY;
  let bottom = Number.NEGATIVE_INFINITY;
  for (const row of rowsAcross(left, right)) {
    const numbers = row.map((l) => values.get(l) as number);
    const opens = numbers[0] as number;
    const onByOne = numbers.every((v, k) => k === 0 || v === (numbers[k - 1] as number) + 1);
    if (onByOne && (first === null || opens === (end as number) + 1 || opens <= first)) {
      across++;
      for (const l of row) {
        top = Math.min(top, l.base);
        bottom = Math.max(bottom, l.base);
      }
    } else other++;
    first = opens;
    end = numbers[numbers.length - 1] as number;
  }
  if (across < ACROSS_ROWS || across <= other) return false;
  // Every line beside the gutter from the first such row to the last (and the lines the last
  // items wrap to, each within `ROW_GAP` sizes of the line above it) is a numbered item or goes on
  // one, set in past the items' marks on its side; and no other row holds lines on both sides
  // (columns of text over or under the items).
  const edges = numbered.map((side) => Math.min(...side.map((l) => l.x0)));
  const apart: [Line[], Line[]] = [[], []];
  const seen: Line[] = [];
  let last = bottom;
  for (const l of [...lines].sort(byBase)) {
    const side = sideOf(l, g0, g1);
    if (side < 0) continue;
    const item = values.has(l);
    const set = apart[side] as Line[];
    const above = lineAbove(seen, l);
    seen.push(l);
    if (l.base < top - 1 || (l.base > last + 1 && (item || l.base > last + l.size * ROW_GAP))) {
      set.push(l);
      continue;
    }
    // A line at the items' edge goes on the item right above it only where it goes on in lower case
    // ("1. Unpack the box and" over "check the parts", as `rowKinds` reads it); else it is a column's text.
    const goesOn = above !== undefined && l.base - above.base <= l.size * ROW_GAP && flushWrap(l.text);
    if (!item && l.x0 <= (edges[side] as number) + l.size * 0.5 && !goesOn) {
      if (l.base <= bottom + 1) return false;
      set.push(l);
      continue;
    }
    last = Math.max(last, l.base);
  }
  return mates(apart[0], apart[1]).length === 0;
}

/** A line going on an item at the item's own edge: in lower case, no lettered item's mark ("c) Perth"). */
const flushWrap = (text: string): boolean => STARTS_LOWER.test(text) && enumeratorValue(text) === null;

/** The last of `seen` (read top down) over `l`'s span: the line above it in its column. */
function lineAbove(seen: readonly Line[], l: Line): Line | undefined {
  for (let k = seen.length - 1; k >= 0; k--) {
    const o = seen[k] as Line;
    if (o.x0 < l.x1 && l.x0 < o.x1 && o.base < l.base) return o;
  }
  return undefined;
}

/** Which side of the gutter from `g0` to `g1` a line stands on: 0 left, 1 right, -1 across it. */
const sideOf = (l: Line, g0: number, g1: number): number => (l.x1 <= g0 + 1 ? 0 : l.x0 >= g1 - 1 ? 1 : -1);

/**
 * The rows holding lines of both `a` and `b` (left and right of a gutter, each sorted by baseline),
 * each row's lines left to right: three or four items a row stand two or three on one side.
 */
function rowsAcross(a: readonly Line[], b: readonly Line[]): Line[][] {
  const left = new Set(a);
  const all = [...a, ...b].sort(byBase);
  const rows: Line[][] = [];
  let row: Line[] = [];
  const close = () => {
    if (row.some((l) => left.has(l)) && row.some((l) => !left.has(l))) rows.push(row.sort((x, y) => x.x0 - y.x0));
  };
  for (const l of all) {
    if (row.length && !sameRow(row[0] as Line, l)) {
      close();
      row = [];
    }
    row.push(l);
  }
  close();
  return rows;
}

/** The lines of `a` each with the line of `b` on its row, where there is one (both sorted by baseline). */
function mates(a: readonly Line[], b: readonly Line[]): [Line, Line][] {
  const out: [Line, Line][] = [];
  let j = 0;
  for (const l of a) {
    while (j < b.length && (b[j] as Line).base < l.base && !sameRow(b[j] as Line, l)) j++;
    const r = b[j];
    if (r && sameRow(r, l)) out.push([l, r]);
  }
  return out;
}

/**
 * Items numbered on across a region read row by row ("1." beside "2.", "3." beside "4."), whose
 * lines wrap: each item read whole, left to right along its band of rows, where row by row each
 * wrapped line came between the items of the row above ("1. Which river flows through Paris and",
 * "2. Which mountain range", "ends in the English Channel?"). A band is a row opening such items,
 * their numbers going on by one from left to right, and the rows under it going on in its columns
 * (`rowKinds`). Returns the lines so read, or null where no band has a wrapped line.
 */
export function itemsAcross(sorted: readonly Line[], rows = rowStarts(sorted)): Line[] | null {
  const runs = new ColumnRuns(sorted);
  for (let r = 0; r + 1 < rows.length; r++) {
    const from = rows[r] as number;
    const to = rows[r + 1] as number;
    const starts = numberedStarts(sorted, from, to);
    if (!starts) continue;
    // Line j of the row opens item j; none may reach over the next item's start.
    if (!starts.every((_, j) => columnOf(sorted[from + j] as Line, starts, (sorted[from + j] as Line).size) === j))
      continue;
    const columns = starts.map((_, j) => j);
    let above: number[] = starts.map(() => OPENS);
    let end = r + 1;
    for (let q = r + 1; q + 1 < rows.length; q++) {
      if (apartFromAbove(sorted, rows, q)) break;
      const row = rowKinds(sorted, rows[q] as number, rows[q + 1] as number, starts, above, columns);
      if (!row) break;
      if (row.includes(OPENS)) {
        columns.length = (rows[q] as number) - from;
        break;
      }
      above = row;
      end = q + 1;
    }
    if (end === r + 1) continue;
    runs.add(from, rows[end] as number, starts.length, (k) => columns[k - from] as number);
    r = end - 1;
  }
  return runs.result();
}

/**
 * Where the items a row opens start, left to right, where every line of the row opens one and
 * their numbers go on by one ("c)" then "d)"), two at least; else null.
 */
function numberedStarts(sorted: readonly Line[], from: number, to: number): number[] | null {
  if (to - from < 2) return null;
  const starts: number[] = [];
  let before: number | null = null;
  for (let k = from; k < to; k++) {
    const l = sorted[k] as Line;
    const value = enumeratorValue(l.text);
    if (value === null || (before !== null && value !== before + 1)) return null;
    starts.push(l.x0);
    before = value;
  }
  return starts;
}
