/**
 * Drop caps: a paragraph's first letter set large, several lines high, its top level with the
 * first line's and its baseline on a later line's, the lines beside it set in from it ("W" beside
 * "hen the snow came early" over "just brought in the hay"). Read as it stands, the letter made a
 * line of its own on a later line's baseline and that line's rows came out of order ("W just
 * brought in … hen the snow came"). Each such letter is set again as a run of the first line's
 * size at its start, so the line reads "When the snow came early".
 */
import type { TextItem } from './model.ts';

/** Least size of a drop cap over the text beside it. */
const CAP_OVER_TEXT = 1.8;
/** Widest gap, in the text's sizes, between a drop cap and the lines it opens. */
const CAP_GAP = 2.5;
/** A letter, after an opening quote mark if any: what a drop cap sets. */
const CAP = /^[\p{Pi}\p{Ps}"']?\p{L}$/u;
const OPENS_WORD = /^\p{L}/u;

const baseOf = (it: TextItem): number => it.y + it.h;

/** A lowered cap's width, in its line's size. */
const SLIVER = 0.01;
/** Most drop caps looked for on a page: each is a pass over the page's runs. */
const MAX_CAPS = 8;

/** The page's runs with each drop cap set again as the start of its first line; the same array when there is none. */
export function lowerDropCaps(items: TextItem[]): TextItem[] {
  const caps: number[] = [];
  for (const [i, it] of items.entries())
    if (it.str.length <= 3 && !it.rotated && it.dir === 'ltr' && CAP.test(it.str.trim())) caps.push(i);
  if (!caps.length) return items;
  // Only letters far larger than the page's text: most pages' one-letter runs are its words.
  const text = mostSetSize(items);
  let out: TextItem[] | null = null;
  let tried = 0;
  for (const i of caps) {
    const cap = items[i] as TextItem;
    if (cap.size < CAP_OVER_TEXT * text) continue;
    if (++tried > MAX_CAPS) break;
    const first = firstLineBeside(items, cap);
    if (!first) continue;
    out ??= items.slice();
    // A sliver wide at the line's own edge: the line starts where the lines set in under it do (a
    // line standing out of them reads as a paragraph's first, the lines under it a new one's).
    const w = first.size * SLIVER;
    out[i] = { ...cap, str: cap.str.trim(), x: first.x - w, w, y: first.y, h: first.h, size: first.size };
  }
  return out ?? items;
}

/** The size most of the page's characters are set in. */
function mostSetSize(items: readonly TextItem[]): number {
  const chars = new Map<number, number>();
  let best = 0;
  let most = 0;
  for (const it of items) {
    const n = (chars.get(it.size) ?? 0) + it.str.length;
    chars.set(it.size, n);
    if (n > most) {
      most = n;
      best = it.size;
    }
  }
  return best;
}

/**
 * The first run of the top line a drop cap opens, or null where `cap` is none: runs right of it
 * within `CAP_GAP` of their size, set `CAP_OVER_TEXT` times smaller, open a line inside its height
 * above its baseline, and a line on its baseline, all set in to one edge (a letter beside a form's
 * rows, a grade beside its label, has the rows' own runs at other edges).
 */
function firstLineBeside(items: readonly TextItem[], cap: TextItem): TextItem | null {
  const capBase = baseOf(cap);
  const right = cap.x + cap.w;
  let first: TextItem | null = null;
  let lastX = Number.POSITIVE_INFINITY;
  for (const it of items) {
    if (it === cap || it.rotated || it.size * CAP_OVER_TEXT > cap.size) continue;
    if (it.x < right - 1 || it.x > right + CAP_GAP * it.size) continue;
    const base = baseOf(it);
    if (Math.abs(base - capBase) <= 0.4 * it.size) lastX = Math.min(lastX, it.x);
    else if (
      base > cap.y &&
      base < capBase &&
      (!first || base < baseOf(first) || (base === baseOf(first) && it.x < first.x))
    )
      first = it;
  }
  return first && Math.abs(lastX - first.x) <= first.size && OPENS_WORD.test(first.str) ? first : null;
}
