import { describe, expect, it } from 'vitest';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';
import { pagesPdf, textAt } from '../helpers/pdf-build.ts';

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
function story(cap: string, lines: number, indent = 112): string[] {
  const pitch = 14;
  const ops = [textAt(72, 740, 'The long winter', 18, 'F2')];
  // A cap `lines` high: its capitals reach from the last line's baseline to the first line's top.
  const size = ((lines - 1) * pitch + 7.2) / 0.72;
  // An opening quote mark as WinAnsi's 0x93.
  ops.push(textAt(72, 710 - (lines - 1) * pitch, cap, Math.round(size)).replaceAll('\u201c', '\\223'));
  FIRST.forEach((l, k) => {
    ops.push(textAt(k < lines ? indent : 72, 710 - pitch * k, l));
  });
  NEXT.forEach((l, k) => {
    ops.push(textAt(72, 710 - pitch * (FIRST.length + k) - 10, l));
  });
  return ops;
}

describe.each(pdfBackends)('PDF drop caps (%s)', (backend) => {
  const markdown = async (ops: string[], mode: 'fast' | 'auto' = 'fast') =>
    (
      await engineFor(backend).parse(
        pagesPdf([ops.join('\n')]),
        { parsers: [{ type: 'pdf', mode }] },
        { filename: 'story.pdf' },
      )
    ).markdown ?? '';

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
