import type { WordPage } from '@docmill/core';
import { type Gray, gray } from './raster.ts';

/** A straight stretch along row `at` (horizontal) or column `at` (vertical), from `from` to `to` (exclusive). */
export interface Run {
  at: number;
  from: number;
  to: number;
}

/** Centre lines of the thin strokes of a raster: horizontal ones in `rows`, vertical ones in `cols`. */
export interface Strokes {
  rows: Run[];
  cols: Run[];
}

/**
 * A ruling of a scanned page, in pixels of the upright page: the centre line of a horizontal
 * (y0 = y1) or vertical (x0 = x1) stroke, the shape layout takes (scaled to points).
 */
export type Rule = NonNullable<WordPage['rules']>[number];

/**
 * Grey under which a pixel counts towards a ruling. Scans and upscaled JPEGs draw hairlines in mid
 * grey, lighter than any text; nothing but a ruling makes a straight run this long anyway.
 */
const FAINT = 160;
/** Grey under which a pixel is ink of a filled area (bars, dark boxes), as tesseract would see it. */
const INK = 128;

/**
 * Whitens long straight strokes (table rulings, underlines, frame borders) in place and returns
 * the thin ones twice the minimum length or longer, the page's rulings. Tesseract reads ruled grids as characters and merges cell
 * text across them; letters never make runs this long, so text survives. Both directions are
 * found on the original before anything is whitened: removing rows first would cut vertical rules
 * into cell-high pieces too short to find. Strokes thicker on average than `maxThick` are filled
 * areas: only their full-ink runs go, as faint grey there may be shading with text on it.
 */
export function removeRules(given: Gray, minRun: number, maxThick: number): Strokes {
  // Same pixels (whitened in place), in the shape every raster here has.
  const img = gray(given.width, given.height, given.data);
  const found: Strokes = { rows: [], cols: [] };
  const clear: [boolean, Run][] = [];
  for (const horizontal of [true, false]) {
    for (const g of strokes(darkRuns(spread(img, horizontal, FAINT), horizontal, minRun, 128))) {
      const inked = g.runs.flatMap((r) => darkRuns(img, horizontal, minRun, INK, r));
      if (g.thickness <= maxThick && (inked.length || faintRule(img, horizontal, g, minRun))) {
        // Display type in adverts and headlines makes strokes past the minimum too; a ruling that
        // bounds table cells runs the width or height of a few cells at least.
        if (g.line.to - g.line.from >= minRun * 2) (horizontal ? found.rows : found.cols).push(g.line);
        for (const r of g.runs) clear.push([horizontal, r]);
      } else for (const r of inked) clear.push([horizontal, r]);
    }
  }
  for (const [horizontal, r] of clear) whiten(img, horizontal, r);
  return found;
}

/**
 * Whether a stroke seen only in faint grey is a hairline rather than letters: large bold text
 * blurred together leaves grey runs along its baseline. A hairline is twice the length of the
 * shortest ruling, with paper (not letter bodies) on both sides of it.
 */
function faintRule(img: Gray, horizontal: boolean, g: Stroke, minRun: number): boolean {
  const { from, to } = g.line;
  if (to - from < minRun * 2) return false;
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const r of g.runs) {
    lo = Math.min(lo, r.at);
    hi = Math.max(hi, r.at);
  }
  const { width: w, height: h, data } = img;
  const inkAt = (at: number): number => {
    if (at < 0 || at >= (horizontal ? h : w)) return 0;
    let n = 0;
    for (let i = from; i < to; i++) if ((data[horizontal ? at * w + i : i * w + at] as number) < INK) n++;
    return n / (to - from);
  };
  return inkAt(lo - 3) < SIDE_INK && inkAt(hi + 3) < SIDE_INK;
}

/** Share of ink beside a faint stroke above which it is text, not a ruling with a few letters touching it. */
const SIDE_INK = 0.3;

/** Runs of pixels darker than `below`, at least `minRun` long, over the whole raster or within one run. */
function darkRuns(img: Gray, horizontal: boolean, minRun: number, below: number, within?: Run): Run[] {
  const { width: w, height: h, data } = img;
  const lines = horizontal ? h : w;
  const length = horizontal ? w : h;
  const out: Run[] = [];
  const first = within ? within.at : 0;
  const last = within ? within.at + 1 : lines;
  for (let at = first; at < last; at++) {
    const end = within ? within.to : length;
    let start = -1;
    for (let i = within ? within.from : 0; i <= end; i++) {
      if (i < end && (data[horizontal ? at * w + i : i * w + at] as number) < below) {
        if (start < 0) start = i;
      } else if (start >= 0) {
        if (i - start >= minRun) out.push({ at, from: start, to: i });
        start = -1;
      }
    }
  }
  return out;
}

/**
 * A black-on-white mask of the pixels darker than `below` or beside one across the direction
 * (above or below it for rows, left or right for columns). A scan a degree or two askew steps a
 * thin rule to the next row every few dozen pixels; in the mask its runs stay long enough to find.
 */
function spread(img: Gray, horizontal: boolean, below: number): Gray {
  return gray(img.width, img.height, spreadPixels(img, horizontal, below));
}

/** `spread`'s pixel loop, alone for the reason `grayPixels` is (see raster.ts). */
function spreadPixels(img: Gray, horizontal: boolean, below: number): Uint8Array {
  const { width: w, height: h, data } = img;
  const out = new Uint8Array(data.length).fill(255);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const k = y * w + x;
      if ((data[k] as number) >= below) continue;
      out[k] = 0;
      if (horizontal) {
        if (y > 0) out[k - w] = 0;
        if (y + 1 < h) out[k + w] = 0;
      } else {
        if (x > 0) out[k - 1] = 0;
        if (x + 1 < w) out[k + 1] = 0;
      }
    }
  }
  return out;
}

/** A rule's anti-aliased edges are a pixel of grey on each side: they go too, or they read as '|'. */
function whiten(img: Gray, horizontal: boolean, r: Run): void {
  const { width: w, height: h, data } = img;
  const across = horizontal ? h : w;
  for (let at = Math.max(0, r.at - 1); at <= Math.min(across - 1, r.at + 1); at++) {
    if (horizontal) data.fill(255, at * w + r.from, at * w + r.to);
    else for (let y = r.from; y < r.to; y++) data[y * w + at] = 255;
  }
}

interface Stroke {
  runs: Run[];
  /** Centre line: `at` is the ink-weighted mean position across. */
  line: Run;
  /** Mean width across, pixels. */
  thickness: number;
}

/**
 * Joins runs into strokes: runs on neighbouring rows (or columns) that overlap are one stroke,
 * however thick or slightly skewed the scan drew it. Runs come sorted by `at`, then `from`.
 */
function strokes(runs: Run[]): Stroke[] {
  const parent = runs.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i] as number] as number;
      i = parent[i] as number;
    }
    return i;
  };
  let prevStart = 0;
  let prevEnd = 0;
  for (let i = 0; i < runs.length; ) {
    const at = (runs[i] as Run).at;
    let end = i;
    while (end < runs.length && (runs[end] as Run).at === at) end++;
    const touching = prevEnd > prevStart && (runs[prevStart] as Run).at === at - 1;
    for (let k = i; touching && k < end; k++) {
      const r = runs[k] as Run;
      for (let j = prevStart; j < prevEnd; j++) {
        const p = runs[j] as Run;
        if (p.from < r.to && r.from < p.to) parent[find(k)] = find(j);
      }
    }
    prevStart = i;
    prevEnd = end;
    i = end;
  }
  const groups = new Map<number, { runs: Run[]; from: number; to: number; pixels: number; weighted: number }>();
  for (const [i, r] of runs.entries()) {
    const root = find(i);
    const len = r.to - r.from;
    const g = groups.get(root);
    if (!g) groups.set(root, { runs: [r], from: r.from, to: r.to, pixels: len, weighted: (r.at + 0.5) * len });
    else {
      g.runs.push(r);
      g.from = Math.min(g.from, r.from);
      g.to = Math.max(g.to, r.to);
      g.pixels += len;
      g.weighted += (r.at + 0.5) * len;
    }
  }
  return [...groups.values()].map((g) => ({
    runs: g.runs,
    line: { at: g.weighted / g.pixels, from: g.from, to: g.to },
    thickness: g.pixels / (g.to - g.from),
  }));
}

/** The rulings of an image of `width` × `height` pixels, as seen once it is turned clockwise by `turn`. */
export function rulesOf(found: Strokes, width: number, height: number, turn: 0 | 90 | 180 | 270): Rule[] {
  const raw: Rule[] = [
    ...found.rows.map((s) => ({ x0: s.from, y0: s.at, x1: s.to, y1: s.at })),
    ...found.cols.map((s) => ({ x0: s.at, y0: s.from, x1: s.at, y1: s.to })),
  ];
  // Same turns as `rotate`, on continuous coordinates: 90 takes (x, y) to (h − y, x).
  const point = (x: number, y: number): [number, number] =>
    turn === 90 ? [height - y, x] : turn === 180 ? [width - x, height - y] : turn === 270 ? [y, width - x] : [x, y];
  return raw.map((r) => {
    const [ax, ay] = point(r.x0, r.y0);
    const [bx, by] = point(r.x1, r.y1);
    return { x0: Math.min(ax, bx), y0: Math.min(ay, by), x1: Math.max(ax, bx), y1: Math.max(ay, by) };
  });
}
