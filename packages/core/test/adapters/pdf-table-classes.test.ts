import { describe, expect, it } from 'vitest';
import { corpusFile, corpusSkipReason, corpusText, fixture, hasCorpus } from '../helpers/corpus.ts';
import { cellKey, tablesOf } from '../helpers/metrics.ts';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';

/**
 * The classes of PDF table failure in issue 29, each on a fixture made for it (both backends) and on
 * the file of `../shared/corpus/tables` where it was seen (expected cells from tabula-java's tests).
 */
const withPages = { parsers: [{ type: 'pdf' as const, pageMarkers: true }] };

/** The Markdown of each page (split at the page markers). */
const pagesOf = (md: string): string[] => md.split(/\n---\n\n<!-- page \d+ -->\n\n/);

describe.each(pdfBackends)('pdf table classes on fixtures (%s)', (backend) => {
  const { parse } = engineFor(backend);

  it('reads landscape pages in their upright frame: /Rotate 90 or 270, or text drawn sideways', async () => {
    const md = (await parse(fixture('pdf-patterns', 'landscape.pdf'), withPages, { filename: 'landscape.pdf' }))
      .markdown;
    const pages = pagesOf(md ?? '');
    expect(pages).toHaveLength(4);
    for (const [i, month] of ['May', 'June', 'July', 'August'].entries()) {
      expect(pages[i]?.trim()).toBe(
        [
          `# Contracts awarded in ${month}`,
          '',
          '| No. | Contract | Supplier | Amount |',
          '| --- | --- | --- | --- |',
          '| 11 | Colour printers and scanners | Microsys Company Limited | 45,262.32 |',
          '| 12 | Road safety books | Elkhart Enterprise | 11,700.00 |',
          '| 13 | Safety books for junior high schools | Printpack Limited | 9,400.00 |',
          '',
          'All contracts were completed on time.',
        ].join('\n'),
      );
    }
  });
});

interface Case {
  id: string;
  pdf: string;
  page: number;
  expected: string[][];
}
/** Cells compared as the table metrics do, blanks left by dropped symbols ("Black &White") collapsed. */
const key = (s: string): string => cellKey(s).replace(/\s+/g, ' ');
const tablesIn = (md: string): string[][][] => tablesOf(md).map((t) => t.map((r) => r.map(key)));
const manifest = (): Case[] => (JSON.parse(corpusText('tables', 'manifest.json')) as { cases: Case[] }).cases;
const expectedOf = (id: string): string[][] => {
  const c = manifest().find((x) => x.id === id);
  if (!c) throw new Error(`no case ${id} in the tables manifest`);
  return c.expected.map((r) => r.map(key));
};

describe.skipIf(!hasCorpus)(
  `pdf table classes on ../shared/corpus/tables (${hasCorpus ? 'present' : corpusSkipReason})`,
  () => {
    const { parse } = engineFor('pdfium');
    const read = async (name: string) =>
      (await parse(corpusFile('tables', 'pdfs', name), {}, { filename: name })).markdown ?? '';

    it('reads the /Rotate 90 award list top-down, each row and each cell in order', async () => {
      const tables = tablesIn(await read('Publication_of_award_of_Bids_for_Transport_Sector__August_2016.pdf'));
      const expected = expectedOf('tabula/award_of_bids_transport');
      // The table goes on over the next pages (their repeated header dropped): its first rows are page 1's.
      expect(tables[0]?.slice(0, expected.length)).toEqual(expected);
    });
  },
);
