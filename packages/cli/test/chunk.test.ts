import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Chunk } from '@docmill/core';
import { afterAll, describe, expect, it } from 'vitest';
import { overBudget } from '../../core/test/helpers/chunks.ts';
import { parseCli } from '../src/args.ts';
import { cli, root } from './helpers.ts';

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

const lines = (out: string) =>
  out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { source: string; id: string; text: string; tokens: number; headings: string[] });

describe('docmill chunk', () => {
  it('turns its flags into the chunks format, after the formats --options gives', () => {
    const c = parseCli(['chunk', 'a.pdf', '--max-tokens', '256', '--overlap', '32', '--tokenizer', 'cl100k_base']);
    expect(c.options.formats).toEqual([
      { type: 'chunks', maxTokens: 256, overlapTokens: 32, tokenizer: 'cl100k_base' },
    ]);
    const merged = parseCli([
      'chunk',
      'a.pdf',
      '--options',
      '{"formats":["markdown",{"type":"chunks","maxTokens":64}]}',
    ]);
    expect(merged.options.formats).toEqual(['markdown', { type: 'chunks', maxTokens: 64 }]);
    expect(() => parseCli(['parse', 'a.pdf', '--max-tokens', '256'])).toThrow(/belongs to docmill chunk/);
  });

  it('prints one chunk per line with its source, each within the budget', async () => {
    const r = await cli([
      'chunk',
      'fixtures/samples/quarterly-report.html',
      '--max-tokens',
      '48',
      '--tokenizer',
      'cl100k_base',
    ]);
    expect(r.code).toBe(0);
    const chunks = lines(r.stdout);
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) expect(c.source).toBe('quarterly-report.html');
    // Recounted with cl100k_base itself: within the budget, and the count given is the count.
    expect(overBudget(chunks as unknown as Chunk[], 48, 'cl100k_base')).toEqual([]);
    expect(chunks.map((c) => c.id)).toEqual(chunks.map((_, i) => `c${i + 1}`));
  });

  it('writes <name>.jsonl per document of a folder, with the summary on stderr', { timeout: 120_000 }, async () => {
    const src = mkdtempSync(join(tmpdir(), 'docmill-chunk-src-'));
    const out = mkdtempSync(join(tmpdir(), 'docmill-chunk-out-'));
    temps.push(src, out);
    mkdirSync(join(src, 'sub'));
    writeFileSync(join(src, 'a.csv'), readFileSync(join(root, 'fixtures/csv/comma.csv')));
    writeFileSync(join(src, 'sub', 'deck.pptx'), readFileSync(join(root, 'fixtures/pptx/basic.pptx')));
    writeFileSync(join(src, 'notes.txt'), 'not a document');
    const r = await cli(['chunk', src, '--out', out, '--max-tokens', '64']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/files: 2 .*skipped: 1/);
    const csv = lines(readFileSync(join(out, 'a.csv.jsonl'), 'utf8'));
    expect(csv.every((c) => c.source === 'a.csv')).toBe(true);
    const deck = lines(readFileSync(join(out, 'sub', 'deck.pptx.jsonl'), 'utf8')) as unknown as {
      source: string;
      pages: number[];
    }[];
    expect(deck[0]?.source).toBe(join('sub', 'deck.pptx'));
    expect(deck.map((c) => c.pages[0])).toEqual([1, 2, 2, 3]);
  });

  it('--json gives data.chunks and, with the pdf parser entry, data.blocks for any format', async () => {
    const r = await cli([
      'chunk',
      'fixtures/epub/basic.epub',
      '--json',
      '--formats',
      'markdown',
      '--options',
      '{"parsers":[{"type":"pdf","blocks":true}]}',
    ]);
    expect(r.code).toBe(0);
    const { data } = JSON.parse(r.stdout);
    expect(data.markdown).toContain('# Beginnings');
    expect(data.blocks.map((g: { kind: string }) => g.kind)).toEqual(['chapter', 'chapter', 'chapter']);
    expect(data.chunks[0]).toMatchObject({ chapter: 1, chapterTitle: 'One: Beginnings' });
    expect(data.markdown.slice(data.chunks[0].startOffset, data.chunks[0].endOffset)).toBe(data.chunks[0].text);
  });

  it('exits 1 with the JSON error body for settings core refuses', async () => {
    const r = await cli(['chunk', 'fixtures/csv/comma.csv', '--max-tokens', '4']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr.trim())).toMatchObject({
      code: 'BAD_REQUEST',
      error: expect.stringMatching(/maxTokens/),
    });
  });
});
