import { describe, expect, it } from 'vitest';
import { pageMarkdown, pdfBackends } from '../helpers/pdf-backends.ts';
import { textAt } from '../helpers/pdf-build.ts';

/**
 * A word processor's outline list printed to PDF: items numbered "1.", "1.1.", "1.1.1.", each level
 * set further in, the number a tab's width before its text. "1.1." is no enumerator on its own (a
 * heading's section number looks so), and the items after the first were read as the first one's
 * wrapped lines: "1. Appendix A: Glossary 1.1. Section A.1 1.1.1. Detail A.1.1 …" in one item.
 */

/** Number at `x`, text at `tx`, one row each, 14 pt apart from y = 690. */
function rows(entries: readonly (readonly [number, string, number, string])[]): string[] {
  const ops: string[] = [];
  let y = 690;
  for (const [x, n, tx, t] of entries) {
    ops.push(textAt(x, y, n), textAt(tx, y, t));
    y -= 14;
  }
  return ops;
}

const INTRO = [
  textAt(72, 740, 'The appendices below hold the terms and constraints the rest of this plan refers to.'),
  textAt(72, 726, 'Each is kept up to date.'),
];

describe.each(pdfBackends)('pdf outline lists (%s)', (backend) => {
  it('reads an outline numbered by levels as a nested list, each number kept', async () => {
    const ops = [
      ...INTRO,
      ...rows([
        [90, '1.', 106, 'Appendix A: Glossary'],
        [120, '1.1.', 160, 'Section A.1'],
        [155, '1.1.1.', 205, 'Detail A.1.1'],
        [155, '2.3.1.', 205, 'Hardware Constraints'],
        [155, '2.3.2.', 205, 'Software Constraints'],
        [190, '2.3.2.1.', 240, 'First sub-item at this level'],
        [190, '2.3.2.2.', 240, 'Second sub-item at this level'],
      ]),
      textAt(72, 560, 'REFERENCES', 14),
    ];
    expect((await pageMarkdown(backend, ops)).trim()).toBe(
      [
        'The appendices below hold the terms and constraints the rest of this plan refers to. Each is kept up to date.',
        '',
        '1. Appendix A: Glossary',
        '   - 1.1. Section A.1',
        '     - 1.1.1. Detail A.1.1',
        '     - 2.3.1. Hardware Constraints',
        '     - 2.3.2. Software Constraints',
        '       - 2.3.2.1. First sub-item at this level',
        '       - 2.3.2.2. Second sub-item at this level',
        '',
        '# REFERENCES',
      ].join('\n'),
    );
  });

  it('reads an outline with no "1." over it, its numbers set flush', async () => {
    const ops = [
      ...INTRO,
      ...rows([
        [72, '4.1.', 110, 'Scope of the works'],
        [72, '4.2.', 110, 'Programme and phasing'],
        [72, '4.3.', 110, 'Hand-over'],
      ]),
    ];
    expect(await pageMarkdown(backend, ops)).toContain(
      ['- 4.1. Scope of the works', '- 4.2. Programme and phasing', '- 4.3. Hand-over'].join('\n'),
    );
  });

  it("reads a contents page's entries numbered by levels with no closing dot as a list", async () => {
    const ops = [
      ...INTRO,
      ...rows([
        [72, '2.3.59.2', 130, 'Command Code BMFOL Overview'],
        [72, '2.3.59.3', 130, 'Command Code BMFOL Basics'],
        [72, '2.3.59.4', 130, 'Restoring RRR Tax Modules to Master File'],
      ]),
    ];
    expect(await pageMarkdown(backend, ops)).toContain(
      [
        '- 2.3.59.2 Command Code BMFOL Overview',
        '- 2.3.59.3 Command Code BMFOL Basics',
        '- 2.3.59.4 Restoring RRR Tax Modules to Master File',
      ].join('\n'),
    );
  });

  it('leaves measures opening lines one under the other as text', async () => {
    const ops = [
      ...INTRO,
      ...rows([
        [72, '3.5', 90, 'mm steel plate for the floor of the shed,'],
        [72, '4.2', 90, 'mm aluminium sheet for its roof and sides.'],
      ]),
    ];
    expect(await pageMarkdown(backend, ops)).not.toMatch(/^\s*- \d/m);
  });

  it('keeps an item after a wrapped one in the outline', async () => {
    const ops = [
      ...INTRO,
      textAt(90, 690, '1.'),
      textAt(106, 690, 'Appendix A: Glossary'),
      textAt(120, 676, '1.1.'),
      textAt(160, 676, 'Section A.1 covers the terms used in the plan and how each of them is to be'),
      textAt(160, 662, 'read by the contractor and the client alike.'),
      textAt(120, 648, '1.2.'),
      textAt(160, 648, 'Section A.2'),
    ];
    expect(await pageMarkdown(backend, ops)).toContain(
      [
        '1. Appendix A: Glossary',
        '   - 1.1. Section A.1 covers the terms used in the plan and how each of them is to be read by the contractor and the client alike.',
        '   - 1.2. Section A.2',
      ].join('\n'),
    );
  });

  it('leaves figures opening the wrapped lines of a paragraph in it', async () => {
    const ops = [
      ...INTRO,
      textAt(72, 690, 'The survey counted households in each district of the region and found that about'),
      textAt(72, 676, '2.5 Million of them had no broadband, against the national figure of roughly'),
      textAt(72, 662, '1.2 Million two years earlier, a rise the report puts down to new building.'),
    ];
    expect(await pageMarkdown(backend, ops)).toContain(
      'found that about 2.5 Million of them had no broadband, against the national figure of roughly 1.2 Million two',
    );
  });

  it('leaves a numbered heading in bold under another, and a section number over lettered items, out', async () => {
    const body = textAt(72, 640, 'We asked every office for its figures and counted them twice over the summer.');
    const stacked = await pageMarkdown(backend, [
      ...INTRO,
      textAt(72, 690, '2. Methods', 10, 'F2'),
      textAt(72, 676, '2.1. Setup', 10, 'F2'),
      body,
    ]);
    expect(stacked).toContain('**2.1. Setup**');
    expect(stacked).not.toMatch(/^\s*- 2\.1\./m);
    const lettered = await pageMarkdown(backend, [
      ...INTRO,
      textAt(72, 690, '3.2. Requirements'),
      textAt(72, 676, '(a) The system shall log every request.'),
      textAt(72, 662, '(b) The system shall keep logs for a year.'),
      body,
    ]);
    expect(lettered).toContain(
      [
        '3.2. Requirements',
        '',
        '- (a) The system shall log every request.',
        '- (b) The system shall keep logs for a year.',
      ].join('\n'),
    );
  });

  it('leaves paragraphs each opening with a section number as paragraphs', async () => {
    // A paper's run-in heads (a1977-backus-p21, scanned): "13.3.3 Summary of …" then four more
    // lines, "13.3.4 Cells, …" after them, all at one pitch.
    const para = (n: string, head: string): string[] => [
      `${n} ${head} So far we have shown how the functions map atoms and sequences`,
      'into functions and how those functions map objects into expressions, and',
      'all such functions can be extended so that they are defined for all of the',
      'expressions there are. With such extensions their properties can be summed',
      'up as follows, in a table of their own.',
    ];
    const lines = [...para('13.3.3', 'Summary of the properties.'), ...para('13.3.4', 'Cells and storing.')];
    const md = await pageMarkdown(
      backend,
      lines.map((l, i) => textAt(72, 700 - 14 * i, l)),
    );
    expect(md).not.toMatch(/^\s*- 13\./m);
    expect(md).toContain('13.3.3 Summary of the properties.');
  });

  it('leaves a section number over its paragraph as text', async () => {
    const ops = [
      ...INTRO,
      textAt(72, 690, '2.3. Methods'),
      textAt(72, 672, 'We asked every office for its figures and counted them twice over the summer months,'),
      textAt(72, 658, 'once by hand and once by the new system.'),
    ];
    const md = await pageMarkdown(backend, ops);
    expect(md).not.toMatch(/^\s*- 2\.3\./m);
    expect(md).toContain('2.3. Methods');
  });
});
