import { monospacedByName } from '../../util/fonts.ts';
import type { Rect, TextItem } from './model.ts';
import { isCjk } from './text.ts';

/**
 * Where the characters of runs start on the page, as a backend placed them: for a run `r`,
 * `x[at.get(r)]` is the length of its text as placed and the starts follow, one for each UTF-16
 * unit. One array per page, not one per run: kept only on pages with links.
 */
export interface CharStarts {
  x: number[];
  at: Map<TextItem, number>;
}

/** A link annotation's active area on the page (top-left origin, as text runs have it). */
export interface LinkBox extends Rect {
  href: string;
}

/** Height of the horizontal bands links are filed under: about two or three lines of body text. */
const BAND = 24;

/**
 * Bands a link is filed under at most. Links are filed only over the bands between the page's
 * highest and lowest runs: a link drawn over the whole page is filed once per band there, and a
 * hostile page whose runs stand farther apart than this many bands has its tallest links cut
 * short, not its time.
 */
const MAX_BANDS = 400;

/**
 * Sets each run's `href` to the link its centre lies in (the first such link in the page's order),
 * so prose lines and table cells both find a run's link on the run; a run a link covers in part is
 * first split at the link's edges (`linkedPieces`), in place in `items`. The links are filed once per
 * page under horizontal bands, and each run is tested only against the links of its band: links
 * spread down a page cost little more than the runs; all stacked in one band, each run of that band
 * meets each (30,000 runs and 5,000 links in one band: about 0.3 s, measured in review).
 */
export function attachLinks(
  items: TextItem[],
  links: LinkBox[] | undefined,
  mono: readonly string[] = [],
  starts?: CharStarts,
): void {
  if (!links?.length || !items.length) return;
  let lo = Infinity;
  let hi = -Infinity;
  for (const it of items) {
    const b = bandOf(it);
    if (b < lo) lo = b;
    if (b > hi) hi = b;
  }
  const bands = new Map<number, LinkBox[]>();
  for (const l of links) {
    if (!(l.y1 >= l.y0 && l.x1 >= l.x0)) continue;
    const first = Math.max(Math.floor(l.y0 / BAND), lo);
    const last = Math.min(Math.floor(l.y1 / BAND), hi, first + MAX_BANDS - 1);
    for (let b = first; b <= last; b++) {
      const list = bands.get(b);
      if (list) list.push(l);
      else bands.set(b, [l]);
    }
  }
  if (!bands.size) return;
  let split: TextItem[] | null = null;
  for (let k = 0; k < items.length; k++) {
    const it = items[k] as TextItem;
    const list = bands.get(bandOf(it));
    const pieces = list ? linkedPieces(it, list, mono, starts) : null;
    if (pieces) {
      split ??= items.slice(0, k);
      for (const p of pieces) split.push(p);
    } else split?.push(it);
  }
  if (split) {
    items.length = 0;
    for (const it of split) items.push(it);
  }
}

/**
 * Link edges inside one run beyond which the run keeps the link of its centre: each edge costs a
 * walk over the run's characters, and a hostile page may stack thousands of links over each run.
 */
const MAX_EDGES = 32;

/** The band a run's centre falls in. */
const bandOf = (it: TextItem): number => Math.floor((it.y + it.h / 2) / BAND);

/** The first link of a band that holds the point. */
function linkAt(list: LinkBox[], x: number, y: number): LinkBox | undefined {
  for (const l of list) if (x >= l.x0 && x <= l.x1 && y >= l.y0 && y <= l.y1) return l;
  return undefined;
}

/**
 * Sets the run's link, or splits the run where a link begins or ends inside it and returns the
 * pieces, each with the link its own centre lies in. pdf.js gives a line of one font as one run
 * (PDFium one text object), so a link over a few of its words would otherwise be lost, or spread
 * over the whole run. Each edge is moved to the nearest word edge (link boxes frame whole words),
 * found where the backend placed the characters (`charStarts`) or else estimated (`placeChars`).
 */
function linkedPieces(it: TextItem, list: LinkBox[], mono: readonly string[], starts?: CharStarts): TextItem[] | null {
  const cy = it.y + it.h / 2;
  it.href = linkAt(list, it.x + it.w / 2, cy)?.href;
  const n = it.str.length;
  if (it.dir !== 'ltr' || it.rotated || n < 2 || !(it.w > 0)) return null;
  const x1 = it.x + it.w;
  const edges: [number, boolean][] = [];
  for (const l of list) {
    if (cy < l.y0 || cy > l.y1) continue;
    if (l.x0 > it.x && l.x0 < x1) edges.push([l.x0, true]);
    if (l.x1 > it.x && l.x1 < x1) edges.push([l.x1, false]);
    if (edges.length > MAX_EDGES) return null;
  }
  if (!edges.length) return null;
  const placed = starts ? charStarts(it, starts) : null;
  // pdf.js flags a font monospaced by its descriptor; a name (Courier) says so where flags do not.
  const xs = placed ?? placeChars(it, mono.includes(it.fontName) || monospacedByName(it.fontName));
  const cuts: number[] = [];
  for (const [edge, start] of edges) cuts.push(wordEdge(it.str, xs, edge, start));
  cuts.sort((a, b) => a - b);
  const pieces: TextItem[] = [];
  let from = 0;
  for (const at of [...cuts, n]) {
    if (at <= from || (at < n && !it.str.slice(from, at).trim())) continue;
    const x = xs[from] as number;
    const w = (xs[at] as number) - x;
    pieces.push({ ...it, str: it.str.slice(from, at), x, w, hasEOL: at === n && it.hasEOL, href: undefined });
    from = at;
  }
  if (pieces.length < 2) return null;
  for (const p of pieces) p.href = linkAt(list, p.x + p.w / 2, cy)?.href;
  return pieces;
}

/**
 * Where each character of the run starts as the backend placed it, the run's end last; null when
 * the run's text changed since (accents composed into it).
 */
function charStarts(it: TextItem, starts: CharStarts): number[] | null {
  const at = starts.at.get(it);
  if (at === undefined) return null;
  const m = starts.x[at] as number;
  const n = it.str.length;
  // A blank added after the run where a blank-only run followed it stands at the run's end.
  if (n !== m && !(n === m + 1 && it.str.endsWith(' '))) return null;
  const end = it.x + it.w;
  const xs: number[] = [];
  let last = it.x;
  for (let k = 0; k < n; k++) {
    last = Math.min(end, Math.max(last, k < m ? (starts.x[at + 1 + k] as number) : end));
    xs.push(last);
  }
  xs.push(end);
  return xs;
}

/**
 * Where each character of the run starts, estimated, the run's end last: by an even advance for
 * a monospaced font, else by the typical advance of each character (`advanceOf`). pdf.js gives
 * no glyph positions with a run. Placing by character count put one link of eu-001 a word early;
 * placing Courier by typical advances put links a word off (`lilt` on `will`).
 */
function placeChars(it: TextItem, even: boolean): number[] {
  const n = it.str.length;
  if (even) {
    const xs: number[] = [];
    for (let k = 0; k <= n; k++) xs.push(it.x + (it.w * k) / n);
    return xs;
  }
  const ends = advances(it.str);
  const scale = it.w / (ends[n] as number);
  return ends.map((a) => it.x + a * scale);
}

const wordChar = /[\p{L}\p{N}\p{M}]/u;

/**
 * Typical advances of characters in thousandths of an em, as the common proportional faces set
 * them: enough to place a link's edge within a word on a line of body text.
 */
function advanceOf(c: string): number {
  if (c === ' ' || "ijlfrt.,:;!|'()[]{}/-".includes(c)) return 300;
  if ('mwMW@%'.includes(c)) return 850;
  if (/[A-Z]/.test(c)) return 690;
  if (isCjk(c)) return 1000;
  return 530;
}

/** Where each character of a run starts, in `advanceOf` units; the last entry is the run's end. */
function advances(s: string): number[] {
  const out = [0];
  let x = 0;
  for (const c of s) {
    x += advanceOf(c);
    // A character outside the BMP is two units of the string: both start where it does.
    if (c.length > 1) out.push(x - advanceOf(c));
    out.push(x);
  }
  return out;
}

/**
 * The word edge nearest to `at` (`ends`: where each character starts, the run's end last): where a link starts, after a blank or before a word that
 * follows punctuation; where one ends, at the end of a word. Link boxes stand a point or two
 * beyond the text they frame, which would otherwise take a full stop after the link in with it.
 */
function wordEdge(s: string, ends: number[], at: number, start: boolean): number {
  let best = start ? 0 : s.length;
  let dist = Math.abs(at - (ends[best] as number));
  for (let k = 1; k < s.length; k++) {
    const a = s.charAt(k - 1);
    const b = s.charAt(k);
    const edge = start
      ? b !== ' ' && (a === ' ' || (!wordChar.test(a) && wordChar.test(b)))
      : wordChar.test(a) && !wordChar.test(b);
    const d = Math.abs(at - (ends[k] as number));
    if (edge && d < dist) {
      best = k;
      dist = d;
    }
  }
  const end = start ? s.length : 0;
  return Math.abs(at - (ends[end] as number)) < dist ? end : best;
}
