import { describe, expect, it } from 'vitest';
import { DocmillError } from '../../src/errors.ts';
import { fixture } from '../helpers/corpus.ts';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';

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

  it('classifies pages for the OCR stage in auto mode only', async () => {
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
    expect(fast.pageInfo).toBeUndefined();
  });

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
