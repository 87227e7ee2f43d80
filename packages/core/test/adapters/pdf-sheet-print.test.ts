import { describe, expect, it } from 'vitest';
import { pageMarkdown, pdfBackends } from '../helpers/pdf-backends.ts';
import { textAt } from '../helpers/pdf-build.ts';

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
});
