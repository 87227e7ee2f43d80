import { append } from '../../util/arrays.ts';
import { buildLines, type Line } from './lines.ts';
import type { TextItem } from './model.ts';
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
 * Lines of the page's turned text that no table took, each way read in its own upright frame: a
 * heading and a paragraph set upright beside a table drawn sideways (the page's text turned, the
 * page not) read as text, not dropped. Only passages: two lines of several words or more each way;
 * a lone turned label (an axis title, a stamp up the margin) stays out of the flow as before.
 * `turned` holds the runs by way, in the page's drawing order.
 */
export function turnedPassages(turned: { up: TextItem[]; down: TextItem[] }, width: number, height: number): Line[] {
  const out: Line[] = [];
  for (const runs of [turned.up, turned.down]) {
    if (runs.length < PASSAGE_LINES) continue;
    const items: TextItem[] = [];
    for (const it of runs) items.push(uprightRun(it, width, height));
    // Read upright, the page is as wide as it was high.
    const lines = readingOrder(buildLines(items), height);
    let passage = 0;
    for (const l of lines) if (l.text.trim().split(/\s+/).length >= WORDS) passage++;
    if (passage >= PASSAGE_LINES) append(out, lines);
  }
  return out;
}
