/**
 * The item whose half-open range [start, end) holds `at`, by binary search over items sorted by
 * start whose ranges do not overlap (Word's piece and formatting runs, batched text parts).
 */
export function intervalAt<T>(
  items: readonly T[],
  at: number,
  start: (item: T) => number,
  end: (item: T) => number,
): T | undefined {
  let lo = 0;
  let hi = items.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const item = items[mid] as T;
    if (at < start(item)) hi = mid - 1;
    else if (at >= end(item)) lo = mid + 1;
    else return item;
  }
  return undefined;
}
