/**
 * Splits a sheet's non-empty cells into rectangular blocks: cells touching (edge to edge, merges
 * counted as filled) form one block, so regions separated by fully empty rows/columns become
 * separate tables.
 */

export interface GridCell {
  r: number;
  c: number;
  text: string;
  rowSpan: number;
  colSpan: number;
}

export interface Region {
  r0: number;
  c0: number;
  r1: number;
  c1: number;
}

export function findRegions(cells: GridCell[]): Region[] {
  // Numeric position keys are far cheaper than strings; the stride covers the widest column used.
  const stride = cells.reduce((w, c) => Math.max(w, c.c + c.colSpan + 2), 16384);
  const key = (r: number, c: number) => r * stride + c;
  // Every position a cell (or its merge area) covers, pointing at the owning cell's index.
  const filled = new Map<number, number>();
  cells.forEach((cell, i) => {
    for (let r = cell.r; r < cell.r + cell.rowSpan; r++)
      for (let c = cell.c; c < cell.c + cell.colSpan; c++) filled.set(key(r, c), i);
  });
  const seen = new Set<number>();
  let blocks: Region[] = [];
  for (const cell of cells) {
    const start = key(cell.r, cell.c);
    if (seen.has(start)) continue;
    const b: Region = { r0: cell.r, c0: cell.c, r1: cell.r, c1: cell.c };
    const stack: [number, number][] = [[cell.r, cell.c]];
    seen.add(start);
    while (stack.length) {
      const [r, c] = stack.pop() as [number, number];
      if (r < b.r0) b.r0 = r;
      if (r > b.r1) b.r1 = r;
      if (c < b.c0) b.c0 = c;
      if (c > b.c1) b.c1 = c;
      for (const [dr, dc] of [
        [1, 0],
        [-1, 0],
        [0, 1],
        [0, -1],
      ] as const) {
        const k = key(r + dr, c + dc);
        if (!seen.has(k) && filled.has(k)) {
          seen.add(k);
          stack.push([r + dr, c + dc]);
        }
      }
    }
    blocks.push(b);
  }
  // Bounding boxes of touching components may overlap (an L-shape around another block): merge them.
  let changed = true;
  while (changed) {
    changed = false;
    const out: Region[] = [];
    for (const b of blocks) {
      const hit = out.find((o) => o.r0 <= b.r1 && b.r0 <= o.r1 && o.c0 <= b.c1 && b.c0 <= o.c1);
      if (hit) {
        hit.r0 = Math.min(hit.r0, b.r0);
        hit.c0 = Math.min(hit.c0, b.c0);
        hit.r1 = Math.max(hit.r1, b.r1);
        hit.c1 = Math.max(hit.c1, b.c1);
        changed = true;
      } else out.push({ ...b });
    }
    blocks = out;
  }
  return blocks.sort((a, b) => a.r0 - b.r0 || a.c0 - b.c0);
}
