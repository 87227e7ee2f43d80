import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ParseProgress, parse } from '../src/index.ts';

const fixtures = resolve(import.meta.dirname, '../../../fixtures');

async function reports(file: string): Promise<{ events: ParseProgress[]; markdown: string | undefined }> {
  const events: ParseProgress[] = [];
  const data = await parse(
    readFileSync(join(fixtures, file)),
    {},
    { filename: file, onProgress: (p) => events.push(p) },
  );
  return { events, markdown: data.markdown };
}

describe('ParseHints.onProgress', () => {
  it('reports each PDF page as it is read', async () => {
    const { events } = await reports('pdf/running.pdf');
    expect(events).toEqual([1, 2, 3].map((done) => ({ stage: 'parse', done, total: 3, unit: 'pages' })));
  });
  it('reports slides for pptx, odp and ppt, sheets for workbooks, chapters of an EPUB as parts', async () => {
    for (const [file, unit] of [
      ['pptx/basic.pptx', 'slides'],
      ['odp/basic.odp', 'slides'],
      ['ppt/basic.ppt', 'slides'],
      ['sheet/basic.xlsx', 'sheets'],
      ['sheet/basic.xls', 'sheets'],
      ['epub/basic.epub', 'parts'],
    ] as const) {
      const { events } = await reports(file);
      const last = events.at(-1);
      expect(last, file).toMatchObject({ stage: 'parse', unit });
      expect(last?.done, file).toBe(last?.total);
      expect(last?.total, file).toBeGreaterThan(0);
      // Monotonic: a progress bar never moves backwards.
      for (let i = 1; i < events.length; i++) expect(events[i]?.done).toBeGreaterThanOrEqual(events[i - 1]?.done ?? 0);
    }
  });
  it('a callback that throws does not break or change the parse', async () => {
    const file = 'pdf/running.pdf';
    const bytes = readFileSync(join(fixtures, file));
    const plain = await parse(bytes, {}, { filename: file });
    let calls = 0;
    const data = await parse(
      bytes,
      {},
      {
        filename: file,
        onProgress: () => {
          calls++;
          throw new Error('progress bar crashed');
        },
      },
    );
    expect(calls).toBe(3);
    expect(data.markdown).toBe(plain.markdown);
    expect(data.warning).toBe(plain.warning);
  });
});
