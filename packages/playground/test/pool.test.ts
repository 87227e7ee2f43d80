import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, parse } from '../../core/src/index.ts';
import { CHROMIUM, chromiumSkipReason } from '../../core/test/helpers/browser.ts';
import { projectRoot } from '../../core/test/helpers/corpus.ts';
import { NO_DEADLINE } from '../../core/test/helpers/timeouts.ts';
import { createOcrStage } from '../../ocr/src/index.ts';
import { createEngine as createPiiEngine } from '../../pii/src/index.ts';
import { copyAssets } from '../copy-assets.ts';
import { ocrAssets, piiAssets } from '../ocr-assets.ts';
import { type BuiltApp, openPage, startBuiltApp, TEST_MODEL, testModelAssets } from './built-app.ts';

/**
 * `@docmill/workers` on Web Workers, bundled by Vite from the package's browser entry: whole
 * documents parse in the pool's own worker chunk, queue metadata and progress cross the worker
 * boundary, a request's timeout ends its worker and the next request gets a fresh one.
 */

if (!CHROMIUM) console.warn(chromiumSkipReason);

const here = fileURLToPath(new URL('.', import.meta.url));
let app: BuiltApp | undefined;

/** The app's start, awaited by afterAll too: a start that outlives its hook is still closed. */
let starting: Promise<BuiltApp> | undefined;

beforeAll(async () => {
  if (!CHROMIUM) return;
  starting = startBuiltApp({
    configFile: false,
    root: resolve(here, 'pool-app'),
    base: './',
    plugins: [
      ocrAssets(),
      piiAssets(),
      testModelAssets('models/ner-model'),
      copyAssets('stages', { 'slow-stage.js': resolve(here, 'pool-app/slow-stage.js') }),
    ],
    build: { target: 'es2022' },
    worker: { format: 'es' },
  });
  app = await starting;
});

afterAll(async () => {
  await (await starting?.catch(() => undefined))?.close();
});

/** URLs of the built chunks that hold linkedom or parse5 (core's DOM for workers). */
function domChunks(): string[] {
  const assets = join((app as BuiltApp).dir, 'assets');
  return readdirSync(assets)
    .filter(
      (f) =>
        f.endsWith('.js') && /HTMLMarqueeElement|surrogate-in-input-stream/.test(readFileSync(join(assets, f), 'utf8')),
    )
    .map((f) => `${app?.origin}/assets/${f}`);
}

const file = (p: string) => ({
  name: basename(p),
  b64: readFileSync(join(projectRoot, 'fixtures', p)).toString('base64'),
});

describe.skipIf(!CHROMIUM)(`worker pool in Chromium${CHROMIUM ? '' : ` (${chromiumSkipReason})`}`, () => {
  it('parses whole documents in Web Workers, queues, times out and recovers', async () => {
    const { page, requests, errors } = await openPage(app as BuiltApp, 'index.html');
    try {
      await page.waitForFunction(() => document.body.dataset.ready === 'yes');
      // First in line, a CSV the page's test stage holds for 60 s: its 1 s deadline ends the running worker.
      const slow = { name: 'slow.csv', b64: Buffer.from('id,word\n1,SLOW\n').toString('base64'), timeout: 1000 };
      const files = [slow, file('csv/comma.csv'), file('pdf/basic.pdf'), file('docx/basic.docx')];
      type Run = { runPool(f: typeof files): Promise<Record<string, unknown>[]> };
      const out = await page.evaluate((f) => (window as unknown as Run).runPool(f), files);

      expect(out[0]?.error).toEqual({ status: 408, code: 'SCRAPE_TIMEOUT' });
      // The timed-out worker was ended; the others waited for it and parsed in its replacement.
      for (const [i, f] of files.entries()) {
        if (i === 0) continue;
        const inNode = await parse(new Uint8Array(Buffer.from(f.b64, 'base64')), {}, { filename: f.name });
        expect(out[i]?.markdown, f.name).toBe(inNode.markdown);
        expect(out[i]?.limited, f.name).toBe(true);
      }
      expect(out[2]?.markdown).toContain('# Docmill Fixture');
      expect(out[2]?.progress).toBeGreaterThan(0);
      expect(await page.evaluate(() => document.body.dataset.started)).toBe('2');

      expect(errors).toEqual([]);
      expect(requests.filter((u) => !u.startsWith(`${app?.origin}/`))).toEqual([]);
      expect(requests.some((u) => /\/assets\/worker-browser-[\w-]+\.js$/.test(u))).toBe(true);
      // No HTML here: the worker never fetched its DOM chunks.
      expect(domChunks().length).toBeGreaterThan(0);
      expect(requests.filter((u) => domChunks().includes(u))).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('parses HTML, XHTML and EPUB in Web Workers (no DOMParser there) as Node does', async () => {
    const { page, requests, errors } = await openPage(app as BuiltApp, 'index.html');
    try {
      await page.waitForFunction(() => document.body.dataset.ready === 'yes');
      // Misnested tables (the HTML standard's tree construction), CSS-only headings, a CSS selector
      // (includeTags), and EPUB chapters (XHTML with self-closing elements).
      const files = [
        file('html/malformed-table.html'),
        { ...file('html/malformed-table.html'), options: { includeTags: ['table[border] tr:nth-child(3)'] } },
        file('html/rich.html'),
        file('html/css-headings.html'),
        file('epub/basic.epub'),
        file('epub/css-headings.epub'),
      ];
      type Run = { runPool(f: typeof files): Promise<Record<string, unknown>[]> };
      const out = await page.evaluate((f) => (window as unknown as Run).runPool(f), files);
      for (const [i, f] of files.entries()) {
        const bytes = new Uint8Array(Buffer.from(f.b64, 'base64'));
        const inNode = await parse(bytes, 'options' in f ? f.options : {}, { filename: f.name });
        expect(out[i]?.error, f.name).toBeUndefined();
        expect(out[i]?.markdown, f.name).toBe(inNode.markdown);
      }
      expect(out[0]?.markdown).toContain('| 0.05 | 0.20 | 0.40 | 21.5 | 61.0 | 9.0 | 3.9 |');
      expect(out[1]?.markdown).not.toContain('0.10 max');
      expect(errors).toEqual([]);
      // The worker fetched parse5 and linkedom from the app's own folder.
      expect(requests.filter((u) => domChunks().includes(u)).length).toBeGreaterThanOrEqual(2);
    } finally {
      await page.close();
    }
  });

  it('runs a pooled engine with the OCR stage inside OCR Web Workers; idle ones read lent pages', async () => {
    const { page, requests } = await openPage(app as BuiltApp, 'index.html');
    try {
      await page.waitForFunction(() => document.body.dataset.ready === 'yes');
      type Got = { markdown: string; ocrPages: unknown; started: number };
      type Run = { runOcrPool(b64: string, name: string, size: number): Promise<Got> };
      const inBrowser = (f: { b64: string; name: string }, size: number) =>
        page.evaluate(
          ([b64, name, n]) => (window as unknown as Run).runOcrPool(b64 as string, name as string, n as number),
          [f.b64, f.name, size] as const,
        );
      const scan = file('pdf/scanned.pdf');
      const got = await inBrowser(scan, 1);
      expect(got.ocrPages).toBe(1);
      expect(got.markdown).toContain('| Washers | W-33 | 900 | $0.02 |');
      // Two pages, two workers, one request: the second worker starts only to read the lent page.
      const tif = file('image/pages.tif');
      const lent = await inBrowser(tif, 2);
      expect([lent.ocrPages, lent.started]).toEqual([2, 2]);
      const engine = createEngine({ stages: [createOcrStage({ workers: 1 })] });
      try {
        const inNode = await engine.parse(new Uint8Array(Buffer.from(scan.b64, 'base64')), {
          parsers: [{ type: 'pdf', mode: 'auto' }],
          ...NO_DEADLINE,
        });
        expect(got.markdown).toBe(inNode.markdown);
        const tifInNode = await engine.parse(new Uint8Array(Buffer.from(tif.b64, 'base64')), {
          parsers: ['image'],
          ...NO_DEADLINE,
        });
        expect(lent.markdown).toBe(tifInNode.markdown);
      } finally {
        await engine.close();
      }
      expect(requests.filter((u) => !u.startsWith(`${app?.origin}/`))).toEqual([]);
      expect(requests).toContain(`${app?.origin}/tesseract/eng.traineddata.gz`);
    } finally {
      await page.close();
    }
  });

  it('redacts with the PII model in a Web Worker, as Node does', async () => {
    const { page, requests, errors } = await openPage(app as BuiltApp, 'index.html');
    try {
      await page.waitForFunction(() => document.body.dataset.ready === 'yes');
      const f = file('pii/letter.html');
      type Run = {
        runPii(
          b64: string,
          name: string,
          model: string,
        ): Promise<{ markdown?: string; error?: { status: number; code: string; message: string } }>;
      };
      const got = await page.evaluate(
        ([b64, name]) => (window as unknown as Run).runPii(b64 as string, name as string, './models/ner-model'),
        [f.b64, f.name],
      );
      const engine = createPiiEngine({ pii: { model: { model: TEST_MODEL, worker: false } } });
      let inNode: string | undefined;
      try {
        inNode = (
          await engine.parse(
            new Uint8Array(Buffer.from(f.b64, 'base64')),
            { redactPII: { mode: 'aggressive' }, ...NO_DEADLINE },
            { filename: f.name },
          )
        ).markdown;
        expect(got.error).toBeUndefined();
        expect(got.markdown).toBe(inNode);
      } finally {
        await engine.close();
      }
      // The model's names and places, and the heuristics' patterns, are gone.
      expect(got.markdown).toContain('# Referral for <PERSON>');
      expect(got.markdown).toContain('<PERSON> met <PERSON> in <LOCATION>');
      for (const leak of ['Lovelace', 'Hopper', 'Paris', 'Wonderland', '555-2671', '4111', 'example.org'])
        expect(got.markdown).not.toContain(leak);

      // A pooled engine whose PII worker builds the PII stage (PII_STAGE_URL) itself, on the same
      // HTML letter: that worker has no DOMParser either.
      type Pooled = { runPiiPool(b64: string, name: string, model: string): Promise<string> };
      const pooled = await page.evaluate(
        ([b64, name]) => (window as unknown as Pooled).runPiiPool(b64 as string, name as string, './models/ner-model'),
        [f.b64, f.name],
      );
      expect(pooled).toBe(inNode);

      // A model URL that does not answer fails the request closed, with Node's error.
      const missing = await page.evaluate(
        ([b64, name]) => (window as unknown as Run).runPii(b64 as string, name as string, './models/absent'),
        [f.b64, f.name],
      );
      expect(missing.error).toMatchObject({ status: 500 });
      expect(missing.error?.message).toMatch(/PII model failed/);
      expect(missing.error?.message).not.toContain('Lovelace');

      expect(errors).toEqual([]);
      expect(requests.filter((u) => !u.startsWith(`${app?.origin}/`))).toEqual([]);
      expect(requests).toContain(`${app?.origin}/models/ner-model/onnx/model.onnx`);
      expect(requests).toContain(`${app?.origin}/onnx/ort-wasm-simd-threaded.asyncify.wasm`);
    } finally {
      await page.close();
    }
  });
});
