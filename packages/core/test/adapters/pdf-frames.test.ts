import { describe, expect, it } from 'vitest';
import { corpusFile, corpusSkipReason, fixture, hasCorpus } from '../helpers/corpus.ts';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';

/** Cells of every Markdown table row (delimiter rows included), trimmed, bold marks left out (labels are bold). */
const tableRows = (md: string): string[][] =>
  md
    .split('\n')
    .filter((l) => l.startsWith('|') && l.endsWith('|'))
    .map((l) =>
      l
        .slice(1, -1)
        .split('|')
        .map((c) => c.trim().replace(/\*\*/g, '')),
    );

/** Rows whose non-empty cells all hold one and the same text: a merged cell copied across its span. */
const repeatedRows = (rows: string[][]): string[][] =>
  rows.filter((r) => {
    const filled = r.filter((c) => c && c !== '---');
    return filled.length >= 2 && new Set(filled).size === 1;
  });

/** Indices of the rows that occur more than once in a row: a merged cell copied down its span. */
const doubledRows = (rows: string[][]): number[] =>
  rows.flatMap((r, i) => (i > 0 && r.join('|') === rows[i - 1]?.join('|') && r.some(Boolean) ? [i] : []));

describe.each(pdfBackends)('pdf frames: a page border with section boxes is no table (%s)', (backend) => {
  const { parse } = engineFor(backend);

  it('reads a framed form as its key/value box, totals table and paragraph', async () => {
    const md = (await parse(fixture('pdf', 'framed.pdf'), {}, { filename: 'framed.pdf' })).markdown ?? '';
    const rows = tableRows(md);
    expect(rows).toContainEqual(['Insured name', 'Gabriel Diaz', 'Year', '2022']);
    expect(rows).toContainEqual(['Policy #', 'POL-2022-555', 'Model', 'Grand Cherokee']);
    expect(rows).toContainEqual(['Body Labor', '2', '150', '300']);
    // The title on its shaded band starts a section: the totals are a table of their own.
    expect(rows).toContainEqual(['', 'Hours', 'Rate', 'Cost']);
    expect(rows.some((r) => r.some((c) => c.includes('Estimate Totals')))).toBe(false);
    expect(repeatedRows(rows)).toEqual([]);
    expect(doubledRows(rows)).toEqual([]);
    // The letterhead and the note stay text outside every table.
    const prose = md.split('\n').filter((l) => !l.startsWith('|'));
    expect(prose).toContain('# ZAVA AUTO REPAIR');
    expect(prose.some((l) => l.startsWith('This is a preliminary estimate') && l.endsWith('price updates.'))).toBe(
      true,
    );
    expect(md.match(/Gabriel Diaz/g)).toHaveLength(1);
  });
});

describe.skipIf(!hasCorpus).each(pdfBackends)(
  `pdf frames on the markitdown corpus (%s)${hasCorpus ? '' : ` - ${corpusSkipReason}`}`,
  (backend) => {
    const { parse } = engineFor(backend);

    it('reads the repair estimate inside its page border as key/value and totals tables', async () => {
      const bytes = corpusFile('markitdown', 'REPAIR-2022-INV-001_multipage.pdf');
      const md = (await parse(bytes, {}, { filename: 'repair.pdf' })).markdown ?? '';
      const rows = tableRows(md);
      const has = (...cells: string[]) => rows.some((r) => cells.every((c) => r.includes(c)));
      expect(has('Insured name', 'Gabriel Diaz', 'Year', '2022')).toBe(true);
      expect(has('Insured name', 'Bruce Wayne', 'Year', '2025')).toBe(true);
      expect(has('Email', 'gabriel@contoso.com', 'VIN', '1C4RJFBG2NC123456')).toBe(true);
      expect(has('Repair Order #', 'RO-20221108', 'Estimator', 'Ellis Turner')).toBe(true);
      expect(has('Body Labor', '2', '150', '300')).toBe(true);
      expect(has('Sales Tax', '10.20%', '278.46')).toBe(true);
      expect(has('GRAND TOTAL', '5,738')).toBe(true);
      expect(has('Hours', 'Rate', 'Cost')).toBe(true);
      expect(rows.some((r) => r.some((c) => c.includes('Estimate Totals')))).toBe(false);
      expect(repeatedRows(rows)).toEqual([]);
      expect(doubledRows(rows)).toEqual([]);
      // The disclaimer is a paragraph (once per estimate page), never table content.
      expect(rows.some((r) => r.some((c) => c.includes('preliminary estimate for the visible damage')))).toBe(false);
      const disclaimers = md.split('\n').filter((l) => l.includes('This is a preliminary estimate for the visible'));
      expect(disclaimers.length).toBeGreaterThanOrEqual(2);
      expect(md.match(/Gabriel Diaz/g)).toHaveLength(1);
    });
  },
);
