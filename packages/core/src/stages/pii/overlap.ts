import type { PiiSpan } from './types.ts';

/**
 * For ranges asked for in text order (the runs of one paragraph), the spans that overlap each,
 * in the order of `spans`. One sweep over the spans sorted by start: testing every span against
 * every run took 46 s on one paragraph of 60,000 names and mailto: links.
 */
export function overlapSweep(spans: readonly PiiSpan[]): (start: number, end: number) => PiiSpan[] {
  const at = (i: number) => spans[i] as PiiSpan;
  const starts = spans.map((s) => s.start);
  const ends = spans.map((s) => s.end);
  const byStart = spans.map((_, i) => i).sort((a, b) => (starts[a] as number) - (starts[b] as number));
  let next = 0;
  // Spans begun before the last range's end that had not ended by its start.
  let open: number[] = [];
  return (start, end) => {
    while (next < byStart.length && (starts[byStart[next] as number] as number) < end)
      open.push(byStart[next++] as number);
    // A span ending at or before this range's start ends before every later range too.
    if (open.length) open = open.filter((i) => (ends[i] as number) > start);
    if (!open.length) return [];
    return open
      .filter((i) => (starts[i] as number) < end)
      .sort((a, b) => a - b)
      .map(at);
  };
}
