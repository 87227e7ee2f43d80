import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine, parse } from '../../core/src/index.ts';
import { CHROMIUM, chromiumSkipReason, recordRequests } from '../../core/test/helpers/browser.ts';
import { projectRoot } from '../../core/test/helpers/corpus.ts';
import { NO_DEADLINE } from '../../core/test/helpers/timeouts.ts';
import { createOcrStage } from '../../ocr/src/index.ts';
import { createEngine as createPiiEngine } from '../../pii/src/index.ts';
import { readOptions } from '../src/options.ts';
import { type BuiltApp, openPage, startBuiltApp, TEST_MODEL, testModelAssets } from './built-app.ts';

/**
 * The built playground in Debian's Chromium: files picked through the page's own input are parsed
 * in the tab, the Markdown shown is the Markdown Node gives, no request leaves the page's origin,
 * and the PDF page view draws a real render.
 */

if (!CHROMIUM) console.warn(chromiumSkipReason);

const here = fileURLToPath(new URL('.', import.meta.url));
const FILES: Record<string, string[]> = {
  'basic.docx': ['# Field report', 'Revenue grew **strongly**', '2. Open office'],
  'basic.pdf': ['# Docmill Fixture', 'The quick brown fox jumps over the lazy dog', '- Second item'],
  'basic.xlsx': ['## Sales', '| 2024-01-01 | North | 12.5% | $1,234.50 |'],
  'comma.csv': ['| Name | Comment | Amount |', '| Bob | plain | 20 |'],
  // Page 1 is a picture of a table (OCR'd in a Web Worker), page 2 real text.
  'scanned.pdf': ['| Washers | W-33 | 900 | $0.02 |', 'This second page has a real text layer.'],
  // An image turned 90°: orientation detection (tesseract's legacy core and osd model) in the worker.
  'rotated.png': ['Stock tables', '| South | 98 | 101 |'],
};
const PATHS: Record<string, string> = {
  'basic.docx': 'docx/basic.docx',
  'basic.pdf': 'pdf/basic.pdf',
  'basic.xlsx': 'sheet/basic.xlsx',
  'comma.csv': 'csv/comma.csv',
  'scanned.pdf': 'pdf/scanned.pdf',
  'rotated.png': 'image/rotated.png',
};
/** Where the screenshot stays after the run, for people to look at. */
export const SCREENSHOT = join(tmpdir(), 'docmill-playground-e2e.png');

let app: BuiltApp | undefined;
/**
 * Node's side of the comparison, with the OCR stage the page has. One pool worker, as in the
 * page: the pool drains what tesseract's wasm prints (in-thread, its own thread would print
 * "Invalid resolution 0 dpi" for images that declare none).
 */
let nodeEngine: Engine | undefined;

/** The app's start, awaited by afterAll too: a start that outlives its hook is still closed. */
let starting: Promise<BuiltApp> | undefined;

beforeAll(async () => {
  if (!CHROMIUM) return;
  starting = startBuiltApp({
    root: resolve(here, '..'),
    configFile: resolve(here, '../vite.config.ts'),
    plugins: [testModelAssets('models/ner')],
  });
  app = await starting;
  nodeEngine = createEngine({ stages: [createOcrStage({ workers: 1 })] });
});

afterAll(async () => {
  await nodeEngine?.close();
  await (await starting?.catch(() => undefined))?.close();
});

/** Mean per-channel variance and share of non-white pixels of a PNG, decoded by the browser. */
async function pixelStats(page: Page, png: Buffer): Promise<{ variance: number; inked: number }> {
  return page.evaluate(async (b64) => {
    // Built from bytes, not fetched: the page's CSP (connect-src 'self') refuses even data: URLs.
    const blob = new Blob([Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0))], { type: 'image/png' });
    const bmp = await createImageBitmap(blob);
    const c = new OffscreenCanvas(bmp.width, bmp.height);
    const ctx = c.getContext('2d') as OffscreenCanvasRenderingContext2D;
    ctx.drawImage(bmp, 0, 0);
    const d = ctx.getImageData(0, 0, bmp.width, bmp.height).data;
    let sum = 0;
    let sq = 0;
    let inked = 0;
    for (let i = 0; i < d.length; i += 4) {
      const v = ((d[i] ?? 0) + (d[i + 1] ?? 0) + (d[i + 2] ?? 0)) / 3;
      sum += v;
      sq += v * v;
      if (v < 200) inked++;
    }
    const n = d.length / 4;
    return { variance: sq / n - (sum / n) ** 2, inked: inked / n };
  }, png.toString('base64'));
}

describe.skipIf(!CHROMIUM)(`playground in Chromium${CHROMIUM ? '' : ` (${chromiumSkipReason})`}`, () => {
  it('parses DOCX, text PDF, scanned PDF, image, XLSX and CSV in the tab, uploads nothing, renders', async () => {
    const page = await (app as BuiltApp).browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const requests = recordRequests(page);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await page.goto(`${app?.origin}/index.html`);
      await expect.poll(() => page.locator('#privacy').textContent()).toContain('never leave this tab');
      const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
      expect(csp).toContain("connect-src 'self'");
      // Heuristic redaction runs in the tab; the model modes are offered only with a model.
      expect(await page.locator('#pii-mode option[value="aggressive"]').isDisabled()).toBe(true);
      expect(await page.locator('#pii-note').textContent()).toMatch(/NER model/);

      // Every progress line the page shows, to see OCR report its pages.
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { statuses: string[] }).statuses = seen;
        const status = document.getElementById('status') as HTMLElement;
        new MutationObserver(() => seen.push(status.textContent ?? '')).observe(status, { childList: true });
      });
      const paths = Object.values(PATHS).map((p) => join(projectRoot, 'fixtures', p));
      await page.setInputFiles('#file-input', paths);
      await page.waitForFunction(
        (n) =>
          document.querySelectorAll('#file-list li[data-status="done"], #file-list li[data-status="failed"]').length ===
            n && document.body.dataset.state === 'idle',
        paths.length,
        { timeout: 300_000 },
      );

      const options = readOptions(
        { formats: ['markdown', 'html', 'links'], pdfMode: 'auto', piiMode: 'off', piiStyle: 'tag' },
        false,
      );
      for (const [name, keys] of Object.entries(FILES)) {
        await page.locator(`#file-list li[data-name="${name}"]`).click();
        expect(await page.locator(`#file-list li[data-name="${name}"]`).getAttribute('data-status')).toBe('done');
        const markdown = (await page.locator('#pane-raw').textContent()) ?? '';
        for (const k of keys) expect(markdown, name).toContain(k);
        const bytes = new Uint8Array(readFileSync(join(projectRoot, 'fixtures', PATHS[name] as string)));
        const inNode = await (nodeEngine as Engine).parse(bytes, { ...options, ...NO_DEADLINE }, { filename: name });
        expect(markdown, `${name}: browser and Node differ`).toBe(inNode.markdown);
      }

      const statuses = await page.evaluate(() => (window as unknown as { statuses: string[] }).statuses);
      expect(statuses).toContain('scanned.pdf: ocr 1 / 1 pages');
      await page.locator('#file-list li[data-name="scanned.pdf"]').click();
      const scannedMeta = JSON.parse((await page.locator('#pane-metadata').textContent()) || '{}');
      expect(scannedMeta.ocrPages).toBe(1);

      // redactPII fast, on a file made in the test: the address never reaches the Markdown.
      await page.selectOption('#pii-mode', 'fast');
      const contact = 'Name,Email,Phone\nAlice Martin,alice.martin@example.com,+1 415 555 0134\n';
      await page.setInputFiles('#file-input', {
        name: 'contact.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(contact),
      });
      await page.waitForFunction(
        () => document.querySelector('#file-list li[data-name="contact.csv"]')?.getAttribute('data-status') === 'done',
      );
      await page.locator('#file-list li[data-name="contact.csv"]').click();
      const redacted = (await page.locator('#pane-raw').textContent()) ?? '';
      expect(redacted).not.toContain('alice.martin@example.com');
      const redactedInNode = await parse(
        new TextEncoder().encode(contact),
        readOptions(
          { formats: ['markdown', 'html', 'links'], pdfMode: 'auto', piiMode: 'fast', piiStyle: 'tag' },
          true,
        ),
        { filename: 'contact.csv' },
      );
      expect(redacted).toBe(redactedInNode.markdown);

      // The PDF page view: PDFium renders page 1 in the tab and the block boxes are drawn on it.
      await page.locator('#file-list li[data-name="basic.pdf"]').click();
      await page.locator('#tabs button[data-tab="pages"]').click();
      await page.waitForFunction(() => (document.getElementById('page-canvas') as HTMLCanvasElement).width > 0);
      const canvasInk = await page.evaluate(() => {
        const c = document.getElementById('page-canvas') as HTMLCanvasElement;
        const d = (c.getContext('2d') as CanvasRenderingContext2D).getImageData(0, 0, c.width, c.height).data;
        let coloured = 0;
        for (let i = 0; i < d.length; i += 4) if (d[i] !== d[i + 2]) coloured++;
        return { width: c.width, coloured };
      });
      expect(canvasInk.width).toBeGreaterThan(500);
      expect(canvasInk.coloured, 'no block boxes drawn').toBeGreaterThan(100);

      const png = await page.screenshot({ fullPage: true });
      writeFileSync(SCREENSHOT, png);
      const stats = await pixelStats(page, png);
      expect(stats.variance).toBeGreaterThan(200);
      expect(stats.inked).toBeGreaterThan(0.01);

      expect(errors).toEqual([]);
      const foreign = requests.filter((u) => !u.startsWith(`${app?.origin}/`) && !/^(data|blob):/.test(u));
      expect(foreign).toEqual([]);
      // PDFium came from the build's own assets.
      expect(requests.some((u) => /\/assets\/pdfium-[\w-]+\.wasm$/.test(u))).toBe(true);
      // OCR ran in the build's own Web Worker, with tesseract.js's files from its tesseract/ folder.
      expect(requests.some((u) => /\/assets\/worker-browser-[\w-]+\.js$/.test(u))).toBe(true);
      const tesseractFiles = [
        'worker.min.js',
        'tesseract-core-simd-lstm.wasm.js',
        'tesseract-core-simd.wasm.js',
        'eng.traineddata.gz',
        'osd.traineddata.gz',
      ];
      for (const f of tesseractFiles) {
        expect(requests, f).toContain(`${app?.origin}/tesseract/${f}`);
      }
    } finally {
      await page.close();
    }
  });

  it.each([420, 1024, 1600])(
    'at %i px: shows the summary, puts a failure and a password prompt where the output is, counts right',
    async (width) => {
      // Before: a ticked summary showed nowhere, a failed file left an empty pane with its error in
      // small text below it, "4 file(s) parsed, 3 failed" counted failures as parsed, an encrypted
      // file could not be given a password, and at 420 px the output ran off the screen.
      const page = await (app as BuiltApp).browser.newPage({ viewport: { width, height: 900 } });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      const idle = (name: string, status: string) =>
        page.waitForFunction(
          ([n, s]) =>
            document.body.dataset.state === 'idle' &&
            document.querySelector(`#file-list li[data-name="${n}"]`)?.getAttribute('data-status') === s,
          [name, status],
          { timeout: 300_000 },
        );
      try {
        await page.goto(`${app?.origin}/index.html`);
        await page.locator('input[name=format][value=summary]').check();
        const fx = (p: string) => join(projectRoot, 'fixtures', p);
        await page.setInputFiles('#file-input', [
          fx('docx/basic.docx'),
          fx('ppt/password.ppt'),
          fx('odt/password-blowfish.odt'),
        ]);
        await page.setInputFiles('#file-input', {
          name: 'broken.pdf',
          mimeType: 'application/pdf',
          buffer: Buffer.from('%PDF-1.7 cut short'),
        });
        await idle('broken.pdf', 'failed');
        expect(await page.locator('#status').textContent()).toBe('1 file parsed, 1 failed, 2 need a password.');
        // Nothing wider than the window, the output included.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        const output = await page.locator('#output').boundingBox();
        expect((output?.x ?? 0) + (output?.width ?? 0)).toBeLessThanOrEqual(width);

        // The summary, in its own tab, as Node derives it.
        await page.locator('#file-list li[data-name="basic.docx"]').click();
        await page.locator('#tabs button[data-tab="summary"]').click();
        const options = readOptions(
          { formats: ['markdown', 'html', 'links', 'summary'], pdfMode: 'auto', piiMode: 'off', piiStyle: 'tag' },
          false,
        );
        const docx = await parse(new Uint8Array(readFileSync(fx('docx/basic.docx'))), options, {
          filename: 'basic.docx',
        });
        expect(docx.summary).toBeTruthy();
        expect(await page.locator('#pane-summary').textContent()).toBe(docx.summary);

        // A failure says why, in view, instead of empty panes.
        await page.locator('#file-list li[data-name="broken.pdf"]').click();
        expect(await page.locator('#problem').isVisible()).toBe(true);
        expect(await page.locator('#problem-title').textContent()).toBe('broken.pdf could not be parsed.');
        expect(await page.locator('#problem-message').textContent()).toMatch(/PDF is damaged/);
        expect(await page.locator('#panes').isVisible()).toBe(false);
        expect(await page.locator('#password-form').isVisible()).toBe(false);
        const box = await page.locator('#problem').boundingBox();
        expect(box && box.y >= 0 && box.y + box.height <= 900, 'the reason is on screen').toBe(true);
        writeFileSync(join(tmpdir(), `docmill-playground-${width}-failed.png`), await page.screenshot());

        // A password-protected file asks for its password; a wrong one is told apart from none.
        await page.locator('#file-list li[data-name="password.ppt"]').click();
        expect(await page.locator('#problem-title').textContent()).toBe('password.ppt is password-protected.');
        expect(await page.locator('#problem-message').textContent()).toMatch(
          /cannot be read without its password\. Pass its password in the field below\.$/,
        );
        await page.locator('#password').fill('not it');
        await page.locator('#password-form button').click();
        await idle('password.ppt', 'locked');
        await page.locator('#file-list li[data-name="password.ppt"]').click();
        expect(await page.locator('#problem-message').textContent()).toMatch(
          /the password given does not open it\. Pass the right one in the field below\.$/,
        );
        const nodeOptions = readOptions(
          { formats: ['markdown', 'html', 'links', 'summary'], pdfMode: 'auto', piiMode: 'off', piiStyle: 'tag' },
          false,
        );
        for (const [name, path] of [
          ['password.ppt', 'ppt/password.ppt'],
          ['password-blowfish.odt', 'odt/password-blowfish.odt'],
        ] as const) {
          await page.locator(`#file-list li[data-name="${name}"]`).click();
          await page.locator('#password').fill('Tr0ub4dor&3');
          await page.locator('#password-form button').click();
          await idle(name, 'done');
          await page.locator(`#file-list li[data-name="${name}"]`).click();
          const inNode = await parse(new Uint8Array(readFileSync(fx(path))), nodeOptions, {
            filename: name,
            password: 'Tr0ub4dor&3',
          });
          expect(await page.locator('#pane-raw').textContent(), name).toBe(inNode.markdown);
        }
        expect(await page.locator('#problem').isVisible()).toBe(false);
        expect(await page.locator('#status').textContent()).toBe('3 files parsed, 1 failed.');
        const png = await page.screenshot({ fullPage: true });
        writeFileSync(join(tmpdir(), `docmill-playground-${width}.png`), png);
        const stats = await pixelStats(page, png);
        expect(stats.inked).toBeGreaterThan(0.01);
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    },
  );

  it('lists the chunks with tokens and headings, and shades a chunk on the PDF page', async () => {
    const { page, requests, errors } = await openPage(app as BuiltApp, 'index.html');
    try {
      await page.fill('#max-tokens', '40');
      await page.setInputFiles('#file-input', [join(projectRoot, 'fixtures/pdf/continued.pdf')]);
      await page.waitForFunction(
        () =>
          document.querySelector('#file-list li[data-name="continued.pdf"]')?.getAttribute('data-status') === 'done',
        undefined,
        { timeout: 300_000 },
      );
      await page.locator('#file-list li[data-name="continued.pdf"]').click();
      await page.locator('#tabs button[data-tab="chunks"]').click();
      const shown = await page.locator('#chunk-list li').evaluateAll((lis) =>
        lis.map((li) => ({
          id: (li as HTMLElement).dataset.id,
          tokens: Number((li as HTMLElement).dataset.tokens),
          text: li.querySelector('pre')?.textContent,
          path: li.querySelector('.chunk-path')?.textContent,
        })),
      );
      const options = readOptions(
        {
          formats: ['markdown', 'html', 'links'],
          pdfMode: 'auto',
          piiMode: 'off',
          piiStyle: 'tag',
          chunks: { maxTokens: 40, overlapTokens: 0, tokenizer: 'o200k_base' },
        },
        false,
      );
      const bytes = new Uint8Array(readFileSync(join(projectRoot, 'fixtures/pdf/continued.pdf')));
      const inNode = (await (nodeEngine as Engine).parse(bytes, options, { filename: 'continued.pdf' })).chunks ?? [];
      expect(inNode.length).toBeGreaterThan(2);
      expect(shown).toEqual(
        inNode.map((c) => ({ id: c.id, tokens: c.tokens, text: c.text, path: c.headings.join(' › ') })),
      );
      // The last table part is on page 2: clicking it opens page 2 with the part shaded.
      const last = inNode.filter((c) => c.type === 'table').at(-1);
      expect(last?.pages).toEqual([2]);
      await page.locator(`#chunk-list li[data-id="${last?.id}"]`).click();
      await expect.poll(() => page.locator('#page-select').inputValue()).toBe('2');
      await page.waitForFunction(
        (id) => (document.getElementById('page-canvas') as HTMLCanvasElement).dataset.highlight === id,
        last?.id,
      );
      const shaded = await page.waitForFunction(() => {
        const c = document.getElementById('page-canvas') as HTMLCanvasElement;
        if (!c.width) return 0;
        const d = (c.getContext('2d') as CanvasRenderingContext2D).getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        // The shade: yellow over white paper (red and green high, blue clearly lower).
        for (let i = 0; i < d.length; i += 4)
          if ((d[i] as number) > 230 && (d[i + 1] as number) > 220 && (d[i + 2] as number) < 200) n++;
        return n > 500 ? n : 0;
      });
      expect(await shaded.jsonValue()).toBeGreaterThan(500);
      expect(errors).toEqual([]);
      expect(requests.filter((u) => !u.startsWith(`${app?.origin}/`) && !/^(data|blob):/.test(u))).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('redacts with a NER model when the page is given its URL (?model=)', async () => {
    const { page, requests, errors } = await openPage(app as BuiltApp, 'index.html?model=./models/ner/');
    try {
      await expect.poll(() => page.locator('#pii-note').textContent()).toContain('./models/ner/');
      expect(await page.locator('#pii-mode option[value="aggressive"]').isDisabled()).toBe(false);
      await page.selectOption('#pii-mode', 'aggressive');
      const letter = readFileSync(join(projectRoot, 'fixtures/pii/letter.html'));
      await page.setInputFiles('#file-input', { name: 'letter.html', mimeType: 'text/html', buffer: letter });
      await page.waitForFunction(
        () => document.querySelector('#file-list li[data-name="letter.html"]')?.getAttribute('data-status') === 'done',
        undefined,
        { timeout: 300_000 },
      );
      await page.locator('#file-list li[data-name="letter.html"]').click();
      const shown = (await page.locator('#pane-raw').textContent()) ?? '';
      const engine = createPiiEngine({
        pii: { model: { model: TEST_MODEL, worker: false } },
      });
      try {
        const options = readOptions(
          { formats: ['markdown', 'html', 'links'], pdfMode: 'auto', piiMode: 'aggressive', piiStyle: 'tag' },
          true,
        );
        const inNode = await engine.parse(
          new Uint8Array(letter),
          { ...options, ...NO_DEADLINE },
          {
            filename: 'letter.html',
          },
        );
        expect(shown).toBe(inNode.markdown);
      } finally {
        await engine.close();
      }
      expect(shown).toContain('<PERSON> met <PERSON> in <LOCATION>');
      expect(shown).not.toContain('Lovelace');
      expect(errors).toEqual([]);
      const foreign = requests.filter((u) => !u.startsWith(`${app?.origin}/`) && !/^(data|blob):/.test(u));
      expect(foreign).toEqual([]);
      expect(requests).toContain(`${app?.origin}/models/ner/onnx/model.onnx`);
      expect(requests).toContain(`${app?.origin}/onnx/ort-wasm-simd-threaded.asyncify.wasm`);
    } finally {
      await page.close();
    }
  });
});
