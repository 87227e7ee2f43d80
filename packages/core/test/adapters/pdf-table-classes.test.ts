import { describe, expect, it } from 'vitest';
import { fixture } from '../helpers/corpus.ts';
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
