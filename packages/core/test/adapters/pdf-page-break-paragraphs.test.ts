import { describe, expect, it } from 'vitest';
import { joinContinuedParagraphs } from '../../src/adapters/pdf/continued.ts';
import { buildLines, type Line } from '../../src/adapters/pdf/lines.ts';
import { createEngine } from '../../src/index.ts';
import { paragraph, section } from '../../src/tree/build.ts';
import type { BBox, Block } from '../../src/tree/types.ts';
import { corpusFile, hasCorpus } from '../helpers/corpus.ts';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';
import { pagesPdf, textAt } from '../helpers/pdf-build.ts';
import { textRun } from '../helpers/text-items.ts';

/** Lines of 10 pt Helvetica (or its bold, `F2`) at 14 pt pitch from PDF height `top` down. */
const lines = (texts: readonly string[], top: number, font = 'F1'): string =>
  texts.map((t, k) => textAt(72, top - k * 14, t, 10, font)).join('\n');

const opening = [
  'The inventory reconciliation reveals several key findings for the quarter.',
  'The primary variance driver is one item, which shows a discrepancy that',
  'requires immediate investigation. Location B-07 also shows a variance.',
  'Cross-location verification protocols of the warehouse team should be',
];
const goingOn = [
  'reviewed to prevent future discrepancies. The overall accuracy rate meets',
  'our target threshold, but critical items require expedited resolution.',
];
const closing = ['A second paragraph on the later page starts a new topic of its own.'];

/** Page 1 ends with `last` in the page's lower half (or upper, `high`); page 2 opens with `next`. */
function twoPages(last: readonly string[], next: readonly string[], high = false, nextFont = 'F1'): Uint8Array {
  return pagesPdf([
    lines(last, high ? 700 : 200),
    [lines(next, 740, nextFont), lines(closing, 740 - next.length * 14 - 24)].join('\n'),
  ]);
}

const joined = `${opening.join(' ')} ${goingOn.join(' ')}`;

describe.each(pdfBackends)('PDF paragraphs a page break cuts mid-sentence (%s)', (backend) => {
  const { parse } = engineFor(backend);
  const paragraphs = async (pdf: Uint8Array, extra = {}) =>
    ((await parse(pdf, extra, { filename: 'cut.pdf' })).markdown ?? '').trim().split('\n\n');

  it('joins the paragraph the page break cut, the next page’s own paragraph apart', async () => {
    expect(await paragraphs(twoPages(opening, goingOn))).toEqual([joined, closing[0]]);
  });

  it('keeps paragraphs apart where the page ends a sentence, ends high, or the next page opens with a capital', async () => {
    const apart = (first: readonly string[], next: readonly string[]) => [first.join(' '), next.join(' '), closing[0]];
    const ended = [...opening.slice(0, -1), 'Cross-location verification protocols of the warehouse are sound.'];
    expect(await paragraphs(twoPages(ended, goingOn))).toEqual(apart(ended, goingOn));
    expect(await paragraphs(twoPages(opening, goingOn, true))).toEqual(apart(opening, goingOn));
    const capital = ['Reviews prevent future discrepancies.', ...goingOn.slice(1)];
    expect(await paragraphs(twoPages(opening, capital))).toEqual(apart(opening, capital));
  });

  it('keeps a lone label and a bold term under it apart', async () => {
    const label = pagesPdf([
      [lines(opening.slice(0, -1), 200), lines(['Glossary'], 120)].join('\n'),
      [lines(goingOn, 740), lines(closing, 690)].join('\n'),
    ]);
    expect(await paragraphs(label)).toHaveLength(4);
    // The term in bold: a change of style where the sentence would go on.
    const term = pagesPdf([
      lines(opening, 200),
      [lines(['areola'], 740, 'F2'), lines(['the brownish skin around the nipple.'], 726), lines(closing, 690)].join(
        '\n',
      ),
    ]);
    const md = await paragraphs(term);
    expect(md[0]).toBe(opening.join(' '));
  });

  it('keeps apart a verse’s short line, and small print at the foot or head of the page', async () => {
    const verse = [...opening.slice(0, -1), 'protocols should be'];
    expect(await paragraphs(twoPages(verse, goingOn))).toEqual([verse.join(' '), goingOn.join(' '), closing[0]]);
    // A footnote in 7 pt under the body, its link no sentence's end.
    const footnote = pagesPdf([
      [lines(opening, 200), textAt(72, 60, '1 Survey data are available from the archive at example.org/data', 7)].join(
        '\n',
      ),
      [lines(goingOn, 740), lines(closing, 690)].join('\n'),
    ]);
    const md = (await paragraphs(footnote)).join('\n\n');
    expect(md).not.toContain('example.org/data reviewed');
    expect(md).toContain('example.org/data');
    // A one-off line in small print opening the next page, in lower case.
    const head = pagesPdf([
      lines(opening, 200),
      [textAt(72, 760, 'acme corp quarterly inventory report', 7), lines(goingOn, 740), lines(closing, 690)].join('\n'),
    ]);
    expect((await paragraphs(head))[0]).toBe(opening.join(' '));
  });

  it('joins a word a hyphen breaks over the page as its lines join: whole where the document writes it so', async () => {
    const broken = [
      ...opening.slice(0, -1),
      'Cross-location verification protocols of the warehouse need more informa-',
    ];
    const rest = [
      'tion to prevent future discrepancies, and a check that is high-',
      'dimensional in its own way; critical items require expedited resolution.',
    ];
    const md = await paragraphs(
      pagesPdf([
        lines(broken, 200),
        [lines(rest, 740), lines(['The information kept is high-dimensional, by design.'], 690)].join('\n'),
      ]),
    );
    expect(md[0]).toContain(
      'protocols of the warehouse need more information to prevent future discrepancies, and a check that is high-dimensional in its own way;',
    );
  });

  it('joins a paragraph that fills a page with the pages before and after it', async () => {
    // Page 2 is one paragraph, top to foot, from lower case to no stop.
    const middle = Array.from(
      { length: 45 },
      (_, k) => `and line ${k + 1} of the middle page runs on at the full width of it`,
    );
    const pdf = pagesPdf([
      lines(opening, 200),
      lines(middle, 740),
      [lines(goingOn, 740), lines(closing, 690)].join('\n'),
    ]);
    const md = await paragraphs(pdf);
    expect(md).toEqual([`${opening.join(' ')} ${middle.join(' ')} ${goingOn.join(' ')}`, closing[0]]);
    const data = await parse(pdf, { formats: ['markdown'], parsers: [{ type: 'pdf', blocks: true }] });
    const [p1, p2, p3] = data.blocks ?? [];
    expect(p2?.items).toEqual([]);
    expect(p2?.status).toBe('ok');
    const item = p1?.items[0];
    expect(item?.continued?.map((c) => c.pageNumber)).toEqual([2, 3]);
    expect(item?.content.slice(item.continued?.[0]?.offset).startsWith(middle[0] as string)).toBe(true);
    expect(item?.content.slice(item.continued?.[1]?.offset).startsWith(goingOn[0] as string)).toBe(true);
    expect(p3?.items.map((i) => i.content)).toEqual([closing[0]]);
  });

  it('joins in auto mode too, where every page has its text layer', async () => {
    const md = await paragraphs(twoPages(opening, goingOn), { parsers: [{ type: 'pdf', mode: 'auto' }] });
    expect(md).toEqual([joined, closing[0]]);
  });

  it('keeps text where it was printed when per-page output is asked', async () => {
    const md = (await parse(twoPages(opening, goingOn), { parsers: [{ type: 'pdf', pageMarkers: true }] })).markdown;
    expect(md).toContain(`${opening.at(-1)}\n\n---\n\n<!-- page 2 -->\n\n${goingOn[0]}`);
    const pages = (await parse(twoPages(opening, goingOn), { parsers: [{ type: 'pdf', pages: true }] })).pages ?? [];
    expect(pages[1]?.markdown?.trim().startsWith(goingOn[0] as string)).toBe(true);
  });
});

describe('joining paragraphs over pages a later stage reads again', () => {
  // Each page's paragraph is one line of 12 pt runs (6 pt a letter), its box the line's.
  const lastLine = opening.at(-1) as string;
  const firstLine = goingOn[0] as string;
  const pages = (): { tree: Block[]; lines: Line[][] } => {
    const at = (page: number, text: string, bbox: BBox) => ({ ...paragraph(text), source: { page, bbox } });
    return {
      tree: [
        section('page', 1, [at(1, opening.join(' '), [72, 600, 72 + lastLine.length * 6, 700])], {
          width: 612,
          height: 792,
        }),
        section('page', 2, [at(2, goingOn.join(' '), [72, 40, 72 + firstLine.length * 6, 80])], {
          width: 612,
          height: 792,
        }),
      ],
      lines: [buildLines([textRun(lastLine, 72, 688)]), buildLines([textRun(firstLine, 72, 50)])],
    };
  };
  const counts = (tree: Block[]) => tree.map((s) => (s.type === 'section' ? s.children.length : 0));

  it('leaves a page OCR replaces as it is: the part moved off it would be read twice, or lost', () => {
    for (const unsettled of [0, 1]) {
      const { tree, lines } = pages();
      joinContinuedParagraphs(
        tree,
        lines.map((l, k) => ({ lines: l, settled: k !== unsettled })),
        undefined,
      );
      expect(counts(tree)).toEqual([1, 1]);
    }
    const { tree, lines } = pages();
    joinContinuedParagraphs(
      tree,
      lines.map((l) => ({ lines: l, settled: true })),
      undefined,
    );
    expect(counts(tree)).toEqual([1, 0]);
  });
});

describe('provenance of a paragraph continued on the next page', () => {
  const engine = createEngine();

  it('gives its block the later page’s part and each chunk the pages of its own text', async () => {
    const data = await engine.parse(
      twoPages(opening, goingOn),
      { formats: ['markdown', { type: 'chunks', maxTokens: 24 }], parsers: [{ type: 'pdf', blocks: true }] },
      { filename: 'cut.pdf' },
    );
    const [page1, page2] = data.blocks ?? [];
    const item = page1?.items.at(-1);
    expect(item?.content).toBe(joined);
    expect(page2?.items.map((i) => i.content)).toEqual([closing[0]]);
    const part = item?.continued?.[0];
    expect(part).toMatchObject({ pageNumber: 2, line: 0 });
    expect(item?.content.slice(part?.offset)).toBe(goingOn.join(' '));
    expect(part?.bbox?.[1]).toBeLessThan(100);
    const chunks = data.chunks ?? [];
    const pagesOf = (s: string) => chunks.find((c) => c.text.includes(s))?.pages;
    expect(pagesOf('key findings')).toEqual([1]);
    expect(pagesOf('expedited resolution')).toEqual([2]);
    expect(chunks.some((c) => c.pages?.join() === '1,2')).toBe(true);
    expect(chunks.find((c) => c.pages?.join() === '1,2')?.bbox?.map((b) => b.page)).toEqual([1, 2]);
  });

  it('places the later page’s part inside a word set in bold that the page break cut at a hyphen', async () => {
    const pdf = pagesPdf([
      [
        lines(opening.slice(0, -1), 200),
        'BT /F1 10 Tf 72 158 Td (Cross-location verification protocols of the warehouse need more ) Tj /F2 10 Tf (informa-) Tj ET',
      ].join('\n'),
      [
        'BT /F2 10 Tf 72 740 Td (tion) Tj /F1 10 Tf ( to prevent future discrepancies. The overall accuracy rate meets) Tj ET',
        lines(['The information it keeps is read again each quarter.'], 700),
      ].join('\n'),
    ]);
    const data = await engine.parse(
      pdf,
      { formats: ['markdown'], parsers: [{ type: 'pdf', blocks: true }] },
      { filename: 'b.pdf' },
    );
    const item = data.blocks?.[0]?.items.at(-1);
    expect(item?.content).toContain('need more **information** to prevent future discrepancies.');
    const part = item?.continued?.[0];
    expect(part?.pageNumber).toBe(2);
    expect(item?.content.slice(part?.offset)).toMatch(/^tion\*\* to prevent/);
  });

  it('keeps the later page’s part where redaction rewrites the run it starts with', async () => {
    const mailed = ['reviewed by audit@example.com to prevent future discrepancies.', ...goingOn.slice(1)];
    const data = await engine.parse(
      twoPages(opening, mailed),
      { formats: ['markdown'], parsers: [{ type: 'pdf', blocks: true }], redactPII: { mode: 'fast' } },
      { filename: 'cut.pdf' },
    );
    const item = data.blocks?.[0]?.items.at(-1);
    expect(item?.content).toContain('should be reviewed by <EMAIL> to prevent');
    const part = item?.continued?.[0];
    expect(part?.pageNumber).toBe(2);
    expect(item?.content.slice(part?.offset)).toMatch(/^reviewed by <EMAIL> to prevent/);
  });
});

describe.skipIf(!hasCorpus)('corpus paragraphs cut by a page break', () => {
  const { parse } = engineFor('pdfium');
  const md = async (...path: string[]) => (await parse(corpusFile(...path), {}, { filename: 'c.pdf' })).markdown ?? '';

  it('joins failure-after-repair’s, the DPR paper’s and the inventory report’s sentences over pages', async () => {
    const leaflet = await md('pdfbench', 'unstructured_pdf_failure-after-repair.pdf');
    expect(leaflet).toContain('you may need to stop taking tamoxifen beforehand to lower the risk of blood clots.');
    expect(leaflet).toContain('they may come and go. Some people experience pain or fever');
    expect(leaflet).toContain('\nGlossary\n\n**locally advanced breast cancer**');
    const dpr = await md('pdfbench', 'unstructured_pdf_multi-column.pdf');
    expect(dpr).toContain('like TF-IDF or BM25 have been used as the standard method');
    const report = await md('markitdown', 'SPARSE-2024-INV-1234_borderless_table.pdf');
    expect(report).toContain('verification protocols should be reviewed to prevent future discrepancies.');
  });
});
