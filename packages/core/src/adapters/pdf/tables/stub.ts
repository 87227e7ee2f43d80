import { firstPlace } from '../../../util/arrays.ts';
import type { TextItem } from '../model.ts';
import type { Layout } from './cells.ts';

/** Furthest a turned label may stand left of a table's first column, in its line heights. */
const STUB_REACH = 3;
/** Widest reach searched for on any page, in points (the index lookup's window). */
const MAX_REACH = 60;
/** Furthest a turned label may reach into the first column, in points (half a line at most). */
const MAX_OVERLAP = 6;
/** Most runs looked at beside one table: a bound on a hostile page of turned runs stacked at one x. */
const MAX_LOOKED = 256;
/** Fewest rows a turned label must run beside to name them: beside one it is a margin note. */
const STUB_ROWS = 2;

/**
 * Runs of a page set upward or downward that a table may take as its stub: turned, holding text,
 * not yet taken, sorted by their right edge (for `turnedStub`'s lookup). Once per page.
 */
export function turnedRuns(items: TextItem[], taken: Set<number>): number[] {
  const out: number[] = [];
  for (const [i, it] of items.entries())
    if ((it.rotated === 'up' || it.rotated === 'down') && !taken.has(i) && it.str.trim()) out.push(i);
  out.sort((a, b) => right(items[a] as TextItem) - right(items[b] as TextItem));
  return out;
}

const right = (it: TextItem): number => it.x + it.w;

/**
 * A column put before an unruled table's first for the group names set upward (or downward) beside
 * its rows, as a stub: each name one cell spanning the rows it runs beside (its text in the first of
 * them, as a ruled table's spanning cell is), the rows beside no name an empty cell. Null when no
 * turned run stands close left of the table, within its height, beside two rows or more. The runs
 * looked at are those whose right edge falls in a window left of the table (`byRight` is sorted):
 * no pass over the page's runs per table.
 */
export function turnedStub(
  layout: Layout,
  items: TextItem[],
  byRight: number[],
): { layout: Layout; runs: number[] } | null {
  const { xs, ys, cells } = layout;
  const left = xs[0] as number;
  const top = ys[0] as number;
  const bottom = ys[ys.length - 1] as number;
  const near: number[] = [];
  const from = firstRightOf(items, byRight, left - MAX_REACH);
  for (let k = from; k < byRight.length && k < from + MAX_LOOKED; k++) {
    const i = byRight[k] as number;
    const it = items[i] as TextItem;
    if (right(it) > left + MAX_OVERLAP) break;
    // The run's width across the page is its line height. The whole run stands within the rows (a
    // line's slack at either end): a margin stamp set upward runs far past the table it passes.
    const gap = left - right(it);
    const within = it.y >= top - it.w && it.y + it.h <= bottom + it.w;
    if (gap >= -it.w / 2 && gap <= STUB_REACH * it.w && within) near.push(i);
  }
  if (!near.length) return null;
  near.sort((a, b) => (items[a] as TextItem).y - (items[b] as TextItem).y);
  // Runs overlapping down the page (the words of a name, its lines side by side) are one name.
  const names: { from: number; to: number; runs: number[] }[] = [];
  for (const i of near) {
    const it = items[i] as TextItem;
    const last = names[names.length - 1];
    if (last && it.y <= last.to + it.w) {
      last.to = Math.max(last.to, it.y + it.h);
      last.runs.push(i);
    } else names.push({ from: it.y, to: it.y + it.h, runs: [i] });
  }
  const rows = ys.length - 1;
  const spanOf: number[] = new Array(rows).fill(0);
  const coveredBy: boolean[] = new Array(rows).fill(false);
  const runs: number[] = [];
  for (const name of names) {
    const tol = (items[name.runs[0] as number] as TextItem).w / 2;
    let first = -1;
    let n = 0;
    for (let r = 0; r < rows; r++) {
      const mid = ((ys[r] as number) + (ys[r + 1] as number)) / 2;
      if (mid < name.from - tol || mid > name.to + tol || coveredBy[r]) continue;
      if (first < 0) first = r;
      if (r !== first + n) break;
      n++;
    }
    if (n < STUB_ROWS) continue;
    spanOf[first] = n;
    for (let r = first; r < first + n; r++) coveredBy[r] = true;
    for (const i of name.runs) runs.push(i);
  }
  if (!runs.length) return null;
  let x0 = left;
  for (const i of runs) x0 = Math.min(x0, (items[i] as TextItem).x);
  const out: Layout['cells'] = [];
  let k = 0;
  for (let r = 0; r < rows; r++) {
    const span = spanOf[r] as number;
    if (span) out.push({ r, c: 0, rowSpan: span, colSpan: 1 });
    else if (!coveredBy[r]) out.push({ r, c: 0, rowSpan: 1, colSpan: 1 });
    for (; k < cells.length && (cells[k] as Layout['cells'][number]).r === r; k++) {
      const c = cells[k] as Layout['cells'][number];
      out.push({ r, c: c.c + 1, rowSpan: c.rowSpan, colSpan: c.colSpan });
    }
  }
  return { layout: { xs: [x0 - 1, ...xs], ys, cells: out }, runs };
}

/** The first index of `byRight` whose run's right edge is at `x` or beyond (binary search). */
function firstRightOf(items: TextItem[], byRight: number[], x: number): number {
  return firstPlace(byRight, (i) => right(items[i] as TextItem) < x);
}
