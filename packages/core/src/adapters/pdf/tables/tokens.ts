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
  for (const i of idx) {
    const it = items[i] as TextItem;
    const parts = splitPoints(it.str);
    if (!parts) {
      read.push(i);
      continue;
    }
    if (!parts.length) {
      // A leader of its own leads to the run after it on the line, which must be a value.
      if (leadsToValue(items, idx, it)) leaders.push(i);
      else read.push(i);
      continue;
    }
    const byLeader = leader.test(it.str) || leaderEnd.test(it.str);
    const cum = widths(it.str);
    for (const [a, b] of parts) {
      if (byLeader) led.add(out.length);
      read.push(out.length);
      origin.push(i);
      out.push(partOf(it, cum, a, b));
    }
  }
  const heads = leaders.length ? leaderHeads(out, read, leaders) : [];
  return { items: out, idx: read, origin, leaders, led, heads };
}

/** A few dots and nothing else, spaced or not: too short for a leader on their own. */
const fewDots = /^\s*\.(?:\s?\.){0,2}\s*$/;

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

/** Whether the next run right of a leader on its line is a value (or there is none). */
function leadsToValue(items: TextItem[], idx: number[], dots: TextItem): boolean {
  let next: TextItem | undefined;
  const end = dots.x + dots.w;
  for (const k of idx) {
    const it = items[k] as TextItem;
    if (it === dots || Math.abs(it.y + it.h / 2 - (dots.y + dots.h / 2)) > dots.h / 2 || it.x < end - 1) continue;
    if (!next || it.x < next.x) next = it;
  }
  return !next || leadsTo.test(next.str.replace(leaderEnd, ''));
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
