import { describe, expect, it } from 'vitest';
import { corpusFile, corpusSkipReason, fixture, hasCorpus } from '../helpers/corpus.ts';
import { pagesOf } from '../helpers/pages.ts';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';
import { NO_DEADLINE } from '../helpers/timeouts.ts';

const withPages = { parsers: [{ type: 'pdf' as const, pageMarkers: true }] };
const title = [
  'Vote Yes for Clean Rivers',
  'Major Contribution Report',
  'For the Period Between August 1 and October 18, 2024',
];

describe.each(pdfBackends)('pdf running heads that are the title block (%s)', (backend) => {
  const { parse } = engineFor(backend);

  it('keeps a centred title block repeated over every page once, on page 1; page numbers go', async () => {
    const md = (await parse(fixture('pdf-patterns', 'title-block.pdf'), withPages, { filename: 'title.pdf' })).markdown;
    const pages = pagesOf(md ?? '');
    expect(pages).toHaveLength(3);
    const first = (pages[0] as string).replace(/\s+/g, ' ');
    for (const t of title) {
      expect(first).toContain(t);
      expect(first.indexOf(t)).toBeLessThan(first.indexOf('Donor 10'));
      expect(md?.split(t).length).toBe(2);
    }
    for (const [i, p] of pages.entries()) {
      expect(p).toContain(`Donor ${(i + 1) * 10 + 3}`);
      expect(p).not.toMatch(/^\d$/m);
    }
  });

  it('drops a centred two-line running head that first appears under a title page, on every page', async () => {
    const md = (await parse(fixture('pdf-patterns', 'late-head.pdf'), withPages, { filename: 'late.pdf' })).markdown;
    expect(md).toContain('Annual Report 2024');
    expect(md).not.toContain('Acme Corporation');
    expect(md).not.toContain('Internal Distribution Only');
    for (const n of [2, 3, 4, 5]) expect(md).toContain(`Part ${n} describes the work of plant number ${n}`);
  });

  it('drops a two-line running head set flush left on every page, the first too', async () => {
    const md = (await parse(fixture('pdf-patterns', 'paired-head.pdf'), withPages, { filename: 'paired.pdf' }))
      .markdown;
    expect(md).not.toContain('Contract number');
    expect(md).not.toContain('Final Report');
    for (const n of [1, 2, 3]) expect(md).toContain(`Section ${n} describes the works`);
  });
});

describe.each(pdfBackends)('pdf running heads over pages of one body (%s)', (backend) => {
  const { parse } = engineFor(backend);

  it('keeps the top line of a page printed twice on both pages', async () => {
    const md = (await parse(fixture('pdf-patterns', 'duplicate-page.pdf'), withPages, { filename: 'memo.pdf' }))
      .markdown;
    const pages = pagesOf(md ?? '');
    expect(pages).toHaveLength(2);
    for (const p of pages) {
      expect(p).toContain('May 5, 2023');
      expect(p.indexOf('May 5, 2023')).toBeLessThan(p.indexOf('To Whom it May Concern'));
      expect(p).toContain('Mallori');
    }
  });

  it('drops the page numbers of a page printed three times, its text kept on each', async () => {
    const md = (await parse(fixture('pdf-patterns', 'printed-thrice.pdf'), withPages, { filename: 'memo.pdf' }))
      .markdown;
    const pages = pagesOf(md ?? '');
    expect(pages).toHaveLength(3);
    for (const p of pages) {
      expect(p).toContain('May 5, 2023');
      expect(p).toContain('Mallori');
      expect(p).not.toMatch(/Page \d of 3/);
    }
  });

  it('drops a journal line topping both pages of a two-page paper', async () => {
    const md = (await parse(fixture('pdf-patterns', 'journal-head.pdf'), withPages, { filename: 'paper.pdf' }))
      .markdown;
    expect(md).not.toContain('Journal of Applied Rivers');
    for (const n of [1, 2]) expect(md).toContain(`Part ${n} of the paper measures`);
  });
});

describe.skipIf(!hasCorpus)(`pdf title blocks in the corpus (${hasCorpus ? 'present' : corpusSkipReason})`, () => {
  const { parse } = engineFor('pdfium');

  it('schools.pdf keeps its title block once, over the table of page 1', NO_DEADLINE, async () => {
    const md = (await parse(corpusFile('tables', 'pdfs', 'schools.pdf'), withPages, { filename: 'schools.pdf' }))
      .markdown;
    const first = (pagesOf(md ?? '')[0] as string).replace(/\s+/g, ' ');
    expect(first.indexOf('Vote Yes for Strong Schools Major Contribution Report')).toBe(0);
    expect(first).toContain('For the Period Between August 1, 2012 to October 18, 2012');
    expect(md?.split('Vote Yes for Strong Schools').length).toBe(2);
  });
});
