import { describe, expect, it } from 'vitest';
import { corpusFile, corpusSkipReason, hasCorpus } from '../helpers/corpus.ts';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';
import { pdfOf } from '../helpers/pdf-build.ts';
import { NO_DEADLINE } from '../helpers/timeouts.ts';

/** One line of Helvetica (F1) or Helvetica-Bold (F2), its baseline `y` points above the page's foot. */
interface Run {
  x: number;
  y: number;
  size: number;
  bold?: boolean;
  text: string;
}

/** A one-page PDF (the booklet's page size) of the given lines. */
function pagePdf(runs: Run[]): Uint8Array {
  const ops = runs
    .map(
      (r) => `BT /${r.bold ? 'F2' : 'F1'} ${r.size} Tf ${r.x} ${r.y} Td (${r.text.replace(/[\\()]/g, '\\$&')}) Tj ET`,
    )
    .join('\n');
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 420 595] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`,
  ]);
}

const intro = [
  'Every sample taken in the clinic is sent to the laboratory, where it',
  'is checked for the markers that guide treatment. Some markers tell',
  'how fast the cells grow, others whether a medicine will work, and a',
  'few whether the illness may return. The report goes to your doctor,',
  'who talks it through with you at the next visit, usually within two',
  'weeks. Ask for a copy if you would like to keep one for your records.',
];
const left = [
  'Markers are proteins found on',
  'the surface of some cells. The',
  'laboratory stains a thin slice',
  'of the sample and counts the',
  'cells that take up the stain.',
  'A high count means the cells',
  'carry many of these proteins',
  'and may respond to medicines',
  'that block them.',
];
const right = [
  'A low count does not mean that',
  'treatment will fail. Other tests',
  'look at the genes of the cells',
  'and may point to a different',
  'medicine. Your doctor will say',
  'which tests were done and what',
  'their results mean for you. It',
  'can take a week or two before',
  'every result is ready.',
];
/**
 * The booklet's layout (pdfbench failure-after-repair p. 18): a title, a paragraph across the text
 * block, then two columns 17 pt apart, each line of the left column on the baseline of one of the
 * right column.
 */
const stripeThenColumns = pagePdf([
  { x: 96, y: 475, size: 12, bold: true, text: 'How samples are tested and what they show' },
  ...intro.map((text, i): Run => ({ x: 96, y: 455 - i * 13, size: 9.3, text })),
  ...left.map((text, i): Run => ({ x: 96, y: 360 - i * 13, size: 9.3, text })),
  ...right.map((text, i): Run => ({ x: 251, y: 360 - i * 13, size: 9.3, text })),
]);

describe.each(pdfBackends)('pdf reading order (%s)', (backend) => {
  const { parse } = engineFor(backend);

  it('reads two columns below a paragraph across both column by column, the paragraph first', async () => {
    const md = (await parse(stripeThenColumns, {}, { filename: 'columns.pdf' })).markdown ?? '';
    expect(md.trim().split('\n\n').slice(-3)).toEqual([intro.join(' '), left.join(' '), right.join(' ')]);
  });
});

describe.skipIf(!hasCorpus).each(pdfBackends)(
  `pdf reading order on the corpus (${hasCorpus ? 'present' : corpusSkipReason}, %s)`,
  (backend) => {
    const { parse } = engineFor(backend);

    it('reads the two columns under the booklet page’s opening paragraph one after the other (pdfbench failure-after-repair p. 18)', async () => {
      const name = 'unstructured_pdf_failure-after-repair.pdf';
      const md = (await parse(corpusFile('pdfbench', name), NO_DEADLINE, { filename: name })).markdown ?? '';
      const first =
        'Hormones are chemicals in the body that transfer information. The hormones oestrogen and progesterone (present in both men and women) cause some types of breast cancer to grow. These are called hormone receptor positive or hormone sensitive cancers.';
      const second =
        '\n\nA hormone receptor is a protein in a cell. In breast cancer, the hormone receptors receive signals from oestrogen and progesterone to promote cancer cell growth. About three out of four breast cancers contain oestrogen or progesterone receptors (see table below).\n\n';
      expect(md).toContain(`${first}${second}| Status | Description | Therapy response |`);
    });
  },
);
