import { describe, expect, it } from 'vitest';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';
import { pagesPdf, textAt } from '../helpers/pdf-build.ts';

/**
 * Addresses a line's end cuts after a dot of their domain run on into the next line with no blank
 * ("ann.lee@lab." over "example.org"), as addresses cut after a slash do; a sentence's stop after a
 * whole address keeps its blank.
 */
describe.each(pdfBackends)('PDF addresses cut at a line end (%s)', (backend) => {
  const markdown = async (...lines: string[]) =>
    (
      await engineFor(backend).parse(
        pagesPdf([lines.map((t, k) => textAt(72, 720 - 14 * k, t)).join('\n')]),
        { parsers: [{ type: 'pdf', mode: 'fast' }] },
        { filename: 'addresses.pdf' },
      )
    ).markdown ?? '';

  it('joins an e-mail or web address cut after a dot of its domain', async () => {
    const md = await markdown(
      'For questions about the study, please write to the lead author at ann.lee@lab.',
      'example.org or see the project pages, which are kept up to date at www.example.',
      'com/studies and answer most of the questions that we are asked about the work.',
    );
    expect(md).toContain('at ann.lee@lab.example.org or see');
    expect(md).toContain('at www.example.com/studies and answer');
  });

  it('keeps the blank after an address that ends a sentence', async () => {
    const md = await markdown(
      'When the form is ready, send it to the office by e-mail at office@example.org.',
      'then keep a copy for yourself, e.g. on paper, until the office has answered you.',
      'The office is open every day but Sunday, and answers within the week at www.example.org.',
      'e.g. the page on forms answers most questions before you need to write to us at all.',
    );
    expect(md).toContain('office@example.org. then keep');
    expect(md).toContain('www.example.org. e.g. the page');
  });
});

describe.each(pdfBackends)('PDF addresses cut at a line end in a table cell (%s)', (backend) => {
  it('joins an address cut after a dot in a ruled table cell', async () => {
    const xs = [72, 140, 220, 420];
    const ys = [700, 680, 646, 626];
    const rules = [...ys.map((y) => `72 ${y} m 420 ${y} l S`), ...xs.map((x) => `${x} 626 m ${x} 700 l S`)].join('\n');
    const cells = [
      textAt(76, 686, 'Name'),
      textAt(144, 686, 'Role'),
      textAt(224, 686, 'Contact'),
      textAt(76, 666, 'Ann Lee'),
      textAt(144, 666, 'Lead'),
      textAt(224, 666, 'ann.lee@research.'),
      textAt(224, 652, 'example.org'),
      textAt(76, 632, 'Raj Patel'),
      textAt(144, 632, 'Analyst'),
      textAt(224, 632, 'raj@example.org'),
    ];
    const md = (await engineFor(backend).parse(pagesPdf([`0.5 w\n${rules}\n${cells.join('\n')}`]))).markdown ?? '';
    expect(md).toContain('| Ann Lee | Lead | ann.lee@research.example.org |');
  });
});
