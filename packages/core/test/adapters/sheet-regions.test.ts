import { describe, expect, it } from 'vitest';
import { findRegions, type GridCell, type Region } from '../../src/adapters/sheet/regions.ts';

/** A deterministic pseudo-random sequence (the same grids on every run). */
function sequence(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

const cell = (r: number, c: number, rowSpan = 1, colSpan = 1): GridCell => ({
  r,
  c,
  text: `${r},${c}`,
  rowSpan,
  colSpan,
});
const sorted = (regions: Region[]) =>
  [...regions].sort((a, b) => a.r0 - b.r0 || a.c0 - b.c0 || a.r1 - b.r1 || a.c1 - b.c1);

describe('findRegions', () => {
  it('splits cells into blocks of touching cells, merges counted as filled', () => {
    // Two blocks side by side with a blank column between, and one below joined by a merge.
    const cells = [cell(0, 0), cell(0, 1), cell(0, 3), cell(1, 0), cell(1, 3), cell(3, 1, 2, 1), cell(4, 2)];
    expect(findRegions(cells)).toEqual([
      { r0: 0, c0: 0, r1: 1, c1: 1 },
      { r0: 0, c0: 3, r1: 1, c1: 3 },
      { r0: 3, c0: 1, r1: 4, c1: 2 },
    ]);
    // Diagonal neighbours do not touch; an L-shape's box taking in another block is merged with it.
    expect(findRegions([cell(0, 0), cell(1, 1)])).toEqual([
      { r0: 0, c0: 0, r1: 0, c1: 0 },
      { r0: 1, c0: 1, r1: 1, c1: 1 },
    ]);
    expect(findRegions([cell(0, 0), cell(0, 1), cell(0, 2), cell(1, 0), cell(2, 0), cell(2, 2)])).toEqual([
      { r0: 0, c0: 0, r1: 2, c1: 2 },
    ]);
  });

  it('finds the same blocks for cells in reading order (the row walk) as for any other order (the position search)', () => {
    const next = sequence(7);
    for (let t = 0; t < 2000; t++) {
      const rows = 1 + Math.floor(next() * 9);
      const cols = 1 + Math.floor(next() * 9);
      const density = next();
      const cells: GridCell[] = [];
      for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) if (next() < density) cells.push(cell(r, c));
      const shuffled = cells
        .map((c) => [next(), c] as const)
        .sort((a, b) => a[0] - b[0])
        .map(([, c]) => c);
      expect(sorted(findRegions(cells))).toEqual(sorted(findRegions(shuffled)));
    }
  });
});
