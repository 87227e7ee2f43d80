import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chunk, chunk, type PageBlocks, type ParseOptions, parse } from '../../src/index.ts';
import { CHROMIUM, type CoreHarness, chromiumSkipReason, startCoreHarness } from '../helpers/browser.ts';
import { corpusRoot, projectRoot } from '../helpers/corpus.ts';

/**
 * The chunks format in Debian's Chromium, from core bundled for browsers: the same chunks as Node
 * for every format family (BPE ranks from the bundle, Intl.Segmenter from the browser), the
 * tokenizer fetched only when chunks are asked for, and nothing from anywhere but the page's origin.
 */

if (!CHROMIUM) console.warn(chromiumSkipReason);

const FILES = [
  'fixtures/pdf/basic.pdf',
  'fixtures/pdf/continued.pdf',
  'fixtures/docx/basic.docx',
  'fixtures/sheet/basic.xlsx',
  'fixtures/csv/comma.csv',
  'fixtures/html/rich.html',
  'fixtures/pptx/basic.pptx',
  'fixtures/epub/basic.epub',
  'fixtures/odt/basic.odt',
  'fixtures/samples/quarterly-report.html',
]
  .map((p) => join(projectRoot, p))
  .concat(
    // Long prose (sentence cuts) and a multi-page PDF, when the corpus is there.
    ['docling/docx/sources/lorem_ipsum.docx', 'pdfbench/unstructured_pdf_multi-column.pdf']
      .map((p) => join(corpusRoot, p))
      .filter(existsSync),
  );

const OPTIONS: ParseOptions = {
  formats: ['markdown', { type: 'chunks', maxTokens: 96, overlapTokens: 16 }],
  parsers: [{ type: 'pdf', mode: 'fast', blocks: true }],
};

let harness: CoreHarness | undefined;

const HARNESS = `
const bytesOf = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
window.chunkAll = async (list, options) => {
  const core = await import('./core.js');
  const out = {};
  for (const f of list) {
    try {
      const data = await core.parse(bytesOf(f.b64), options, { filename: f.name });
      out[f.name] = { chunks: data.chunks, blocks: data.blocks };
    } catch (e) {
      out[f.name] = { error: e.message };
    }
  }
  return out;
};
window.parseOnly = async (f) => {
  const core = await import('./core.js');
  return (await core.parse(bytesOf(f.b64), {}, { filename: f.name })).markdown;
};
window.chunkData = async (data, options) => {
  const core = await import('./core.js');
  const chunks = await core.chunk(data, options);
  return { chunks, contextualized: chunks.map(core.contextualize) };
};
`;

beforeAll(async () => {
  if (!CHROMIUM) return;
  harness = await startCoreHarness('docmill-browser-chunks-', HARNESS);
});

afterAll(() => harness?.close());

const openPage = () => (harness as CoreHarness).openPage('chunkAll');
const fileArg = (p: string) => ({ name: basename(p), b64: readFileSync(p).toString('base64') });
const chunksWith = (test: RegExp) => (harness as CoreHarness).outputsWith(test);

describe.skipIf(!CHROMIUM)(`chunks in Chromium${CHROMIUM ? '' : ` (${chromiumSkipReason})`}`, () => {
  it('gives the chunks and blocks Node gives, for every format family', { timeout: 180_000 }, async () => {
    const { page, requests } = await openPage();
    try {
      type Run = {
        chunkAll(
          list: ReturnType<typeof fileArg>[],
          options: ParseOptions,
        ): Promise<Record<string, { chunks?: Chunk[]; blocks?: PageBlocks[]; error?: string }>>;
      };
      const files = FILES.map(fileArg);
      const inBrowser = await page.evaluate(([list, options]) => (window as unknown as Run).chunkAll(list, options), [
        files,
        OPTIONS,
      ] as const);
      for (const p of FILES) {
        const name = basename(p);
        const inNode = await parse(new Uint8Array(readFileSync(p)), OPTIONS, { filename: name });
        expect(inNode.chunks?.length, name).toBeGreaterThan(0);
        expect(inBrowser[name]?.error, name).toBeUndefined();
        expect(inBrowser[name]?.chunks, name).toEqual(inNode.chunks);
        expect(inBrowser[name]?.blocks, name).toEqual(inNode.blocks);
      }
      // The BPE ranks came from the bundle, on the page's own origin.
      const fetched = new Set(requests.map((u) => basename(new URL(u).pathname)));
      const ranks = chunksWith(/gpt-tokenizer\/esm\/bpeRanks\/o200k_base/);
      expect(ranks.length).toBe(1);
      expect(fetched.has(ranks[0] as string)).toBe(true);
      expect(requests.every((u) => u.startsWith(`${harness?.origin}/`))).toBe(true);
    } finally {
      await page.close();
    }
  });

  it('loads the tokenizer only for chunks, and chunk() on parse data matches Node', { timeout: 120_000 }, async () => {
    const { page, requests } = await openPage();
    try {
      type Run = {
        parseOnly(f: ReturnType<typeof fileArg>): Promise<string>;
        chunkData(data: unknown, options: unknown): Promise<{ chunks: Chunk[]; contextualized: string[] }>;
      };
      const file = join(projectRoot, 'fixtures/samples/quarterly-report.html');
      const markdown = await page.evaluate((f) => (window as unknown as Run).parseOnly(f), fileArg(file));
      const tokenizerFiles = chunksWith(/gpt-tokenizer/);
      expect(tokenizerFiles.length).toBeGreaterThan(0);
      const fetched = () => new Set(requests.map((u) => basename(new URL(u).pathname)));
      for (const f of tokenizerFiles) expect(fetched().has(f), f).toBe(false);
      // chunk() on parse data without blocks (its Markdown), with cl100k_base.
      const data = { markdown, metadata: { error: null }, warning: null };
      const options = { maxTokens: 48, tokenizer: 'cl100k_base' as const };
      const got = await page.evaluate(([d, o]) => (window as unknown as Run).chunkData(d, o), [data, options] as const);
      const inNode = await chunk(data, options);
      expect(got.chunks).toEqual(inNode);
      expect(got.contextualized[1]?.length).toBeGreaterThan(0);
      expect(fetched().has(chunksWith(/bpeRanks\/cl100k_base/)[0] as string)).toBe(true);
      expect(fetched().has(chunksWith(/bpeRanks\/o200k_base/)[0] as string)).toBe(false);
    } finally {
      await page.close();
    }
  });
});
