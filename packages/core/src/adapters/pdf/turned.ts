import { append, mostSetSize } from '../../util/arrays.ts';
import { buildLines, type Line } from './lines.ts';
import type { Rect, TextItem } from './model.ts';
import { readingOrder } from './order.ts';

/** Fewest lines of several words that make turned text a passage of its own, not a label. */
const PASSAGE_LINES = 2;
const WORDS = 3;
/**
 * Askew text this many times the page's body size is a stamp drawn across the page (a diagonal
 * CONFIDENTIAL or DRAFT), not a caption: its lines do not make a passage.
 */
const STAMP_SIZE = 2;

/**
 * A run turned against the page's text, in the frame that reads it upright: the page turned a
 * quarter clockwise for text that reads up the page (`up`), anticlockwise for text that reads
 * down it, half a turn for text upside down. `width` and `height` are the page's (any will do
 * where only runs' places relative to each other matter).
 */
export function uprightRun(it: TextItem, width: number, height: number): TextItem {
  if (it.rotated === 'up') return uprightAt(it, height - (it.y + it.h), it.x, it.h, it.w);
  // A run set askew is read where its box is (the box of a table cell it stands in).
  if (it.rotated === 'askew') return uprightAt(it, it.x, it.y, it.w, it.h);
  if (it.rotated === 'over') return uprightAt(it, width - (it.x + it.w), height - (it.y + it.h), it.w, it.h);
  return uprightAt(it, it.y, width - (it.x + it.w), it.h, it.w);
}

/**
 * `it` upright at a box of its own: written out field by field in the backends' order, not spread,
 * so the copy has the backends' object shape (a spread copy took another, and the layout code that
 * met one after the other threw its optimized code away: 20 deoptimizations in one document).
 */
function uprightAt(it: TextItem, x: number, y: number, w: number, h: number): TextItem {
  return {
    str: it.str,
    x,
    y,
    w,
    h,
    size: it.size,
    fontName: it.fontName,
    fontId: it.fontId,
    bold: it.bold,
    italic: it.italic,
    dir: it.dir,
    hasEOL: it.hasEOL,
    rotated: false,
    href: it.href,
  };
}

/**
 * The page's lines in reading order with its turned passages among them (`turnedPassages`): each
 * passage whole, before the first line that starts below its top and across from it, as a table
 * is placed among the blocks; after them all where none does (a passage up the margin).
 */
export function withTurnedPassages(lines: Line[], turned: Turned, width: number, height: number): Line[] {
  const passages = turnedPassages(turned, width, height);
  const askew = askewPassage(turned.askew, bodySize(lines));
  if (askew) passages.push(askew);
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
  // Three passages at most (one a way, one askew), taken in order of place; at one place, in the
  // order read (a stable sort).
  placed.sort((a, b) => a.at - b.at);
  const out: Line[] = [];
  let from = 0;
  for (const p of placed) {
    for (; from < p.at; from++) out.push(lines[from] as Line);
    append(out, p.lines);
  }
  for (; from < lines.length; from++) out.push(lines[from] as Line);
  return out;
}

/** The page's turned runs that no table took, by way, each in the page's drawing order. */
export interface Turned {
  up: TextItem[];
  down: TextItem[];
  askew: TextItem[];
}

/**
 * Text set at an angle off every quarter turn (captions tilted on a poster), read rather than
 * dropped: each run a line, in the order the page draws them (the order they were written in; their
 * tilted boxes overlap, so no order by place holds), stacked a line apart so that runs of one size
 * read on as a paragraph. Each line stands on the page where its run does. Only a passage, as for
 * turned text: two lines of several words or more, not far above the body size (`STAMP_SIZE`); a
 * watermark across the page or a lone tilted label stays out of the flow. Null when there is none.
 */
function askewPassage(runs: TextItem[], body: number): Line[] | null {
  if (runs.length < PASSAGE_LINES) return null;
  const stacked: TextItem[] = [];
  let y = 0;
  for (const it of runs) {
    stacked.push(uprightAt(it, 0, y, it.str.length * it.size * 0.5, it.size));
    y += it.size * 1.2;
  }
  const lines = buildLines(stacked);
  for (const l of lines) {
    const first = runs[l.items[0] as number] as TextItem;
    let x0 = first.x;
    let y0 = first.y;
    let x1 = first.x + first.w;
    let y1 = first.y + first.h;
    for (const i of l.items) {
      const it = runs[i] as TextItem;
      x0 = Math.min(x0, it.x);
      y0 = Math.min(y0, it.y);
      x1 = Math.max(x1, it.x + it.w);
      y1 = Math.max(y1, it.y + it.h);
    }
    l.onPage = { x0, y0, x1, y1 };
  }
  let passage = 0;
  for (const l of lines) {
    if (l.size <= body * STAMP_SIZE && l.text.trim().split(/\s+/).length >= WORDS) passage++;
  }
  return passage >= PASSAGE_LINES ? lines : null;
}

/**
 * The size most of the page's upright text is set at (by characters); infinite on a page without
 * any. On a tie, the size whose count reached the top first: a title of 10 characters at 20 pt
 * between notes of 2 + 8 at 6 pt is the page's size, so tilted captions at 14 pt under it are read
 * as a passage, not dropped as lettering twice the body's size.
 */
const bodySize = (lines: Line[]): number => mostSetSize(lines, lineChars, Number.POSITIVE_INFINITY);
const lineChars = (l: Line): number => l.text.length;

/**
 * Lines of the page's turned text that no table took, each way read in its own upright frame: a
 * heading and a paragraph set upright beside a table drawn sideways (the page's text turned, the
 * page not) read as text, not dropped. Only passages: two lines of several words or more each way;
 * a lone turned label (an axis title, a stamp up the margin) stays out of the flow as before.
 * `turned` holds the runs by way, in the page's drawing order. One passage a way, its lines in
 * reading order.
 */
function turnedPassages(turned: Turned, width: number, height: number): Line[][] {
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
