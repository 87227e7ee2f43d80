import { maxOf } from '../util/arrays.ts';
import type { Table, TableCell } from './types.ts';

/** One slot of an expanded table grid. `origin` is false for slots covered by a span. */
export interface GridSlot {
  cell: TableCell;
  origin: boolean;
  row: number;
  col: number;
}

/**
 * Expands a table's spans into a dense rectangular grid. Ragged rows are padded with empty,
 * synthesized cells so every renderer sees the same column count.
 */
export function tableGrid(table: Table): GridSlot[][] {
  const grid: (GridSlot | undefined)[][] = [];
  table.children.forEach((tr, r) => {
    grid[r] ??= [];
    let c = 0;
    for (const cell of tr.children) {
      const line = grid[r] as (GridSlot | undefined)[];
      while (line[c]) c++;
      const rs = Math.max(1, cell.rowSpan ?? 1);
      const cs = Math.max(1, cell.colSpan ?? 1);
      for (let dr = 0; dr < rs; dr++) {
        // Row spans never extend past the table's last row.
        if (r + dr >= table.children.length) break;
        grid[r + dr] ??= [];
        for (let dc = 0; dc < cs; dc++) {
          (grid[r + dr] as (GridSlot | undefined)[])[c + dc] = {
            cell,
            origin: dr === 0 && dc === 0,
            row: r,
            col: c,
          };
        }
      }
      c += cs;
    }
  });
  const width = maxOf(
    grid.map((l) => l.length),
    0,
  );
  return grid.map((line, r) => {
    const out: GridSlot[] = [];
    for (let c = 0; c < width; c++) {
      out.push(line[c] ?? { cell: { type: 'tableCell', children: [] }, origin: true, row: r, col: c });
    }
    return out;
  });
}
