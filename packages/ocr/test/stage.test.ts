import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { createEngine, DocmillError, type Engine } from '@docmill/core';
import { createPooledEngine } from '@docmill/workers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture as fixtureParts } from '../../core/test/helpers/corpus.ts';
import { pagesPdf, textAt } from '../../core/test/helpers/pdf-build.ts';
import { NO_DEADLINE } from '../../core/test/helpers/timeouts.ts';
import { createOcrStage, OCR_STAGE_URL } from '../src/index.ts';
import { countingRenderer } from './counting.ts';

const run = promisify(execFile);
const tsxLoader = pathToFileURL(fileURLToPath(import.meta.resolve('tsx'))).href;
const fixture = (rel: string): Uint8Array => fixtureParts(...rel.split('/'));

// OCR costs seconds per page: one engine (one worker, models loaded once) for the whole file.
let engine: Engine;
const renderer = countingRenderer();
beforeAll(() => {
  engine = createEngine({ stages: [createOcrStage({ workers: 1, openRenderer: renderer.open })] });
});
afterAll(async () => {
  await engine.close();
});

// Generous deadlines: the machine running the suite may be busy, and a page is seconds of CPU.
const image = { parsers: ['image' as const], ...NO_DEADLINE };
const pdf = (mode: 'fast' | 'auto') => ({ parsers: [{ type: 'pdf' as const, mode }], ...NO_DEADLINE });

describe('OCR stage', () => {
  it('reads every page of a multi-page TIFF into page sections with confidence', async () => {
    const r = await engine.parse(
      fixture('image/pages.tif'),
      { ...image, formats: ['markdown'] },
      { filename: 'pages.tif' },
    );
    expect(r.metadata.numPages).toBe(2);
    expect(r.metadata.ocrPages).toBe(2);
    // Without a pdf parser the PDF mode is fast, which concerns PDFs only: images are always read.
    expect(r.warning ?? '').not.toMatch(/look scanned/);
    expect(r.markdown).toMatch(/^# Docmill Fixture/);
    expect(r.markdown).toContain(
      'The quick brown fox jumps over the lazy dog and keeps running until the end of the paragraph.',
    );
    // The borderless table is rebuilt from word alignment; the ruled one once its rules are gone.
    expect(r.markdown).toContain('| Bolts | B-12 | 400 | $0.10 |');
    expect(r.markdown).toContain('| North | 120 | 135 |');
    expect(r.markdown).toContain('End of the stock report.');
    const tree = await engine.parseTree(fixture('image/pages.tif'), image, { filename: 'pages.tif' });
    const pages = tree.tree.children;
    expect(pages.map((p) => (p.type === 'section' ? p.number : 0))).toEqual([1, 2]);
    const first = pages[0]?.type === 'section' ? pages[0].children[0] : undefined;
    expect(first?.data?.ocr).toBe(true);
    expect(first?.data?.ocrConfidence).toBeGreaterThan(0.6);
    expect(first?.data?.ocrConfidence).toBeLessThanOrEqual(1);
    expect(first?.source?.bbox?.length).toBe(4);
  });

  it('turns a page scanned sideways upright before reading it', async () => {
    const r = await engine.parse(fixture('image/rotated.png'), image, { filename: 'rotated.png' });
    expect(r.markdown).toContain('Stock tables');
    expect(r.markdown).toContain('| South | 98 | 101 |');
    expect(r.markdown).toContain('The counts below were taken by hand.');
  });

  it("a scanned ruled table becomes a Markdown table whose rows come from the scan's rulings", async () => {
    // Wrapped description cells: word alignment alone cannot tell a cell's second line from a row.
    const r = await engine.parse(fixture('image/ruled.png'), image, { filename: 'ruled.png' });
    expect(r.markdown).toContain(
      [
        '| Part | Description | Price |',
        '| --- | --- | --- |',
        '| A-100 | Steel hinge, zinc plated | $4.20 |',
        '| B-220 | Brass latch with two keys | $7.95 |',
        '| C-310 | Rubber seal | $0.80 |',
        '| D-415 | Oak shelf bracket, pair, screws included | $12.50 |',
      ].join('\n'),
    );
    expect(r.markdown).toContain('Prices include tax and are valid until the end of the year.');
    expect(r.markdown).not.toContain('|\n\npair');
  });

  it('reads a page scanned 2° askew: its rulings are found and its rows levelled', async () => {
    // Across the borderless table the baseline falls by ~11 points: its last cell joined the next
    // line. The ruled table's rules step a row every 30 pixels: they were read as letters.
    const r = await engine.parse(fixture('image/skewed.png'), image, { filename: 'skewed.png' });
    expect(r.markdown).toContain(
      [
        '| Region | Sales | Sales |',
        '| --- | --- | --- |',
        '|  | Q1 | Q2 |',
        '| North | 120 | 135 |',
        '| South | 98 | 101 |',
      ].join('\n'),
    );
    expect(r.markdown).toContain(
      [
        '| Item | Code | Qty | Price |',
        '| --- | --- | --- | --- |',
        '| Bolts | B-12 | 400 | $0.10 |',
        '| Nuts | N-07 | 250 | $0.05 |',
        '| Washers | W-33 | 900 | $0.02 |',
      ].join('\n'),
    );
    expect(r.markdown).toContain('The counts below were taken by hand.');
    expect(r.markdown).toContain('End of the stock report.');
  });

  it('auto mode OCRs exactly the scanned page of a PDF and keeps the text page as it is', async () => {
    const before = renderer.count();
    const r = await engine.parse(fixture('pdf/scanned.pdf'), pdf('auto'));
    expect(renderer.count() - before).toBe(1);
    expect(r.metadata.ocrPages).toBe(1);
    expect(r.markdown).toContain('| Washers | W-33 | 900 | $0.02 |');
    expect(r.markdown).toContain('This second page has a real text layer.');
    expect(r.warning).toBeNull();
  });

  it('keeps the values of a form read by OCR beside their labels: a scan filled in, askew, turned, printed', async () => {
    // A scanned form whose fields were filled in over the scan (auto mode reads the scan), the same
    // scanned askew (its words levelled, the fields with them), a form whose labels are text (ocr
    // mode reads every page), shown a quarter turned, and with a value printed in its field too
    // (read once): no render shows a field's value.
    for (const [file, mode] of [
      ['pdf/scanned-form.pdf', 'auto'],
      ['pdf/scanned-form-askew.pdf', 'auto'],
      ['pdf-patterns/form-fields.pdf', 'ocr'],
      ['pdf/turned-form.pdf', 'ocr'],
      ['pdf/printed-form.pdf', 'ocr'],
    ] as const) {
      const before = renderer.count();
      const r = await engine.parse(fixture(file), { parsers: [{ type: 'pdf', mode }], ...NO_DEADLINE });
      expect(renderer.count() - before, file).toBe(1);
      const md = r.markdown ?? '';
      const lineOf = (label: string) => md.split('\n').find((l) => l.includes(label)) ?? '';
      // The labels come from the page's pixels, the values from its fields, a row each.
      expect(lineOf('Name:'), file).toMatch(/Name:.*Jane Fairweather/);
      expect(lineOf('City:'), file).toMatch(/City:.*Leeds/);
      expect(lineOf('Colour:'), file).toMatch(/Colour:.*Blue/);
      expect(lineOf('Member:'), file).toMatch(/Member:.*☒.*Newsletter:.*☐/);
      expect(lineOf('Plan:'), file).toMatch(/Plan:.*☐.*Monthly.*☒.*Annual/);
      expect(lineOf('Comments:'), file).toMatch(/Comments:.*Arrives late\..*Needs parking\./);
      // The title a heading though the form's labels and values stand in a table (no face to tell it).
      expect(md, file).toMatch(/^# Membership Application$/m);
      // Each value in the cell beside its label, once.
      expect(md, file).toContain('| Name: | Jane Fairweather |');
      expect(md, file).toContain('| Plan: | ☐ Monthly | ☒ Annual |');
      expect(md, file).not.toContain('Jane Fairweather Jane');
      // What no viewer shows stays out: the password, the hidden note.
      expect(lineOf('Password:'), file).toMatch(/Password:$/);
      expect(md, file).not.toContain('hunter2');
      expect(md, file).not.toContain('Hidden reviewer note');
    }
  });

  it('a page that fails to render fails the parse only after the pages being read have ended', async () => {
    // Page 2's render fails at once while page 1 is still being read: without waiting for page 1 the
    // stage would end first and its progress would arrive after the request had failed.
    const failing = async (bytes: Uint8Array) => {
      const r = await renderer.open(bytes);
      return {
        ...r,
        render: (n: number, dpi: number) => (n === 2 ? Promise.reject(new Error('render failed')) : r.render(n, dpi)),
      };
    };
    const own = createEngine({ stages: [createOcrStage({ workers: 1, openRenderer: failing })] });
    try {
      const events: string[] = [];
      const err = await own
        .parse(
          fixture('pdf/scanned.pdf'),
          { ...pdf('auto'), parsers: [{ type: 'pdf', mode: 'ocr' }] },
          { onProgress: (p) => events.push(`${p.stage} ${p.done}/${p.total}`) },
        )
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DocmillError);
      const atFailure = [...events];
      expect(atFailure).toContain('ocr 1/2');
      await new Promise((r) => setTimeout(r, 200));
      expect(events).toEqual(atFailure);
    } finally {
      await own.close();
    }
  });

  it('fast mode never OCRs: the scanned page stays named in warning', async () => {
    const before = renderer.count();
    const r = await engine.parse(fixture('pdf/scanned.pdf'), pdf('fast'));
    expect(renderer.count()).toBe(before);
    expect(r.metadata.ocrPages).toBeUndefined();
    expect(r.markdown).not.toContain('Washers');
    expect(r.markdown).toContain('This second page has a real text layer.');
    expect(r.warning).toMatch(/^Page\(s\) 1 look scanned .*fast mode does not OCR/);
  });

  it('a text PDF in auto mode runs no OCR', async () => {
    const before = renderer.count();
    const r = await engine.parse(fixture('pdf/basic.pdf'), pdf('auto'));
    expect(renderer.count()).toBe(before);
    expect(r.metadata.ocrPages).toBe(0);
    expect(r.markdown).toContain('# Docmill Fixture');
  });

  it('refuses images without the image parser, and undecodable images with 400', async () => {
    const noParser = await engine.parse(fixture('image/basic.png'), {}, { filename: 'basic.png' }).catch((e) => e);
    expect(noParser).toBeInstanceOf(DocmillError);
    expect((noParser as DocmillError).status).toBe(400);
    const broken = fixture('image/basic.png').slice(0, 200);
    const bad = await engine.parse(broken, image, { filename: 'broken.png' }).catch((e) => e);
    expect((bad as DocmillError).status).toBe(400);
    expect((bad as DocmillError).message).toMatch(/PNG/);
  });

  it('writes nothing to disk while parsing (no model cache, no temp files)', async () => {
    // Its own process with an empty working directory and TMPDIR, so files other tests write
    // meanwhile cannot be mistaken for ours (tsx's transpile cache is turned off there).
    const dir = mkdtempSync(join(tmpdir(), 'docmill-ocr-disk-'));
    const cwd = join(dir, 'cwd');
    const tmp = join(dir, 'tmp');
    mkdirSync(cwd);
    mkdirSync(tmp);
    try {
      const script = fileURLToPath(new URL('./tasks/parse-once.ts', import.meta.url));
      const png = fileURLToPath(new URL('../../../fixtures/image/basic.png', import.meta.url));
      const { stdout } = await run(process.execPath, ['--import', tsxLoader, script, png], {
        cwd,
        env: { ...process.env, TMPDIR: tmp, TSX_DISABLE_CACHE: '1' },
      });
      expect(stdout).toContain('quick brown fox');
      expect(readdirSync(cwd)).toEqual([]);
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('in-thread OCR prints nothing and lets its process exit once the engine is closed', async () => {
    // rotated.png declares no resolution, which tesseract reports on its thread's stdout unless told
    // otherwise; with workers: 0 that is the caller's stdout. Its threads must end with the stage.
    const script = fileURLToPath(new URL('./tasks/parse-once.ts', import.meta.url));
    const png = fileURLToPath(new URL('../../../fixtures/image/rotated.png', import.meta.url));
    const { stdout, stderr } = await run(process.execPath, ['--import', tsxLoader, script, png, '0'], {
      timeout: 300_000,
    });
    expect(stdout.startsWith('# Stock tables\n')).toBe(true);
    expect(stdout).not.toMatch(/resolution|Warning/i);
    expect(stderr).toBe('');
  });

  it('a timeout ends the OCR in its worker; the next request succeeds', async () => {
    const own = createEngine({ stages: [createOcrStage({ workers: 1 })] });
    // Thirty pages to OCR: seconds of work on any machine, where the two pages of pages.tif took
    // under the second's timeout on an idle one with the models warm (the request then succeeded).
    const lines = (k: number) =>
      Array.from({ length: 12 }, (_, r) =>
        textAt(72, 720 - r * 24, `Page ${k} line ${r}: the quick brown fox jumps`, 14),
      ).join('\n');
    const long = pagesPdf(Array.from({ length: 30 }, (_, k) => lines(k)));
    try {
      const t0 = Date.now();
      const err = await own
        .parse(long, { parsers: [{ type: 'pdf', mode: 'ocr' }], timeout: 1000 }, { filename: 'long.pdf' })
        .catch((e) => e);
      expect((err as DocmillError).status).toBe(408);
      expect((err as DocmillError).code).toBe('SCRAPE_TIMEOUT');
      expect(Date.now() - t0).toBeLessThan(15_000);
      const next = await own.parse(fixture('image/basic.png'), image, { filename: 'basic.png' });
      expect(next.markdown).toContain('quick brown fox');
    } finally {
      await own.close();
    }
  });

  it("a pooled engine reads one scan's pages on every idle worker, with the same result", async () => {
    const pooled = createPooledEngine({ workers: 2, stages: [{ url: OCR_STAGE_URL }] });
    try {
      const done: number[] = [];
      const r = await pooled.parse(fixture('image/pages.tif'), image, {
        filename: 'pages.tif',
        onProgress: (p) => {
          if (p.stage === 'ocr') done.push(p.done);
        },
      });
      // One request and two workers started: the second read page 2, lent by the first.
      expect(pooled.pool.stats().started).toBe(2);
      expect(r.metadata.ocrPages).toBe(2);
      expect(done.sort()).toEqual([1, 2]);
      const here = await engine.parse(fixture('image/pages.tif'), image, { filename: 'pages.tif' });
      expect(r.markdown).toBe(here.markdown);
      expect(r.markdown).toContain('| Bolts | B-12 | 400 | $0.10 |');
    } finally {
      await pooled.close();
    }
  });

  it("lends a page only when the stage's own workers are all reading", async () => {
    /** pages.tif through a stage with `workers` of its own, every page offered refused and recorded. */
    const offeredWith = async (workers: number) => {
      const own = createEngine({ stages: [createOcrStage({ workers })] });
      try {
        const offered: string[] = [];
        const offload = async (task: string) => {
          offered.push(task);
          return null;
        };
        const r = await own.parse(fixture('image/pages.tif'), image, { filename: 'pages.tif', offload });
        return { r, offered };
      } finally {
        await own.close();
      }
    };
    // Two workers of its own: both pages of pages.tif are read there, none is offered elsewhere.
    const own = await offeredWith(2);
    expect(own.r.metadata.ocrPages).toBe(2);
    expect(own.offered).toEqual([]);
    // Reading in-thread (as in a pooled engine's worker), the second page is offered.
    const inThread = await offeredWith(0);
    expect(inThread.r.markdown).toContain('| Bolts | B-12 | 400 | $0.10 |');
    expect(inThread.offered).toHaveLength(1);
  });

  it('reads a lent page itself when the worker it went to fails it', async () => {
    // As when an app's worker entry does not carry the OCR task: the lent page comes back failed.
    let lent = 0;
    const offload = async () => {
      lent++;
      return { result: Promise.reject(new Error('Failed to load docmill:ocr')) };
    };
    const r = await engine.parse(fixture('image/pages.tif'), image, { filename: 'pages.tif', offload });
    const here = await engine.parse(fixture('image/pages.tif'), image, { filename: 'pages.tif' });
    expect(lent).toBe(1);
    expect(r.metadata.ocrPages).toBe(2);
    expect(r.markdown).toBe(here.markdown);
  });
});
