import { openPdf } from '@docmill/core';
import { processPdf } from '@firecrawl/pdf-inspector';
import { PDFParse } from 'pdf-parse';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { extractText } from 'unpdf';
import { type BenchInput, copy, readCorpus, type Suite } from '../harness.ts';
import { chromiumTool, hasChromium } from './browser.ts';
import { docmillTool } from './docmill.ts';

/** The floor: pdf.js text extraction alone, page by page, with no structure. */
async function bareTextContent(input: BenchInput): Promise<number> {
  const doc = await getDocument({
    data: copy(input.bytes),
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
  }).promise;
  let chars = 0;
  try {
    for (let p = 1; p <= doc.numPages; p++) {
      const page = await doc.getPage(p);
      const tc = await page.getTextContent();
      for (const it of tc.items) if ('str' in it) chars += it.str.length;
      page.cleanup();
    }
  } finally {
    await doc.destroy();
  }
  return chars;
}

/** PDFium's floor: docmill's PDFium backend reading every page's text runs, with no layout. */
async function pdfiumRuns(input: BenchInput): Promise<number> {
  const src = await openPdf(input.bytes, { backend: 'pdfium' });
  let chars = 0;
  try {
    for (let n = 1; n <= src.pageCount; n++) {
      const page = await src.page(n);
      for (const it of page.items) chars += it.str.length;
      page.close();
    }
  } finally {
    await src.close();
  }
  return chars;
}

export async function pageCount(bytes: Uint8Array): Promise<number> {
  try {
    const doc = await getDocument({ data: copy(bytes), isEvalSupported: false }).promise;
    const n = doc.numPages;
    await doc.destroy();
    return n;
  } catch {
    return 0;
  }
}

export const pdfSuite: Suite = {
  name: 'pdf',
  title: 'PDF → text/Markdown, pages/s (pdfbench)',
  unit: 'pages',
  baseline: 'pdf.js getTextContent',
  iterations: 2,
  rssInput: 'pdfbench/unstructured_pdf_DA-619p.pdf',
  async inputs() {
    const files = readCorpus('pdfbench', ['.pdf']);
    const out: BenchInput[] = [];
    for (const f of files) {
      const units = await pageCount(f.bytes);
      // Files pdf.js cannot open (password, broken) count no pages but are still fed to every tool.
      out.push({ ...f, units });
    }
    return out;
  },
  async tools() {
    return [
      { name: 'pdf.js getTextContent', ours: false, run: bareTextContent },
      { name: 'PDFium text runs', ours: false, run: pdfiumRuns },
      docmillTool('docmill fast', { parsers: [{ type: 'pdf', mode: 'fast' }] }),
      docmillTool('docmill auto', { parsers: [{ type: 'pdf', mode: 'auto' }] }),
      // The same engine in Chromium (core bundled for browsers), timed in this run beside Node's.
      ...(hasChromium
        ? [
            chromiumTool('docmill fast (Chromium)', 'pdfbench', { parsers: [{ type: 'pdf', mode: 'fast' }] }),
            chromiumTool('docmill auto (Chromium)', 'pdfbench', { parsers: [{ type: 'pdf', mode: 'auto' }] }),
          ]
        : []),
      docmillTool('docmill fast (pdf.js)', { parsers: [{ type: 'pdf', mode: 'fast' }] }, { pdf: { backend: 'pdfjs' } }),
      // The hosted API's own parser (Rust, NAPI): detection, text and Markdown in one call.
      { name: 'pdf-inspector', ours: false, run: async (i) => processPdf(Buffer.from(i.bytes)) },
      { name: 'unpdf', ours: false, run: async (i) => extractText(copy(i.bytes), { mergePages: true }) },
      {
        name: 'pdf-parse',
        ours: false,
        run: async (i) => {
          // pdf.js in Node runs its worker code from `globalThis.pdfjsWorker` when that is set, and
          // unpdf's bundled pdf.js sets it to another version; pdf-parse must load its own.
          const g = globalThis as { pdfjsWorker?: unknown };
          const other = g.pdfjsWorker;
          delete g.pdfjsWorker;
          const parser = new PDFParse({ data: copy(i.bytes) });
          try {
            return await parser.getText();
          } finally {
            await parser.destroy();
            if (other !== undefined) g.pdfjsWorker = other;
          }
        },
      },
    ];
  },
};
