import { append } from '../../util/arrays.ts';
import { buildLines, type Line } from './lines.ts';
import type { Rect, TextItem } from './model.ts';
import { readingOrder } from './order.ts';

/** Fewest lines of several words that make turned text a passage of its own, not a label. */
const PASSAGE_LINES = 2;
const WORDS = 3;

/**
 * A run turned against the page's text, in the frame that reads it upright: the page turned a
 * quarter clockwise for text that reads up the page (`up`), anticlockwise for text that reads
 * down it, half a turn for text upside down. `width` and `height` are the page's (any will do
 * where only runs' places relative to each other matter).
 */
export function uprightRun(it: TextItem, width: number, height: number): TextItem {
  if (it.rotated === 'up') return { ...it, x: height - (it.y + it.h), y: it.x, w: it.h, h: it.w, rotated: false };
  if (it.rotated === 'over') return { ...it, x: width - (it.x + it.w), y: height - (it.y + it.h), rotated: false };
  return { ...it, x: it.y, y: width - (it.x + it.w), w: it.h, h: it.w, rotated: false };
}

/**
 * The page's lines in reading order with its turned passages among them (`turnedPassages`): each
 * passage whole, before the first line that starts below its top and across from it, as a table
 * is placed among the blocks; after them all where none does (a passage up the margin).
 */
export function withTurnedPassages(
  lines: Line[],
  turned: { up: TextItem[]; down: TextItem[] },
  width: number,
  height: number,
): Line[] {
  const passages = turnedPassages(turned, width, height);
  if (!passages.length) return lines;
  const placed: { at: number; lines: Line[] }[] = [];
  for (const passage of passages) {
    let x0 = Number.POSITIVE_INFINITY;
    let y0 = Number.POSITIVE_INFINITY;
    let x1 = Number.NEGATIVE_INFINITY;
    for (const l of passage) {
      const r = l.onPage as Rect;
      x0 = Math.min(x0, r.x0);
      y0 = Math.min(y0, r.y0);
      x1 = Math.max(x1, r.x1);
    }
    const below = (l: Line): boolean => l.y0 >= y0 - 1 && l.x0 < x1 && l.x1 > x0;
    let at = 0;
    while (at < lines.length && !below(lines[at] as Line)) at++;
    placed.push({ at, lines: passage });
  }
  // Two passages at most (one a way), taken in order of place; at one place, in the order read.
  if (placed.length === 2 && (placed[1] as (typeof placed)[0]).at < (placed[0] as (typeof placed)[0]).at)
    placed.reverse();
  const out: Line[] = [];
  let from = 0;
  for (const p of placed) {
    for (; from < p.at; from++) out.push(lines[from] as Line);
    append(out, p.lines);
  }
  for (; from < lines.length; from++) out.push(lines[from] as Line);
  return out;
}

/**
 * Lines of the page's turned text that no table took, each way read in its own upright frame: a
 * heading and a paragraph set upright beside a table drawn sideways (the page's text turned, the
 * page not) read as text, not dropped. Only passages: two lines of several words or more each way;
 * a lone turned label (an axis title, a stamp up the margin) stays out of the flow as before.
 * `turned` holds the runs by way, in the page's drawing order. One passage a way, its lines in
 * reading order.
 */
function turnedPassages(turned: { up: TextItem[]; down: TextItem[] }, width: number, height: number): Line[][] {
  const out: Line[][] = [];
  for (const runs of [turned.up, turned.down]) {
    if (runs.length < PASSAGE_LINES) continue;
    const items: TextItem[] = [];
    for (const it of runs) items.push(uprightRun(it, width, height));
    // Read upright, the page is as wide as it was high.
    const lines = readingOrder(buildLines(items), height);
    let passage = 0;
    for (const l of lines) if (l.text.trim().split(/\s+/).length >= WORDS) passage++;
    if (passage < PASSAGE_LINES) continue;
    const way = runs === turned.up ? 'up' : 'down';
    for (const l of lines) l.onPage = pageRect(l, way, width, height);
    out.push(lines);
  }
  return out;
}

/** A box of the upright frame `uprightRun` reads a way of turned text in, back on the page. */
function pageRect(r: Rect, way: 'up' | 'down', width: number, height: number): Rect {
  if (way === 'up') return { x0: r.y0, y0: height - r.x1, x1: r.y1, y1: height - r.x0 };
  return { x0: width - r.y1, y0: r.x0, x1: width - r.y0, y1: r.x1 };
}
