import { describe, expect, it } from 'vitest';
import { layoutFromJoins } from '../../src/adapters/pdf/tables/cells.ts';
import { findGrids } from '../../src/adapters/pdf/tables/rulings.ts';
import { cutsAcross } from '../../src/adapters/pdf/tables/tokens.ts';

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
