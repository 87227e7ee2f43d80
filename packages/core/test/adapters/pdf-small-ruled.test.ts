import { describe, expect, it } from 'vitest';
import { pageMarkdown, pdfBackends } from '../helpers/pdf-backends.ts';
import { gridRulings as grid, textAt } from '../helpers/pdf-build.ts';

/**
 * Small ruled tables, as a browser prints an HTML table with borders or a word processor a table of
 * two rows: a grid of two columns with one or two rows under its head. The page's text alone asked
 * for no rulings (fewer than three lines of two runs), so the grid was read as loose lines ("A B",
 * "1.5 2.5"). PDFium's page objects are cheap: a page with a line of two runs asks for them, and a
 * plain grid of two rows or more is a table. pdf.js asks for rulings only where lines break into
 * three runs (its graphics cost as much as its text), so these run on PDFium only. A grid headed by
 * three headings or more is a table whatever its body holds (merged cells, empty rows); a narrower
 * one must be plain, every cell filled and one column wide, as a figure's boxes are not.
 */

/** A title and a paragraph over the table, a paragraph under it. */
const around = (under: number): string[] => [
  textAt(72, 720, 'Header', 18, 'F2'),
  textAt(72, 690, 'This is the first paragraph.'),
  textAt(72, under, 'After table'),
];

describe.each(pdfBackends)('small ruled tables (%s)', (backend) => {
  it.skipIf(backend !== 'pdfium').each(['fast', 'auto'] as const)(
    'reads a grid of two columns and two rows as a table (%s)',
    async (mode) => {
      const ops = [
        ...around(560),
        ...grid([72, 160, 248], [670, 630, 590]),
        textAt(80, 646, 'Name'),
        textAt(168, 646, 'Count'),
        textAt(80, 606, 'Widgets'),
        textAt(168, 606, '1,250'),
      ];
      expect((await pageMarkdown(backend, ops, mode)).trim()).toBe(
        [
          '# Header',
          '',
          'This is the first paragraph.',
          '',
          '| Name | Count |',
          '| --- | --- |',
          '| Widgets | 1,250 |',
          '',
          'After table',
        ].join('\n'),
      );
    },
  );

  it.skipIf(backend !== 'pdfium')(
    'reads a grid whose second row holds three lines beside a value set in its middle',
    async () => {
      // Only the head is a line of two runs: the value stands between two of the list's lines.
      const ops = [
        ...around(520),
        ...grid([72, 200, 288], [670, 630, 550]),
        textAt(80, 646, 'Part'),
        textAt(208, 646, 'Stock'),
        textAt(80, 606, 'First item'),
        textAt(80, 590, 'Second item'),
        textAt(80, 574, 'Third item'),
        textAt(208, 583, '12'),
      ];
      expect(await pageMarkdown(backend, ops)).toContain(
        ['| Part | Stock |', '| --- | --- |', '| First item Second item Third item | 12 |'].join('\n'),
      );
    },
  );

  it.skipIf(backend !== 'pdfium')('leaves a box around a paragraph under a line of two runs as text', async () => {
    // The line of two runs (not the running head: the page's first line) asks for rulings; one box
    // round prose is no table.
    const ops = [
      textAt(72, 760, 'Annual report'),
      textAt(480, 760, 'Page 3'),
      ...around(560),
      textAt(72, 676, 'Prepared by: A. Smith'),
      textAt(300, 676, 'Date: 3 May'),
      ...grid([72, 400], [670, 600]),
      textAt(80, 650, 'Every office sent its figures on time this year, and'),
      textAt(80, 636, 'the totals below include all of them.'),
    ];
    const md = await pageMarkdown(backend, ops);
    expect(md).not.toContain('|');
    expect(md).toContain('Every office sent its figures on time this year, and the totals below include all of them.');
  });

  it.skipIf(backend !== 'pdfium').each(['fast', 'auto'] as const)(
    'reads a grid of cells filled edge to edge under a head of four as a table, its merged and empty cells too (%s)',
    async (mode) => {
      // A slide's table as a presentation program prints it: each cell a filled box, no strokes; a
      // cell merged over two rows and two columns, a last row left empty. Only the head breaks into
      // more than two runs.
      const xs = [72, 180, 288, 396, 504];
      const cell = (x0: number, x1: number, y0: number, y1: number) => `${x0} ${y0} ${x1 - x0} ${y1 - y0} re f`;
      const ops = [
        ...around(480),
        '0.8 g',
        ...xs.slice(1).map((x, i) => cell(xs[i] as number, x, 610, 640)),
        cell(72, 180, 580, 610),
        cell(180, 396, 550, 610),
        cell(396, 504, 580, 610),
        cell(72, 180, 550, 580),
        cell(396, 504, 550, 580),
        ...xs.slice(1).map((x, i) => cell(xs[i] as number, x, 520, 550)),
        '0 g',
        ...['Column 1', 'Column 2', 'Column 3', 'Column 4'].map((t, i) => textAt((xs[i] as number) + 6, 622, t)),
        textAt(78, 592, 'Row 1'),
        textAt(78, 562, 'Row 2'),
        textAt(200, 577, 'Merged cells'),
      ];
      expect(await pageMarkdown(backend, ops, mode)).toContain(
        [
          '| Column 1 | Column 2 | Column 3 | Column 4 |',
          '| --- | --- | --- | --- |',
          '| Row 1 | Merged cells | Merged cells |  |',
          '| Row 2 | Merged cells | Merged cells |  |',
          '|  |  |  |  |',
        ].join('\n'),
      );
    },
  );

  it.each(['fast', 'auto'] as const)('leaves three tabs over a panel of prose as text (%s)', async (mode) => {
    // One such grid on a page of lines of two runs, vetted as a small grid is; two on a page with
    // two lines of three runs, read as any ruled grid is (pdf.js too, in auto mode).
    const box = (x: number, y: number, w: number, h: number) => `0.5 w ${x} ${y} ${w} ${h} re S`;
    const prose = 'Every office sent its figures on time this year, and the totals include all of them.';
    const panel = (top: number, heads: string[]) => [
      ...heads.map((_, i) => box(72 + 150 * i, top - 24, 150, 24)),
      box(72, top - 124, 450, 100),
      ...heads.map((h, i) => textAt(80 + 150 * i, top - 16, h, 11, 'F2')),
      ...Array.from({ length: 5 }, (_, i) => textAt(80, top - 44 - 14 * i, prose)),
    ];
    const author = [textAt(72, 676, 'Author:'), textAt(300, 676, 'J. Smith')];
    const one = [...around(300), ...author, ...panel(664, ['Overview', 'Schedule', 'Budget'])];
    const two = [...one, ...panel(500, ['Scope', 'Risks', 'Staff'])];
    for (const ops of [one, two]) {
      const md = await pageMarkdown(backend, ops, mode);
      expect(md).not.toContain('|');
      expect(md.split('Every office sent').length - 1).toBe(ops === one ? 5 : 10);
    }
  });

  it.each(['fast', 'auto'] as const)(
    'keeps a space between a cell heading set large and the text under it (%s)',
    async (mode) => {
      // Three columns: both backends read the grid in auto mode. "A" set large ends as far right as
      // the line under it does within one of its own letters, which read as one word broken at the
      // cell's edge ("Atext").
      const ops = [
        ...around(500),
        ...grid([72, 160, 248, 336], [670, 610, 570, 530]),
        textAt(80, 646, 'A', 18, 'F2'),
        textAt(80, 620, 'text'),
        textAt(168, 636, 'B'),
        textAt(256, 636, 'C'),
        textAt(80, 586, '1.5'),
        textAt(168, 586, '2.5'),
        textAt(256, 586, '3.5'),
        textAt(80, 546, '4.5'),
        textAt(168, 546, '5.5'),
        textAt(256, 546, '6.5'),
      ];
      const md = await pageMarkdown(backend, ops, mode);
      if (backend === 'pdfjs' && mode === 'fast') return expect(md).not.toContain('Atext');
      expect(md).toContain('| **A** text | B | C |');
    },
  );

  it.each(['fast', 'auto'] as const)(
    'keeps two words wrapped at their blank in a narrow cell apart, and a word broken at its edge whole (%s)',
    async (mode) => {
      // "Merged" over "column" end about as far right as each other, well short of the rule at 150:
      // wrapped at the blank. "Parastratiosph" over "ecomyiastratio" reach the rule at 228: one word
      // broken there.
      const ops = [
        ...around(470),
        ...grid([72, 150, 228, 318], [670, 640, 600, 570, 540]),
        textAt(76, 652, 'Kind'),
        textAt(154, 652, 'Name'),
        textAt(232, 652, 'Sound'),
        textAt(76, 622, 'Merged'),
        textAt(76, 610, 'column'),
        textAt(154, 622, 'Parastratiosph'),
        textAt(154, 610, 'ecomyiastratio'),
        textAt(232, 622, 'Bzzz'),
        textAt(76, 582, 'Plain'),
        textAt(154, 582, 'Cat'),
        textAt(232, 582, 'Meow'),
        textAt(76, 552, 'Plain'),
        textAt(154, 552, 'Dog'),
        textAt(232, 552, 'Woof'),
      ];
      const md = await pageMarkdown(backend, ops, mode);
      if (backend === 'pdfjs' && mode === 'fast') return expect(md).not.toContain('Mergedcolumn');
      expect(md).toContain('| Merged column | Parastratiosphecomyiastratio | Bzzz |');
      // A footnote mark set small at the piece's end: the line's size is its text's.
      const marked = await pageMarkdown(backend, [...ops, textAt(219, 614, '1', 6)], mode);
      expect(marked).toContain('| Merged column | Parastratiosphecomyiastratio¹ | Bzzz |');
    },
  );
});
