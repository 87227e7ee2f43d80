import { describe, expect, it } from 'vitest';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';
import { pdfOf } from '../helpers/pdf-build.ts';

/**
 * A page of prose in Helvetica (F1) with a label in Helvetica-Bold (F2) opening its first line and
 * a title in Helvetica-Oblique (F3) inside its second: no rulings, nothing table-like, so nothing
 * but the fonts' names tells the weights.
 */
function styledPdf(): Uint8Array {
  const ops = [
    'BT /F2 10 Tf 72 700 Td (Note to reader) Tj /F1 10 Tf ( Always consult your doctor about matters that affect) Tj ET',
    'BT /F1 10 Tf 72 686 Td (your health. Ask for a copy of ) Tj /F3 10 Tf (Living Well) Tj /F1 10 Tf ( at the front desk.) Tj ET',
  ].join('\n');
  const font = (name: string) => `<< /Type /Font /Subtype /Type1 /BaseFont /${name} /Encoding /WinAnsiEncoding >>`;
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R /F2 5 0 R /F3 6 0 R >> >> /Contents 7 0 R >>',
    font('Helvetica'),
    font('Helvetica-Bold'),
    font('Helvetica-Oblique'),
    `<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`,
  ]);
}

describe.each(pdfBackends)('PDF bold and italic on a page of prose (%s)', (backend) => {
  const { parse } = engineFor(backend);

  it('marks the bold label and the italic title, as the fonts name them', async () => {
    const md = (await parse(styledPdf())).markdown;
    expect(md).toBe(
      '**Note to reader** Always consult your doctor about matters that affect your health. Ask for a copy of *Living Well* at the front desk.\n',
    );
  });

  it('marks them in fast mode too, where only the text is read', async () => {
    // pdf.js named fonts only from a page's drawing instructions, which fast mode does not read.
    const md = (await parse(styledPdf(), { parsers: [{ type: 'pdf', mode: 'fast' }] })).markdown;
    expect(md).toBe(
      '**Note to reader** Always consult your doctor about matters that affect your health. Ask for a copy of *Living Well* at the front desk.\n',
    );
  });
});

/**
 * An invoice's fields, each line opening with a bold label whose colon is set in another bold face
 * (Times-Bold): spans part where the face changes, and the label is still read whole.
 */
function fieldsPdf(): Uint8Array {
  const field = (y: number, label: string, value: string) =>
    `BT /F2 10 Tf 72 ${y} Td (${label}) Tj /F3 10 Tf (:) Tj /F1 10 Tf ( ${value}) Tj ET`;
  const ops = [
    'BT /F1 10 Tf 72 720 Td (Thank you for your order; the details of it are set out below for your records.) Tj ET',
    field(700, 'Invoice number', 'INV-2026-0042'),
    field(686, 'Issued on', 'the fourth of May 2026'),
    field(672, 'Customer', 'Harbour Lights Trading Company'),
    // A bold label before a value in bold italic: the label ends where the italic starts.
    'BT /F1 10 Tf 72 640 Td (The order was reviewed and its state is recorded below with its owner.) Tj ET',
    'BT /F2 10 Tf 72 620 Td (Status: ) Tj /F4 10 Tf (Approved) Tj /F1 10 Tf ( by the board on Monday) Tj ET',
    'BT /F2 10 Tf 72 606 Td (Owner: ) Tj /F4 10 Tf (Jane) Tj /F1 10 Tf ( of the finance team) Tj ET',
  ].join('\n');
  const font = (name: string) => `<< /Type /Font /Subtype /Type1 /BaseFont /${name} /Encoding /WinAnsiEncoding >>`;
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R /F2 5 0 R /F3 6 0 R /F4 7 0 R >> >> /Contents 8 0 R >>',
    font('Helvetica'),
    font('Helvetica-Bold'),
    font('Times-Bold'),
    font('Helvetica-BoldOblique'),
    `<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`,
  ]);
}

describe.each(pdfBackends)('PDF field labels (%s)', (backend) => {
  const { parse } = engineFor(backend);

  it('keeps lines that each open with a bold label apart, the label set in two bold faces or before bold italic', async () => {
    const md = (await parse(fieldsPdf(), { parsers: [{ type: 'pdf', mode: 'fast' }] })).markdown;
    expect(md).toContain('**Invoice number:** INV-2026-0042\n\n**Issued on:** the fourth of May 2026\n\n**Customer:**');
    expect(md).toContain('by the board on Monday\n\n**Owner: *Jane*** of the finance team');
  });
});
