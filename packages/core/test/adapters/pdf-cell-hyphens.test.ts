import { describe, expect, it } from 'vitest';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';
import { pdfOf } from '../helpers/pdf-build.ts';

/** Lines of 10-point Helvetica at (x, y), y the baseline above the page's foot. */
const textOps = (lines: [number, number, string][]): string =>
  lines.map(([x, y, t]) => `BT /F1 10 Tf ${x} ${y} Td (${t}) Tj ET`).join('\n');

/**
 * Two pages: prose that writes "immediately", then a ruled table of three columns whose last cell
 * breaks "imme-" / "diately" over two lines. The table's page alone cannot tell the break from a
 * compound; the document can, as it does for a paragraph.
 */
function brokenCellPdf(): Uint8Array {
  const prose = textOps([
    [72, 700, 'The office answers every letter immediately after it arrives, and the notice'],
    [72, 686, 'it sends names the period, the form and the amount that is still due.'],
  ]);
  const xs = [72, 140, 220, 420];
  const ys = [700, 680, 646, 626];
  const rules = [...ys.map((y) => `72 ${y} m 420 ${y} l S`), ...xs.map((x) => `${x} 626 m ${x} 700 l S`)].join('\n');
  const table = `0.5 w\n${rules}\n${textOps([
    [76, 686, 'Code'],
    [144, 686, 'Field'],
    [224, 686, 'Meaning'],
    [76, 666, 'Q'],
    [144, 666, '12'],
    [224, 666, 'a notice was input to imme-'],
    [224, 652, 'diately issue the letter'],
    [76, 632, 'R'],
    [144, 632, '14'],
    [224, 632, 'one notice was closed'],
  ])}`;
  const page = (contents: number) =>
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents ${contents} 0 R >>`;
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>',
    page(6),
    page(7),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${prose.length} >>\nstream\n${prose}\nendstream`,
    `<< /Length ${table.length} >>\nstream\n${table}\nendstream`,
  ]);
}

describe.each(pdfBackends)('PDF table cells: line-end hyphens (%s)', (backend) => {
  const { parse } = engineFor(backend);

  it('joins a word broken in a cell by what the whole document writes, as a paragraph does', async () => {
    const md = (await parse(brokenCellPdf())).markdown;
    expect(md).toContain('| Q | 12 | a notice was input to immediately issue the letter |');
    expect(md).not.toMatch(/imme-diately|\ufdd0/);
  });
});
