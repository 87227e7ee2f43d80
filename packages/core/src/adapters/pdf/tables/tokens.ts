import { append, countNear, firstPlace } from '../../../util/arrays.ts';
import { LETTER } from '../../../util/letters.ts';
import type { TextItem } from '../model.ts';

/**
 * Runs as the cells of a borderless table see them. A run can hold what belongs in two cells: a
 * row label and the dot leader that ends it, then the first figure ("Total . . . . 11,062.6"), or
 * figures of neighbouring columns drawn in one go ("1,540.0 9,522.6"). Such runs are split into
 * runs of their own, placed by an estimate of where their characters fall; the page's runs
 * themselves are left as they are.
 */
export interface CellRuns {
  /** The page's runs, then the parts of split runs. */
  items: TextItem[];
  /** Indices into `items` of the runs to read: split runs replaced by their parts. */
  idx: number[];
  /** For each index of `items`, the page run it comes from. */
  origin: number[];
  /** Page runs that are a dot leader and nothing else: they belong to the row they sit on. */
  leaders: number[];
  /** Indices into `items` of the parts a leader parted (a contents entry and its page). */
  led: Set<number>;
  /** Page runs of a few dots that open a leader of their own: the leader's, read as neither. */
  heads: number[];
  /** Stretches of lines between a contents entry and its page, which no cell runs across. */
  cuts: Cut[];
  /** Those of `cuts` before a page with no leader at all. */
  lone: Cut[];
}

/** A stretch of a line (`y` its middle) that parts two cells however close they stand. */
export interface Cut {
  x0: number;
  x1: number;
  y: number;
}

/** Cuts sorted by their line, with their place in the list they came from. */
const cutLines = new WeakMap<readonly Cut[], { n: number; sorted: { c: Cut; k: number }[] }>();

/**
 * The cuts whose line lies strictly between `top` and `bottom`, in the order of `cuts`. Each row of
 * a contents page asks, and such a page holds thousands of cuts: they are sorted once per list.
 */
export function cutsAcross(cuts: readonly Cut[], top: number, bottom: number): Cut[] {
  if (!cuts.length) return [];
  let index = cutLines.get(cuts);
  if (index?.n !== cuts.length) {
    const sorted: { c: Cut; k: number }[] = [];
    for (const [k, c] of cuts.entries()) if (Number.isFinite(c.y)) sorted.push({ c, k });
    sorted.sort((a, b) => a.c.y - b.c.y || a.k - b.k);
    index = { n: cuts.length, sorted };
    cutLines.set(cuts, index);
  }
  const { sorted } = index;
  const found: { c: Cut; k: number }[] = [];
  for (let i = firstPlace(sorted, (e) => e.c.y <= top); i < sorted.length; i++) {
    const e = sorted[i] as { c: Cut; k: number };
    if (!(e.c.y < bottom)) break;
    found.push(e);
  }
  if (found.length > 1) found.sort((a, b) => a.k - b.k);
  return found.map((e) => e.c);
}

/** Four dots or more, spaced or not, or ellipses: a leader from a label to its value. */
const leader = /(?:\s?\.){4,}\s*|\s*…+\s*/;
/** What follows a leader: nothing, figures, or a page number in roman numerals. */
const leadsTo = /^\s*(?:[-+(−]?\d[\d.,]*%?\)?(?:\s+[-+(−]?\d[\d.,]*%?\)?)*|[ivxlc]{1,7})?\s*$/i;
/**
 * The last dots of a leader drawn as a run of their own with the value after them (". . vii"): two
 * dots or more, a blank after the last. A decimal (".5") has no blank after its point.
 */
const leaderEnd = /^\s*\.(?:\s?\.)+\s+/;
/** Figures with blanks between them, and nothing else. */
const figures = /^\s*[-+(−]?\d[\d.,]*%?\)?(?:\s+[-+(−]?\d[\d.,]*%?\)?)+\s*$/;

export function cellRuns(items: TextItem[], idx: number[]): CellRuns {
  const out: TextItem[] = items.slice();
  const origin: number[] = [];
  for (let i = 0; i < items.length; i++) origin.push(i);
  const read: number[] = [];
  const leaders: number[] = [];
  const led = new Set<number>();
  const split: ([number, number][] | null)[] = [];
  // Per run: a leader parts it, or it is a leader alone that leads to a value (asked once: a pass over the line).
  const leading: boolean[] = [];
  // Leaders that lead to a value of another kind (a web address, a code), alone or ending a run:
  // leaders only where such values line up (`lined`), as a list's values do.
  const toValues: ToValue[] = [];
  let long = 0;
  for (const i of idx) {
    const it = items[i] as TextItem;
    const parts = splitPoints(it.str);
    const k = split.length;
    split.push(parts);
    let leads = false;
    if (parts?.length) leads = leader.test(it.str) || leaderEnd.test(it.str);
    else if (parts) {
      const next = nextOnLine(items, idx, it);
      leads = !next || leadsTo.test(next.str.replace(leaderEnd, ''));
      if (!leads && next && shortValue.test(next.str)) toValues.push({ k, parts, x: next.x, end: next.x + next.w });
    } else {
      const found = leaderToValue(it.str);
      if (found) {
        const cum = widths(it.str);
        const x = it.x + (it.w * (cum[(found[1] as [number, number])[0]] as number)) / (cum[cum.length - 1] || 1);
        toValues.push({ k, parts: found, x, end: it.x + it.w });
      }
    }
    leading.push(leads);
    if (leads) long++;
  }
  const values = lined(toValues);
  for (const v of values) {
    split[v.k] = v.parts;
    leading[v.k] = true;
  }
  // On a page of contents lists, where leaders of four dots or more are many, an entry that leaves
  // room for three dots or fewer before its page still has a leader.
  const contents = long >= CONTENTS_LEADERS;
  for (const [k, i] of idx.entries()) {
    const it = items[i] as TextItem;
    let parts = split[k] as [number, number][] | null;
    let short = false;
    if (!parts && contents) {
      parts = shortSplit(it.str, () => valueAfter(items, idx, it));
      if (!parts && fewDots.test(it.str) && shortLeader(items, idx, it)) parts = [];
      short = parts !== null;
    }
    if (!parts) {
      read.push(i);
      continue;
    }
    if (!parts.length) {
      // A leader of its own leads to the run after it on the line, which must be a value.
      if (short || leading[k]) leaders.push(i);
      else read.push(i);
      continue;
    }
    const byLeader = short || leading[k] === true;
    const cum = widths(it.str);
    for (const [a, b] of parts) {
      if (byLeader) led.add(out.length);
      read.push(out.length);
      origin.push(i);
      out.push(partOf(it, cum, a, b));
    }
  }
  const heads = leaders.length ? leaderHeads(out, read, leaders) : [];
  const cuts = leaderCuts(out, origin, leaders, led, items.length);
  const listed = values.length >= CONTENTS_LEADERS;
  const lone = contents || listed ? lonePages(out, read, origin, cuts, contents, listed) : [];
  append(cuts, lone);
  return { items: out, idx: read, origin, leaders, led, heads, cuts, lone };
}

const mid = (it: TextItem): number => it.y + it.h / 2;
const sameLine = (a: TextItem, y: number): boolean => Math.abs(mid(a) - y) <= a.h / 2;

/**
 * Where the leaders stand: leaders drawn as runs of their own, and the dots between the parts a
 * leader parted (before the first part when the run opens with the leader's last dots).
 */
function leaderCuts(out: TextItem[], origin: number[], leaders: number[], led: Set<number>, first: number): Cut[] {
  const cuts: Cut[] = [];
  for (const i of leaders) {
    const d = out[i] as TextItem;
    cuts.push({ x0: d.x, x1: d.x + d.w, y: mid(d) });
  }
  for (let k = first; k < out.length; k++) {
    if (!led.has(k)) continue;
    const part = out[k] as TextItem;
    const o = origin[k] as number;
    const prev = origin[k - 1] === o ? (out[k - 1] as TextItem) : (out[o] as TextItem);
    const from = prev === out[o] ? prev.x : prev.x + prev.w;
    if (part.x > from + 1) cuts.push({ x0: from, x1: part.x, y: mid(part) });
  }
  return cuts;
}

/** An entry's words, a blank and a page in figures ending a run. */
const pageTail = /^(.*\p{L}.*?)\s+(\d+)\s*$/u;

/**
 * Values filed in bands by the middle of their line, so that a run looks along its own line without
 * a pass over the page: a contents page holds thousands of runs, and every entry and page looks for
 * its neighbours.
 */
class Bands<T> {
  private readonly bands = new Map<number, T[]>();
  constructor(private readonly band: number) {}
  add(y: number, value: T): void {
    const b = Math.floor(y / this.band);
    const list = this.bands.get(b);
    if (list) list.push(value);
    else this.bands.set(b, [value]);
  }
  /** Visits every value filed within `reach` of `y`, and some a band further, for the caller to test. */
  each(y: number, reach: number, visit: (value: T) => void): void {
    const lo = Math.floor((y - reach) / this.band);
    const hi = Math.floor((y + reach) / this.band);
    if (!(hi - lo <= this.bands.size)) {
      for (const list of this.bands.values()) for (const v of list) visit(v);
      return;
    }
    for (let b = lo; b <= hi; b++) {
      const list = this.bands.get(b);
      if (list) for (const v of list) visit(v);
    }
  }
}

/** A run of `read` and its place there: ties go to the run read first, as in a pass over `read`. */
interface Placed {
  it: TextItem;
  at: number;
}

/**
 * The runs of `read` by line: those no taller than twice the usual height in bands of it, so that
 * each looks only at its neighbours; taller ones (a heading, a drop cap) are visited every time.
 */
function runsByLine(out: TextItem[], read: number[]): (y: number, visit: (p: Placed) => void) => void {
  const heights = read.map((i) => (out[i] as TextItem).h).sort((a, b) => a - b);
  const band = Math.max(1, heights[heights.length >> 1] ?? 1);
  const bands = new Bands<Placed>(band);
  const tall: Placed[] = [];
  for (const [at, i] of read.entries()) {
    const it = out[i] as TextItem;
    if (it.h / 2 > band) tall.push({ it, at });
    else bands.add(mid(it), { it, at });
  }
  return (y, visit) => {
    bands.each(y, band, visit);
    for (const p of tall) visit(p);
  };
}

/**
 * The gaps before pages of contents entries without a leader ("Load Limit Reached - A confusing note
 * 117"): a page alone after an entry's words, as a run of its own or ending the entry's run (which
 * is parted), its last digit where the pages after two leaders or more end. With `contents` the
 * page's leaders lead to pages; with `listed`, to short values (web addresses), which may stand
 * alone after a label too, a tab's width from it (a leader drawn as no text), not a word space.
 */
function lonePages(
  out: TextItem[],
  read: number[],
  origin: number[],
  cuts: Cut[],
  contents: boolean,
  listed: boolean,
): Cut[] {
  const ends: number[] = [];
  const onLine = runsByLine(out, read);
  for (const c of cuts) {
    let next: Placed | undefined;
    onLine(c.y, (p) => {
      const it = p.it;
      if (
        sameLine(it, c.y) &&
        it.x >= c.x1 - 1 &&
        (!next || it.x < next.it.x || (it.x === next.it.x && p.at < next.at))
      )
        next = p;
    });
    if (next) ends.push(next.it.x + next.it.w);
  }
  ends.sort((a, b) => a - b);
  const flush = (it: TextItem) => countNear(ends, it.x + it.w, 2) >= 2;
  const found: Cut[] = [];
  const count = contents ? read.length : 0;
  for (let k = 0; k < count; k++) {
    const i = read[k] as number;
    const it = out[i] as TextItem;
    const m = pageTail.exec(it.str);
    if (!m || !flush(it)) continue;
    const cum = widths(it.str);
    const page = it.str.lastIndexOf(m[2] as string);
    const entry = trimmed(it.str, 0, page) as [number, number];
    const parts = [partOf(it, cum, entry[0], entry[1]), partOf(it, cum, page, page + (m[2] as string).length)];
    read[k] = out.length;
    read.push(out.length + 1);
    for (const part of parts) {
      origin.push(origin[i] as number);
      out.push(part);
    }
    const [a, b] = parts as [TextItem, TextItem];
    found.push({ x0: a.x + a.w, x1: b.x, y: mid(b) });
  }
  const byLine = runsByLine(out, read);
  const taken = new Bands<Cut>(1);
  for (const c of cuts) taken.add(c.y, c);
  for (const c of found) taken.add(c.y, c);
  for (const i of read) {
    const page = out[i] as TextItem;
    if (!/\S/.test(page.str) || !flush(page)) continue;
    const figures = leadsTo.test(page.str);
    if (!(figures ? contents : listed && shortValue.test(page.str))) continue;
    const y = mid(page);
    let before: Placed | undefined;
    byLine(y, (p) => {
      const it = p.it;
      if (it === page || !sameLine(it, y) || it.x + it.w > page.x + 1) return;
      if (!before || it.x > before.it.x || (it.x === before.it.x && p.at < before.at)) before = p;
    });
    if (!before) continue;
    const b = before.it;
    const apart = page.x - (b.x + b.w);
    if (!LETTER.test(b.str) || (figures ? apart > page.size * 2 : apart < page.size)) continue;
    const x0 = b.x + b.w;
    let cut = false;
    taken.each(y, page.h / 2, (c) => {
      if (Math.abs(c.y - y) <= page.h / 2 && c.x1 >= x0 - 1 && c.x0 <= page.x + 1) cut = true;
    });
    if (cut) continue;
    const gap = { x0, x1: page.x, y };
    found.push(gap);
    taken.add(y, gap);
  }
  return found;
}

/** A few dots and nothing else, spaced or not: too short for a leader on their own. */
const fewDots = /^\s*\.(?:\s?\.){0,2}\s*$/;

/** Leaders of four dots or more on a page that make its short ones leaders too (a contents list's). */
const CONTENTS_LEADERS = 3;

/**
 * Dots that end an entry before its page when there is no room for more: two or three, spaced or
 * not, or one after a word and before a blank ("Heartwood. 158"); a decimal point has a digit before it.
 */
const shortDots = /(?:\s?\.){2,3}\s*|(?<=\p{L})\.\s+/gu;

/**
 * An entry and a short leader in one run, and the page after them in the run or, when `pageNext`
 * says so, in the next run on the line: [start, end) of the entry and of the page. The last short
 * leader with a page or figures, and nothing else, after it; null when there is none.
 */
function shortSplit(s: string, pageNext: () => boolean): [number, number][] | null {
  let found: [number, number][] | null = null;
  for (const m of s.matchAll(shortDots)) {
    const rest = s.slice(m.index + m[0].length);
    const entry = trimmed(s, 0, m.index);
    const page = trimmed(s, m.index + m[0].length, s.length);
    if (!entry || !LETTER.test(s.slice(0, m.index)) || !leadsTo.test(rest)) continue;
    if (page) found = [entry, page];
    else if (pageNext()) found = [entry];
  }
  return found;
}

/**
 * Whether a run of a few dots is a short leader: the entry's run ends where the dots start, and a
 * value follows them on the line.
 */
function shortLeader(items: TextItem[], idx: number[], dots: TextItem): boolean {
  const y = mid(dots);
  for (const k of idx) {
    const it = items[k] as TextItem;
    const end = it.x + it.w;
    if (it === dots || !sameLine(it, y) || end > dots.x + 1 || dots.x - end > dots.size * 0.5) continue;
    if (LETTER.test(it.str)) return valueAfter(items, idx, dots);
  }
  return false;
}

/** Whether the next run right of a run on its line is a page or figures alone. */
function valueAfter(items: TextItem[], idx: number[], run: TextItem): boolean {
  const next = nextOnLine(items, idx, run);
  return next !== undefined && /\S/.test(next.str) && leadsTo.test(next.str);
}

/** The run right of `run` on its line, the nearest: its middle within half `run`'s height of `run`'s. */
function nextOnLine(items: TextItem[], idx: number[], run: TextItem): TextItem | undefined {
  let next: TextItem | undefined;
  const end = run.x + run.w;
  for (const k of idx) {
    const it = items[k] as TextItem;
    if (it === run || Math.abs(mid(it) - mid(run)) > run.h / 2 || it.x < end - 1) continue;
    if (!next || it.x < next.x) next = it;
  }
  return next;
}

/**
 * Takes out of `read` the first dots of a leader drawn as a run of their own just before it ("What
 * is cancer?" "." "......" "4"), and returns them: read as the entry's, they end it in a stray period.
 */
function leaderHeads(items: TextItem[], read: number[], leaders: number[]): number[] {
  const heads = new Set<number>();
  for (const i of read) {
    const it = items[i] as TextItem;
    if (!fewDots.test(it.str)) continue;
    const end = it.x + it.w;
    for (const l of leaders) {
      const d = items[l] as TextItem;
      if (Math.abs(d.y + d.h / 2 - (it.y + it.h / 2)) <= it.h / 2 && d.x >= end - 1 && d.x - end <= it.size * 0.5) {
        heads.add(i);
        break;
      }
    }
  }
  if (!heads.size) return [];
  let n = 0;
  for (const i of read) if (!heads.has(i)) read[n++] = i;
  read.length = n;
  return [...heads];
}

/**
 * A value of one word a leader may lead to besides a figure: a web address, an e-mail address, a
 * code ("canceraustralia.gov.au", "B-12"); at most 60 characters, a letter or digit in it.
 */
const shortValue = /^\s*(?=[^\s]*[\p{L}\p{N}])[^\s]{2,60}\s*$/u;

/** A run of a leader to a short value, or a leader alone before one (`parts` empty), and where the value stands. */
interface ToValue {
  k: number;
  parts: [number, number][];
  x: number;
  end: number;
}

/** Values that line up with two others at least, flush left or flush right: a list's, not prose's dots. */
function lined(found: ToValue[]): ToValue[] {
  if (found.length < CONTENTS_LEADERS) return [];
  const starts = found.map((v) => v.x).sort((a, b) => a - b);
  const ends = found.map((v) => v.end).sort((a, b) => a - b);
  return found.filter(
    (v) => countNear(starts, v.x, 2) >= CONTENTS_LEADERS || countNear(ends, v.end, 2) >= CONTENTS_LEADERS,
  );
}

/** A label, a leader and a short value in one run: [start, end) of the label and of the value; null if not. */
function leaderToValue(s: string): [number, number][] | null {
  const m = leader.exec(s);
  if (!m || !shortValue.test(s.slice(m.index + m[0].length))) return null;
  const label = trimmed(s, 0, m.index);
  const value = trimmed(s, m.index + m[0].length, s.length);
  return label && value && LETTER.test(s.slice(0, m.index)) ? [label, value] : null;
}

/**
 * Where a run splits: [start, end) of each part with its blanks trimmed, an empty list for a
 * leader alone, null for a run that stays whole.
 */
function splitPoints(s: string): [number, number][] | null {
  const m = leader.exec(s);
  // A leader runs to a value (a figure, a page) or to the end; dots inside a formula ("<e1 ..... en>")
  // or a sentence lead nowhere.
  const end = m ? null : leaderEnd.exec(s);
  if (end && leadsTo.test(s.slice(end[0].length))) {
    const part = trimmed(s, end[0].length, s.length);
    return part ? [part] : [];
  }
  if (m && leadsTo.test(s.slice(m.index + m[0].length))) {
    const out: [number, number][] = [];
    for (const [a, b] of [
      [0, m.index],
      [m.index + m[0].length, s.length],
    ] as [number, number][]) {
      const part = trimmed(s, a, b);
      if (part) out.push(part);
    }
    return out;
  }
  if (!figures.test(s)) return null;
  const out: [number, number][] = [];
  for (const t of s.matchAll(/\S+/g)) {
    const last = out[out.length - 1];
    // "100 000" and "1 234 567" are one number, its thousands set apart by blanks.
    if (last && thousands.test(t[0]) && /^[-+(−]?\d{1,3}$|\s\d{3}$/.test(s.slice(last[0], last[1])))
      last[1] = t.index + t[0].length;
    else out.push([t.index, t.index + t[0].length]);
  }
  return out.length > 1 ? out : null;
}

/** A group of three digits, as thousands are written apart from the digits before them. */
const thousands = /^\d{3}(?:[.,]\d+)?%?\)?$/;

/** A figure on its own: digits with their separators, a sign, a percent or brackets. */
export const figure = /^[-+(−]?\d[\d.,]*%?\)?$/;

function trimmed(s: string, a: number, b: number): [number, number] | null {
  while (a < b && /\s/.test(s.charAt(a))) a++;
  while (b > a && /\s/.test(s.charAt(b - 1))) b--;
  return a < b ? [a, b] : null;
}

/** Characters `a`…`b` of a run as a run of their own, placed by the running widths `cum`. */
export function partOf(it: TextItem, cum: number[], a: number, b: number): TextItem {
  const total = cum[cum.length - 1] || 1;
  const x = it.x + (it.w * (cum[a] as number)) / total;
  const w = (it.w * ((cum[b] as number) - (cum[a] as number))) / total;
  return { ...it, str: it.str.slice(a, b), x, w };
}

/**
 * Running widths of a run's characters, in rough proportion to how proportional fonts set them:
 * blanks and punctuation about half as wide as digits and letters.
 */
export function widths(s: string): number[] {
  const out = [0];
  let sum = 0;
  for (const c of s) {
    sum += /[\s.,:;'!|il]/.test(c) ? 0.5 : 1;
    for (let k = 0; k < c.length; k++) out.push(sum);
  }
  return out;
}
