import { describe, expect, it } from 'vitest';
import { corpusFile, corpusSkipReason, fixture, hasCorpus } from '../helpers/corpus.ts';
import { pagesOf } from '../helpers/pages.ts';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';
import { NO_DEADLINE } from '../helpers/timeouts.ts';

describe.each(pdfBackends)('pdf text boxes: FreeText annotations are page text (%s)', (backend) => {
  const { parse } = engineFor(backend);

  it.each(['fast', 'auto'] as const)('reads each box where it stands, none hidden, no heading (%s)', async (mode) => {
    const options = { parsers: [{ type: 'pdf' as const, mode, pageMarkers: true }] };
    const md = (await parse(fixture('pdf-patterns', 'text-boxes.pdf'), options, { filename: 'boxes.pdf' })).markdown;
    const pages = pagesOf(md ?? '');
    expect(pages[0]).toBe(
      '# Visitor Form\n\nName of the visitor:\n\nJane Fairweather\n\nPlease hand this form in at the desk.',
    );
    expect(pages[1]).toBe('This page is intentionally left blank');
    expect(md).not.toContain('Hidden reviewer remark');
  });

  it('counts a page whose only words are a text box as a page without a text layer (for OCR)', async () => {
    const { createEngine } = await import('../../src/index.ts');
    const options = { parsers: [{ type: 'pdf' as const, mode: 'auto' as const }] };
    const r = await createEngine({ pdf: { backend } }).parseTree(fixture('pdf-patterns', 'text-boxes.pdf'), options, {
      filename: 'boxes.pdf',
    });
    expect(r.output.pageInfo?.[1]?.text).toBe('text');
    expect(r.output.pageInfo?.[2]?.text).toBe('none');
  });
});

describe.skipIf(!hasCorpus)(`pdf text boxes in the corpus (${hasCorpus ? 'present' : corpusSkipReason})`, () => {
  it.each(pdfBackends)('layout-parser-paper-with-empty-pages reads its page 3 note (%s)', NO_DEADLINE, async (b) => {
    const name = 'unstructured_pdf_layout-parser-paper-with-empty-pages.pdf';
    const options = { parsers: [{ type: 'pdf' as const, mode: 'fast' as const, pageMarkers: true }] };
    const md = (await engineFor(b).parse(corpusFile('pdfbench', name), options, { filename: name })).markdown;
    expect(pagesOf(md ?? '')[2]).toBe('This page is intentionally left blank');
  });
});
