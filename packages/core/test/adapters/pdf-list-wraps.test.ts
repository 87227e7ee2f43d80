import { describe, expect, it } from 'vitest';
import { parse } from '../../src/index.ts';
import { corpusFile, corpusSkipReason, hasCorpus } from '../helpers/corpus.ts';
import { textAt as line, pagesPdf } from '../helpers/pdf-build.ts';

const markdown = async (pdf: Uint8Array) =>
  (await parse(pdf, { parsers: [{ type: 'pdf', mode: 'fast' }] }, { filename: 'wraps.pdf' })).markdown ?? '';

describe('PDF: numbered paragraphs whose lines wrap back left of the marker', () => {
  it('reads the lines wrapped back to the column edge as the item, and the indented paragraph after as a paragraph', async () => {
    const pdf = pagesPdf([
      [
        line(72, 700, 'The rules of the system are these, stated once for all of the cases that'),
        line(72, 686, 'follow in the rest of this section and in the next one as well.'),
        line(87, 672, '1) If x is an atom, then x is its own meaning and nothing more is said.'),
        line(87, 658, '2) If x and y are objects, then the meaning of x applied to y is found. In'),
        line(72, 644, 'words: the meaning of an application is found by applying the function x is'),
        line(72, 630, 'to y, and then by finding the meaning of the result that it gives back to us'),
        line(72, 616, 'as the answer.'),
        // The paragraph after opens indented; one under the item's short last line would too.
        line(87, 602, 'Next comes a paragraph that opens indented, as every paragraph here'),
        line(72, 588, 'does, and it goes on for a while in the way that such text does.'),
      ].join('\n'),
    ]);
    expect(await markdown(pdf)).toBe(
      [
        'The rules of the system are these, stated once for all of the cases that follow in the rest of this section and in the next one as well.',
        '',
        '1. If x is an atom, then x is its own meaning and nothing more is said.',
        '2. If x and y are objects, then the meaning of x applied to y is found. In words: the meaning of an application is found by applying the function x is to y, and then by finding the meaning of the result that it gives back to us as the answer.',
        '',
        'Next comes a paragraph that opens indented, as every paragraph here does, and it goes on for a while in the way that such text does.',
        '',
      ].join('\n'),
    );
  });

  it('keeps apart a line at the column edge under an item whose line ends short, or that opens a sentence', async () => {
    const pdf = pagesPdf([
      [
        line(87, 700, '1) A short item that stops early and'),
        line(72, 686, 'then a line at the edge of the column that carries on its own way for now.'),
        line(87, 660, '2) If x and y are objects, then the meaning of x applied to y is found.'),
        line(72, 646, 'A new sentence starts at the edge of the column, as a paragraph of its own.'),
        line(87, 620, '3) If x and y are objects, then the meaning of x applied to y is found. In'),
        line(72, 606, 'words: the meaning of an application is found by applying the function x is'),
        line(72, 592, 'to y, the item ending short'),
        line(72, 578, 'and a line under its short end that is no line of the item at all, for it'),
      ].join('\n'),
    ]);
    const md = await markdown(pdf);
    expect(md).toContain('1. A short item that stops early and\n');
    expect(md).toContain('\n\nthen a line at the edge of the column');
    expect(md).toContain('2. If x and y are objects, then the meaning of x applied to y is found.\n');
    expect(md).toContain('\n\nA new sentence starts at the edge of the column');
    expect(md).toContain(
      '3. If x and y are objects, then the meaning of x applied to y is found. In words: the meaning of an application is found by applying the function x is to y, the item ending short\n\nand a line under',
    );
  });

  it.skipIf(!hasCorpus)(
    `backus p. 21: rule 7 reads on into "In words:" (${hasCorpus ? 'corpus' : corpusSkipReason})`,
    async () => {
      const md = await markdown(corpusFile('pdfbench', 'unstructured_pdf_a1977-backus-p21.pdf'));
      expect(md).toMatch(
        /7\. If x and y are objects, then #\(x:y\) = \*#\(Ox:y\)\.\* In words: the meaning of an F ?F ?P application/,
      );
      expect(md).toContain('(which is *usually* an object and is then its own meaning).\n');
    },
  );
});
