import { describe, expect, it } from 'vitest';
import { corpusFile, corpusSkipReason, fixture, hasCorpus } from '../helpers/corpus.ts';
import { pagesOf } from '../helpers/pages.ts';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';
import { pagesPdf } from '../helpers/pdf-build.ts';
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

/**
 * Pages whose running foot names the section each page is in, a number of one depth or another
 * ("4.1.2", "4.3"), beside a catalogue number and the manual's name that recur on every page.
 */
const sections = ['4.1.2', '4.1.2', '4.2', '4.3.1.5', '4.3.1.5', '4.4'];
/** The section number on the catalogue number's row: right of it on even pages, left on odd ones. */
const sectionFeet = (): Uint8Array =>
  pagesPdf(
    sections.map((section, k) => {
      const [cat, num] = k % 2 ? [460, 72] : [72, 500];
      return [
        `BT /F1 11 Tf 72 700 Td (Section ${section} explains step ${k + 1} of the procedure in full.) Tj ET`,
        `BT /F1 9 Tf ${cat} 40 Td (Cat. No. 28171E) Tj ET`,
        'BT /F1 9 Tf 260 40 Td (Internal Manual) Tj ET',
        `BT /F1 9 Tf ${num} 40 Td (${section}) Tj ET`,
      ].join('\n');
    }),
  );

describe.each(pdfBackends)('pdf running feet whose part changes from page to page (%s)', (backend) => {
  const { parse } = engineFor(backend);

  it('drops the section number beside a recurring running foot, whatever its depth', async () => {
    const md = (await parse(sectionFeet(), withPages, { filename: 'feet.pdf' })).markdown ?? '';
    for (const [k, section] of sections.entries())
      expect(md).toContain(`Section ${section} explains step ${k + 1} of the procedure in full.`);
    for (const section of new Set(sections))
      expect(md.split(section)).toHaveLength(sections.filter((s) => s === section).length + 1);
    expect(md).not.toContain('Internal Manual');
  });

  it('keeps slide titles set on the row of the company name that tops every slide', async () => {
    const titles = ['Quarterly results at a glance', 'Where the growth came from', 'What we plan for next year'];
    const slides = titles.map((title, k) =>
      [
        `BT /F1 26 Tf 40 490 Td (${title}) Tj ET`,
        'BT /F1 10 Tf 620 492 Td (ACME Corp) Tj ET',
        `BT /F1 16 Tf 40 400 Td (Point ${k + 1}: revenue rose in every region we serve.) Tj ET`,
      ].join('\n'),
    );
    const md = (await parse(pagesPdf(slides, 720, 540), withPages, { filename: 'slides.pdf' })).markdown ?? '';
    for (const t of titles) expect(md).toContain(t);
    expect(md).not.toContain('ACME Corp');
  });
});

describe.each(pdfBackends)('pdf running feet of one chapter (%s)', (backend) => {
  const { parse } = engineFor(backend);

  it('drops a chapter’s name set at one place in the foot of its odd pages, too few pages to recur', async () => {
    // 24 pages: a cover, then odd pages name their chapter beside the number (3 pages "Diagnosis", 8
    // "Treatment"), even pages the publisher; a note stands in the foot of two pages only.
    const pages = Array.from({ length: 24 }, (_, k) => {
      const n = k + 1;
      const foot =
        n === 1
          ? []
          : n % 2
            ? [
                `BT /F1 7 Tf 480 40 Td (${n <= 8 ? 'Diagnosis' : 'Treatment'}) Tj ET`,
                `BT /F1 8 Tf 540 40 Td (${n}) Tj ET`,
              ]
            : ['BT /F1 7 Tf 100 40 Td (Cancer Council) Tj ET', `BT /F1 8 Tf 60 40 Td (${n}) Tj ET`];
      const note = n === 5 || n === 12 ? ['BT /F1 7 Tf 250 52 Td (Continued overleaf) Tj ET'] : [];
      // Content in the bands: a heading on pages far apart, a table's header over three pages in a row.
      if (n === 2 || n === 6 || n === 10) note.push('BT /F1 16 Tf 72 740 Td (Overview) Tj ET');
      if (n >= 14 && n <= 16)
        note.push('BT /F1 9 Tf 72 70 Td (Country) Tj ET', 'BT /F1 9 Tf 300 70 Td (Population) Tj ET');
      return [
        `BT /F1 11 Tf 72 500 Td (Page ${n} tells part ${n} of the story in its own words.) Tj ET`,
        ...foot,
        ...note,
      ].join('\n');
    });
    const md = (await parse(pagesPdf(pages), withPages, { filename: 'chapters.pdf' })).markdown ?? '';
    for (let n = 1; n <= 24; n++) expect(md).toContain(`Page ${n} tells part ${n} of the story in its own words.`);
    expect(md).not.toContain('Diagnosis');
    expect(md).not.toContain('Treatment');
    expect(md).not.toContain('Cancer Council');
    expect(md.split('Continued overleaf')).toHaveLength(3);
    expect(md.split('Overview')).toHaveLength(4);
    expect(md.split('Population')).toHaveLength(4);
  });
});

describe.each(pdfBackends)('pdf body text just inside a band (%s)', (backend) => {
  const { parse } = engineFor(backend);

  it('keeps a paragraph’s first line that each page sets at one place inside the top band', async () => {
    // Each page opens its clause with the same line at the top band's edge (bookmark_sample): the
    // sentence goes on below the band, so it is text, not a running head.
    const clause = 'This clause is provided for demonstration purposes only and carries no legal';
    const pages = ['Definitions', 'Obligations', 'Termination'].map((part, k) =>
      [
        `BT /F1 9 Tf 72 752 Td (Sample Agreement, page ${k + 1}) Tj ET`,
        'BT /F1 9 Tf 72 740 Td (Prepared by the legal team for review) Tj ET',
        `BT /F2 15 Tf 72 720 Td (Part ${k + 1}: ${part}) Tj ET`,
        `BT /F1 10 Tf 72 702 Td (${clause}) Tj ET`,
        `BT /F1 10 Tf 72 688 Td (weight; it exists so that part ${k + 1} has text beneath its heading.) Tj ET`,
      ].join('\n'),
    );
    const md = (await parse(pagesPdf(pages), withPages, { filename: 'clauses.pdf' })).markdown ?? '';
    for (let n = 1; n <= 3; n++)
      expect(md).toContain(`${clause} weight; it exists so that part ${n} has text beneath its heading.`);
    // The running head's two lines go, though the second reads on into nothing below the band.
    expect(md).not.toContain('Sample Agreement');
    expect(md).not.toContain('Prepared by the legal team');
  });

  it('still drops running heads and feet set one pitch from the body', async () => {
    const words = 'the committee will review each of the proposals received from members and report';
    const line = (y: number, t: string) => `BT /F1 10 Tf 72 ${y} Td (${t}) Tj ET`;
    // Pages 2 and 3 open mid-sentence under a head as wide as their lines; page 1 with a capital.
    const head = 'Warehouse Inventory Review, Annual Report of the Board of Directors for the year';
    const opens = [`Under the new rules ${words}`, words, words];
    const pages = opens.map((open, k) =>
      [
        line(707, head),
        line(695, open),
        ...Array.from({ length: 50 }, (_, j) => line(683 - 12 * j, words)),
        // Feet one pitch under the body, inside the bottom band.
        line(83, 'Annual Report of the Board'),
        line(71, `page ${k + 1} of 3`),
      ].join('\n'),
    );
    const md = (await parse(pagesPdf(pages), withPages, { filename: 'board.pdf' })).markdown ?? '';
    expect(md).not.toContain('Warehouse Inventory Review');
    expect(md).not.toContain('Annual Report of the Board');
    expect(md).not.toMatch(/page \d of 3/);
    expect(md.split('Under the new rules')).toHaveLength(2);
  });
});

describe.skipIf(!hasCorpus)(`pdf title blocks in the corpus (${hasCorpus ? 'present' : corpusSkipReason})`, () => {
  const { parse } = engineFor('pdfium');

  it(
    'drops the chapter feet of failure-after-repair and redp5110, beside the page numbers of a run of pages',
    NO_DEADLINE,
    async () => {
      const fair = (await parse(corpusFile('pdfbench', 'unstructured_pdf_failure-after-repair.pdf'))).markdown ?? '';
      expect(fair).not.toMatch(/^Treatment$/m);
      expect(fair).not.toMatch(/^Living with breast cancer$/m);
      expect(fair).toContain('you may need to stop taking tamoxifen beforehand');
      const redp = (await parse(corpusFile('docling', 'pdf', 'sources', 'redp5110_sampled.pdf'))).markdown ?? '';
      expect(redp).not.toMatch(/^Chapter 3\. Row and Column Access Control$/m);
      // Its contents entry stays.
      expect(redp).toContain('| **Chapter 3. Row and Column Access Control** | 13 |');
    },
  );

  it('bookmark_sample keeps each page’s first clause line, just inside the top band', NO_DEADLINE, async () => {
    const md = (await parse(corpusFile('docling', 'pdf', 'bookmark_sample.pdf'))).markdown ?? '';
    expect(md.split('This clause is provided for demonstration purposes only')).toHaveLength(9);
    expect(md).not.toMatch(/^ists so the page/m);
    expect(md).not.toContain('Sample Agreement');
  });

  it('schools.pdf keeps its title block once, over the table of page 1', NO_DEADLINE, async () => {
    const md = (await parse(corpusFile('tables', 'pdfs', 'schools.pdf'), withPages, { filename: 'schools.pdf' }))
      .markdown;
    const first = (pagesOf(md ?? '')[0] as string).replace(/\s+/g, ' ');
    expect(first.indexOf('Vote Yes for Strong Schools Major Contribution Report')).toBe(0);
    expect(first).toContain('For the Period Between August 1, 2012 to October 18, 2012');
    expect(md?.split('Vote Yes for Strong Schools').length).toBe(2);
  });
});
