import { describe, expect, it } from 'vitest';
import { layoutWordPages, type PlacedWord, renderMarkdown, tree } from '../../src/index.ts';

/** Words of one line, each `text` split on spaces and set 5 points per character from `x`. */
const line = (x: number, base: number, text: string, size = 10): PlacedWord[] => {
  const out: PlacedWord[] = [];
  let at = x;
  for (const w of text.split(' ')) {
    out.push({ text: w, x0: at, x1: at + w.length * 5, base, size });
    at += (w.length + 1) * 5;
  }
  return out;
};

const markdown = (pages: Parameters<typeof layoutWordPages>[0]): string =>
  renderMarkdown(tree.root(layoutWordPages(pages)));

describe('layoutWordPages (OCR words through the PDF adapter layout)', () => {
  it('builds a ruled table from the given rulings: wrapped cells stay in their row', () => {
    const words = [
      ...line(78, 112, 'Part'),
      ...line(168, 112, 'Description'),
      ...line(348, 112, 'Price'),
      ...line(78, 142, 'A-100'),
      ...line(168, 142, 'Steel hinge,'),
      ...line(168, 156, 'zinc plated'),
      ...line(348, 142, '$4.20'),
      ...line(78, 186, 'B-220'),
      ...line(168, 186, 'Brass latch'),
      ...line(348, 186, '$7.95'),
      ...line(78, 216, 'C-310'),
      ...line(168, 216, 'Oak shelf bracket,'),
      ...line(168, 230, 'pair, screws'),
      ...line(168, 244, 'included'),
      ...line(348, 216, '$12.50'),
    ];
    const ys = [100, 120, 164, 200, 252];
    const xs = [72, 162, 342, 432];
    const rules = [
      ...ys.map((y) => ({ x0: 72, y0: y, x1: 432, y1: y })),
      ...xs.map((x) => ({ x0: x, y0: 100, x1: x, y1: 252 })),
    ];
    const page = { number: 1, width: 612, height: 792, words };
    expect(markdown([{ ...page, rules }]).trim()).toBe(
      [
        '| Part | Description | Price |',
        '| --- | --- | --- |',
        '| A-100 | Steel hinge, zinc plated | $4.20 |',
        '| B-220 | Brass latch | $7.95 |',
        '| C-310 | Oak shelf bracket, pair, screws included | $12.50 |',
      ].join('\n'),
    );
    // Without the rulings the wrapped lines are guesswork: the three-line cell is not one cell.
    expect(markdown([page])).not.toContain('| C-310 | Oak shelf bracket, pair, screws included | $12.50 |');
  });

  it('a page number in the corner does not split a sparse last column off a borderless table', () => {
    const prose = Array.from({ length: 30 }, (_, k) =>
      line(72, 290 + k * 14, 'Body text of the report runs down the page here'),
    );
    const rows = [
      ['Test', 'Result', 'Range', 'Flag'],
      ['Glucose', '118 mg/dL', '70-100 mg/dL', 'HIGH'],
      ['HbA1c', '6.8%', '<5.7%', 'HIGH'],
      ['HDL', '48 mg/dL', '>40 mg/dL', ''],
      ['TSH', '2.4 mIU/L', '0.4-4.0 mIU/L', ''],
    ];
    const table = rows.flatMap((cells, r) =>
      cells.flatMap((t, c) => (t ? line([72, 180, 300, 480][c] as number, 200 + r * 16, t) : [])),
    );
    const words = [...prose.flat(), ...table, ...line(500, 770, 'Page 2 of 3')];
    const md = markdown([{ number: 1, width: 612, height: 792, words }]);
    expect(md).toContain('| Test | Result | Range | Flag |');
    expect(md).toContain('| Glucose | 118 mg/dL | 70-100 mg/dL | HIGH |');
    expect(md).toContain('| TSH | 2.4 mIU/L | 0.4-4.0 mIU/L |  |');
  });
});
