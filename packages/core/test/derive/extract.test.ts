import { describe, expect, it } from 'vitest';
import { extractOffline } from '../../src/derive/extract.ts';
import { summarizeOffline } from '../../src/derive/summary.ts';
import { createEngine, DocmillError, parse } from '../../src/index.ts';
import { heading, paragraph, root, section, tableFromMatrix as table } from '../../src/tree/build.ts';
import { fixture } from '../helpers/corpus.ts';

const invoiceSchema = {
  type: 'object',
  properties: {
    invoiceNumber: { type: 'string' },
    issueDate: { type: 'string', format: 'date' },
    dueDate: { type: 'string', format: 'date' },
    customer: { type: 'string' },
    purchaseOrder: { type: 'string' },
    paid: { type: 'boolean' },
    paymentTerms: { type: 'string' },
    subtotal: { type: 'number' },
    vat: { type: 'number' },
    amountDue: { type: 'number' },
    shipping: { type: 'string', enum: ['Standard', 'Express freight', 'Pickup'] },
    carrier: { type: 'string' },
    lines: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          item: { type: 'string' },
          quantity: { type: 'integer' },
          unitPrice: { type: 'number' },
          lineTotal: { type: 'number' },
        },
      },
    },
  },
};

describe('offline json from the invoice fixture (HTML: definition list, lines, bold label, tables)', () => {
  it('fills every field the page shows, coerced to the schema types, and names the one it lacks', async () => {
    const data = await parse(
      fixture('derive', 'invoice.html'),
      { formats: [{ type: 'json', schema: invoiceSchema, prompt: 'shipping is labelled "Shipping method".' }] },
      { filename: 'invoice.html' },
    );
    expect(data.json).toEqual({
      invoiceNumber: 'INV-2031',
      issueDate: '2025-03-03',
      dueDate: '2025-04-02',
      customer: 'Fabrikam Ltd',
      purchaseOrder: 'PO 88-1207',
      paid: false,
      paymentTerms: 'Net 30',
      subtotal: 2944,
      vat: 588.8,
      amountDue: 3532.8,
      shipping: 'Express freight',
      lines: [
        { item: 'Torque wrench 1/2"', quantity: 2, unitPrice: 1249.5, lineTotal: 2499 },
        { item: 'Socket set, 24 pieces', quantity: 1, unitPrice: 310, lineTotal: 310 },
        { item: 'Calibration service', quantity: 3, unitPrice: 45, lineTotal: 135 },
      ],
    });
    expect(data.warning).toBe('JSON extraction found no valid value for: carrier.');
  });

  it('is deterministic and needs no network', async () => {
    const engine = createEngine();
    const opts = { formats: [{ type: 'json' as const, schema: invoiceSchema }, 'summary' as const] };
    const a = await engine.parse(fixture('derive', 'invoice.html'), opts, { filename: 'invoice.html' });
    const b = await engine.parse(fixture('derive', 'invoice.html'), opts, { filename: 'invoice.html' });
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  });

  it('without a schema returns the labelled values it found', async () => {
    const data = await parse(fixture('derive', 'invoice.html'), { formats: ['json'] }, { filename: 'invoice.html' });
    expect(data.json).toMatchObject({ invoiceNo: 'INV-2031', paymentTerms: 'Net 30', subtotal: '£2.944,00' });
    expect(data.warning).toMatch(/No JSON schema was given/);
  });

  it('refuses a schema Ajv cannot compile with a 400', async () => {
    const err = await parse(
      fixture('derive', 'invoice.html'),
      { formats: [{ type: 'json', schema: { type: 'object', properties: { a: { type: 'no-such-type' } } } }] },
      { filename: 'invoice.html' },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DocmillError);
    expect((err as DocmillError).status).toBe(400);
    expect((err as DocmillError).message).toMatch(/schema/);
  });
});

describe('offline json on hand-built trees', () => {
  const t = root([
    section('page', 1, [
      paragraph('TXN: TXN-77-2 Cashier: Ann Lee Register: POS-1'),
      paragraph('Total Points: 3,247'),
      paragraph('TOTAL $42.10'),
      paragraph('Customer ID:'),
      paragraph('CUST-5'),
      table([
        ['Order / Rev:', '2024-12-5678', 'Cinema:', 'Downtown'],
        ['Status', 'CRITICAL', '', ''],
      ]),
    ]),
  ]);
  const run = (properties: Record<string, unknown>, prompt?: string) =>
    extractOffline(t, { schema: { type: 'object', properties }, ...(prompt ? { prompt } : {}) });

  it('splits run-on "Label: value" lines and keeps a longer label from answering for a shorter one', () => {
    const r = run({ transactionId: { type: 'string' }, cashier: { type: 'string' }, total: { type: 'number' } });
    expect(r.json).toEqual({ transactionId: 'TXN-77-2', cashier: 'Ann Lee', total: 42.1 });
    expect(r.missing).toEqual([]);
  });

  it('reads a value set on the line after its label, label/value pairs across a wide row, and enums', () => {
    const r = run({
      customerId: { type: 'string' },
      orderNumber: { type: 'string', description: 'Order / Rev' },
      cinema: { type: 'string' },
      status: { type: 'string', enum: ['OK', 'CRITICAL'] },
    });
    expect(r.json).toEqual({
      customerId: 'CUST-5',
      orderNumber: '2024-12-5678',
      cinema: 'Downtown',
      status: 'CRITICAL',
    });
  });

  it('omits what it cannot find or what fails the schema, and lists it', () => {
    const r = run({ vin: { type: 'string' }, total: { type: 'integer' }, register: { type: 'string', pattern: '^X' } });
    expect(r.json).toEqual({});
    expect(r.missing.sort()).toEqual(['register', 'total', 'vin']);
  });

  it('nested objects are filled from the same labels', () => {
    const r = run({
      receipt: { type: 'object', properties: { cashier: { type: 'string' }, total: { type: 'number' } } },
    });
    expect(r.json).toEqual({ receipt: { cashier: 'Ann Lee', total: 42.1 } });
  });
});

describe('offline json from receipt lines', () => {
  const items = {
    type: 'array',
    items: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        qty: { type: 'integer' },
        price: { type: 'number' },
        total: { type: 'number' },
      },
    },
  };
  it('reads "item qty x price total" lines with decimal commas and trailing currency', () => {
    const t = root([
      paragraph('Café Lumen, Rue 4, Lyon'),
      paragraph('------------------------'),
      paragraph('Espresso 2 x 3,50 € 7,00 €'),
      paragraph('Croissant 3 x 2,10 € 6,30 €'),
      paragraph('Jus d’orange 1 x 4,90 € 4,90 €'),
      paragraph('------------------------'),
      paragraph('Total 18,20 €'),
    ]);
    const r = extractOffline(t, { schema: { type: 'object', properties: { items, total: { type: 'number' } } } });
    expect(r.json).toEqual({
      items: [
        { name: 'Espresso', qty: 2, price: 3.5, total: 7 },
        { name: 'Croissant', qty: 3, price: 2.1, total: 6.3 },
        { name: 'Jus d’orange', qty: 1, price: 4.9, total: 4.9 },
      ],
      total: 18.2,
    });
  });
});

describe('offline summary', () => {
  it('keeps lead sentences in document order, within 15 % of the text, skipping references', async () => {
    const data = await parse(
      fixture('derive', 'report.html'),
      { formats: ['summary', 'markdown'] },
      { filename: 'r.html' },
    );
    const summary = data.summary ?? '';
    expect(summary.startsWith('Bacterial counts in the harbour fell by a third in 2024')).toBe(true);
    expect(summary).toContain('Median E. coli counts fell from 310 to 205');
    expect(summary).not.toContain('membrane filtration');
    expect(summary.length).toBeLessThanOrEqual(0.15 * (data.markdown ?? '').length);
  });

  it('falls back to title and headings when there is no prose, and stays within the bound', () => {
    const t = root(
      [heading(1, 'Quarterly figures'), table([['a', 'b']]), heading(2, 'Regional breakdown by quarter')],
      {
        title: 'Figures',
      },
    );
    const s = summarizeOffline(t);
    expect(s.length).toBeLessThanOrEqual(0.15 * 'Quarterly figuresabRegional breakdown by quarter'.length + 1);
    expect(s).toBe('Figures');
  });

  it('a short page is summarised by a whole sentence, never one cut at the length bound', async () => {
    const page =
      '<p>Revenue grew 12% on strong demand for cloud storage in Europe and Asia. Operating costs stayed flat ' +
      'at 40 million euros for the third quarter running. The board proposes a dividend of 40 cents per share.</p>';
    const data = await parse(new TextEncoder().encode(page), { formats: ['summary'] }, { filename: 'q3.html' });
    // 15 % of this page is 30 characters: no sentence fits, so the best one comes whole.
    expect(data.summary).toBe('Revenue grew 12% on strong demand for cloud storage in Europe and Asia.');
  });

  it('names a record-like document and gives its key facts instead of its address line (invoice fixture)', async () => {
    const data = await parse(
      fixture('derive', 'invoice.html'),
      { formats: ['summary', 'markdown'] },
      { filename: 'invoice.html' },
    );
    const summary = data.summary ?? '';
    // What it is (its title), then its largest amount, the total to pay.
    expect(summary.startsWith('Invoice INV-2031 from Northwind Tools. ')).toBe(true);
    expect(summary).toContain('Amount due: £3.532,80');
    expect(summary).not.toContain('Harbour Road');
    expect(summary.length).toBeLessThanOrEqual(0.15 * (data.markdown ?? '').length);
  });

  it('says what columns a CSV file has and how many rows, where it said nothing', async () => {
    const data = await parse(fixture('csv', 'comma.csv'), { formats: ['summary'] }, { filename: 'comma.csv' });
    expect(data.summary).toBe('Table: Name, Comment, Amount — 2 rows');
  });

  it('leads a form with a closing clause by its fields; the same clause opening the page keeps it prose', () => {
    const fields = table([
      ['Cinema', 'Downtown Multiplex'],
      ['Booking dates', '12/20/2024 - 12/31/2024'],
      ['Primary contact', 'Sarah Johnson'],
      ['Billing contact', 'Michael Chen'],
      ['Order type', 'Premium package'],
      ['Region', 'Northeast'],
      ['Location', 'NYC-01'],
      ['Net', '$11,250.00'],
      ['Total', '$12,500.00'],
    ]);
    const clause = paragraph('Subject to availability and our standard terms.');
    // 15 % of this page has room for one fact: the largest amount, not the first row.
    expect(summarizeOffline(root([heading(1, 'Booking order'), fields, clause]))).toBe(
      'Booking order. Total: $12,500.00',
    );
    expect(summarizeOffline(root([heading(1, 'Booking order'), clause, fields]))).toBe(
      'Subject to availability and our standard terms.',
    );
  });

  it('keeps the sentence summary of a prose page with a table', async () => {
    const data = await parse(fixture('derive', 'report.html'), { formats: ['summary'] }, { filename: 'r.html' });
    expect(data.summary).toBe(
      'Bacterial counts in the harbour fell by a third in 2024 after the new storm-overflow tanks came into service. ' +
        'Median E. coli counts fell from 310 to 205 colony-forming units per 100 ml.',
    );
  });

  it('ends on a sentence boundary when no sentence is long enough to rank, and on a heading boundary', () => {
    const short = root([paragraph('Sales rose sharply. Costs fell. Margins widened a lot.')]);
    expect(summarizeOffline(short)).toBe('Sales rose sharply.');
    const names = root([heading(1, 'Quarterly statement of group figures'), table([['a', 'b']])]);
    expect(summarizeOffline(names)).toBe('Quarterly statement of group figures');
  });
});
