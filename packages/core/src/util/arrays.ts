/**
 * Spreading an array into a call (`out.push(...items)`, `Math.max(...values)`) passes every item as
 * an argument on the stack: past roughly 100,000 items it throws RangeError, which one text box of
 * 200,000 paragraphs or a chart of 300,000 points reaches. Lists built from document content go
 * through these loops instead.
 */

/** Appends `items` to `out` (in place) and returns `out`. */
export function append<T>(out: T[], items: Iterable<T>): T[] {
  for (const item of items) out.push(item);
  return out;
}

/** Replaces the contents of `out` (in place) with `items`, which may be computed from `out`. */
export function replaceContents<T>(out: T[], items: readonly T[]): T[] {
  out.length = 0;
  return append(out, items);
}

/** How many of `sorted` (ascending) lie within `d` of `x`: two binary searches. */
export function countNear(sorted: readonly number[], x: number, d: number): number {
  const [lo, hi] = nearRange(sorted, x, d);
  return hi - lo;
}

/**
 * The places `[lo, hi)` of the values of `sorted` (ascending) within `d` of `x`, by
 * `Math.abs(value - x) <= d` exactly: the difference grows with the value, so they are one range.
 */
export function nearRange(sorted: readonly number[], x: number, d: number): [number, number] {
  // The first place whose value is `x + d` past (`after`) or not `d` short of it.
  const place = (after: boolean) => {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const m = (lo + hi) >> 1;
      const gap = (sorted[m] as number) - x;
      if (after ? gap <= d : gap < -d) lo = m + 1;
      else hi = m;
    }
    return lo;
  };
  return [place(false), place(true)];
}

/** Largest value, or `empty` when there is none. */
export function maxOf(values: Iterable<number>, empty = Number.NEGATIVE_INFINITY): number {
  let best = empty;
  let first = true;
  for (const v of values) {
    if (first || v > best) best = v;
    first = false;
  }
  return best;
}

/** Smallest value, or `empty` when there is none. */
export function minOf(values: Iterable<number>, empty = Number.POSITIVE_INFINITY): number {
  let best = empty;
  let first = true;
  for (const v of values) {
    if (first || v < best) best = v;
    first = false;
  }
  return best;
}

/**
 * The key with the largest count, the first one (in the map's order) on a tie; undefined for an
 * empty map. Body sizes and fonts are the ones most characters are set in.
 */
export function mostCounted<K>(counts: ReadonlyMap<K, number>): K | undefined {
  let best: K | undefined;
  let most = -1;
  for (const [k, n] of counts) {
    if (n > most) {
      most = n;
      best = k;
    }
  }
  return best;
}
