import { append, countNear } from '../../util/arrays.ts';
import { type Line, type LineBox, type LineSketch, sameRow, sketchLeast, titled } from './lines.ts';
import type { TextItem } from './model.ts';
import { itemsAcross, listsSideBySide, numberedAcross, rowStarts } from './sidelists.ts';

/**
 * Reading order by recursive column detection (an XY-cut variant). A region is split at a vertical
 * gutter that no narrow line crosses; lines crossing it (titles, full-width figures' captions) cut
 * the region into horizontal stripes that stay in place, and each stripe reads its left column,
 * then its right one. Regions without a gutter read top to bottom. Every level is a sort plus a
 * sweep, so the whole page is O(n log n) with a small depth bound.
 */
export function readingOrder(lines: Line[], pageWidth: number): Line[] {
  const out: Line[] = [];
  // A page written right to left reads the fragments of a row, and its columns, from the right:
  // a form's label before the value on its left, even when the value is a number or a Latin word.
  let rtl = 0;
  let all = 0;
  for (const l of lines) {
    all += l.text.length;
    if (l.rtl) rtl += l.text.length;
  }
  place(lines, pageWidth, 0, out, rtl * 2 > all);
  return out;
}

/**
 * Reading order of lines: by baseline, then along the line. The comparators are module-level
 * rather than made per call: a closure written inline is a new function on every call, compiled again once earlier calls' copies are collected.
 */
function byPosition(rtlPage: boolean): (a: Line, b: Line) => number {
  return rtlPage ? byPositionRtlPage : byPositionLtrPage;
}

function byPositionLtrPage(a: Line, b: Line): number {
  if (!sameRow(a, b)) return a.base - b.base;
  return a.rtl && b.rtl ? b.x0 - a.x0 : a.x0 - b.x0;
}

function byPositionRtlPage(a: Line, b: Line): number {
  if (!sameRow(a, b)) return a.base - b.base;
  return b.x0 - a.x0;
}

const byTopThenLeft = (a: LineBox, b: LineBox): number => a.y0 - b.y0 || a.x0 - b.x0;

function place(lines: Line[], pageWidth: number, depth: number, out: Line[], rtlPage: boolean): void {
  if (lines.length < 4 || depth > 4) {
    append(out, readRows(lines.sort(byPosition(rtlPage)), rtlPage));
    return;
  }
  const region = regionOf(lines);
  const margin = rtlPage ? null : sideHeadGutter(lines, region);
  if (margin) {
    readBySideHeads(lines, margin, pageWidth, depth, out, rtlPage);
    return;
  }
  let gutter = findGutter(lines, pageWidth, rtlPage, region);
  // Choices set two a row, numbered on across the gap, read row by row.
  if (gutter && !rtlPage && numberedAcross(lines, gutter[0], gutter[1])) gutter = null;
  if (!gutter && !rtlPage) {
    const sidebar = sidebarOf(lines, region);
    if (sidebar) {
      readSidebar(lines, sidebar, pageWidth, depth, out);
      return;
    }
  }
  if (!gutter) {
    const sorted = lines.sort(byPosition(rtlPage));
    const box = rtlPage ? null : boxCut(sorted, pageWidth);
    if (box) {
      for (const [part, isBox] of box) {
        if (isBox) place(part, pageWidth, depth + 1, out, rtlPage);
        else append(out, readRows(part, rtlPage));
      }
      return;
    }
    append(out, readRows(sorted, rtlPage));
    return;
  }
  const [gx0, gx1] = gutter;
  const sorted = lines.sort(byTopThenLeft);
  const cut = bandCut(sorted, pageWidth, rtlPage);
  if (cut > 0) {
    place(sorted.slice(0, cut), pageWidth, depth + 1, out, rtlPage);
    place(sorted.slice(cut), pageWidth, depth + 1, out, rtlPage);
    return;
  }
  let left: Line[] = [];
  let right: Line[] = [];
  const flush = (): void => {
    for (const side of rtlPage ? [right, left] : [left, right]) place(side, pageWidth, depth + 1, out, rtlPage);
    left = [];
    right = [];
  };
  const head = headStripe(sorted, pageWidth, gx0, gx1);
  if (head > 0) append(out, sorted.slice(0, head).sort(byPosition(rtlPage)));
  for (let k = head; k < sorted.length; k++) {
    const l = sorted[k] as Line;
    if (l.x0 < gx0 + 1 && l.x1 > gx1 - 1) {
      // A line bridging the gutter (title, wide caption) ends the stripe above it.
      flush();
      out.push(l);
    } else if (l.x0 + l.x1 < gx0 + gx1) left.push(l);
    else right.push(l);
  }
  flush();
}

/** Fewest lines of a sidebar (the running text beside it: `filled`'s). */
const SIDEBAR_LINES = 3;
/** Widest a sidebar is, as a share of the running text's widest line beside it. */
const SIDEBAR_WIDTH = 0.6;
/** Farthest apart, in sizes, a sidebar's lines stand (a head over its items). */
const SIDEBAR_PITCH = 2.5;
/** Nearest a sidebar stands to the text beside it, in the text's sizes. */
const SIDEBAR_GAP = 1.5;
/** Heights over the rows beside, in points, that are one: a table row's cells, set alike. */
const SAME_BASE = 0.5;
/** Three letters in a row: a word, not a figure (made once, see `HAS_FIGURE`). */
const HAS_WORD = /\p{L}{3}/u;

/**
 * A sidebar's lines (sorted by baseline), the side of the text it stands on, the band of rows it
 * takes (its first line's top to its last's bottom, a size more each way), and the text's edge
 * towards it over that band.
 */
interface Sidebar {
  lines: Line[];
  left: boolean;
  top: number;
  bottom: number;
  edge: number;
}

/**
 * A region's sidebar, or null: a short column of a few short lines (a box's "At a glance" over its
 * figures, a margin note, a newsletter's "In this issue") set beside running text on a pitch of
 * its own. `findGutter` takes no such column, as its lines are short, and read row by row each
 * sidebar line fell between two lines of the paragraph beside it. A table's column, a form's
 * labels, a contents list's page numbers and a CV's dates stand on the rows of the text beside
 * them, or as far above them, most of them (an empty field or a wrapped cell aside); a sidebar's
 * lines, on a pitch of their own, do not. A sidebar on the right is looked for first.
 */
function sidebarOf(lines: readonly Line[], region: Region): Sidebar | null {
  return sidebarOn(lines, region, false) ?? sidebarOn(lines, region, true);
}

/** Widest gap, in sizes, over which the text beside a sidebar goes on under it (its paragraph's lines). */
const GOES_ON = 3;

/**
 * Reads a region with a sidebar: the lines above it in place, then the text beside it, on under it
 * to the end of its paragraphs, then the sidebar, then the rest. The text goes on under the sidebar
 * while each line stays on its side of the text's edge, close under the line before, no larger and
 * no new bold head: a signature, a table's right cells or a heading under the sidebar read after
 * it, where they stand.
 */
function readSidebar(
  lines: Line[],
  { lines: side, left, top, bottom, edge }: Sidebar,
  pageWidth: number,
  depth: number,
  out: Line[],
): void {
  const inSide = new Set(side);
  const above: Line[] = [];
  const beside: Line[] = [];
  const below: Line[] = [];
  let prev: Line | undefined;
  for (const l of lines.sort(byTopThenLeft)) {
    if (inSide.has(l)) continue;
    if (l.y1 < top) above.push(l);
    else if (
      l.y0 <= bottom ||
      (prev &&
        !below.length &&
        (left ? l.x0 > edge - 2 * l.size : l.x1 < edge + 2 * l.size) &&
        l.y0 - prev.y1 < GOES_ON * prev.size &&
        l.size <= prev.size * 1.1 &&
        (!l.bold || prev.bold))
    ) {
      beside.push(l);
      prev = l;
    } else below.push(l);
  }
  for (const part of [above, beside, side, below]) place(part, pageWidth, depth + 1, out, false);
}

/**
 * `sidebarOf` on one side. The column is the longest run of lines, one close under the other,
 * that start in the region's right half, or end in its left half from its left edge; no line
 * beside the run may reach into its gutter.
 */
function sidebarOn(lines: readonly Line[], region: Region, onLeft: boolean): Sidebar | null {
  const { x0: rx0, x1: rx1 } = region;
  const half = (rx0 + rx1) / 2;
  const starters: Line[] = [];
  for (const l of lines) if (onLeft ? l.x1 < half && l.x0 < rx0 + 2 * l.size : l.x0 > half) starters.push(l);
  if (starters.length < SIDEBAR_LINES) return null;
  const side = closeRun(starters.sort(byBase));
  if (side.length < SIDEBAR_LINES) return null;
  // The side's edge towards the text, and its far one.
  let inner = onLeft ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  let outer = onLeft ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
  let letters = 0;
  for (const l of side) {
    inner = onLeft ? Math.max(inner, l.x1) : Math.min(inner, l.x0);
    outer = onLeft ? Math.min(outer, l.x0) : Math.max(outer, l.x1);
    if (HAS_WORD.test(l.text)) letters++;
  }
  // A column of figures (totals, page numbers, line numbers) is a table's or a contents list's.
  if (letters * 3 < side.length * 2) return null;
  const first = side[0] as Line;
  const last = side[side.length - 1] as Line;
  const top = first.y0 - first.size;
  const bottom = last.y1 + last.size;
  const beside: Line[] = [];
  const inSide = new Set(side);
  let edge = onLeft ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
  for (const l of lines) {
    if (inSide.has(l) || l.y1 < top || l.y0 > bottom) continue;
    const gap = SIDEBAR_GAP * l.size;
    if (onLeft ? l.x0 < inner + gap : l.x1 > inner - gap) return null;
    beside.push(l);
    edge = onLeft ? Math.min(edge, l.x0) : Math.max(edge, l.x1);
  }
  if (beside.length < SIDEBAR_LINES || !filled(beside) || !flushLeft(beside)) return null;
  let widest = 0;
  for (const l of beside) widest = Math.max(widest, l.x1 - l.x0);
  if (Math.abs(outer - inner) > widest * SIDEBAR_WIDTH || !ownPitch(side, beside.sort(byBase))) return null;
  return { lines: side, left: onLeft, top, bottom, edge };
}

/**
 * Whether a column's lines after its first stand at heights of their own over the nearest baselines
 * of the text beside them (both sorted by baseline): where most stand at one height (none, or a
 * cell's smaller type set higher) they are a table's rows, an empty field or a wrapped cell aside;
 * the first may be a head on any.
 */
function ownPitch(side: readonly Line[], beside: readonly Line[]): boolean {
  const heights: number[] = [];
  let j = 0;
  for (let k = 1; k < side.length; k++) {
    const base = (side[k] as Line).base;
    while (j + 1 < beside.length && (beside[j + 1] as Line).base <= base) j++;
    const above = (beside[j] as Line).base - base;
    const under = beside[j + 1] ? (beside[j + 1] as Line).base - base : Number.POSITIVE_INFINITY;
    heights.push(Math.abs(under) < Math.abs(above) ? under : above);
  }
  // The most heights within `SAME_BASE` of each other: a window over them sorted.
  heights.sort(byValue);
  let most = 0;
  for (let a = 0, b = 0; b < heights.length; b++) {
    while ((heights[b] as number) - (heights[a] as number) > SAME_BASE) a++;
    most = Math.max(most, b - a + 1);
  }
  return most * 2 <= heights.length;
}

/** The longest run of lines (sorted by baseline) each at most `SIDEBAR_PITCH` sizes under the one before. */
function closeRun(sorted: readonly Line[]): Line[] {
  let best: Line[] = [];
  let run: Line[] = [];
  for (const l of sorted) {
    const prev = run[run.length - 1];
    if (prev && l.base - prev.base > SIDEBAR_PITCH * prev.size) {
      if (run.length > best.length) best = run;
      run = [];
    }
    run.push(l);
  }
  return run.length > best.length ? run : best;
}

/** Widest share of the region a column of side heads takes, and how much wider the body beside it is. */
const SIDE_MAX = 0.4;
const BODY_OVER_SIDE = 1.5;
/** Gutters tried for a column of side heads, from the left. */
const SIDE_TRIES = 3;

/**
 * The gutter right of a margin column of side heads (a manual's section number, date and title set
 * in a narrow column beside the body, the head's top on the row of its section's first line), or
 * null. Such a column is no column of running text, so `findGutter` does not take it, or takes it
 * as one and reads every head of the page before the body; read row by row, each head's lines were
 * interleaved with the body's. A head is a block of the narrow column set apart from the next by
 * more than a line's leading; most heads, one of two lines at least, must open a body paragraph on
 * their first row, and the body must be running text: a form's labels beside short values, or list
 * markers beside items (one line each), are not side heads. Heads are short beside their sections:
 * a narrow column of running text whose paragraphs share the body's grid (two columns of 4-line
 * paragraphs, 180 and 312 pt wide) is a column, read whole before the body, not a column of heads.
 */
function sideHeadGutter(lines: readonly Line[], region = regionOf(lines)): [number, number] | null {
  return gutterBeside(lines, lineChars, lineChars, region);
}

const lineChars = (l: Line): number => l.text.length;
const mostChars = (l: LineSketch): number => l.most;

/**
 * Whether the lines these sketch (the page's `items`) may have a margin column of side heads
 * (`sideHeadRuns` finds none where they may not): `sideHeadGutter`'s tests, those of characters on
 * the bounds of the lines' lengths, each taken the way that passes.
 */
export function sideHeadsPossible(sketches: readonly LineSketch[], items: readonly TextItem[]): boolean {
  return gutterBeside(sketches, mostChars, (l) => sketchLeast(items, l), regionOf(sketches)) !== null;
}

/**
 * `sideHeadGutter` over lines or their sketches: `most` and `least` bound a line's characters from
 * above and below (a line's both are its length), so a gutter found for lines is found for their
 * sketches. `sideHeadsBeside` skips `least` where the `most` of the lines it weighs already
 * decides, which holds only while no line's `least` exceeds its `most`.
 */
function gutterBeside<L extends LineBox>(
  lines: readonly L[],
  most: (l: L) => number,
  least: (l: L) => number,
  region: Region,
): [number, number] | null {
  if (lines.length < 6) return null;
  const { x0: rx0, x1: rx1 } = region;
  const regionW = rx1 - rx0;
  // The first strips from the left only: each try is a sort of the region's lines.
  for (const [s0, s1] of stripsOf(region).slice(0, SIDE_TRIES)) {
    const g0 = rx0 + s0 * 2;
    const g1 = rx0 + s1 * 2;
    if (g0 - rx0 > regionW * SIDE_MAX) break;
    if (rx1 - g1 < (g0 - rx0) * BODY_OVER_SIDE) continue;
    if (sideHeadsBeside(lines, g0, g1, rx1 - g1, most, least)) return [g0, g1];
  }
  return null;
}

/**
 * The runs (item indices) of the page's margin side heads that are titled sections' heads, or
 * none: found on the page's lines before its tables are, so that a table read across the gutter
 * does not take the heads beside it as its first column. Only heads that open a body paragraph and
 * read as a section's head (`titled`) count: a table's own first column (line numbers beside
 * descriptions) can pass for a column of side heads.
 */
export function sideHeadRuns(lines: readonly Line[]): number[] {
  const gutter = sideHeadGutter(lines);
  if (!gutter) return [];
  const { left, right } = sidesOf(lines, gutter);
  const heads = sideHeadTops(left.sort(byTopThenLeft));
  const opening = openingHeads(heads, right.sort(byTopThenLeft));
  const out: number[] = [];
  let at = 0;
  for (const [top, count] of heads) {
    const block = left.slice(at, at + count);
    at += count;
    if (count >= 2 && opening.has(top) && titled(block)) for (const l of block) append(out, l.items);
  }
  return out;
}

/**
 * Whether the lines left of the gutter are side heads opening the body's paragraphs on its right.
 * `most` and `least` bound a line's characters (see `gutterBeside`).
 */
function sideHeadsBeside<L extends LineBox>(
  lines: readonly L[],
  g0: number,
  g1: number,
  bodyW: number,
  most: (l: L) => number,
  least: (l: L) => number,
): boolean {
  // The lines are counted by their boxes first, with no array made: most tries end there (the
  // IRM manual's table pages: 302 of 566).
  let leftCount = 0;
  let wide = 0;
  for (const l of lines) {
    const side = sideOf(l, g0, g1);
    if (side === LEFT) leftCount++;
    else if (side === RIGHT && l.x1 - l.x0 >= bodyW * 0.5) wide++;
  }
  if (leftCount < 2 || wide < 4) return false;
  const { left, right } = sidesOf(lines, [g0, g1]);
  let wideMost = 0;
  let narrowMost = 0;
  for (const l of right) {
    if (l.x1 - l.x0 >= bodyW * 0.5) wideMost += most(l);
    else narrowMost += most(l);
  }
  // Most of the body's characters are in its wide lines. The narrow lines' least characters are
  // counted only where their most could outweigh the wide lines'.
  if (wideMost < narrowMost) {
    let narrowLeast = 0;
    for (const l of right) if (l.x1 - l.x0 < bodyW * 0.5) narrowLeast += least(l);
    if (wideMost < (wideMost + narrowLeast) * 0.5) return false;
  }
  // Heads are short beside the sections they open, while a narrow column of running text holds
  // characters in proportion to its width (half the body's at 180 pt beside 312). A manual's heads
  // hold at most a fifth of the body's (IRM pp. 7-12), a fourth beside sections of one or two lines.
  // Per head, height or lines tell nothing: a head of five lines there is 0.8 of its section's height.
  let leftLeast = 0;
  for (const l of left) leftLeast += least(l);
  if (leftLeast * HEADS_PER_BODY_CHAR > wideMost + narrowMost) return false;
  const heads = sideHeadTops(left.sort(byTopThenLeft));
  const opening = openingHeads(heads, right.sort(byTopThenLeft));
  return heads.some(([top, count]) => count >= 2 && opening.has(top)) && opening.size * 3 >= heads.length * 2;
}

/** Body characters at least for each character of the column of side heads beside it. */
const HEADS_PER_BODY_CHAR = 3;

/**
 * The lines left and right of a gutter, in the order given; a line across it (a running head or
 * foot, a title) is on neither side. Every side-head test splits a region so, the sketches' too.
 */
function sidesOf<L extends LineBox>(lines: readonly L[], [g0, g1]: [number, number]): { left: L[]; right: L[] } {
  const left: L[] = [];
  const right: L[] = [];
  for (const l of lines) {
    const side = sideOf(l, g0, g1);
    if (side === LEFT) left.push(l);
    else if (side === RIGHT) right.push(l);
  }
  return { left, right };
}

const LEFT = -1;
const ACROSS = 0;
const RIGHT = 1;

/** Which side of the gutter from `g0` to `g1` a line is on, or across it (`sidesOf`). */
function sideOf(l: LineBox, g0: number, g1: number): typeof LEFT | typeof ACROSS | typeof RIGHT {
  if (l.x0 < g0 + 1 && l.x1 > g1 - 1) return ACROSS;
  return l.x0 + l.x1 < g0 + g1 ? LEFT : RIGHT;
}

/** Each side head (block of the margin column, sorted by top) as its first line and its line count. */
function sideHeadTops<L extends LineBox>(left: readonly L[]): [L, number][] {
  const heads: [L, number][] = [];
  let bottom = Number.NEGATIVE_INFINITY;
  for (const l of left) {
    const last = heads[heads.length - 1];
    if (last && l.y0 - bottom < l.size * 0.5) last[1]++;
    else heads.push([l, 1]);
    bottom = Math.max(bottom, l.y1);
  }
  return heads;
}

/**
 * The heads (`sideHeadTops`: the margin column's blocks by their first lines, sorted by top) whose
 * first line opens a body paragraph:
 * a body line on the head's first row is the body's first line, or stands apart from the body line
 * above it by more than a line's leading. `right` is sorted by top; one pass over both.
 */
function openingHeads<L extends LineBox>(heads: readonly [L, number][], right: readonly L[]): Set<L> {
  const opening = new Set<L>();
  let bottom = Number.NEGATIVE_INFINITY;
  let j = 0;
  for (const [head] of heads) {
    for (; j < right.length; j++) {
      const r = right[j] as L;
      if (sameRow(r, head) || r.y0 > head.y1) break;
      bottom = Math.max(bottom, r.y1);
    }
    const r = right[j];
    if (r && sameRow(r, head) && r.y0 - bottom >= r.size * 0.5) opening.add(head);
  }
  return opening;
}

/**
 * Reads a region with a column of side heads as stripes, each a head and then the body beside and
 * under it up to the next head: the section's number, date and title ahead of its paragraphs, each
 * read whole. A line across the gutter (a running head or foot) is a stripe of its own, in place.
 * A head that opens no body paragraph (a margin note beside running text) cuts nothing: it reads
 * with the stripe it stands in, ahead of the body.
 */
function readBySideHeads(
  lines: Line[],
  [g0, g1]: [number, number],
  pageWidth: number,
  depth: number,
  out: Line[],
  rtlPage: boolean,
): void {
  const sorted = lines.sort(byTopThenLeft);
  const { left: leftAll, right: rightAll } = sidesOf(sorted, [g0, g1]);
  const heads = sideHeadTops(leftAll);
  const cuts = openingHeads(heads, rightAll);
  // The lines of each head that opens a section are marked as its own, read as one head later.
  let at = 0;
  for (const [top, count] of heads) {
    if (cuts.has(top)) for (let k = at; k < at + count; k++) (leftAll[k] as Line).sideHead = top;
    at += count;
  }
  let left: Line[] = [];
  let right: Line[] = [];
  const flush = (): void => {
    place(left, pageWidth, depth + 1, out, rtlPage);
    place(right, pageWidth, depth + 1, out, rtlPage);
    left = [];
    right = [];
  };
  for (const l of sorted) {
    if (l.x0 < g0 + 1 && l.x1 > g1 - 1) {
      flush();
      out.push(l);
    } else if (l.x0 + l.x1 >= g0 + g1) right.push(l);
    else {
      if (cuts.has(l)) {
        // Body lines on the head's row that sort ahead of it (set a little higher) open its stripe.
        const carried: Line[] = [];
        while (right.length && sameRow(right[right.length - 1] as Line, l)) carried.unshift(right.pop() as Line);
        flush();
        right = carried;
      }
      left.push(l);
    }
  }
  flush();
}

/** Empty bands across a region tried as cuts between two layouts of columns, widest first. */
const BAND_TRIES = 3;

/** Bands ([height, index of the first line under it]) widest first, then from the top. */
const byWidestBand = (a: [number, number], b: [number, number]): number => b[0] - a[0] || a[1] - b[1];

/**
 * The empty bands across `sorted` (lines by top or in reading order) tried as cuts, widest first,
 * `BAND_TRIES` at most: each the index of the first line under a band at least two of that line's
 * size tall between it and every line before it, `least` lines at least on either side.
 */
function widestBands(sorted: readonly LineBox[], least: number): number[] {
  const bands: [number, number][] = [];
  let bottom = Number.NEGATIVE_INFINITY;
  for (let k = 0; k < sorted.length; k++) {
    const l = sorted[k] as LineBox;
    if (k >= least && sorted.length - k >= least && l.y0 - bottom >= 2 * l.size) bands.push([l.y0 - bottom, k]);
    bottom = Math.max(bottom, l.y1);
  }
  return bands
    .sort(byWidestBand)
    .slice(0, BAND_TRIES)
    .map(([, k]) => k);
}

/**
 * Where a region with a gutter is two stacked layouts of columns, set apart by an empty band across
 * the page: the index (in `sorted`, by top) of the first line under the band, or 0. Each part has a
 * gutter of its own, and the two do not overlap (three columns over a two-column foot, reliance
 * p. 3): read by one gutter, the foot's columns would be read with the columns over them on each
 * side, and where the foot's lines bridge that gutter they would cut the page into stripes, the
 * foot's lines above the first such line read among the columns over it. Columns that go on under
 * the band keep one gutter and are not cut. A region without a gutter is not tried here: cut
 * there, a form's label and value pairs set apart by a band (right_to_left_03) read as two blocks of
 * labels and of values (`boxCut` cuts such a region only for a box of running text).
 */
function bandCut(sorted: readonly Line[], pageWidth: number, rtlPage: boolean): number {
  if (sorted.length < 8) return 0;
  for (const k of widestBands(sorted, 4)) {
    const top = findGutter(sorted.slice(0, k), pageWidth, rtlPage);
    const foot = top && findGutter(sorted.slice(k), pageWidth, rtlPage);
    if (!top || !foot || !(top[1] < foot[0] || foot[1] < top[0])) continue;
    // The widest gutter of each part may be a different one of the same columns (three columns,
    // one of them shorter under the band): the layouts differ only where a gutter of one part is
    // no gutter of the other.
    if (!sameGutters(sorted, k)) return k;
  }
  return 0;
}

/** Fewest lines on each side of a box's gutter. */
const BOX_SIDE = 4;
/** Share of a box column's lines at least `BOX_FILL` of its widest: running text fills its column. */
const BOX_FILLED = 2 / 3;
const BOX_FILL = 0.6;
/** Widest pitch, in sizes, at which a column's lines go on as running text. */
const RUNNING_PITCH = 1.6;

const byBase = (a: LineBox, b: LineBox): number => a.base - b.base;

/**
 * Where a region without a gutter holds a box of columns set apart from the rest by an empty band
 * (a booklet's two-column panel over a page of one column, failure-after-repair p. 11): the parts
 * to read in turn, the lines above the band and those under it (`boxOf`), or null. Read as one
 * region, the box's rows were read across both its columns: the lines under the band (a
 * paragraph's short last line over the gutter) and the panel's title closed the gutter for the
 * whole region. Only a part whose gutter parts running text qualifies (`filledColumns`): a form's
 * labels and values set apart by a band (right_to_left_03) stay read row by row. Right-to-left
 * pages are not tried. `sorted` is in reading order (`byPosition`), which the region is read in
 * where it holds no box: a band lies between two rows of it.
 */
function boxCut(sorted: readonly Line[], pageWidth: number): [Line[], boolean][] | null {
  if (sorted.length < 2 * BOX_SIDE + 1) return null;
  // The rows a box's columns share, which read across them, hold two lines side by side (next to
  // each other in reading order): most regions have too few such rows and end here.
  let paired = 0;
  for (let k = 1; k < sorted.length && paired < BOX_SIDE; k++) {
    const a = sorted[k - 1] as Line;
    const b = sorted[k] as Line;
    if (b.x0 > a.x1 && sameRow(a, b)) paired++;
  }
  if (paired < BOX_SIDE) return null;
  for (const k of widestBands(sorted, 1)) {
    const top = sorted.slice(0, k);
    const foot = sorted.slice(k);
    const atTop = boxOf(top, pageWidth);
    if (atTop) return [...atTop, [foot, false]];
    const atFoot = boxOf(foot, pageWidth);
    if (atFoot) return [[top, false], ...atFoot];
  }
  return null;
}

/**
 * A part of a region as its parts to read in turn, each marked whether it is the box, where it
 * holds a box of columns, or null: the part itself, or its title and the box under it. A title
 * alone on the part's first row may cross the box's gutter: in a part of fewer than 20 narrow
 * lines no narrow line may cross a gutter (`openStrips`), and a title narrower than `NARROW` of
 * the part is one.
 */
function boxOf(part: Line[], pageWidth: number): [Line[], boolean][] | null {
  if (boxed(part, pageWidth)) return [[part, true]];
  const [title, next] = part;
  if (!title || !next || sameRow(title, next)) return null;
  const rest = part.slice(1);
  return boxed(rest, pageWidth)
    ? [
        [[title], false],
        [rest, true],
      ]
    : null;
}

/** Whether a part's lines have a gutter between columns of running text. */
function boxed(part: Line[], pageWidth: number): boolean {
  if (part.length < 2 * BOX_SIDE) return false;
  // Prose across the part has few narrow lines (`findGutter`'s measure): most parts end here.
  const [x0, x1] = spanOf(part);
  let narrow = 0;
  for (const l of part) if (narrowIn(l, x1 - x0)) narrow++;
  if (narrow < 2 * BOX_SIDE) return false;
  const gutter = findGutter(part, pageWidth, false);
  return gutter !== null && filledColumns(part, gutter);
}

/**
 * Whether the lines on each side of a gutter are running text: several, most nearly as wide as
 * their column's widest and going on at a line's pitch, the right column's lines starting at one
 * edge. A form's labels and values are ragged on one side at least, and a glossary's terms, each
 * beside its definition, stand apart.
 */
function filledColumns(lines: readonly Line[], [g0, g1]: [number, number]): boolean {
  const { left, right } = sidesOf(lines, [g0, g1]);
  return filled(left) && filled(right) && flushLeft(right);
}

function filled(side: readonly Line[]): boolean {
  if (side.length < BOX_SIDE) return false;
  let widest = 0;
  for (const l of side) widest = Math.max(widest, l.x1 - l.x0);
  let full = 0;
  for (const l of side) if (l.x1 - l.x0 >= widest * BOX_FILL) full++;
  if (full < side.length * BOX_FILLED) return false;
  // Running text goes on at a line's pitch: a glossary's terms, one beside each definition, do not.
  const down = side.slice().sort(byBase);
  let run = 0;
  for (let k = 1; k < down.length; k++) {
    const a = down[k - 1] as Line;
    const b = down[k] as Line;
    if (b.base - a.base <= RUNNING_PITCH * a.size) run++;
  }
  return run >= (side.length - 1) * 0.5;
}

function flushLeft(side: readonly Line[]): boolean {
  let edge = Number.POSITIVE_INFINITY;
  for (const l of side) edge = Math.min(edge, l.x0);
  let flush = 0;
  for (const l of side) if (l.x0 - edge < 2 * l.size) flush++;
  return flush >= side.length * BOX_FILLED;
}

/** Narrowest strip across which no line of a part runs, to count as a gutter of it. */
const STRIP_BINS = 3;

/** Share of a region's width under which a line is narrow: a column's line, not one across the columns. */
const NARROW = 0.6;

/** Whether `l` is narrow in a region `width` wide: gutters are looked for among such lines only. */
const narrowIn = (l: LineBox, width: number): boolean => l.x1 - l.x0 < width * NARROW;

/**
 * A region's lines, their left and right edges, and once asked for its open strips (`openStrips`
 * over all its lines), which the tests for side heads and for columns both read.
 */
interface Region {
  lines: readonly LineBox[];
  x0: number;
  x1: number;
  strips: [number, number][] | null;
}

function regionOf(lines: readonly LineBox[]): Region {
  const [x0, x1] = spanOf(lines);
  return { lines, x0, x1, strips: null };
}

function stripsOf(region: Region): [number, number][] {
  region.strips ??= openStrips(region.lines, 0, region.lines.length, region.x0, region.x1);
  return region.strips;
}

/** The left and right edges of a region's lines. */
function spanOf(lines: readonly LineBox[]): [number, number] {
  let x0 = Infinity;
  let x1 = -Infinity;
  for (const l of lines) {
    if (l.x0 < x0) x0 = l.x0;
    if (l.x1 > x1) x1 = l.x1;
  }
  return [x0, x1];
}

/**
 * Whether the lines above `sorted[k]` and those from it on leave the same gutters: every strip at
 * least 6 pt wide inside the region that (almost) none of one part's narrow lines covers overlaps
 * such a strip of the other part by that much. Lines are narrow by the whole region's width, as
 * `findGutter` counts them there: a foot's paragraph across a gutter above it closes that gutter.
 */
function sameGutters(sorted: readonly Line[], k: number): boolean {
  const [rx0, rx1] = spanOf(sorted);
  const top = openStrips(sorted, 0, k, rx0, rx1);
  const foot = openStrips(sorted, k, sorted.length, rx0, rx1);
  const meets = (a: [number, number], list: [number, number][]): boolean =>
    list.some((b) => Math.min(a[1], b[1]) - Math.max(a[0], b[0]) >= STRIP_BINS);
  return top.every((a) => meets(a, foot)) && foot.every((b) => meets(b, top));
}

/**
 * The strips (in 2 pt bins from `rx0`) inside the region that the part's narrow lines leave open: a
 * coverage histogram, where a gutter is a run of bins that (almost) no narrow line covers, so a
 * stray line crossing it (an affiliation, a wide caption) does not hide the columns.
 */
function openStrips(
  sorted: readonly LineBox[],
  from: number,
  to: number,
  rx0: number,
  rx1: number,
): [number, number][] {
  const bins = Math.ceil((rx1 - rx0) / 2) + 2;
  const diff = new Int32Array(bins + 1);
  let narrow = 0;
  for (let k = from; k < to; k++) {
    const l = sorted[k] as LineBox;
    if (!narrowIn(l, rx1 - rx0)) continue;
    narrow++;
    const a = Math.max(0, Math.floor((l.x0 - rx0) / 2));
    const b = Math.min(bins, Math.ceil((l.x1 - rx0) / 2));
    diff[a] = (diff[a] ?? 0) + 1;
    diff[b] = (diff[b] ?? 0) - 1;
  }
  const allowed = Math.floor(narrow * 0.05);
  const strips: [number, number][] = [];
  let cover = 0;
  let start = -1;
  for (let b = 0; b <= bins; b++) {
    cover += b < bins ? (diff[b] as number) : 0;
    const open = b < bins && cover <= allowed;
    if (open && start < 0) start = b;
    else if (!open && start >= 0) {
      // Strips at the region's edges are margins, not gutters.
      if (start > 0 && b < bins - 1 && b - start >= STRIP_BINS) strips.push([start, b]);
      start = -1;
    }
  }
  return strips;
}

/** Most lines of a title read ahead of the columns under it. */
const HEAD_LINES = 3;

/**
 * How many of the region's top lines (sorted by top) are a title over the columns under them: set
 * centred on the page and above everything else, apart by at least their own size ("Table of
 * Contents" over three columns, inside the middle one's span), with the columns either side of the
 * gutter starting together under it. Read by column, a title inside one column's span came after
 * the column beside it. A line set off-centre at the top is a column's own heading or a running
 * head, and stays with its column; so does a heading that opens one column well above the other's
 * first line (a newsletter's middle column under its story's heading, pictures over the others).
 */
function headStripe(sorted: readonly Line[], pageWidth: number, gx0: number, gx1: number): number {
  let bottom = Number.NEGATIVE_INFINITY;
  let size = 0;
  for (let k = 0; k < Math.min(HEAD_LINES, sorted.length - 1); k++) {
    const l = sorted[k] as Line;
    if (Math.abs(l.x0 + l.x1 - pageWidth) > pageWidth * 0.1) return 0;
    bottom = Math.max(bottom, l.y1);
    size = Math.max(size, l.size);
    if ((sorted[k + 1] as Line).y0 - bottom >= size) return columnsStartTogether(sorted, k + 1, gx0, gx1) ? k + 1 : 0;
  }
  return 0;
}

/**
 * Whether the first line left of the gutter from `from` on and the first right of it start within
 * about a line's pitch of each other. Stops at the second of them: one pass over the region at most.
 */
function columnsStartTogether(sorted: readonly Line[], from: number, gx0: number, gx1: number): boolean {
  let left: Line | undefined;
  let right: Line | undefined;
  for (let k = from; k < sorted.length && !(left && right); k++) {
    const l = sorted[k] as Line;
    if (l.x0 < gx0 + 1 && l.x1 > gx1 - 1) continue;
    if (l.x0 + l.x1 < gx0 + gx1) left ??= l;
    else right ??= l;
  }
  if (!left || !right) return false;
  return Math.abs(left.y0 - right.y0) <= Math.max(left.size, right.size) * 1.5;
}

/**
 * The widest vertical gap that separates two text columns: both sides must hold several lines of
 * running text (not a narrow label column of a form or table) that overlap vertically.
 */
function findGutter(
  lines: Line[],
  pageWidth: number,
  rtlPage: boolean,
  region = regionOf(lines),
): [number, number] | null {
  const { x0: rx0, x1: rx1 } = region;
  const regionW = rx1 - rx0;
  if (regionW < pageWidth * 0.3) return null;
  // Lines wider than most of the region are the spanning ones; they may cross the gutter.
  const narrow = lines.filter((l) => narrowIn(l, regionW));
  if (narrow.length < 4) return null;
  let best: [number, number] | null = null;
  for (const [s0, s1] of stripsOf(region)) {
    const g0 = rx0 + s0 * 2;
    const g1 = rx0 + s1 * 2;
    if ((!best || g1 - g0 > best[1] - best[0]) && validGutter(narrow, g0, g1, regionW, lines, rtlPage)) best = [g0, g1];
  }
  return best;
}

function validGutter(narrow: Line[], g0: number, g1: number, regionW: number, all: Line[], rtlPage: boolean): boolean {
  let lc = 0;
  let rc = 0;
  let lw = 0;
  let rw = 0;
  let lchars = 0;
  let rchars = 0;
  let lwide = 0;
  let rwide = 0;
  let ly0 = Infinity;
  let ly1 = -Infinity;
  let ry0 = Infinity;
  let ry1 = -Infinity;
  // Lines of the column read second that start at the gutter, a paragraph's indent apart.
  let flush = 0;
  for (const l of narrow) {
    const w = l.x1 - l.x0;
    if (l.x0 < g0 + 1 && l.x1 > g1 - 1) continue;
    if (l.x0 + l.x1 < g0 + g1) {
      lc++;
      if (rtlPage && l.x1 > g0 - 2 * l.size) flush++;
      lchars += l.text.length;
      if (w > regionW * 0.18) {
        lw++;
        lwide += l.text.length;
      }
      ly0 = Math.min(ly0, l.y0);
      ly1 = Math.max(ly1, l.y1);
    } else {
      rc++;
      if (!rtlPage && l.x0 < g1 + 2 * l.size) flush++;
      rchars += l.text.length;
      if (w > regionW * 0.18) {
        rw++;
        rwide += l.text.length;
      }
      ry0 = Math.min(ry0, l.y0);
      ry1 = Math.max(ry1, l.y1);
    }
  }
  if (lc < 2 || rc < 2 || lw < 2 || rw < 2) return false;
  // Running text fills its column: most characters on each side sit in wide lines.
  if (lwide < lchars * 0.5 || rwide < rchars * 0.5) return false;
  const top = Math.max(ly0, ry0);
  const bottom = Math.min(ly1, ry1);
  if (bottom - top < Math.min(ly1 - ly0, ry1 - ry0) * 0.3) return false;
  // Columns of running text: several lines a side, the column read second starting its lines at the
  // gutter. Label and value lists (values set flush right) and a figure's few labels are not.
  const running = lw >= 4 && rw >= 4 && flush >= (rtlPage ? lc : rc) * (2 / 3);
  // A gutter crossed by many wide lines is a table or a ragged layout, not columns. Beside columns
  // of running text, only lines among them count: a full-width paragraph above or below them (an
  // introduction, a title) is a stripe of its own, read in its place.
  let crossing = 0;
  for (const l of all) if (l.x0 < g0 + 1 && l.x1 > g1 - 1 && (!running || (l.y1 > top && l.y0 < bottom))) crossing++;
  return crossing <= Math.max(3, all.length * 0.25);
}

/**
 * A region's lines read row by row (`sorted` in that order): wrapped labels ahead of their values
 * (`labelsFirst`); on left-to-right pages, items numbered on across rows each read whole with the
 * lines it wraps to (`itemsAcross`), and lists side by side read one after the other.
 */
function readRows(sorted: Line[], rtlPage: boolean): Line[] {
  const rows = labelsFirst(sorted);
  if (rtlPage) return rows;
  const starts = rowStarts(rows);
  const across = itemsAcross(rows, starts);
  return (across ? listsSideBySide(across) : listsSideBySide(rows, starts)) ?? across ?? rows;
}

/** Lines of a list of fields whose labels start within this many points of each other. */
const FIELD_EDGE = 2;
/** Fewest fields, their labels started at one edge, that make the lines a list of labels and values. */
const FIELDS = 3;

/** A pattern of Unicode properties, made once: written inline, tsx made it a new RegExp at every call. */
const HAS_FIGURE = /\p{N}/u;

/**
 * Whether a row of two lines reads as a field, a label and its value, by how they differ: the label
 * set in bold and the value not, or the label ending in a colon, or the value holding figures. Two
 * columns of prose, or prose beside a side column, are alike on both sides.
 */
const field = (label: Line, value: Line): boolean =>
  (label.bold && !value.bold) || /:$/.test(label.text) || HAS_FIGURE.test(value.text);

const byValue = (a: number, b: number): number => a - b;

/** A label's colon at a line's end (made once, as `HAS_FIGURE`). */
const ENDS_LABEL = /:\s*$/;

/**
 * Lines read row by row with the lines of a wrapped label moved ahead of its value. In a list of
 * fields (a form: a label, a wide gap, its value, on three rows or more, the labels starting at one
 * edge: the left, or the right in right-to-left text), a label too long for its column goes on
 * under itself, on a row holding nothing else; read row by row, its value came between its lines
 * ("label, value, rest of the label"), and the rest joined the next label. A lone line counts as
 * the label's when it starts at the label's edge, is set alike, stands no further below than a
 * line's height and clear of the value's column, and the label so far ends in no colon. One pass
 * over the rows, after a sort of the labels' edges.
 */
function labelsFirst(sorted: Line[]): Line[] {
  const rows: number[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const prev = sorted[i - 1];
    const l = sorted[i] as Line;
    if (!prev || !sameRow(l, prev)) rows.push(i);
  }
  rows.push(sorted.length);
  // The edges of the rows of two lines, and of those that read as fields.
  const pairs: number[] = [];
  const fields: number[] = [];
  for (let r = 0; r + 1 < rows.length; r++) {
    if (!isPair(rows, r)) continue;
    const at = rows[r] as number;
    const edge = edgeOf(sorted[at] as Line, sorted[at + 1] as Line);
    pairs.push(edge);
    if (isField(sorted, rows, r)) fields.push(edge);
  }
  if (fields.length < FIELDS) return sorted;
  pairs.sort(byValue);
  fields.sort(byValue);
  const out: Line[] = [];
  for (let r = 0; r + 1 < rows.length; ) {
    const at = rows[r] as number;
    const end = rows[r + 1] as number;
    const label = sorted[at] as Line;
    const value = sorted[at + 1] as Line;
    if (!isField(sorted, rows, r) || !sharedEdge(fields, pairs, edgeOf(label, value))) {
      for (let k = at; k < end; k++) out.push(sorted[k] as Line);
      r++;
      continue;
    }
    const edge = edgeOf(label, value);
    out.push(label);
    let last = label;
    let next = r + 1;
    while (next + 1 < rows.length && (rows[next + 1] as number) - (rows[next] as number) === 1) {
      const l = sorted[rows[next] as number] as Line;
      const startsAt = label.x0 > value.x0 ? l.x1 : l.x0;
      const clear = l.x0 >= value.x1 || l.x1 <= value.x0;
      const alike = l.bold === label.bold && Math.abs(l.size - label.size) <= 0.5;
      // A label ending in a colon is whole: the line under it is an empty field's label.
      if (
        Math.abs(startsAt - edge) > FIELD_EDGE ||
        !clear ||
        !alike ||
        l.y0 - last.y1 > label.size ||
        ENDS_LABEL.test(last.text)
      )
        break;
      out.push(l);
      last = l;
      next++;
    }
    out.push(value);
    r = next;
  }
  return out;
}

// labelsFirst's tests, at module level: it runs on every leaf region of every page, and a closure
// made per call is a new function each time (under tsx also named by a property write).

/** Where a field's label starts reading: its right edge when its value is on its left. */
function edgeOf(label: Line, value: Line): number {
  return label.x0 > value.x0 ? label.x1 : label.x0;
}

/** Whether row `r` (`rows` holds where each row starts in the lines, then their count) is two lines. */
function isPair(rows: readonly number[], r: number): boolean {
  return (rows[r + 1] as number) - (rows[r] as number) === 2;
}

/** Whether row `r` is two lines that read as a label and its value. */
function isField(sorted: readonly Line[], rows: readonly number[], r: number): boolean {
  return isPair(rows, r) && field(sorted[rows[r] as number] as Line, sorted[(rows[r] as number) + 1] as Line);
}

/**
 * Whether fields, three at least and most of the rows of two lines there, start at edge `x`
 * (`fields` and `pairs` sorted): prose beside a side column starts there too, the odd line of it a
 * field by chance (a web address's figures).
 */
function sharedEdge(fields: readonly number[], pairs: readonly number[], x: number): boolean {
  const n = countNear(fields, x, FIELD_EDGE);
  return n >= FIELDS && n * 2 > countNear(pairs, x, FIELD_EDGE);
}
