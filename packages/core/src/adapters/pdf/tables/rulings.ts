import { append, firstPlace } from '../../../util/arrays.ts';
import type { PageModel, Segment, TextItem } from '../model.ts';
import { byMiddle, lineCells, textLines } from './cells.ts';

/** A horizontal (`at` = y, from x0 to x1) or vertical (`at` = x, from y0 to y1) ruling. */
export interface Line {
  at: number;
  from: number;
  to: number;
}

/**
 * Rulings of one connected grid: every line touches another line of the same grid. An open grid is
 * a stack of horizontal rules alone (no column rules): its columns come from the text between them.
 */
export interface Grid {
  h: Line[];
  v: Line[];
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  open: boolean;
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
  if (h.length * v.length > 250_000) return [];
  if (h.length < 2 || v.length < 2) return ruleStacks(h, page);
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
      g = { h: [], v: [], x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity, open: false };
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
  const out: Grid[] = [];
  const free: Line[] = [];
  for (const g of groups.values()) {
    if (g.h.length >= 2 && g.v.length >= 1) out.push(g);
    else if (!g.v.length) append(free, g.h);
  }
  append(out, ruleStacks(free, page));
  return out;
}

/** Rules of one stack start and end within this many points of each other. */
const SAME_EXTENT = 3;
/** Fewest rules of a stack: two frame anything (a heading's rule and a footer's). */
const MIN_STACK = 3;

/**
 * Stacks of horizontal rules that no column rule crosses: rules of one length one above the other,
 * as tables ruled between their rows, or booktabs, have. Rules beside them at another length are
 * another stack, so two such tables set side by side stay two. Short rules (underlines, signature
 * lines) make no stack, and a stack ends at a band of running text: what lies between two tables
 * of one column width (a caption, a paragraph) is no row of either.
 */
function ruleStacks(rules: Line[], page: PageModel): Grid[] {
  const minLength = Math.max(72, page.width * 0.15);
  const byMid: TextItem[] = [];
  for (const it of page.items) if (it.str.trim() && !it.rotated) byMid.push(it);
  byMid.sort(byMiddle);
  // Stacks still growing, and stacks ended (by a band without cells, or a rule too far below).
  const open: Line[][] = [];
  const stacks: Line[][] = [];
  for (const l of [...rules].sort(byAt)) {
    if (l.to - l.from < minLength) continue;
    const k = open.findIndex((st) => {
      const last = st[st.length - 1] as Line;
      return Math.abs(last.from - l.from) <= SAME_EXTENT && Math.abs(last.to - l.to) <= SAME_EXTENT;
    });
    const stack = open[k];
    if (stack) {
      const last = stack[stack.length - 1] as Line;
      if (l.at - last.at <= page.height * 0.4 && tableBand(byMid, last, l)) {
        stack.push(l);
        continue;
      }
      stacks.push(stack);
      open.splice(k, 1);
    }
    open.push([l]);
  }
  append(stacks, open);
  const out: Grid[] = [];
  for (const h of stacks) {
    if (h.length < MIN_STACK) continue;
    let x0 = Number.POSITIVE_INFINITY;
    let x1 = Number.NEGATIVE_INFINITY;
    for (const l of h) {
      x0 = Math.min(x0, l.from);
      x1 = Math.max(x1, l.to);
    }
    out.push({ h, v: [], x0, y0: (h[0] as Line).at, x1, y1: (h[h.length - 1] as Line).at, open: true });
  }
  return out;
}

/**
 * Whether the band between two rules of a stack belongs to a table: it holds a line of separate
 * cells (runs apart by a column gap) within the rules' width, or a short label or two. A caption
 * or a paragraph between two tables does not. `items` are sorted by vertical centre.
 */
function tableBand(items: TextItem[], above: Line, below: Line): boolean {
  const band: TextItem[] = [];
  for (let i = firstPlace(items, (it) => it.y + it.h / 2 <= above.at); i < items.length; i++) {
    const it = items[i] as TextItem;
    if (it.y + it.h / 2 >= below.at) break;
    const cx = it.x + it.w / 2;
    if (cx > above.from && cx < above.to) band.push(it);
  }
  const lines = textLines(band);
  for (const line of lines) if (lineCells(line) >= 2) return true;
  // A group label on a row of its own ("Impacts on participating teachers") is still the table's.
  if (lines.length > 2) return false;
  for (const line of lines) {
    const first = line[0] as TextItem;
    const last = line[line.length - 1] as TextItem;
    if (last.x + last.w - first.x > (above.to - above.from) * 0.5) return false;
  }
  return true;
}
