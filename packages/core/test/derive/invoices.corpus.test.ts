import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/index.ts';
import { corpusRoot, corpusSkipReason, hasCorpus } from '../helpers/corpus.ts';
import { markdownToHtml } from '../helpers/markdown-html.ts';

/**
 * Offline schema-guided extraction on the invoices and receipts of the markitdown corpus, each with
 * a schema of 5–8 fields (totals, dates, ids, line items). Every field counts once; an array counts
 * as correct when all its rows match. Run twice: through the PDF adapter as it is, and through the
 * same documents laid out one line per paragraph (the corpus's text rendering turned into HTML), so
 * the figure does not hinge on one PDF backend's way of assembling text.
 */

const obj = (properties: Record<string, unknown>) => ({ type: 'object', properties });
const str = { type: 'string' };
const num = { type: 'number' };
const date = { type: 'string', format: 'date' };

interface Case {
  file: string;
  schema: Record<string, unknown>;
  expected: Record<string, unknown>;
}

const receiptItems = [
  ['AUDIO-5521', 1, 349.99, 299.99],
  ['ACC-8834', 2, 79.99, 159.98],
  ['STOR-2241', 1, 289, 260],
  ['ACC-9012', 1, 59.99, 59.99],
  ['CARE-1156', 3, 12.99, 38.97],
  ['CABLE-7789', 2, 24.99, 44.98],
].map(([sku, quantity, unitPrice, amount]) => ({ sku, quantity, unitPrice, amount }));

const inventory = [
  ['SKU-8847', 'Electronics', 45, 13005],
  ['SKU-9201', 'Hardware', 32.5, 25285],
  ['SKU-4563', 'Software', 120, 18720],
  ['SKU-7728', 'Accessories', 15.75, 14726.25],
  ['SKU-3345', 'Electronics', 67, 22445],
  ['SKU-5512', 'Hardware', 89, 31150],
  ['SKU-6678', 'Software', 200, 42000],
  ['SKU-7789', 'Accessories', 8.5, 5950],
  ['SKU-2234', 'Electronics', 125, 35000],
  ['SKU-1123', 'Hardware', 55, 27500],
].map(([productCode, category, unitCost, totalValue]) => ({ productCode, category, unitCost, totalValue }));

const cases: Case[] = [
  {
    file: 'RECEIPT-2024-TXN-98765_retail_purchase.pdf',
    schema: obj({
      transactionId: str,
      date,
      cashier: str,
      subtotal: num,
      salesTax: num,
      total: num,
      items: {
        type: 'array',
        items: obj({ sku: str, quantity: { type: 'integer' }, unitPrice: num, amount: num }),
      },
    }),
    expected: {
      transactionId: 'TXN-98765-2024',
      date: '2024-11-23',
      cashier: 'Emily Rodriguez',
      subtotal: 863.91,
      salesTax: 66.23,
      total: 821.14,
      items: receiptItems,
    },
  },
  {
    file: 'REPAIR-2022-INV-001_multipage.pdf',
    schema: obj({
      estimateId: str,
      claimNumber: str,
      policyNumber: str,
      vin: str,
      subtotal: num,
      salesTax: num,
      grandTotal: num,
    }),
    expected: {
      estimateId: 'EST-1008',
      claimNumber: 'SF-1008',
      policyNumber: 'POL-2022-555',
      vin: '1C4RJFBG2NC123456',
      subtotal: 2730,
      salesTax: 278.46,
      grandTotal: 5738,
    },
  },
  {
    file: 'SPARSE-2024-INV-1234_borderless_table.pdf',
    schema: obj({
      reportId: str,
      reportDate: date,
      warehouse: str,
      preparedBy: str,
      totalVarianceCost: num,
      overallAccuracy: num,
      products: { type: 'array', items: obj({ productCode: str, category: str, unitCost: num, totalValue: num }) },
    }),
    expected: {
      reportId: 'SPARSE-2024-INV-1234',
      reportDate: '2024-11-15',
      warehouse: 'Distribution Center East',
      preparedBy: 'Sarah Martinez',
      totalVarianceCost: 4287.5,
      overallAccuracy: 97.2,
      products: inventory,
    },
  },
  {
    file: 'movie-theater-booking-2024.pdf',
    schema: obj({
      orderNumber: { type: 'string', description: 'Order / Rev' },
      cinema: str,
      customerId: str,
      printDate: date,
      grossAmount: num,
      netAmount: num,
      totalRevenue: num,
      shows: { type: 'array', items: obj({ screen: str, movieTitle: str, showtime: str, total: num }) },
    }),
    expected: {
      orderNumber: '2024-12-5678',
      cinema: 'Downtown Multiplex',
      customerId: 'CUST-98765',
      printDate: '2024-12-15',
      grossAmount: 12500,
      netAmount: 11250,
      totalRevenue: 12500,
      shows: [
        { screen: 'SCR-1', movieTitle: 'Holiday Spectacular', showtime: '7:00 PM', total: 3000 },
        { screen: 'SCR-2', movieTitle: 'Winter Wonderland', showtime: '4:30 PM', total: 3600 },
        { screen: 'SCR-1', movieTitle: 'New Year Mystery', showtime: '9:30 PM', total: 3600 },
      ],
    },
  },
];

const dir = join(corpusRoot, 'markitdown');
const present = hasCorpus && cases.every((c) => existsSync(join(dir, c.file)));

interface Tally {
  correct: string[];
  wrong: string[];
  missing: string[];
}

function score(c: Case, json: Record<string, unknown> | null | undefined, tally: Tally): void {
  for (const [field, want] of Object.entries(c.expected)) {
    const got = json?.[field];
    const where = `${c.file}: ${field}`;
    if (got === undefined) tally.missing.push(where);
    else if (JSON.stringify(got) === JSON.stringify(want)) tally.correct.push(where);
    else tally.wrong.push(`${where} = ${JSON.stringify(got).slice(0, 120)}`);
  }
}

async function run(load: (c: Case) => { bytes: Uint8Array; filename: string }): Promise<Tally> {
  const engine = createEngine();
  const tally: Tally = { correct: [], wrong: [], missing: [] };
  for (const c of cases) {
    const { bytes, filename } = load(c);
    const data = await engine.parse(bytes, { formats: [{ type: 'json', schema: c.schema }] }, { filename });
    score(c, data.json, tally);
    // Fields left unfilled are named in the warning.
    const missing = Object.keys(c.schema.properties as object).filter((k) => !(k in (data.json ?? {})));
    for (const m of missing) expect(data.warning).toContain(m);
  }
  return tally;
}

function expectShare(t: Tally): void {
  const total = t.correct.length + t.wrong.length + t.missing.length;
  expect(total).toBe(29);
  const detail = `wrong: ${t.wrong.join('; ') || '-'}\nmissing: ${t.missing.join('; ') || '-'}`;
  // The bar: ≥ 80 % of the fields filled correctly overall; a wrong value is worse than a gap.
  expect(t.correct.length / total, detail).toBeGreaterThanOrEqual(0.8);
  expect(t.wrong, detail).toEqual([]);
}

describe.skipIf(!present)(
  `offline json on the markitdown invoices and receipts (${present ? 'present' : corpusSkipReason})`,
  () => {
    it('fills ≥ 80 % of 29 fields correctly from the PDFs', async () => {
      const t = await run((c) => ({ bytes: new Uint8Array(readFileSync(join(dir, c.file))), filename: c.file }));
      expectShare(t);
      // Fields every layout shows as plain "Label: value" or a clean table must always come out.
      expect(t.correct).toEqual(
        expect.arrayContaining([
          'RECEIPT-2024-TXN-98765_retail_purchase.pdf: total',
          'SPARSE-2024-INV-1234_borderless_table.pdf: products',
          'REPAIR-2022-INV-001_multipage.pdf: grandTotal',
        ]),
      );
    });

    it('fills ≥ 80 % of 29 fields correctly from the same documents laid out line by line', async () => {
      const expectedDir = join(dir, 'expected_outputs');
      const t = await run((c) => {
        const md = readFileSync(join(expectedDir, c.file.replace(/\.pdf$/, '.md')), 'utf8');
        return { bytes: new TextEncoder().encode(markdownToHtml(md)), filename: c.file.replace(/\.pdf$/, '.html') };
      });
      expectShare(t);
    });
  },
);
