/**
 * Horizontal spans of a page's text merged: a projection of runs or lines onto the x axis, the
 * columns and cells the table readers and the typewriter-line reader part a page into.
 */

/** Comparator of spans by start. Module-level: a closure written inline is a new function on every call, compiled again once earlier calls' copies are collected. */
const byStart = (a: [number, number], b: [number, number]): number => a[0] - b[0];

/**
 * Horizontal extents covered by the given spans, merged where they touch or overlap within `gap`,
 * but for gaps holding one of the x positions `parts`.
 */
export function projection(spans: [number, number][], gap: number, parts: number[] = []): [number, number][] {
  // Sorted in place: every caller hands over spans it made for this call alone (`extents`).
  // Spans taken from one line's runs mostly come in order already: sorting is then a pass of calls.
  let inOrder = true;
  for (let k = 1; k < spans.length && inOrder; k++)
    inOrder = (spans[k] as [number, number])[0] >= (spans[k - 1] as [number, number])[0];
  const sorted = inOrder ? spans : spans.sort(byStart);
  const out: [number, number][] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s[0] - last[1] < gap && !(parts.length && partedAt(parts, last[1], s[0])))
      last[1] = Math.max(last[1], s[1]);
    else out.push([s[0], s[1]]);
  }
  return out;
}

/** Whether one of the x positions `parts` lies in the gap from `a` to `b` (half a point either side). */
function partedAt(parts: number[], a: number, b: number): boolean {
  for (const x of parts) if (x >= a - 0.5 && x <= b + 0.5) return true;
  return false;
}
