import { describe, expect, it } from 'vitest';
import type { PiiSpan, Root } from '../../src/index.ts';
import { redactTree } from '../../src/index.ts';
import { overlapSweep } from '../../src/stages/pii/overlap.ts';

const span = (start: number, end: number): PiiSpan => ({
  start,
  end,
  entity: 'PERSON',
  validated: false,
  source: 'pattern',
});

/** Spans whose offsets count their reads: the cost of matching spans to runs, without a clock. */
function counted(list: readonly [number, number][]): { spans: PiiSpan[]; reads: () => number } {
  let reads = 0;
  const spans = list.map(([start, end]) => {
    const s = span(start, end);
    const read = (value: number) => () => {
      reads++;
      return value;
    };
    Object.defineProperty(s, 'start', { get: read(start), enumerable: true });
    Object.defineProperty(s, 'end', { get: read(end), enumerable: true });
    return s;
  });
  return { spans, reads: () => reads };
}

describe('PII: matching spans to the runs of a paragraph', () => {
  it('gives each run the spans that overlap it, in the order given, as testing every pair does', () => {
    // Runs of 0 to 4 characters (some empty) and spans that overlap, nest, cross many runs, come
    // out of order or touch a run only at its edge.
    const runs: [number, number][] = [];
    for (let pos = 0, k = 0; pos < 400; k++) {
      const len = (k * 7) % 5;
      runs.push([pos, pos + len]);
      pos += len;
    }
    const list: [number, number][] = [];
    for (let k = 0; k < 120; k++) {
      const start = (k * 37) % 390;
      list.push([start, start + 1 + ((k * 13) % (k % 10 === 0 ? 90 : 9))]);
    }
    list.push([0, 400], [399, 400], [5, 6]);
    const spans = list.map(([a, b]) => span(a, b));
    const hits = overlapSweep(spans);
    let some = 0;
    for (const [a, b] of runs) {
      const expected = spans.filter((s) => s.start < b && s.end > a);
      expect(hits(a, b)).toEqual(expected);
      some += expected.length;
    }
    expect(some).toBeGreaterThan(runs.length);
  });

  it('reads each span a bounded number of times, however many runs the paragraph has', () => {
    const runs = 4_000;
    // A span in every other one-character run.
    const { spans, reads } = counted(Array.from({ length: runs / 2 }, (_, k): [number, number] => [2 * k, 2 * k + 1]));
    const hits = overlapSweep(spans);
    let matched = 0;
    for (let r = 0; r < runs; r++) matched += hits(r, r + 1).length;
    expect(matched).toBe(runs / 2);
    // Testing every span against every run reads 12 million offsets.
    expect(reads()).toBeLessThanOrEqual(4 * spans.length);
  });

  it('redacts every name of a paragraph of 60,000 runs', async () => {
    const pairs = 15_000;
    const children: Root['children'][number] = {
      type: 'paragraph',
      children: Array.from({ length: pairs }, (_, k) => [
        { type: 'text' as const, value: `Call ` },
        { type: 'strong' as const, children: [{ type: 'text' as const, value: `Jane${k}` }] },
        { type: 'text' as const, value: ' at ' },
        { type: 'link' as const, href: `#n${k}`, children: [{ type: 'text' as const, value: `jane${k}@example.com` }] },
      ]).flat(),
    };
    const tree: Root = { type: 'root', metadata: {}, children: [children] };
    const find = async (texts: readonly string[]) =>
      texts.map((t) => {
        const out: PiiSpan[] = [];
        for (const m of t.matchAll(/Jane\d+|jane\d+@example\.com/g))
          out.push({
            start: m.index,
            end: m.index + m[0].length,
            entity: m[0].includes('@') ? 'EMAIL' : 'PERSON',
            validated: true,
            source: 'pattern',
          });
        return out;
      });
    const out = await redactTree(tree, find, 'tag');
    const text = JSON.stringify(out);
    expect(text).not.toMatch(/Jane\d|jane\d/);
    expect(text.match(/"value":"<PERSON>"/g)).toHaveLength(pairs);
    expect(text.match(/"value":"<EMAIL>"/g)).toHaveLength(pairs);
    expect(text).toContain('"href":"#n14999"');
  });
});
