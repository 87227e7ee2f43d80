import type { Grid, Line } from './rulings.ts';

/**
 * How far inside its cell's walls a nested table's rulings stand: at least the cell's padding,
 * more than rulings that meet a wall miss it by (`TOUCH` in rulings.ts).
 */
const INSET = 3;

/** Where a nested table stands, and its own rulings. */
export interface NestedBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  grid: Grid;
}

/** A grid with the rulings of the tables nested in its cells taken out, and where those stood. */
export interface Unnested {
  grid: Grid;
  boxes: NestedBox[];
}

const byAt = (a: Line, b: Line): number => a.at - b.at;

/** Whether a ruling runs the grid's whole width (within `INSET` of either side). */
const across = (l: Line, grid: Grid): boolean => l.from <= grid.x0 + INSET && l.to >= grid.x1 - INSET;

/**
 * Tables drawn inside a cell of a ruled table (a word processor's nested table): rulings that stand
 * wholly inside one cell, clear of its walls by a cell's padding, with two of each direction at the
 * least. Read with the outer grid they add columns across every row ("Column A" repeated over the
 * nested table's three). A cell is bounded by rules across the whole grid above and below and by
 * column rules running that whole band; a ruling inside it that meets a wall (a merged heading's
 * rule under its label, a row rule beside a label spanning rows) makes it no nested table. Null
 * where nothing is nested, and where the outer grid would keep fewer than two cells in the band
 * (a frame drawn round a table). A nested grid's rulings leave the outer grid even where they frame
 * no table of their own (a box in the cell): they stand inside one cell either way.
 */
export function nestedGrids(grid: Grid): Unnested | null {
  if (grid.open || grid.v.length < 5 || grid.h.length < 4) return null;
  const rules: Line[] = [];
  for (const l of grid.h) if (across(l, grid)) rules.push(l);
  // A nested table has two rules of its own at the least, short of the grid's width.
  if (grid.h.length - rules.length < 2) return null;
  rules.sort(byAt);
  const drop = new Set<Line>();
  const boxes: NestedBox[] = [];
  for (let b = 0; b + 1 < rules.length; b++) {
    const ya = (rules[b] as Line).at;
    const yb = (rules[b + 1] as Line).at;
    if (yb - ya <= 2 * INSET) continue;
    const walls: Line[] = [];
    for (const l of grid.v) if (l.from <= ya + INSET && l.to >= yb - INSET) walls.push(l);
    walls.sort(byAt);
    if (walls.length < 3) continue;
    const isWall = new Set(walls);
    for (let w = 0; w + 1 < walls.length; w++) {
      const xa = (walls[w] as Line).at;
      const xb = (walls[w + 1] as Line).at;
      const box = nestedIn(grid, isWall, xa, xb, ya, yb);
      if (!box) continue;
      for (const l of box.grid.h) drop.add(l);
      for (const l of box.grid.v) drop.add(l);
      boxes.push(box);
    }
  }
  if (!boxes.length) return null;
  const h: Line[] = [];
  const v: Line[] = [];
  for (const l of grid.h) if (!drop.has(l)) h.push(l);
  for (const l of grid.v) if (!drop.has(l)) v.push(l);
  return { grid: { h, v, x0: grid.x0, y0: grid.y0, x1: grid.x1, y1: grid.y1, open: false }, boxes };
}

/** The nested table's rulings and box in one cell (`xa`–`xb` by `ya`–`yb`), or null. */
function nestedIn(grid: Grid, walls: Set<Line>, xa: number, xb: number, ya: number, yb: number): NestedBox | null {
  const h: Line[] = [];
  const v: Line[] = [];
  let x0 = xb;
  let x1 = xa;
  let y0 = yb;
  let y1 = ya;
  for (const l of grid.h) {
    if (l.at < ya - INSET || l.at > yb + INSET || l.to < xa || l.from > xb || across(l, grid)) continue;
    if (l.from <= xa + INSET || l.to >= xb - INSET) return null;
    h.push(l);
    x0 = Math.min(x0, l.from);
    x1 = Math.max(x1, l.to);
    y0 = Math.min(y0, l.at);
    y1 = Math.max(y1, l.at);
  }
  for (const l of grid.v) {
    if (walls.has(l) || l.at < xa - INSET || l.at > xb + INSET || l.to < ya || l.from > yb) continue;
    if (l.at <= xa + INSET || l.at >= xb - INSET || l.from < ya - INSET || l.to > yb + INSET) return null;
    v.push(l);
    y0 = Math.min(y0, l.from);
    y1 = Math.max(y1, l.to);
  }
  if (h.length < 2 || v.length < 2) return null;
  return { x0, y0, x1, y1, grid: { h, v, x0, y0, x1, y1, open: false } };
}
