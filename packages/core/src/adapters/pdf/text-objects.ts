import { firstPlace } from '../../util/arrays.ts';
import type { TextStart } from './extract.ts';
import type { TextItem } from './model.ts';

/**
 * Cuts runs where a text object starts inside them. pdf.js's text layer joins the glyphs of one
 * object to the next where they nearly touch, so a cell's text clipped at its border runs into the
 * next cell's ("Elizab2165" in schools.pdf, the clipped "b" its own object 0.3 pt before "2165");
 * PDFium ends a run with its object, and the table code cuts cells between runs.
 *
 * A cut needs the object's first characters at about the place its origin gives in the run (runs
 * carry no glyph positions: the place is estimated from the run's width, then matched to the
 * characters), so a run whose text differs from the drawn glyphs stays whole.
 *
 * The work is bounded: a run holding more than `MAX_CUTS` starts stays whole, and past `CHECKS`
 * starts looked at on a page the rest of its runs do too. `work.checks`, where given, counts them.
 */
export function splitAtTextStarts(
  items: TextItem[],
  starts: readonly TextStart[],
  work: { checks: number } = { checks: 0 },
): TextItem[] {
  if (!starts.length) return items;
  // Starts by baseline band (3 pt), each band sorted by x: a run looks at its own band and the two
  // beside it, and finds the starts within its extent by binary search.
  const bands = new Map<number, TextStart[]>();
  for (const s of starts) {
    const k = Math.round(s.base / 3);
    const band = bands.get(k);
    if (band) band.push(s);
    else bands.set(k, [s]);
  }
  for (const band of bands.values()) band.sort((a, b) => a.x - b.x);
  let out: TextItem[] | null = null;
  for (let i = 0; i < items.length; i++) {
    const it = items[i] as TextItem;
    const cuts =
      it.rotated || it.dir !== 'ltr' || it.str.length < 2 || leaders.test(it.str) || work.checks >= CHECKS
        ? []
        : cutsOf(it, bands, work);
    if (!cuts.length) {
      out?.push(it);
      continue;
    }
    out ??= items.slice(0, i);
    for (const piece of pieces(it, cuts)) out.push(piece);
  }
  return out ?? items;
}

/**
 * Leader dots: a run holding them stays whole. The place of a start in it is estimated from the
 * run's width, and narrow dots put the estimate far off; the leader code reads such runs whole.
 */
const leaders = /\.{4,}/;

/** A start this close (in ems) to a run's edge is the run's own start or the next run's. */
const EDGE = 0.15;
/** How many characters the matched place may lie from the estimated one. */
const SLACK = 3;
/**
 * A run with more starts than this inside it is no cell's text run into the next but text drawn
 * over other text, and stays whole: overlapping runs each hold all the others' starts, and reading
 * them all would be quadratic (20,000 objects 1 pt apart took 84 s).
 */
const MAX_CUTS = 16;
/** Starts looked at on one page, at most: past it, runs stay as pdf.js joined them. */
export const CHECKS = 100_000;

/** Where to cut a run: [character offset, x] pairs, in order. */
function cutsOf(it: TextItem, bands: Map<number, TextStart[]>, work: { checks: number }): [number, number][] {
  const base = it.y + it.h;
  const x0 = it.x + EDGE * it.size;
  const x1 = it.x + it.w - EDGE * it.size;
  if (x1 <= x0) return [];
  const k = Math.round(base / 3);
  // The starts within the run's extent, band by band: counted by binary search before any is read.
  const within: [TextStart[], number, number][] = [];
  let count = 0;
  for (const band of [bands.get(k - 1), bands.get(k), bands.get(k + 1)]) {
    if (!band) continue;
    const from = firstPlace(band, (s) => s.x <= x0);
    const to = firstPlace(band, (s) => s.x < x1);
    if (to <= from) continue;
    within.push([band, from, to]);
    count += to - from;
  }
  if (count > MAX_CUTS) return [];
  work.checks += count;
  const cuts: [number, number][] = [];
  for (const [band, from, to] of within) {
    for (let j = from; j < to; j++) {
      const s = band[j] as TextStart;
      if (Math.abs(s.base - base) > 0.2 * it.size || Math.abs(s.size - it.size) > 0.1 * it.size) continue;
      const at = placeOf(it, s);
      if (at > 0) cuts.push([at, s.x]);
    }
  }
  cuts.sort((a, b) => a[0] - b[0]);
  // One cut per place, each after the one before it.
  return cuts.filter((c, n) => n === 0 || c[0] > (cuts[n - 1] as [number, number])[0]);
}

/**
 * The character offset where the start's characters stand in the run, near the estimate: the one
 * place there where they begin (leader dots match at every dot, and begin at the first); 0 where
 * no place, or more than one, does.
 */
function placeOf(it: TextItem, s: TextStart): number {
  const n = it.str.length;
  const guess = Math.round(((s.x - it.x) / it.w) * n);
  let found = 0;
  for (let at = Math.max(1, guess - SLACK); at <= Math.min(n - 1, guess + SLACK); at++) {
    if (it.str[at - 1] === s.head[0]) continue;
    if (!it.str.startsWith(s.head, at) && !(s.head.length > n - at && s.head.startsWith(it.str.slice(at)))) continue;
    if (found) return 0;
    found = at;
  }
  return found;
}

/** The run cut at the given places, each piece from its start's x. */
function pieces(it: TextItem, cuts: [number, number][]): TextItem[] {
  const out: TextItem[] = [];
  let from = 0;
  let x = it.x;
  for (const [at, cx] of cuts) {
    out.push({ ...it, str: it.str.slice(from, at), x, w: cx - x, hasEOL: false });
    from = at;
    x = cx;
  }
  out.push({ ...it, str: it.str.slice(from), x, w: it.x + it.w - x });
  return out;
}
