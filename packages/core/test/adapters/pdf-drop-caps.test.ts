import { describe, expect, it } from 'vitest';
import { pageMarkdown, pdfBackends } from '../helpers/pdf-backends.ts';
import { textAt } from '../helpers/pdf-build.ts';

/**
 * A drop cap (a paragraph's first letter set several lines high, the lines beside it set in) reads
 * as the first letter of its paragraph's first word. Read as it stood, the letter made a line of
 * its own on a later line's baseline, and the paragraph's lines came out of order ("W just brought
 * in … hen the snow came").
 */

const FIRST = [
  'hen the snow came early that year, the village had only',
  'just brought in the last of the hay, and the river was',
  'still open below the mill.',
];
const NEXT = [
  'Nobody in the village could remember a winter like it. The old',
  'men said the last one had been before the war, and even they',
  'were not sure of that.',
];

/**
 * The story's page: its title, then a paragraph opening with `cap` set `lines` lines high (its
 * baseline on the last of them, the lines beside it set in to `indent`), then a second paragraph.
 */
function story(cap: string, lines: number, indent = 112, font = 'F1'): string[] {
  const pitch = 14;
  const ops = [textAt(72, 740, 'The long winter', 18, 'F2')];
  // A cap `lines` high: its capitals reach from the last line's baseline to the first line's top.
  const size = ((lines - 1) * pitch + 7.2) / 0.72;
  // An opening quote mark as WinAnsi's 0x93.
  ops.push(textAt(72, 710 - (lines - 1) * pitch, cap, Math.round(size), font).replaceAll('\u201c', '\\223'));
  FIRST.forEach((l, k) => {
    ops.push(textAt(k < lines ? indent : 72, 710 - pitch * k, l));
  });
  NEXT.forEach((l, k) => {
    ops.push(textAt(72, 710 - pitch * (FIRST.length + k) - 10, l));
  });
  return ops;
}

describe.each(pdfBackends)('PDF drop caps (%s)', (backend) => {
  const markdown = (ops: string[], mode: 'fast' | 'auto' = 'fast') => pageMarkdown(backend, ops, mode);

  it.each(['fast', 'auto'] as const)('reads a drop cap two lines high as its word first letter (%s)', async (mode) => {
    expect(await markdown(story('W', 2), mode)).toBe(
      ['# The long winter', '', `W${FIRST.join(' ')}`, '', NEXT.join(' '), ''].join('\n'),
    );
  });

  it('reads a drop cap three lines high after its opening quote mark', async () => {
    // The mark and the letter, 49 pt, are 63 pt wide.
    const md = await markdown(story('\u201cW', 3, 140));
    expect(md).toContain(`\u201cW${FIRST.join(' ')}`);
    expect(md).toContain(NEXT.join(' '));
  });

  it('reads a drop cap set in a face of its own in its line face', async () => {
    expect(await markdown(story('W', 2, 112, 'F2'))).toContain(`\n\nW${FIRST.join(' ')}\n`);
  });

  it('reads a drop cap whose opening quote mark is a run of its own', async () => {
    const ops = story('W', 3, 140);
    // The mark drawn before the letter, in a text object of its own.
    ops.splice(1, 0, textAt(50, 682, '\u201c', 49).replaceAll('\u201c', '\\223'));
    expect(await markdown(ops)).toContain(`\u201cW${FIRST.join(' ')}`);
  });

  it('reads a drop cap under a title set letter-spaced, a letter a run', async () => {
    const ops = story('W', 2);
    // Ten letters: more than the letters a page weighs.
    ops[0] = [...'CHAPTER ONE']
      .map((c, k) => (c === ' ' ? '' : textAt(72 + 22 * k, 750, c, 20, 'F2')))
      .filter(Boolean)
      .join('\n');
    expect(await markdown(ops)).toContain(`W${FIRST.join(' ')}`);
  });

  // pdf.js gives the blank before the line's first word to the cap's run, whatever it was: only
  // PDFium's runs tell a cap that is a word ("A long") from a word's first letter ("Along").
  it.runIf(backend === 'pdfium')('keeps a drop cap that is a word of its own apart from the next word', async () => {
    const ops = story('A', 2);
    ops.splice(2, 1, textAt(112, 710, ' long time ago the village had only'));
    expect(await markdown(ops)).toContain('A long time ago the village had only just');
  });

  it('leaves a logo initial beside its firm, a letter hung beside an index, a line over a cap where they stand', async () => {
    const letterhead = [
      textAt(72, 730, 'M', 40, 'F2'),
      textAt(112, 752, 'Meridian Consulting Group', 12, 'F2'),
      textAt(112, 738, 'Advisers to the building trade since 1921', 9),
      textAt(112, 730, '12 Station Road, York', 9),
      textAt(72, 680, 'Dear Ms Lee,'),
      textAt(72, 660, 'Thank you for your letter of the third of March about the new warehouse. We have'),
      textAt(72, 646, 'looked at the plans and will send you our estimate before the end of the month.'),
    ];
    expect(await markdown(letterhead)).not.toContain('MMeridian');
    const entries = ['abacus, 12', 'abbey, 14, 22', 'azure, 33', 'babble, 3', 'baker, 17, 40', 'barn, 9'];
    const index = entries.map((e, k) => textAt(72, 700 - 11 * k, e, 9));
    index.push(textAt(48, 700, 'A', 22, 'F2'), textAt(48, 667, 'B', 22, 'F2'));
    for (let k = 0; k < 12; k++) index.push(textAt(300, 700 - 11 * k, `filler entry number ${k}, ${k + 3}`, 9));
    expect(await markdown(index)).not.toMatch(/B\**azure/);
    // A byline at the indent of the lines beside a cap three lines high, a line over its first.
    const byline = story('W', 3, 124);
    byline.push(textAt(124, 724, 'by Ann Lee, our correspondent'));
    const md = await markdown(byline);
    expect(md).not.toContain('Wby');
    expect(md).toContain(`W${FIRST.join(' ')}`);
  });

  it('leaves a large letter beside rows set at other edges as it stands', async () => {
    // A report card: the grade set large beside the teacher's row above and the term's on its baseline.
    const ops = [
      textAt(72, 640, 'Course: Chemistry'),
      textAt(72, 614, 'Final grade:'),
      textAt(150, 614, 'A', 28, 'F2'),
      textAt(200, 630, 'Teacher: Ann Lee'),
      textAt(260, 614, 'Term: Autumn'),
    ];
    const md = await markdown(ops);
    expect(md).not.toContain('ATeacher');
    expect(md).toMatch(/Final grade:\s+\**A\**/);
  });
});
