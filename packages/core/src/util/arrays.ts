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

/**
 * How many of `sorted` (ascending) lie within `d` of `x`, by `x - d <= value <= x + d` with the
 * bounds computed first: the comparison its callers (tables/tokens.ts, order.ts) made before it was
 * a binary search. It is not `nearRange`'s test: `value - x <= d` rounds differently at the bounds
 * (64.56294724358321 is within 2 of 62.5629472435832 by this one, not by that one).
 */
export function countNear(sorted: readonly number[], x: number, d: number): number {
  const below = x - d;
  const above = x + d;
  return firstPlace(sorted, (s) => s <= above) - firstPlace(sorted, (s) => s < below);
}

/**
 * The places `[lo, hi)` of the values of `sorted` (ascending) within `d` of `x`, by
 * `Math.abs(value - x) <= d` exactly (borderless tables' `|start - x| <= 3`): the difference grows
 * with the value, so they are one range.
 */
export function nearRange(sorted: readonly number[], x: number, d: number): [number, number] {
  return [firstPlace(sorted, (s) => s - x < -d), firstPlace(sorted, (s) => s - x <= d)];
}

/** The first place of `sorted` whose value is not `before` (which holds for a prefix of it): a binary search. */
export function firstPlace<T>(sorted: readonly T[], before: (value: T) => boolean): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if (before(sorted[m] as T)) lo = m + 1;
    else hi = m;
  }
  return lo;
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

/** The middle value (the upper of two middles), sorting `values` in place; 0 when there is none. */
export function median(values: number[]): number {
  return values.sort((a, b) => a - b)[values.length >> 1] ?? 0;
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

/**
 * The size most characters are set at, counting `chars` of each thing: on a tie, the size whose
 * count reached the top first as the things are read, not the size met first (`mostCounted`'s
 * tie); `none` where there are no things.
 */
export function mostSetSize<T extends { size: number }>(
  things: readonly T[],
  chars: (t: T) => number,
  none: number,
): number {
  const counts = new Map<number, number>();
  let best = none;
  let most = 0;
  for (const t of things) {
    const n = (counts.get(t.size) ?? 0) + chars(t);
    counts.set(t.size, n);
    if (n > most) {
      most = n;
      best = t.size;
    }
  }
  return best;
}
