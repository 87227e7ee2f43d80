import { describe, expect, it } from 'vitest';
import { corpusFile, corpusSkipReason, hasCorpus } from '../helpers/corpus.ts';
import { engineFor, pageMarkdown, pdfBackends } from '../helpers/pdf-backends.ts';
import { textAt } from '../helpers/pdf-build.ts';

/**
 * A pull quote or a figure's caption set into a paragraph's column between two of its lines cuts
 * the paragraph mid-sentence. The paragraph reads whole, the blocks set into it after it; a pull
 * quote in a larger bold face read as a section's heading, and the sentence around it in two.
 */

const STORY = [
  'When the snow came early that year, the village had only just brought in the',
  'last of the hay, and the river was still open below the mill. The children',
  'skated on the pond behind the church while their parents dug paths to the',
  'barns and the well.',
];
const NEXT = [
  'Nobody in the village could remember a winter like it. The old men said the',
  'last one had been before the war, and even they were not sure of that.',
];

/**
 * The story's page: its title, the first paragraph cut after its second line by `inset` (each
 * line's text, size and font, 18 pt apart), then the next paragraph.
 */
function page(inset: [string, number, string][]): string[] {
  const ops = [textAt(72, 740, 'The long winter', 18, 'F2')];
  let y = 710;
  STORY.forEach((l, k) => {
    if (k === 2) {
      y -= 12;
      for (const [text, size, font] of inset) {
        ops.push(textAt(90, y, text, size, font));
        y -= 18;
      }
      y -= 4;
    }
    ops.push(textAt(72, y, l));
    y -= 14;
  });
  y -= 10;
  NEXT.forEach((l, k) => {
    ops.push(textAt(72, y - 14 * k, l));
  });
  return ops;
}

describe.each(pdfBackends)('PDF paragraphs a pull quote or caption is set into (%s)', (backend) => {
  const markdown = (ops: string[], mode: 'fast' | 'auto' = 'fast') => pageMarkdown(backend, ops, mode);

  it.each(['fast', 'auto'] as const)('reads a paragraph whole, the pull quote after it (%s)', async (mode) => {
    const md = await markdown(
      page([
        ['Nobody could remember a winter', 15, 'F2'],
        ['like it in living memory.', 15, 'F2'],
      ]),
      mode,
    );
    expect(md).toBe(
      [
        '# The long winter',
        '',
        STORY.join(' '),
        '',
        'Nobody could remember a winter like it in living memory.',
        '',
        NEXT.join(' '),
        '',
      ].join('\n'),
    );
  });

  it('reads a caption in small type set into a paragraph after it', async () => {
    const md = await markdown(page([['Figure 2: the pond behind the church, January 1947', 8, 'F1']]));
    expect(md).toContain(
      `${STORY.join(' ')}\n\nFigure 2: the pond behind the church, January 1947\n\n${NEXT.join(' ')}`,
    );
  });

  if (!hasCorpus) it.skip(corpusSkipReason, () => {});
  it.skipIf(!hasCorpus)(
    'keeps a line of a paragraph read in another size at the lines pitch in its place',
    async () => {
      // The AMT handbook's line with fractions reads a size apart on pdf.js, a paragraph of its own
      // between two of its paragraph's lines, at their pitch: nothing is set in there.
      const md = (
        await engineFor(backend).parse(
          corpusFile('docling', 'pdf', 'sources', 'amt_handbook_sample.pdf'),
          { parsers: [{ type: 'pdf', mode: 'fast' }] },
          { filename: 'amt.pdf' },
        )
      ).markdown;
      expect(md).toContain('Rol-top ranges from');
      expect(md?.indexOf('Rol-top ranges from')).toBeLessThan(md?.indexOf('ranges in size from No. 8') ?? -1);
    },
  );

  it('keeps a heading between a sentence ended and the next paragraph a heading', async () => {
    const ops = page([['A hard winter', 15, 'F2']]);
    // The second line ends its sentence: the heading opens a section.
    ops[2] = textAt(72, 696, 'last of the hay, and the river was still open below the mill before it froze.');
    const md = await markdown(ops);
    expect(md).toMatch(/\n#+ A hard winter\n/);
    expect(md).not.toContain('froze. skated');
  });

  it('keeps a paragraph in the text size between two paragraphs in its place', async () => {
    const md = await markdown(page([['This line is set in the text size of the story.', 10, 'F1']]));
    expect(md).not.toContain('The children skated');
  });
  it('keeps a numbered heading before a paragraph opening in lower case ("pH") a heading', async () => {
    const md = await markdown(page([['2 Methods', 13, 'F2']]));
    expect(md).toMatch(/\n#+ 2 Methods\n/);
  });

  it('keeps a quote in small type the sentence runs through in its place', async () => {
    const md = await markdown(page([['we shall grind what the water allows and no more', 8, 'F1']]));
    expect(md).not.toContain('The children skated');
  });

  it('keeps a formula set between two parts of a sentence in its place', async () => {
    const md = await markdown(page([['E = m g h', 12, 'F2']]));
    expect(md).not.toContain('The children skated');
  });
});
