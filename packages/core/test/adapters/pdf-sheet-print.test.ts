import { describe, expect, it } from 'vitest';
import { pageMarkdown, pdfBackends } from '../helpers/pdf-backends.ts';
import { gridRulings, textAt } from '../helpers/pdf-build.ts';

/**
 * A spreadsheet printed without its grid (LibreOffice Calc's default, xlsx_01 of docling's tests):
 * cells 80 pt wide, a head set flush left in its cell and the figures under it flush right, so a
 * column's figures end two points before the next column's head starts. The columns' gaps ran between a head and the figures under
 * it: the table came out with one column too many, each head over the figures of the column before
 * ("| first | second | third | |" over "| | 1 | 5 | 9 |").
 */
const CELL = 80;
const LEFT = 50;
/** Helvetica's widths of a digit and of a hyphen (the minus), in em. */
const DIGIT = 0.556;
const HYPHEN = 0.333;

/** A word set flush left in column `c`, as Calc insets it. */
const flushLeft = (c: number, y: number, text: string, size: number): string =>
  textAt(LEFT + c * CELL + 1.4, y, text, size);

/** A figure set flush right in column `c`: it ends 1.8 pt before the next column's words start. */
function flushRight(c: number, y: number, text: string, size: number): string {
  const w = [...text].reduce((s, ch) => s + (ch === '-' ? HYPHEN : DIGIT), 0) * size;
  return textAt(LEFT + (c + 1) * CELL - 0.4 - w, y, text, size);
}

/** Heads on the top row, figures under them at Calc's pitch for 12 pt. */
function sheet(heads: string[], body: string[][], size = 12): string[] {
  const ops: string[] = [];
  for (const [c, h] of heads.entries()) ops.push(flushLeft(c, 700, h, size));
  for (const [r, row] of body.entries())
    for (const [c, v] of row.entries()) ops.push(flushRight(c, 684.2 - r * 15.8, v, size));
  return ops;
}

const BODY = [
  ['1', '5', '9'],
  ['2', '4', '6'],
  ['3', '3', '3'],
  ['4', '2', '0'],
  ['5', '1', '-3'],
  ['6', '0', '-6'],
];

describe.each(pdfBackends)('pdf spreadsheet printed without its grid (%s)', (backend) => {
  it('puts each column of figures under the head of its cell', async () => {
    const md = await pageMarkdown(backend, sheet(['first', 'second', 'third'], BODY));
    expect(md).toMatch(/^\| first \| second \| third \|$/m);
    expect(md).toMatch(/^\| 1 \| 5 \| 9 \|$/m);
    expect(md).toMatch(/^\| 6 \| 0 \| -6 \|$/m);
    expect(md).not.toMatch(/^\| {2}\| 1 \|/m);
  });

  it('keeps a row label column of words before the figures', async () => {
    const heads = ['Item', 'Q1', 'Q2', 'Q3'];
    const labels = ['Paper', 'Ink', 'Toner', 'Staples', 'Folders'];
    const ops: string[] = [];
    for (const [c, h] of heads.entries()) ops.push(flushLeft(c, 700, h, 12));
    for (const [r, l] of labels.entries()) {
      ops.push(flushLeft(0, 684.2 - r * 15.8, l, 12));
      for (let c = 1; c < 4; c++) ops.push(flushRight(c, 684.2 - r * 15.8, String(10 * (r + 1) + c), 12));
    }
    const md = await pageMarkdown(backend, ops);
    expect(md).toMatch(/^\| Item \| Q1 \| Q2 \| Q3 \|$/m);
    expect(md).toMatch(/^\| Paper \| 11 \| 12 \| 13 \|$/m);
    expect(md).toMatch(/^\| Folders \| 51 \| 52 \| 53 \|$/m);
  });

  // pdf.js joins "1" and the "5*" 1.8 pt after it into one run, as it joins "1 box" below.
  it.skipIf(backend === 'pdfjs')(
    'keeps a nil and a marked figure, set flush left as text, in their column',
    async () => {
      // Calc sets text flush left: "n/a" and "5*" stand under their head, the figures flush right.
      const body = [
        ['1', '5*', '9'],
        ['2', 'n/a', '6'],
        ['3', '3', '-'],
        ['4', '2', '0'],
      ];
      const ops: string[] = [];
      for (const [c, h] of ['first', 'second', 'third'].entries()) ops.push(flushLeft(c, 700, h, 12));
      for (const [r, row] of body.entries())
        for (const [c, v] of row.entries()) {
          const y = 684.2 - r * 15.8;
          ops.push(/^\d+$/.test(v) ? flushRight(c, y, v, 12) : flushLeft(c, y, v, 12));
        }
      const md = await pageMarkdown(backend, ops);
      expect(md).toMatch(/^\| first \| second \| third \|$/m);
      expect(md).toMatch(/^\| 1 \| 5\\\* \| 9 \|$/m);
      expect(md).toMatch(/^\| 2 \| n\/a \| 6 \|$/m);
      expect(md).toMatch(/^\| 3 \| 3 \| - \|$/m);
    },
  );

  // pdf.js joins a figure and the word 1.8 pt after it into one run ("1 box"): only PDFium's runs
  // show the cells' edge there.
  it.skipIf(backend === 'pdfjs')('parts a column of words set flush left from the figures before it', async () => {
    const ops: string[] = [];
    for (const [c, h] of ['Item', 'Qty', 'Unit', 'Price'].entries()) ops.push(flushLeft(c, 700, h, 12));
    for (const [r, l] of ['Paper', 'Ink', 'Toner', 'Staples'].entries()) {
      const y = 684.2 - r * 15.8;
      ops.push(flushLeft(0, y, l, 12), flushRight(1, y, String(3 * r + 1), 12), flushLeft(2, y, 'box', 12));
      ops.push(flushRight(3, y, `${11 * r + 2}0`, 12));
    }
    const md = await pageMarkdown(backend, ops);
    expect(md).toMatch(/^\| Item \| Qty \| Unit \| Price \|$/m);
    expect(md).toMatch(/^\| Paper \| 1 \| box \| 20 \|$/m);
    expect(md).toMatch(/^\| Staples \| 10 \| box \| 350 \|$/m);
  });

  it("leaves Word's figures set flush left under heads centred over them with their heads", async () => {
    // Cells 100 pt wide, 5.4 pt inset: each head stands right of its own figures, left of the next
    // column's. Pairing a head with the figures after it would put every head one column off.
    const ops: string[] = [textAt(77.4, 700, 'Item', 10)];
    // "Q1" is 13.3 pt wide in Helvetica 10: centred in its cell, it starts 6.7 pt left of the middle.
    for (const [c, h] of ['Q1', 'Q2', 'Q3'].entries()) ops.push(textAt(72 + 100 * (c + 1) + 50 - 6.7, 700, h, 10));
    for (const [r, l] of ['Paper', 'Ink', 'Toner', 'Staples', 'Folders'].entries()) {
      const y = 686 - r * 14;
      ops.push(textAt(77.4, y, l, 10));
      for (let c = 1; c <= 3; c++) ops.push(textAt(72 + 100 * c + 5.4, y, String((r + 1) * 7 * c), 10));
    }
    const md = await pageMarkdown(backend, ops);
    expect(md).not.toMatch(/^\| Paper \| {2}\|/m);
    expect(md).not.toMatch(/\| Item \| {2}\| Q1/m);
    for (const row of md.split('\n').filter((l) => l.startsWith('| Paper'))) expect(row).toMatch(/\| Paper \| 7\b/);
  });
});

/**
 * A sheet printed with its grid, cells too narrow for their text: Calc writes each cell's text cut
 * to about what shows, its last letters reaching a few points past the rule, clipped there, under
 * the next cell's text (xlsx_06: "What are the sp" over the rule, then "The AI is applied for...").
 * Cut at its blank nearest the rule, the hidden "sp" went into the next cell: "spThe AI is applied".
 */
describe.each(pdfBackends)('pdf spreadsheet cells clipped at its grid (%s)', (backend) => {
  // The question column ends 6.6 pt before "What are the sp" does (77.6 pt in Helvetica 11).
  const xs = [54, 146, 262, 326, 398, 540];
  const ys = [710, 694, 678, 662];
  const rows = [
    ['Product', 'Sub-category', 'ID', 'Question', 'Answer'],
    ['Overview', 'Purpose and Use Cas', 'AI 1', 'What is the mai', 'The main objective is...'],
    ['Overview', 'Purpose and Use Cas', 'AI 2', 'What are the sp', 'The AI is applied for...'],
  ];

  it('keeps letters clipped under the next cell in their own cell', async () => {
    const ops = gridRulings(xs, ys);
    for (const [r, row] of rows.entries())
      for (const [c, text] of row.entries()) ops.push(textAt((xs[c] as number) + 1, (ys[r] as number) - 12, text, 11));
    const md = await pageMarkdown(backend, ops, 'auto');
    expect(md).toMatch(
      /^\| Overview \| Purpose and Use Cas \| AI 2 \| What are the sp \| The AI is applied for\.\.\. \|$/m,
    );
    expect(md).toMatch(
      /^\| Overview \| Purpose and Use Cas \| AI 1 \| What is the mai \| The main objective is\.\.\. \|$/m,
    );
  });

  it('still parts two cells written as one run across their rule', async () => {
    // One run holding two cells' words, its blank 121 pt on, at the rule; nothing else drawn there.
    const cols = [54, 176, 300, 400];
    const ops = gridRulings(cols, ys);
    const row = (y: number, cells: string[]): void => {
      for (const [c, text] of cells.entries()) ops.push(textAt((cols[c] as number) + 1, y, text, 11));
    };
    row(698, ['Name', 'Street', 'City']);
    row(682, ['Ann Smith', '12 Elm Road', 'Springfield']);
    ops.push(textAt(55.5, 666, 'Michael or Patricia 1664 Van Buren Ave.', 11), textAt(301, 666, 'Saint Paul', 11));
    const md = await pageMarkdown(backend, ops, 'auto');
    expect(md).toMatch(
      /^\| Michael or Patricia \| 1664 Van Buren Ave\. \| Saint Paul \|$|^\| Michael or Patricia 1664 \| Van Buren Ave\. \| Saint Paul \|$/m,
    );
  });
});
