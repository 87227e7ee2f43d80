import { describe, expect, it } from 'vitest';
import { pageBodies } from '../../src/adapters/pdf/furniture.ts';
import { buildLines, type Line } from '../../src/adapters/pdf/lines.ts';
import { textRun } from '../helpers/text-items.ts';

// A FreeText box whose /DA names a size of 1e17 puts a run's baseline there; a NaN or infinite one
// follows from sizes past a double. Fragments are merged by baseline buckets, and a bucket loop
// that stepped its key (k - 1 … k + 1) never ended where k + 1 is k.
describe('pdf lines at baselines past 2^53, infinite or NaN', () => {
  it.each([3e16, 1e17, Number.POSITIVE_INFINITY])('reads a run at y = %s apart from the page text', (y) => {
    const lines = buildLines([textRun('Hello world', 72, 80), textRun('far away', 72, y)]);
    expect(lines.map((l) => l.text)).toEqual(['Hello world', 'far away']);
  });

  it('joins two touching fragments whose baseline is NaN, as one line', () => {
    const lines = buildLines([textRun('Hello', 72, Number.NaN), textRun('world', 102, Number.NaN)]);
    expect(lines.map((l) => l.text)).toEqual(['Helloworld']);
  });
});

const page = (texts: string[]) => ({
  width: 612,
  height: 792,
  lines: texts.map((text, k) => ({ text, x0: 72, x1: 500, y0: 300 + k * 14, y1: 312 + k * 14 }) as unknown as Line),
  tables: [],
});

describe('pdf page bodies told apart', () => {
  it('gives pages of one length and different text their own ids, and a repeated page its first id', () => {
    const pages = [
      page(['Certificate of completion', 'Record 000001']),
      page(['Certificate of completion', 'Record 000002']),
      page(['A shorter page']),
      page(['Certificate of completion', 'Record 000001']),
      page(['Certificate of completion', 'Record 000003']),
      page(['Certificate of completion', 'Record 000002']),
    ];
    expect(pageBodies(pages)).toEqual([0, 1, 2, 0, 3, 1]);
  });

  it('names each of many template pages (one length, a serial at the end) by its own text', () => {
    const serial = (n: number) =>
      page(['Lorem ipsum dolor sit amet '.repeat(40), `Record ${String(n).padStart(6, '0')}`]);
    const pages = Array.from({ length: 3000 }, (_, n) => serial(n % 1500));
    const ids = pageBodies(pages);
    expect(new Set(ids).size).toBe(1500);
    expect(ids.slice(1500)).toEqual(ids.slice(0, 1500));
  });
});
