import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, parse } from '../../src/index.ts';
import { CHROMIUM, type CoreHarness, chromiumSkipReason, startCoreHarness } from '../helpers/browser.ts';
import { corpusRoot, corpusSkipReason, hasCorpus, projectRoot } from '../helpers/corpus.ts';
import { pdfOf } from '../helpers/pdf-build.ts';

/**
 * Core bundled for browsers (esbuild, ESM with code splitting) and run in Debian's Chromium gives
 * byte-identical Markdown to Node for every format family, loads only what a format needs, and
 * reaches no Node built-in.
 */

if (!CHROMIUM) console.warn(chromiumSkipReason);

/** One fixture per format family (two where a family has distinct paths, e.g. PDF tables). */
const FIXTURES = [
  'docx/basic.docx',
  'pdf/basic.pdf',
  'pdf/tables.pdf',
  'pdf/running.pdf',
  'sheet/basic.xlsx',
  'csv/comma.csv',
  'csv/sjis.csv',
  'html/rich.html',
  'html/malformed-table.html',
  'html/svg-style-headings.html',
  'pptx/basic.pptx',
  'odt/basic.odt',
  'odp/basic.odp',
  'epub/basic.epub',
  'rtf/basic.rtf',
  'doc/basic.doc',
  'ppt/basic.ppt',
  'archive/project.tar.gz',
  'archive/prices.csv.gz',
].map((p) => join(projectRoot, 'fixtures', p));

/** A few real documents per family from the shared corpus (skipped when it is absent). */
const CORPUS = [
  'docling/pdf/sources/code_and_formula.pdf',
  'docling/pdf/sources/right_to_left_02.pdf',
  'pdfbench/docling_pdf_sources_multi_page.pdf',
  'docling/docx/sources/unit_test_headers.docx',
  'docling/xlsx/sources/xlsx_05_table_with_title.xlsx',
  'docling/xls/sources/legacy_sample.xls',
  'docling/pptx/sources/powerpoint_bad_text.pptx',
  'docling/odf/sources/text_document_01.odt',
  'docling/odf/sources/odf_table_with_title_01.ods',
  'docling/epub/sources/epub_purvis_poetry.epub',
  'docling/doc/sources/legacy_sample.doc',
  'docling/ppt/sources/legacy_sample.ppt',
  'docling/html/sources/example_03.html',
  'docling/csv/sources/csv-comma-in-cell.csv',
].map((p) => join(corpusRoot, p));

let harness: CoreHarness | undefined;

beforeAll(async () => {
  if (!CHROMIUM) return;
  harness = await startCoreHarness('docmill-browser-conf-', HARNESS);
});

afterAll(() => harness?.close());

const HARNESS = `
window.parseAll = async (list) => {
  const core = await import('./core.js');
  const out = {};
  for (const f of list) {
    const bytes = Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0));
    try {
      out[f.name] = (await core.parse(bytes, {}, { filename: f.name })).markdown ?? '';
    } catch (e) {
      out[f.name] = 'ERROR ' + e.message;
    }
  }
  return out;
};
window.parsePdfjs = async (b64, mode = 'auto') => {
  const core = await import('./core.js');
  const engine = core.createEngine({ pdf: { backend: 'pdfjs' } });
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  try {
    const r = await engine.parse(bytes, { parsers: [{ type: 'pdf', mode }] }, { filename: 'doc.pdf' });
    return { markdown: r.markdown };
  } finally {
    await engine.close();
  }
};
`;

const openPage = () => (harness as CoreHarness).openPage('parseAll');

/** Parses each file in the page; returns the Markdown (or the error) per file name. */
async function parseInBrowser(page: Page, paths: string[]): Promise<Record<string, string>> {
  const files = paths.map((p) => ({ name: basename(p), b64: readFileSync(p).toString('base64') }));
  type Run = { parseAll(list: typeof files): Promise<Record<string, string>> };
  return page.evaluate((list) => (window as unknown as Run).parseAll(list), files);
}

async function expectSameAsNode(paths: string[]): Promise<void> {
  const { page } = await openPage();
  try {
    const inBrowser = await parseInBrowser(page, paths);
    for (const p of paths) {
      const inNode = (await parse(new Uint8Array(readFileSync(p)), {}, { filename: basename(p) })).markdown;
      expect(inNode?.length, `${basename(p)} is empty in Node`).toBeGreaterThan(0);
      expect(inBrowser[basename(p)], basename(p)).toBe(inNode);
    }
  } finally {
    await page.close();
  }
}

const chunksWith = (test: RegExp) => (harness as CoreHarness).outputsWith(test);

describe.skipIf(!CHROMIUM)(`core in Chromium${CHROMIUM ? '' : ` (${chromiumSkipReason})`}`, () => {
  it('bundles with no Node built-in reachable from the browser entry', () => {
    const inputs = Object.keys((harness as CoreHarness).meta.inputs);
    expect(inputs.filter((i) => i.startsWith('node:') || /^(fs|path|os|module|crypto|zlib)$/.test(i))).toEqual([]);
    // The only Node-only module in core is the host helper, which the entry never imports.
    expect(inputs.some((i) => i.endsWith('platform/node.ts'))).toBe(false);
    expect(inputs.some((i) => i.includes('@embedpdf/pdfium/dist/index.browser.js'))).toBe(true);
    // Zip entries inflate with fflate in browsers (zlib in Node, imported only there).
    expect(inputs.some((i) => i.includes('node_modules/fflate/esm/browser.js'))).toBe(true);
  });

  it('gives the Markdown Node gives, for every fixture format family', async () => {
    await expectSameAsNode(FIXTURES);
  });

  it.skipIf(!hasCorpus)(
    `gives the Markdown Node gives on corpus files${hasCorpus ? '' : ` (${corpusSkipReason})`}`,
    { timeout: 120_000 },
    async () => {
      await expectSameAsNode(CORPUS.filter(existsSync));
    },
  );

  it('runs the pdf.js backend with its worker code from the bundle, on the page thread', async () => {
    const { page, requests } = await openPage();
    try {
      const file = join(projectRoot, 'fixtures/pdf/tables.pdf');
      type Run = { parsePdfjs(b64: string): Promise<{ markdown: string }> };
      const b64 = readFileSync(file).toString('base64');
      const got = await page.evaluate((data) => (window as unknown as Run).parsePdfjs(data), b64);
      const engine = createEngine({ pdf: { backend: 'pdfjs' } });
      const inNode = await engine.parse(new Uint8Array(readFileSync(file)), {}, { filename: 'doc.pdf' });
      await engine.close();
      expect(got.markdown).toContain('| Bolts | B-12 | 400 | $0.10 |');
      expect(got.markdown).toBe(inNode.markdown);
      const fetched = new Set(requests.map((u) => basename(new URL(u).pathname)));
      // pdf.js's worker code came as a chunk of this bundle; PDFium was never asked for.
      const workerChunks = chunksWith(/pdfjs-dist\/legacy\/build\/pdf\.worker\.mjs/);
      expect(workerChunks.length).toBeGreaterThan(0);
      for (const c of workerChunks) expect(fetched.has(c), c).toBe(true);
      expect(fetched.has('pdfium.wasm')).toBe(false);
      expect(requests.every((u) => u.startsWith(`${harness?.origin}/`))).toBe(true);
    } finally {
      await page.close();
    }
  });

  it("reads bold and italic on pdf.js in fast mode from the bundle's patched worker code", async () => {
    const { page } = await openPage();
    try {
      // Fast mode names fonts from the text content alone: the bundled worker must be the patched one.
      const ops =
        'BT /F2 10 Tf 72 700 Td (Note to reader) Tj /F1 10 Tf ( Always ask for ) Tj /F3 10 Tf (Living Well) Tj ET';
      const font = (name: string) => `<< /Type /Font /Subtype /Type1 /BaseFont /${name} /Encoding /WinAnsiEncoding >>`;
      const bytes = pdfOf([
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R /F2 5 0 R /F3 6 0 R >> >> /Contents 7 0 R >>',
        font('Helvetica'),
        font('Helvetica-Bold'),
        font('Times-Italic'),
        `<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`,
      ]);
      type Run = { parsePdfjs(b64: string, mode: string): Promise<{ markdown: string }> };
      const b64 = Buffer.from(bytes).toString('base64');
      const got = await page.evaluate((data) => (window as unknown as Run).parsePdfjs(data, 'fast'), b64);
      expect(got.markdown).toBe('**Note to reader** Always ask for *Living Well*\n');
    } finally {
      await page.close();
    }
  });

  it('loads heavy parts lazily: a CSV fetches neither PDFium nor other adapters', async () => {
    const { page, requests } = await openPage();
    try {
      const out = await parseInBrowser(page, [join(projectRoot, 'fixtures/csv/comma.csv')]);
      expect(out['comma.csv']).toContain('|');
      const fetched = new Set(requests.map((u) => basename(new URL(u).pathname)));
      const pdfChunks = chunksWith(/adapters\/pdf\/backend\/|@embedpdf|pdfjs-dist/);
      const otherHeavy = chunksWith(/@e965\/xlsx|fflate|linkedom|parse5|compromise|libphonenumber-js/);
      expect(pdfChunks.length).toBeGreaterThan(0);
      // The PII detectors come only with a request that sets redactPII.
      expect(chunksWith(/libphonenumber-js/).length).toBeGreaterThan(0);
      for (const c of [...pdfChunks, ...otherHeavy, 'pdfium.wasm']) expect(fetched.has(c), c).toBe(false);
      // A PDF in the same page then does fetch the wasm, from our own origin.
      const before = requests.length;
      const pdf = await parseInBrowser(page, [join(projectRoot, 'fixtures/pdf/basic.pdf')]);
      expect(pdf['basic.pdf']).not.toMatch(/^ERROR/);
      const later = requests.slice(before);
      expect(later.some((u) => u === `${harness?.origin}/pdfium.wasm`)).toBe(true);
      expect(requests.every((u) => u.startsWith(`${harness?.origin}/`))).toBe(true);
    } finally {
      await page.close();
    }
  });
});
