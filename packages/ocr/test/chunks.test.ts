import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createEngine } from '@docmill/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createOcrStage } from '../src/index.ts';

// Chunks of OCR'd pages carry their page and the box of their words, as a text PDF's do.
const root = resolve(import.meta.dirname, '../../..');
const engine = createEngine({ stages: [createOcrStage({ workers: 1 })] });
afterAll(() => engine.close());

describe('chunks of OCR output', () => {
  it('an image: page 1 and a box inside the picture; a scanned PDF page: its page', { timeout: 180_000 }, async () => {
    const png = new Uint8Array(readFileSync(join(root, 'fixtures/image/basic.png')));
    const image = await engine.parse(
      png,
      { formats: ['markdown', { type: 'chunks', maxTokens: 64 }], parsers: [{ type: 'pdf', blocks: true }, 'image'] },
      { filename: 'basic.png' },
    );
    expect(image.chunks?.length).toBeGreaterThan(0);
    const page = image.blocks?.[0];
    for (const c of image.chunks ?? []) {
      expect(c.pages).toEqual([1]);
      const [x0, y0, x1, y1] = c.bbox?.[0]?.bbox ?? [];
      expect(c.bbox?.[0]?.page).toBe(1);
      expect(x0).toBeGreaterThanOrEqual(0);
      expect(y1).toBeLessThanOrEqual((page?.height ?? 0) + 1);
      expect(x0).toBeLessThan(x1 as number);
      expect(y0).toBeLessThan(y1 as number);
    }
    expect(image.markdown?.length).toBeGreaterThan(10);
    const scanned = await engine.parse(
      new Uint8Array(readFileSync(join(root, 'fixtures/pdf/scanned.pdf'))),
      { formats: [{ type: 'chunks', maxTokens: 64 }] },
      { filename: 'scanned.pdf' },
    );
    const pages = new Set((scanned.chunks ?? []).flatMap((c) => c.pages ?? []));
    expect(pages).toEqual(new Set([1, 2]));
    const table = scanned.chunks?.find((c) => c.text.includes('| Washers | W-33 | 900 | $0.02 |'));
    expect(table?.pages?.[0]).toBe(1);
  });
});
