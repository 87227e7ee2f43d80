import type { PageModel, TableRegion } from '../model.ts';
import { clusterPositions, fillLayout, layoutFromJoins, looksTabular } from './cells.ts';
import type { Grid, Line } from './rulings.ts';

/** Rulings closer than this are one boundary (double rules, a stroke beside a fill edge). */
const SAME_EDGE = 4;
/** Share of a slot's side a ruling must cover to separate it from its neighbour. */
const COVER = 0.6;

const covered = (lines: Line[], at: number, from: number, to: number): boolean => {
  const need = (to - from) * COVER;
  let got = 0;
  for (const l of lines) {
    if (Math.abs(l.at - at) > SAME_EDGE) continue;
    got += Math.max(0, Math.min(l.to, to) - Math.max(l.from, from));
    if (got >= need) return true;
  }
  return false;
};

/**
 * A table from one grid of rulings: boundaries where lines run, cells merged where an inner
 * ruling is missing, text runs assigned by their centre. Null when the grid frames no table
 * (a box around a paragraph, a figure's axes).
 */
export function ruledTable(grid: Grid, page: PageModel, taken: Set<number>): TableRegion | null {
  const xs = clusterPositions([grid.x0, grid.x1, ...grid.v.map((l) => l.at)], SAME_EDGE);
  const ys = clusterPositions([grid.y0, grid.y1, ...grid.h.map((l) => l.at)], SAME_EDGE);
  if (xs.length < 3 || ys.length < 3) return null;
  const x0 = xs[0] as number;
  const x1 = xs[xs.length - 1] as number;
  const y0 = ys[0] as number;
  const y1 = ys[ys.length - 1] as number;
  const indices: number[] = [];
  for (const [i, it] of page.items.entries()) {
    if (taken.has(i) || !it.str.trim()) continue;
    const cx = it.x + it.w / 2;
    const cy = it.y + it.h / 2;
    if (cx > x0 && cx < x1 && cy > y0 && cy < y1) indices.push(i);
  }
  if (indices.length < 4) return null;
  const layout = layoutFromJoins(
    xs,
    ys,
    (r, c) => !covered(grid.v, xs[c + 1] as number, ys[r] as number, ys[r + 1] as number),
    (r, c) => !covered(grid.h, ys[r + 1] as number, xs[c] as number, xs[c + 1] as number),
  );
  const { table, texts, bbox } = fillLayout(layout, page.items, indices);
  if (!looksTabular(layout, texts)) return null;
  return { bbox, table, itemIndices: indices, ruled: true };
}
