import type { PageModel, Segment } from '../model.ts';

/** A horizontal (`at` = y, from x0 to x1) or vertical (`at` = x, from y0 to y1) ruling. */
export interface Line {
  at: number;
  from: number;
  to: number;
}

/** Rulings of one connected grid: every line touches another line of the same grid. */
export interface Grid {
  h: Line[];
  v: Line[];
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Pieces shorter than this are glyph strokes, underlines of single letters or tick marks. */
const MIN_LENGTH = 6;
/** Rulings drawn as several pieces or doubled strokes still meet within this many points. */
const JOIN = 2;
/** How far a line may miss another and still count as touching it (anti-aliasing offsets). */
const TOUCH = 3;

function split(segments: Segment[], page: PageModel): { h: Line[]; v: Line[] } {
  const h: Line[] = [];
  const v: Line[] = [];
  for (const s of segments) {
    if (Math.abs(s.y1 - s.y0) <= 1 && s.x1 - s.x0 >= MIN_LENGTH)
      h.push({ at: (s.y0 + s.y1) / 2, from: s.x0, to: s.x1 });
    else if (Math.abs(s.x1 - s.x0) <= 1 && s.y1 - s.y0 >= MIN_LENGTH)
      v.push({ at: (s.x0 + s.x1) / 2, from: s.y0, to: s.y1 });
  }
  // Cell backgrounds (header shading, zebra rows) bound cells as well as strokes do.
  const pageArea = page.width * page.height;
  for (const r of page.rects ?? []) {
    const w = r.x1 - r.x0;
    const ht = r.y1 - r.y0;
    if (w * ht > pageArea * 0.4 || w < MIN_LENGTH || ht < MIN_LENGTH) continue;
    h.push({ at: r.y0, from: r.x0, to: r.x1 }, { at: r.y1, from: r.x0, to: r.x1 });
    v.push({ at: r.x0, from: r.y0, to: r.y1 }, { at: r.x1, from: r.y0, to: r.y1 });
  }
  return { h: merge(h), v: merge(v) };
}

/** Lines by position across. Module-level: an inline closure is compiled anew per call's copy. */
const byAt = (a: Line, b: Line): number => a.at - b.at;
/** Lines by start along their direction. */
const byFrom = (a: Line, b: Line): number => a.from - b.from;

/**
 * Joins collinear pieces that overlap or nearly meet into one line. Pieces within a point of each
 * other across are one rule; they are joined in order along it, whatever fraction of a point apart
 * they sit across (a piece drawn a hair lower than its left neighbour must still extend it).
 */
function merge(lines: Line[]): Line[] {
  const sorted = [...lines].sort(byAt);
  const out: Line[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i + 1;
    while (j < sorted.length && (sorted[j] as Line).at - (sorted[j - 1] as Line).at <= 1) j++;
    const rule = sorted.slice(i, j).sort(byFrom);
    let at = 0;
    for (const l of rule) at += l.at;
    at /= rule.length;
    let cur: Line | null = null;
    for (const l of rule) {
      if (cur && l.from <= cur.to + JOIN) cur.to = Math.max(cur.to, l.to);
      else {
        cur = { at, from: l.from, to: l.to };
        out.push(cur);
      }
    }
    i = j;
  }
  return out;
}

const touches = (h: Line, v: Line): boolean =>
  v.at >= h.from - TOUCH && v.at <= h.to + TOUCH && h.at >= v.from - TOUCH && h.at <= v.to + TOUCH;

/** Groups the page's rulings into grids of crossing lines (at least two of each direction). */
export function findGrids(page: PageModel): Grid[] {
  if (!page.segments?.length && !page.rects?.length) return [];
  const { h, v } = split(page.segments ?? [], page);
  if (h.length < 2 || v.length < 2 || h.length * v.length > 250_000) return [];
  const parent = Array.from({ length: h.length + v.length }, (_, i) => i);
  const find = (i: number): number => {
    let r = i;
    while (parent[r] !== r) r = parent[r] as number;
    while (parent[i] !== r) {
      const next = parent[i] as number;
      parent[i] = r;
      i = next;
    }
    return r;
  };
  for (const [i, hl] of h.entries()) {
    for (const [j, vl] of v.entries()) if (touches(hl, vl)) parent[find(i)] = find(h.length + j);
  }
  const groups = new Map<number, Grid>();
  const grid = (i: number): Grid => {
    const r = find(i);
    let g = groups.get(r);
    if (!g) {
      g = { h: [], v: [], x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
      groups.set(r, g);
    }
    return g;
  };
  for (const [i, l] of h.entries()) {
    const g = grid(i);
    g.h.push(l);
    g.x0 = Math.min(g.x0, l.from);
    g.x1 = Math.max(g.x1, l.to);
    g.y0 = Math.min(g.y0, l.at);
    g.y1 = Math.max(g.y1, l.at);
  }
  for (const [j, l] of v.entries()) {
    const g = grid(h.length + j);
    g.v.push(l);
    g.x0 = Math.min(g.x0, l.at);
    g.x1 = Math.max(g.x1, l.at);
    g.y0 = Math.min(g.y0, l.from);
    g.y1 = Math.max(g.y1, l.to);
  }
  return [...groups.values()].filter((g) => g.h.length >= 2 && g.v.length >= 1);
}
