import { describe, expect, it } from 'vitest';
import { DocmillError } from '../../src/errors.ts';
import { fixture } from '../helpers/corpus.ts';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';
import { pdfOf } from '../helpers/pdf-build.ts';

const pdfOpts = (extra: Record<string, unknown> = {}) => ({
  parsers: [{ type: 'pdf' as const, mode: 'fast' as const, ...extra }],
});

describe.each(pdfBackends)('pdf adapter: generated fixtures (%s)', (backend) => {
  const { parse } = engineFor(backend);

  it('renders heading, de-hyphenated paragraph and bullet list exactly', async () => {
    const r = await parse(fixture('pdf', 'basic.pdf'), pdfOpts(), { filename: 'basic.pdf' });
    expect(r.markdown).toBe(
      [
        '# Docmill Fixture',
        '',
        'The quick brown fox jumps over the lazy dog and keeps running until the end of the paragraph.',
        '',
        '- First item',
        '- Second item',
        '- Third item',
        '',
        'Closing words.',
        '',
      ].join('\n'),
    );
    expect(r.metadata.title).toBe('Basic Fixture');
    expect(r.metadata.numPages).toBe(1);
    expect(r.metadata.totalPages).toBe(1);
  });

  it('drops the running header and page numbers of every page', async () => {
    const r = await parse(fixture('pdf', 'running.pdf'), pdfOpts(), { filename: 'running.pdf' });
    expect(r.markdown).not.toContain('ACME Quarterly Report');
    expect(r.markdown).toContain('Body text of page 2 talks about topic number 2.');
    expect(r.markdown).not.toMatch(/^\d$/m);
  });

  it('joins pages with markers when pageMarkers is set', async () => {
    const r = await parse(fixture('pdf', 'running.pdf'), pdfOpts({ pageMarkers: true }), { filename: 'running.pdf' });
    const md = r.markdown ?? '';
    expect(md).toContain('\n\n---\n\n<!-- page 2 -->\n\nBody text of page 2');
    expect(md).toContain('\n\n---\n\n<!-- page 3 -->\n\nBody text of page 3');
    expect(md).not.toContain('<!-- page 1 -->');
  });

  it('returns per-page Markdown and layout blocks with boxes', async () => {
    const r = await parse(fixture('pdf', 'basic.pdf'), pdfOpts({ pages: true, blocks: true }), {
      filename: 'basic.pdf',
    });
    expect(r.pages).toEqual([{ pageNumber: 1, markdown: expect.stringContaining('# Docmill Fixture') }]);
    const page = r.blocks?.[0];
    expect(page).toMatchObject({ pageNumber: 1, width: 612, height: 792, status: 'ok' });
    const labels = page?.items.map((i) => i.label);
    expect(labels).toEqual(['title', 'text', 'list', 'text']);
    const title = page?.items[0];
    expect(title?.content).toBe('# Docmill Fixture');
    const [x0, y0, x1, y1] = title?.bbox ?? [0, 0, 0, 0];
    // Top-left origin: the heading sits near the top (PDF y 740 → about 52 from the top).
    expect(x0).toBeCloseTo(72, 0);
    expect(y0).toBeGreaterThan(30);
    expect(y1).toBeLessThan(60);
    expect(x1).toBeGreaterThan(x0);
  });

  it('stops at maxPages with a warning and reports the true page count', async () => {
    const r = await parse(fixture('pdf', 'running.pdf'), pdfOpts({ maxPages: 2 }), { filename: 'running.pdf' });
    expect(r.metadata.numPages).toBe(2);
    expect(r.metadata.totalPages).toBe(3);
    expect(r.warning).toMatch(/first 2 of 3/);
    expect(r.markdown).not.toContain('page 3');
  });

  it('classifies pages for the OCR stage; fast mode measures images only on pages without usable text', async () => {
    const { createEngine } = await import('../../src/index.ts');
    expect(typeof createEngine).toBe('function');
    const { adapter } = await import('../../src/adapters/pdf/index.ts');
    const ctx = (mode: 'fast' | 'auto') =>
      ({
        kind: 'pdf',
        options: { pdf: { mode, pages: false, blocks: false, pageMarkers: false } },
        limits: {},
        signal: new AbortController().signal,
        warn: () => undefined,
        pdf: { backend },
      }) as never;
    const auto = await adapter.parse(fixture('pdf', 'basic.pdf'), ctx('auto'));
    expect(auto.pageInfo?.[1]).toEqual({ text: 'text', imageCoverage: 0 });
    const fast = await adapter.parse(fixture('pdf', 'basic.pdf'), ctx('fast'));
    expect(fast.pageInfo?.[1]).toEqual({ text: 'text', imageCoverage: 0 });
    // A blank page has no text: fast mode measures its images so a scan there could be named.
    const blank = await adapter.parse(fixture('pdf', 'blank.pdf'), ctx('fast'));
    expect(blank.pageInfo?.[1]?.text).toBe('none');
  });

  it('stops loading once a page tree claiming far more pages than the file holds runs out', async () => {
    // basic.pdf with its page tree's /Count raised from 1 to 1000, spaces dropped to keep every
    // offset: each missing page was loaded in turn and kept as an empty page (a /Count of a million
    // ran until the timeout).
    const bytes = Buffer.from(fixture('pdf', 'basic.pdf'));
    const tree = bytes.indexOf('/Kids [6 0 R] /Count 1 >>');
    expect(tree).toBeGreaterThan(0);
    bytes.write('/Kids[6 0 R]/Count 1000>>', tree, 'latin1');
    const r = await parse(bytes, pdfOpts({ pages: true }), { filename: 'claims.pdf' });
    expect(r.markdown).toContain('- Third item\n\nClosing words.');
    expect(r.pages?.map((p) => p.pageNumber)).toEqual([1]);
    expect([r.metadata.numPages, r.metadata.totalPages]).toEqual([1, 1]);
    // pdf.js counts the pages its tree really holds; PDFium takes /Count at its word.
    expect(r.warning).toBe(
      backend === 'pdfium'
        ? 'The PDF claims 1000 pages, but none from page 2 on could be read; they were skipped.'
        : null,
    );
  });

  // pdf.js stops walking such a tree at the first missing entry (two pages, before and after the
  // run guard alike); PDFium loads each entry in turn.
  it.runIf(backend === 'pdfium')(
    'reads the pages after a long run of damaged ones when the last page loads',
    async () => {
      // Page 1, then 300 page-tree entries pointing at an object the file does not hold, then page 302:
      // a tree damaged in the middle, not one claiming more pages than it has.
      const r = await parse(gapPdf(300), pdfOpts(), { filename: 'gap.pdf' });
      expect(r.markdown).toBe('First page text\n\nLast page text\n');
      expect(r.metadata.numPages).toBe(302);
      expect(r.warning).toBe('300 damaged PDF page(s) could not be read and were left empty.');
    },
  );

  it('rejects truncated and non-PDF bytes with a 400', async () => {
    const bytes = fixture('pdf', 'basic.pdf');
    const broken = [bytes.slice(0, 40), new TextEncoder().encode('%PDF-1.4\nthis is not a pdf at all\n%%EOF')];
    for (const b of broken) {
      const err = await parse(b, pdfOpts(), { filename: 'broken.pdf' }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(DocmillError);
      expect((err as DocmillError).status).toBe(400);
    }
  });

  it('honours an aborted signal between pages', async () => {
    const { adapter } = await import('../../src/adapters/pdf/index.ts');
    const ac = new AbortController();
    ac.abort(new DocmillError(408, 'SCRAPE_TIMEOUT', 'too slow'));
    const ctx = {
      kind: 'pdf',
      options: { pdf: { mode: 'fast', pages: false, blocks: false, pageMarkers: false } },
      limits: {},
      signal: ac.signal,
      warn: () => undefined,
      pdf: { backend },
    } as never;
    await expect(adapter.parse(fixture('pdf', 'running.pdf'), ctx)).rejects.toMatchObject({ status: 408 });
  });
});

/** A two-page PDF with `bad` page-tree entries between its pages that point at a missing object. */
function gapPdf(bad: number): Uint8Array {
  const content = (words: string) => {
    const ops = `BT /F1 12 Tf 20 100 Td (${words}) Tj ET`;
    return `<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`;
  };
  const page = (contents: number) =>
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contents} 0 R >>`;
  const kids = ['4 0 R', ...Array.from({ length: bad }, () => '99 0 R'), '6 0 R'];
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${kids.length} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    page(5),
    content('First page text'),
    page(7),
    content('Last page text'),
  ];
  return pdfOf(objects);
}
