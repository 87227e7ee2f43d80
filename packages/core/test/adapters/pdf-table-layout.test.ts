import { describe, expect, it } from 'vitest';
import { layoutFromJoins } from '../../src/adapters/pdf/tables/cells.ts';

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
