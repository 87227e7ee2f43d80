import { append } from '../../../util/arrays.ts';
import type { PageModel, TableRegion, TextItem } from '../model.ts';
import {
  byMiddle,
  clusterPositions,
  fillLayout,
  layoutFromJoins,
  lineCells,
  looksTabular,
  textLines,
} from './cells.ts';
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
 * A grid's two outer edges and its rulings' positions along one axis. Pushed into a literal, not
 * spread from a map: map's result is packed from the builtin but holey once the caller is optimized.
 */
function edges(first: number, last: number, lines: Line[]): number[] {
  const out = [first, last];
  for (const l of lines) out.push(l.at);
  return out;
}

/**
 * A table from one grid of rulings: boundaries where lines run, cells merged where an inner
 * ruling is missing, text runs assigned by their centre. Null when the grid frames no table
 * (a box around a paragraph, a figure's axes).
 */
export function ruledTable(grid: Grid, page: PageModel, taken: Set<number>): TableRegion | null {
  const xs = clusterPositions(edges(grid.x0, grid.x1, grid.v), SAME_EDGE);
  const ys = clusterPositions(edges(grid.y0, grid.y1, grid.h), SAME_EDGE);
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
  const split = textRowBreaks(xs, ys, page, indices);
  if (split.size) {
    append(ys, split);
    ys.sort((a, b) => a - b);
  }
  const layout = layoutFromJoins(
    xs,
    ys,
    (r, c) => !covered(grid.v, xs[c + 1] as number, ys[r] as number, ys[r + 1] as number),
    (r, c) =>
      !split.has(ys[r + 1] as number) && !covered(grid.h, ys[r + 1] as number, xs[c] as number, xs[c + 1] as number),
  );
  const { table, texts, runs, bbox } = fillLayout(layout, page.items, indices);
  if (!looksTabular(layout, texts) || framesLayout(runs)) return null;
  return { bbox, table, itemIndices: indices, ruled: true };
}

/**
 * Rows that the rulings leave out. Tables ruled only above and below a block of rows (booktabs,
 * column rules only) hold several text lines between two horizontal rulings; where those lines
 * run across two columns or more, each is a row of its own. A line with text in one column only
 * is a cell's wrapped text and stays with the line above.
 */
function textRowBreaks(xs: number[], ys: number[], page: PageModel, indices: number[]): Set<number> {
  const breaks = new Set<number>();
  const cols = (x: number) => {
    let c = 0;
    while (c < xs.length - 2 && x >= (xs[c + 1] as number)) c++;
    return c;
  };
  // Fully ruled grids draw every row; their several-line bands are wrapped cells. Mostly tables ruled
  // at the top, under the header and at the bottom (or a few more places) leave rows out. The
  // header band keeps its lines: headers wrap across columns.
  const sparse = ys.length <= 4;
  for (let r = 1; r + 1 < ys.length; r++) {
    const top = ys[r] as number;
    const bottom = ys[r + 1] as number;
    const lines: { mid: number; top: number; bottom: number; h: number; cols: Set<number> }[] = [];
    // A loop and a module comparator, not map/filter/sort with closures made for every band.
    const inBand: TextItem[] = [];
    for (const i of indices) {
      const it = page.items[i] as TextItem;
      if (it.y + it.h / 2 > top && it.y + it.h / 2 < bottom) inBand.push(it);
    }
    inBand.sort(byMiddle);
    for (const it of inBand) {
      const mid = it.y + it.h / 2;
      const line = lines[lines.length - 1];
      if (line && Math.abs(mid - line.mid) < Math.max(2, Math.min(line.h, it.h) * 0.5)) {
        line.cols.add(cols(it.x + it.w / 2));
        line.top = Math.min(line.top, it.y);
        line.bottom = Math.max(line.bottom, it.y + it.h);
      } else lines.push({ mid, top: it.y, bottom: it.y + it.h, h: it.h, cols: new Set([cols(it.x + it.w / 2)]) });
    }
    // Each row names itself in the first column; lines beside a first-column label centred over
    // them ("6 | OTSL …" over "HTML …") are sub-lines of one row.
    const rowLine = (l: (typeof lines)[number]) => l.cols.size >= 2 && l.cols.has(0);
    if (lines.some((l) => l.cols.size >= 2 && !l.cols.has(0)) || !lines[0] || !rowLine(lines[0])) continue;
    const starts = lines.filter((l, k) => k > 0 && rowLine(l));
    if (!starts.length || (!sparse && starts.length < 2)) continue;
    for (const l of starts) {
      const k = lines.indexOf(l);
      breaks.add(((lines[k - 1] as (typeof lines)[number]).bottom + l.top) / 2);
    }
  }
  return breaks;
}

/**
 * Whether the grid is a frame around a layout rather than a table: its "cells" hold lines that
 * are themselves broken into columns by wide gutters (a key/value box, a totals block inside a page
 * border or section boxes). A real ruled table gives each column its own cell, so its cells' lines
 * are single runs of words; the text of a frame reads better as the paragraphs and borderless
 * tables it holds.
 */
function framesLayout(runs: TextItem[][]): boolean {
  let lines = 0;
  let split = 0;
  for (const cellRuns of runs) {
    for (const line of textLines(cellRuns)) {
      lines++;
      if (lineCells(line) >= 2) split++;
    }
  }
  // Across the corpus real ruled tables have no such line at all; a stray one (a value with a
  // tab stop inside a cell) must not cost a table its rulings.
  return split >= 3 && split >= lines * 0.15;
}
