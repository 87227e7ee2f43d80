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
  return mergeOverlapping(plainComponents(cells) ?? components(cells));
}

/**
 * Touching cells of a sheet without merges, in reading order (each position once): a cell touches
 * the next one in its row when their columns follow, and the cells of the row above with its
 * columns, found by walking both rows side by side. Components are kept by their first cell
 * (union-find, the lower index the root), so blocks come out in the order a search from each
 * unvisited cell would find them. Undefined when a cell spans or the cells are not in that order.
 */
function plainComponents(cells: GridCell[]): Region[] | undefined {
  const n = cells.length;
  const root = new Int32Array(n);
  const find = (i: number): number => {
    let at = i;
    while (root[at] !== at) {
      const up = root[root[at] as number] as number;
      root[at] = up;
      at = up;
    }
    return at;
  };
  const join = (a: number, b: number) => {
    const x = find(a);
    const y = find(b);
    if (x < y) root[y] = x;
    else if (y < x) root[x] = y;
  };
  // Previous row's cells: [above, aboveEnd).
  let above = 0;
  let aboveEnd = 0;
  let i = 0;
  while (i < n) {
    const first = cells[i] as GridCell;
    const r = first.r;
    let end = i;
    let lastC = -1;
    for (; end < n; end++) {
      const c = cells[end] as GridCell;
      if (c.r !== r) break;
      if (c.rowSpan !== 1 || c.colSpan !== 1 || c.c <= lastC) return undefined;
      root[end] = end;
      if (c.c === lastC + 1 && end > i) join(end - 1, end);
      lastC = c.c;
    }
    if (end < n && (cells[end] as GridCell).r < r) return undefined;
    if (aboveEnd > above && (cells[above] as GridCell).r === r - 1) {
      let a = above;
      let b = i;
      while (a < aboveEnd && b < end) {
        const ca = (cells[a] as GridCell).c;
        const cb = (cells[b] as GridCell).c;
        if (ca === cb) join(a++, b++);
        else if (ca < cb) a++;
        else b++;
      }
    }
    above = i;
    aboveEnd = end;
    i = end;
  }
  const blocks: Region[] = [];
  const blockOf = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    const c = cells[k] as GridCell;
    const top = find(k);
    if (top === k) {
      blockOf[k] = blocks.length;
      blocks.push({ r0: c.r, c0: c.c, r1: c.r, c1: c.c });
      continue;
    }
    const b = blocks[blockOf[top] as number] as Region;
    blockOf[k] = blockOf[top] as number;
    if (c.r < b.r0) b.r0 = c.r;
    if (c.r > b.r1) b.r1 = c.r;
    if (c.c < b.c0) b.c0 = c.c;
    if (c.c > b.c1) b.c1 = c.c;
  }
  return blocks;
}

/** Touching cells in general (merges count as filled): a search over the positions they cover. */
function components(cells: GridCell[]): Region[] {
  // Numeric position keys are far cheaper than strings; the stride covers the widest column used.
  let stride = 16384;
  for (const c of cells) stride = Math.max(stride, c.c + c.colSpan + 2);
  const key = (r: number, c: number) => r * stride + c;
  // Every position a cell (or its merge area) covers, pointing at the owning cell's index.
  const filled = new Map<number, number>();
  cells.forEach((cell, i) => {
    for (let r = cell.r; r < cell.r + cell.rowSpan; r++)
      for (let c = cell.c; c < cell.c + cell.colSpan; c++) filled.set(key(r, c), i);
  });
  const seen = new Set<number>();
  const blocks: Region[] = [];
  // Positions still to visit, as keys; a key's row and column are read back from it.
  const stack: number[] = [];
  const visit = (k: number) => {
    if (!seen.has(k) && filled.has(k)) {
      seen.add(k);
      stack.push(k);
    }
  };
  for (const cell of cells) {
    const start = key(cell.r, cell.c);
    if (seen.has(start)) continue;
    const b: Region = { r0: cell.r, c0: cell.c, r1: cell.r, c1: cell.c };
    seen.add(start);
    stack.push(start);
    while (stack.length) {
      const k = stack.pop() as number;
      // Columns run 0 to stride - 2 and rows from 0, so the key splits back exactly.
      const r = Math.floor(k / stride);
      const c = k - r * stride;
      if (r < b.r0) b.r0 = r;
      if (r > b.r1) b.r1 = r;
      if (c < b.c0) b.c0 = c;
      if (c > b.c1) b.c1 = c;
      visit(k + stride);
      visit(k - stride);
      visit(k + 1);
      visit(k - 1);
    }
    blocks.push(b);
  }
  return blocks;
}

/** Bounding boxes of touching components may overlap (an L-shape around another block): merge them. */
function mergeOverlapping(found: Region[]): Region[] {
  let blocks = found;
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
