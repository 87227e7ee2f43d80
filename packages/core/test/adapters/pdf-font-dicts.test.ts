import { describe, expect, it } from 'vitest';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';
import { pdfOf } from '../helpers/pdf-build.ts';

const body = [
  'The report sets out what the company did over the year to cut the energy its offices use,',
  'where its power comes from, and how it measures the emissions of its suppliers. Each part',
  'names the goals set at the start of the year and what became of them by its end, with the',
  'figures behind them and the method used to count them, so that a reader can check them.',
  'Where a figure was revised after the last report, the change and its reason are given too.',
];
/** A pull quote in larger type: its third line is set with a second font dictionary of the same face. */
const quote = [
  'The panel is clear: climate change is an urgent',
  'threat to the health of the planet. While the last',
  'years have seen real progress in mobilizing the',
  'community to act, the world is not on track to',
  'meet the targets it has set for itself.',
];

/**
 * One page: paragraphs of 10-point body text, then a pull quote in 13 points whose third line is
 * drawn with /F2, a second dictionary of the same Helvetica (as producers write one per encoding).
 */
function twoDictsPdf(): Uint8Array {
  const lines = [
    ...[...body, ...body].map((t, k) => `BT /F1 10 Tf 72 ${740 - k * 13} Td (${t}) Tj ET`),
    ...quote.map((t, k) => `BT /${k === 2 ? 'F2' : 'F1'} 13 Tf 72 ${580 - k * 17} Td (${t}) Tj ET`),
  ].join('\n');
  const font = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>',
    font,
    font,
    `<< /Length ${lines.length} >>\nstream\n${lines}\nendstream`,
  ]);
}

describe.each(pdfBackends)('PDF fonts of one face in two dictionaries (%s)', (backend) => {
  const { parse } = engineFor(backend);

  it('reads a line set with the second dictionary as part of its paragraph', async () => {
    const md = (await parse(twoDictsPdf())).markdown ?? '';
    expect(md).toContain(quote.join(' '));
    expect(md).not.toMatch(/^#/m);
  });
});
