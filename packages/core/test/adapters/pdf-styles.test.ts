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
