/**
 * Drop caps: a paragraph's first letter set large, several lines high, its top level with the
 * first line's and its baseline on a later line's, the lines beside it set in from it ("W" beside
 * "hen the snow came early" over "just brought in the hay"). Read as it stands, the letter made a
 * line of its own on a later line's baseline and that line's rows came out of order ("W just
 * brought in … hen the snow came"). Each such letter is set again as a run of the first line's
 * size at its start, so the line reads "When the snow came early".
 */
import { mostSetSize } from '../../util/arrays.ts';
import { runBase as baseOf } from './lines.ts';
import type { TextItem } from './model.ts';

/** Least size of a drop cap over the text beside it. */
const CAP_OVER_TEXT = 1.8;
/** Widest gap, in the text's sizes, between a drop cap and the lines it opens. */
const CAP_GAP = 2.5;
/** A letter, after an opening quote mark if any: what a drop cap sets. */
const CAP = /^(?:[\p{Pi}\p{Ps}"']\s?)?\p{L}$/u;
/** A first line's first run opens a word, after a blank where the cap is a word of its own. */
const OPENS_WORD = /^\s?\p{L}/u;
const LETTER = /\p{L}/u;
const STARTS_LETTER = /^\p{L}/u;
/** Most of a size a capital's top stands below its run's top (Helvetica's capitals 0.72). */
const CAP_HEIGHT = 0.75;
/** Farthest, in the text's sizes, the paragraph goes on under a drop cap's baseline. */
const UNDER = 3;

const runChars = (it: TextItem): number => it.str.length;

/** A lowered cap's width, in its line's size. */
const SLIVER = 0.01;
/** Most drop caps looked for on a page: each is a pass over the page's runs. */
const MAX_CAPS = 8;

/** The page's runs with each drop cap set again as the start of its first line; the same array when there is none. */
export function lowerDropCaps(items: TextItem[]): TextItem[] {
  const caps: number[] = [];
  for (const [i, it] of items.entries())
    if (it.str.length <= 4 && !it.rotated && it.dir === 'ltr' && CAP.test(it.str.trim())) caps.push(i);
  if (!caps.length) return items;
  // Only letters far larger than the page's text: most pages' one-letter runs are its words.
  const text = mostSetSize(items, runChars, 0);
  let out: TextItem[] | null = null;
  const drop = new Set<TextItem>();
  let tried = 0;
  for (const i of caps) {
    const cap = items[i] as TextItem;
    if (cap.size < CAP_OVER_TEXT * text) continue;
    // A letter of a word set letter-spaced, a run a letter (a chapter's title): no try spent on it.
    if (spacedLetter(items, i)) continue;
    if (++tried > MAX_CAPS) break;
    // An opening quote mark drawn as a run of its own before the letter (PDFium keeps it apart).
    const mark = markBefore(items, i);
    const found = firstLineBeside(items, cap, mark?.x);
    if (!found) continue;
    const { first, word } = found;
    out ??= items.slice();
    if (mark) drop.add(mark);
    // A sliver wide at the line's own edge: the line starts where the lines set in under it do (a
    // line standing out of them reads as a paragraph's first, the lines under it a new one's). Set
    // in the line's face: the cap's own is its ornament, not an emphasis of the word.
    const w = first.size * SLIVER;
    out[i] = {
      ...cap,
      // (pdf.js sets a blank between a mark and its letter where a gap parts them)
      str: `${mark ? mark.str.trim() : ''}${cap.str.replace(/\s/g, '')}${word ? ' ' : ''}`,
      x: first.x - w,
      w,
      y: first.y,
      h: first.h,
      size: first.size,
      fontName: first.fontName,
      fontId: first.fontId,
      bold: first.bold,
      italic: first.italic,
    };
  }
  return out ? (drop.size ? out.filter((it) => !drop.has(it)) : out) : items;
}

const MARK = /^[\p{Pi}\p{Ps}"']$/u;

/**
 * A run next to `items[i]` in the content stream, before it or after it, that stands beside it: on
 * its baseline, in its size (within a tenth of it), not turned, and passing `test`.
 */
function neighbour(
  items: readonly TextItem[],
  i: number,
  test: (o: TextItem, it: TextItem) => boolean,
): TextItem | undefined {
  const it = items[i] as TextItem;
  for (const o of [items[i - 1], items[i + 1]])
    if (
      o &&
      !o.rotated &&
      Math.abs(o.size - it.size) <= 0.1 * it.size &&
      Math.abs(baseOf(o) - baseOf(it)) <= 0.1 * it.size &&
      test(o, it)
    )
      return o;
  return undefined;
}

/** An opening quote mark alone in a run beside `items[i]` (`neighbour`), right before it. */
function markBefore(items: readonly TextItem[], i: number): TextItem | undefined {
  if (!STARTS_LETTER.test((items[i] as TextItem).str)) return undefined;
  return neighbour(items, i, quoteMarkBefore);
}

const quoteMarkBefore = (o: TextItem, cap: TextItem): boolean =>
  MARK.test(o.str.trim()) && o.x < cap.x && cap.x - (o.x + o.w) < 0.5 * cap.size;

/** Whether run `i` is a letter beside another letter's run (`neighbour`) within its size. */
const spacedLetter = (items: readonly TextItem[], i: number): boolean => neighbour(items, i, letterClose) !== undefined;

const letterClose = (o: TextItem, it: TextItem): boolean =>
  LETTER.test(o.str) && Math.max(o.x - (it.x + it.w), it.x - (o.x + o.w)) < it.size;

/**
 * The first run of the top line a drop cap opens, or null where `cap` is none: runs right of it
 * within `CAP_GAP` of their size, set `CAP_OVER_TEXT` times smaller, open a line inside its height
 * above its baseline, and a line on its baseline, all set in to one edge (a letter beside a form's
 * rows, a grade beside its label, has the rows' own runs at other edges).
 */
function firstLineBeside(
  items: readonly TextItem[],
  cap: TextItem,
  left = cap.x,
): { first: TextItem; word: boolean } | null {
  const capBase = baseOf(cap);
  // Where the cap's capital tops out: the first line's capitals top out level with it.
  const capTop = capBase - CAP_HEIGHT * cap.size;
  const right = cap.x + cap.w;
  let first: TextItem | null = null;
  let lastX = Number.POSITIVE_INFINITY;
  // The highest baseline under the cap at its left edge (the paragraph going on under it).
  let under = Number.POSITIVE_INFINITY;
  for (const it of items) {
    if (it === cap || it.rotated || it.size * CAP_OVER_TEXT > cap.size) continue;
    const base = baseOf(it);
    // (at the letter's edge or its opening mark's, a mark hung in the margin or not)
    if (base > capBase && it.x >= left - 2 * it.size && it.x <= cap.x + Math.max(2 * it.size, cap.w / 2)) {
      under = Math.min(under, base);
      continue;
    }
    if (it.x < right - 1 || it.x > right + CAP_GAP * it.size) continue;
    if (Math.abs(base - capBase) <= 0.4 * it.size) lastX = Math.min(lastX, it.x);
    else if (
      base > cap.y &&
      // Its capitals' top level with the cap's, not a line standing over it (a byline, the entry
      // above an index's letter hung in the margin).
      base - 0.2 * it.size > capTop &&
      base < capBase &&
      (!first || base < baseOf(first) || (base === baseOf(first) && it.x < first.x))
    )
      first = it;
  }
  if (!first || Math.abs(lastX - first.x) > first.size || !OPENS_WORD.test(first.str)) return null;
  // The paragraph goes on under the letter: a logo's initial beside its firm's name, a figure's
  // panel letter beside its caption, a letter hung beside an index's entries have none under them.
  const size = first.size;
  if (under - capBase > UNDER * size) return null;
  // A cap that is a word ("A long time ago"): a blank opens the line, where PDFium keeps it in
  // the run (pdf.js gives the blank to the run before, the cap itself, whatever it was).
  return { first, word: /^\s/.test(first.str) };
}
