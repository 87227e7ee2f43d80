import { describe, expect, it } from 'vitest';
import type { Table } from '../../src/tree/types.ts';
import { selectAll } from '../../src/tree/walk.ts';
import { corpusFile, corpusSkipReason, fixture, hasCorpus } from '../helpers/corpus.ts';
import { tablesOf } from '../helpers/metrics.ts';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';

const fast = { parsers: [{ type: 'pdf' as const, mode: 'fast' as const }] };

describe.each(pdfBackends)('pdf tables (fixtures/pdf/tables.pdf, %s)', (backend) => {
  const { parse, parseTree } = engineFor(backend);
  const bytes = fixture('pdf', 'tables.pdf');

  it('renders a ruled table with a spanning header and a borderless table exactly', async () => {
    const { markdown } = await parse(bytes, {}, { filename: 'tables.pdf' });
    expect(markdown).toBe(
      [
        '# Stock tables',
        '',
        '| Region | Sales | Sales |',
        '| --- | --- | --- |',
        '|  | Q1 | Q2 |',
        '| North | 120 | 135 |',
        '| South | 98 | 101 |',
        '',
        'The counts below were taken by hand.',
        '',
        '| Item | Code | Qty | Price |',
        '| --- | --- | --- | --- |',
        '| Bolts | B-12 | 400 | $0.10 |',
        '| Nuts | N-07 | 250 | $0.05 |',
        '| Washers | W-33 | 900 | $0.02 |',
        '',
        'End of the stock report.',
        '',
      ].join('\n'),
    );
  });

  it('reads the grid in fast mode: ruled with spans from PDFium, from text alone with pdf.js', async () => {
    const { markdown } = await parse(bytes, fast, { filename: 'tables.pdf' });
    // PDFium's page objects are cheap, so fast mode keeps rulings; pdf.js's operator lists are not.
    const header = backend === 'pdfium' ? '| Region | Sales | Sales |' : '| Region | Sales |  |';
    expect(markdown).toContain(`${header}\n| --- | --- | --- |\n|  | Q1 | Q2 |\n| North | 120 | 135 |`);
    expect(markdown).toContain('| Washers | W-33 | 900 | $0.02 |');
  });

  it('keeps the merge in the tree as a colSpan, with page and box', async () => {
    const { tree } = await parseTree(bytes, {}, { filename: 'tables.pdf' });
    const [ruled, borderless] = selectAll(tree, 'table') as Table[];
    const header = ruled?.children[0]?.children ?? [];
    expect(header.map((c) => [c.colSpan ?? 1, c.header ?? false])).toEqual([
      [1, true],
      [2, true],
    ]);
    expect(ruled?.source?.page).toBe(1);
    const [x0, y0, x1, y1] = ruled?.source?.bbox ?? [];
    expect([x0, x1]).toEqual([72, 392]);
    expect((y0 as number) < (y1 as number)).toBe(true);
    expect(borderless?.children).toHaveLength(4);
  });
});

describe.each(pdfBackends)('pdf tables across a page break (fixtures/pdf/continued.pdf, %s)', (backend) => {
  const { parse } = engineFor(backend);
  it('joins a table whose header repeats at the top of the next page', async () => {
    const { markdown } = await parse(fixture('pdf', 'continued.pdf'), fast, { filename: 'continued.pdf' });
    const tables = tablesOf(markdown ?? '');
    expect(tables).toHaveLength(1);
    expect(tables[0]?.map((r) => r[0])).toEqual(['part', 'gear', 'shaft', 'pulley', 'spring', 'valve']);
    expect(markdown).toContain('| Pulley | P-2 | Hull | 31 |\n| Spring | S-9 | Bath | 58 |');
    expect(markdown?.trimEnd().endsWith('Counted twice.')).toBe(true);
  });
});

describe.skipIf(!hasCorpus).each(pdfBackends)(
  `pdf tables on the corpus (${hasCorpus ? 'present' : corpusSkipReason}, %s)`,
  (backend) => {
    const { parse } = engineFor(backend);
    it('reads the sparse borderless invoice table cell by cell, empty cells kept in place', async () => {
      const file = corpusFile('markitdown', 'SPARSE-2024-INV-1234_borderless_table.pdf');
      const { markdown } = await parse(file, {}, { filename: 'sparse.pdf' });
      // The header fields above the table stay one per paragraph.
      expect(markdown).toContain('**Report ID:** SPARSE-2024-INV-1234\n\n**Warehouse:** Distribution Center East');
      const [sparse, review] = tablesOf(markdown ?? '');
      expect(sparse?.[0]).toEqual(['product code', 'location', 'expected', 'actual', 'variance', 'status']);
      expect(sparse?.[1]).toEqual(['sku-8847', 'a-12', '450', '', '', '']);
      expect(sparse?.[2]).toEqual(['', 'b-07', '', '289', '-23', '']);
      expect(sparse?.[6]).toEqual(['', '', '180', '', '-24', '']);
      expect(sparse).toHaveLength(9);
      // The second page's table is ruled.
      expect(review?.[0]).toEqual(['product code', 'category', 'unit cost', 'total value', 'last audit', 'notes']);
      expect(review?.[7]).toEqual(['sku-6678', 'software', '$200.00', '$42,000.00', '2024-10-25', 'high value']);
      expect(review).toHaveLength(11);
    });

    it('reads ruled tables with row and column spans (docling 2305.03393v1-pg9)', async () => {
      const file = corpusFile('docling', 'pdf', 'sources', '2305.03393v1-pg9.pdf');
      const { markdown } = await parse(file, {}, { filename: 'pg9.pdf' });
      const [t] = tablesOf(markdown ?? '');
      expect(t?.[0]?.slice(2, 6)).toEqual(['language', 'teds', 'teds', 'teds']);
      expect(t?.[1]?.slice(0, 6)).toEqual(['enc-layers', 'dec-layers', 'language', 'simple', 'complex', 'all']);
      expect(t?.[2]).toEqual([
        '6',
        '6',
        'otsl html',
        '0.965 0.969',
        '0.934 0.927',
        '0.955 0.955',
        '0.88 0.857',
        '2.73 5.39',
      ]);
    });

    it('leaves the prose of a two-column paper out of tables but finds its booktabs tables', async () => {
      const { markdown } = await parse(corpusFile('pdfbench', 'unstructured_pdf_multi-column.pdf'), fast, {
        filename: 'multi-column.pdf',
      });
      const tables = tablesOf(markdown ?? '');
      for (const t of tables) for (const row of t) for (const c of row) expect(c.split(' ').length).toBeLessThan(12);
      expect(tables.some((t) => t.some((r) => r[0] === 'none' && r[1] === 'bm25' && r[2] === '59.1'))).toBe(true);
    });
  },
);
