import { describe, expect, it } from 'vitest';
import type { Vocabulary } from '../../src/adapters/pdf/hyphens.ts';
import { runVocabulary } from '../../src/adapters/pdf/hyphens.ts';
import type { PageModel, TableRegion, TextItem } from '../../src/adapters/pdf/model.ts';
import { borderlessTables, TRY_BUDGET } from '../../src/adapters/pdf/tables/borderless.ts';
import { fillLayout, layoutFromJoins } from '../../src/adapters/pdf/tables/cells.ts';
import { findGrids } from '../../src/adapters/pdf/tables/rulings.ts';
import { cutsAcross } from '../../src/adapters/pdf/tables/tokens.ts';
import { renderMarkdown } from '../../src/index.ts';
import { root } from '../../src/tree/build.ts';
import { blockText } from '../../src/tree/walk.ts';
import { textRun } from '../helpers/text-items.ts';

const xs = [0, 10, 20, 30];
const ys = [0, 10, 20, 30];

describe('pdf table layout from missing rulings', () => {
  it('merges a rectangle of slots into one spanning cell', () => {
    // Slots (0,0), (0,1), (1,0), (1,1) joined: a 2×2 cell, the rest single.
    const layout = layoutFromJoins(
      xs,
      ys,
      (r, c) => r < 2 && c === 0,
      (r, c) => r === 0 && c < 2,
    );
    expect(layout.cells[0]).toEqual({ r: 0, c: 0, rowSpan: 2, colSpan: 2 });
    expect(layout.cells).toHaveLength(1 + 5);
  });

  it('keeps an L of joined slots as single slots instead of a box over its neighbours', () => {
    // Row 0 joined across, and column 0 joined down: an L whose bounding box is the whole table.
    const layout = layoutFromJoins(
      xs,
      ys,
      (r) => r === 0,
      (_r, c) => c === 0,
    );
    expect(layout.cells).toHaveLength(9);
    expect(layout.cells.every((c) => c.rowSpan === 1 && c.colSpan === 1)).toBe(true);
  });
});

describe('pdf rulings joined into lines', () => {
  it('joins the pieces of one rule whatever fraction of a point apart they sit', () => {
    // One row rule drawn as three pieces: the middle one a hair higher sorts first.
    const segments = [
      { x0: 150, y0: 100.04, x1: 250, y1: 100.04 },
      { x0: 30, y0: 100.1, x1: 150, y1: 100.1 },
      { x0: 250, y0: 100.12, x1: 400, y1: 100.12 },
      { x0: 30, y0: 60, x1: 400, y1: 60 },
      ...[30, 150, 250, 400].map((x) => ({ x0: x, y0: 60, x1: x, y1: 140 })),
    ];
    const page = { number: 1, width: 612, height: 792, items: [], segments, rects: [] };
    const [grid] = findGrids(page);
    const rule = grid?.h.filter((l) => Math.abs(l.at - 100) < 1);
    expect(rule?.map((l) => [l.from, l.to])).toEqual([[30, 400]]);
  });
});

describe('contents-list cuts by line', () => {
  it('cutsAcross gives the cuts a pass over the list would, in the list order, sorted once per list', () => {
    // A deterministic spread of cuts over 200 lines, several a line, some on a row's edges.
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const cuts = Array.from({ length: 3000 }, () => {
      const x0 = next() * 500;
      return { x0, x1: x0 + 10, y: Math.round(next() * 2000 * 4) / 4 };
    });
    for (let top = -5; top < 2010; top += 3.25) {
      const bottom = top + 1 + next() * 14;
      const want = cuts.filter((c) => c.y > top && c.y < bottom);
      expect(cutsAcross(cuts, top, bottom)).toEqual(want);
    }
    expect(cutsAcross([], 0, 10)).toEqual([]);
    // A list that grew after it was first asked is sorted again.
    const grown = cuts.slice(0, 10);
    cutsAcross(grown, 0, 2000);
    grown.push({ x0: 1, x1: 2, y: 1000.5 });
    expect(cutsAcross(grown, 1000, 1001)).toContainEqual({ x0: 1, x1: 2, y: 1000.5 });
  });
});

describe('pdf table cells from their runs', () => {
  const grid = (rows: number, cols: number, widths: number[]) => {
    const xsOf = [0];
    for (const w of widths) xsOf.push((xsOf[xsOf.length - 1] as number) + w);
    const cells: { r: number; c: number; rowSpan: number; colSpan: number }[] = [];
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) cells.push({ r, c, rowSpan: 1, colSpan: 1 });
    return { xs: xsOf, ys: [0, 20, 40, 60, 80].slice(0, rows + 1), cells };
  };
  const fill = (layout: ReturnType<typeof grid>, items: TextItem[]) =>
    fillLayout(
      layout,
      items,
      items.map((_, i) => i),
      true,
      () => ({}) as Vocabulary,
    ).table;
  const valuesOf = (t: ReturnType<typeof fill>) =>
    t.children.map((r) => r.children.map((c) => (c.header ? 'th ' : '') + blockText(c)));
  const small = (s: string, x: number, y: number): TextItem => ({
    ...textRun(s, x, y),
    size: 7,
    h: 7,
    w: s.length * 3.5,
  });

  it('raises a footnote mark of figures and commas, so it cannot run into the figure it follows', () => {
    const items = [textRun('Region', 2, 4), textRun('2023', 102, 4), textRun('2024', 202, 4)];
    items.push(textRun('North', 2, 24), textRun('15,110', 102, 24), small('1,2', 138, 25), textRun('16,200', 202, 24));
    items.push(textRun('South', 2, 44), textRun('9,110', 102, 44), small('a', 132, 45), textRun('7,500', 202, 44));
    const t = fill(grid(3, 3, [100, 100, 100]), items);
    expect(valuesOf(t)[1]).toEqual(['North', '15,110¹,²', '16,200']);
    expect(valuesOf(t)[2]).toEqual(['South', '9,110ᵃ', '7,500']);
  });

  it('links the linked copy of a text a cell holds twice, not the first', () => {
    const items = [textRun('Notes', 2, 4), textRun('A', 302, 4), textRun('B', 402, 4)];
    for (let r = 1; r < 4; r++) items.push(textRun('x', 302, 4 + 20 * r), textRun('y', 402, 4 + 20 * r));
    const plain = textRun('Download the data, then the', 2, 24);
    const linked = { ...textRun('data', 2 + plain.w + 3, 24), href: 'https://example.org/data.csv' };
    items.push(plain, linked, textRun('plain', 2, 44), textRun('plain', 2, 64));
    const t = fill(grid(4, 3, [300, 100, 100]), items);
    expect(renderMarkdown(root([t])).split('\n')[2]).toBe(
      '| Download the data, then the [data](https://example.org/data.csv) | x | y |',
    );
  });

  it('makes the sub-headings under a grouped heading header cells, not the rows a side label runs down beside', () => {
    // "Europe" runs down all four rows; "Sales" groups the two year columns.
    const layout = {
      xs: [0, 100, 200, 300],
      ys: [0, 20, 40, 60, 80],
      cells: [
        { r: 0, c: 0, rowSpan: 4, colSpan: 1 },
        { r: 0, c: 1, rowSpan: 1, colSpan: 2 },
        ...[1, 2, 3].flatMap((r) => [1, 2].map((c) => ({ r, c, rowSpan: 1, colSpan: 1 }))),
      ],
    };
    const items = [
      textRun('Europe', 10, 34),
      textRun('Sales', 180, 4),
      textRun('2023', 110, 24),
      textRun('2024', 210, 24),
    ];
    items.push(textRun('15', 110, 44), textRun('17', 210, 44), textRun('16', 110, 64), textRun('18', 210, 64));
    expect(valuesOf(fill(layout as ReturnType<typeof grid>, items))).toEqual([
      ['th Europe', 'th Sales'],
      ['th 2023', 'th 2024'],
      ['15', '17'],
      ['16', '18'],
    ]);
  });
});

/**
 * Sets a table of codes on a page at `top`, below its other rows, and gives the page (tall enough
 * that the table stands clear of the bottom margin, where running feet sit) and the table's Markdown.
 */
function withCodesTable(items: TextItem[], top: number): { page: PageModel; md: string } {
  const codes = [
    ['Code', 'Name', 'Rate'],
    ['A1', 'Alpha', '1.5'],
    ['B2', 'Beta', '2.5'],
    ['C3', 'Gamma', '3.5'],
    ['D4', 'Delta', '4.5'],
  ];
  for (const [r, row] of codes.entries())
    for (const [c, text] of row.entries()) items.push(textRun(text, 40 + c * 90, top + r * 14));
  const page = { number: 1, width: 612, height: (top + 100) / 0.9, items, segments: [], rects: [] };
  const md = codes.map((row) => `| ${row.join(' | ')} |`);
  md.splice(1, 0, '| --- | --- | --- |');
  return { page, md: md.join('\n') };
}

const markdownOf = (t: TableRegion | undefined): string => renderMarkdown(root([(t as TableRegion).table])).trim();

describe('unruled table tries on a page of near-tables', () => {
  it('stops retrying failed tries past the budget, and still finds the table after them', () => {
    // 600 lines of three worded cells each (prose side by side: a run of rows that is no table), then
    // a real table of codes. Each failed try would be read again from its next line to the run's
    // end: 160,000 rows read without the budget.
    const items: TextItem[] = [];
    const lines = 600;
    for (let k = 0; k < lines; k++) {
      items.push(textRun(`set in ${String(k).padStart(3, '0')} parts`, 40, 40 + k * 14));
      items.push(textRun('and so on', 160, 40 + k * 14));
      items.push(textRun('the words run on', 240, 40 + k * 14));
    }
    const { page, md } = withCodesTable(items, 40 + lines * 14 + 60);
    const vocab = () => runVocabulary(items)();
    const tries = { rows: 0 };
    const tables = borderlessTables(page, new Set(), vocab, tries);
    const rows = lines + 5;
    // The page reaches the budget, and the try that crosses it is the last read to its end.
    expect(tries.rows).toBeGreaterThan(TRY_BUDGET * rows);
    expect(tries.rows).toBeLessThanOrEqual(TRY_BUDGET * rows + 500 + rows);
    expect(tables).toHaveLength(1);
    expect(markdownOf(tables[0])).toBe(md);
  });
});

describe('unruled tables on a page of thousands of rows', () => {
  it('judges a last column of thousands of rows once, and finds the table after them', () => {
    // 3,000 rows of three chunks whose last cells run long on every other row, lower case: no column
    // of short cells (half of them long), so each row's column was counted against every row again.
    const items: TextItem[] = [];
    const lines = 3000;
    for (let k = 0; k < lines; k++) {
      const y = 40 + k * 14;
      items.push(textRun(`set in ${String(k).padStart(4, '0')} parts`, 40, y));
      items.push(textRun('and so on', 160, y));
      items.push(textRun(k % 2 ? 'the long words of a description run on past it' : 'Short', 240, y));
    }
    const { page, md } = withCodesTable(items, 40 + lines * 14 + 60);
    const tables = borderlessTables(page, new Set(), () => runVocabulary(items)(), { rows: 0 });
    expect(tables).toHaveLength(1);
    expect(markdownOf(tables[0])).toBe(md);
  }, 120_000);
});
