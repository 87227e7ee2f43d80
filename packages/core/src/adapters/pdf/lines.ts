import type { BBox } from '../../tree/types.ts';
import { mostCounted } from '../../util/arrays.ts';
import { ENDS_LETTER, LETTER, STARTS_LETTER } from '../../util/letters.ts';
import { pairBrackets } from './brackets.ts';
import { type Rect, round2, type TextItem } from './model.ts';
import { isCjk } from './text.ts';

/** A run of a line with uniform styling, as it will become inline content. */
export interface Span {
  text: string;
  bold: boolean;
  italic: boolean;
  /** Raised and smaller than the line: footnote marks. */
  sup: boolean;
  href?: string | undefined;
  /**
   * The face its characters are set in: a word in a typewriter face among prose is inline code
   * (`blocks.ts`), known only once the document's code faces are (`DocStats.codeFont`). Blanks
   * join the span before them whatever their face.
   */
  font: string;
}

/** A line's spans without their first `n` characters (a list's marker, a quote's mark). */
export function stripPrefix(spans: readonly Span[], n: number): Span[] {
  const out: Span[] = [];
  let left = n;
  for (const sp of spans) {
    if (left <= 0) out.push(sp);
    else if (sp.text.length <= left) left -= sp.text.length;
    else {
      out.push({ ...sp, text: sp.text.slice(left) });
      left = 0;
    }
  }
  return out;
}

/** Where a line stands and how large it is set: all reading order's shape tests read. */
export interface LineBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Baseline (bottom of the main-size runs). */
  base: number;
  /** Dominant font size, by characters (of runs holding a letter or digit, where there are any). */
  size: number;
  /** Indices of the page items making up the line. */
  items: number[];
}

/** A line's box with what bounds the length of its text, which is not made. */
export interface LineSketch extends LineBox {
  /** The line's characters at most: its runs' and a blank between each two. */
  most: number;
  /** The runs the line's text is made of, in reading order (`sketchLeast` counts them). */
  runs: number[];
}

/** One visual line of text (a fragment: column gutters and wide gaps split lines). */
export interface Line extends LineBox {
  /** Dominant font (pdf.js loaded name), by characters. */
  font: string;
  /** Every font of the line's runs (a title line may end in another style of its font). */
  fonts: string[];
  /** Every visible character is in a font known to be bold / italic, or in the line's only font. */
  bold: boolean;
  italic: boolean;
  rtl: boolean;
  text: string;
  spans: Span[];
  /**
   * Where the line stands on the page, for a line read in another frame (text turned against the
   * page, read upright: its x0…y1 are that frame's). Blocks report it as their place.
   */
  onPage?: Rect;
  /**
   * The first line of the margin side head the line is part of (a manual's section number, date
   * and title set in a column beside its section's first paragraph), as reading order found it.
   */
  sideHead?: Line;
}

/** A run's baseline: the bottom of its box (a run's box is as high as its size). */
export const runBase = (it: TextItem): number => it.y + it.h;
const sectionNumber = /^(?:\d{1,2}(?:\.\d{1,2}){0,3}\.?|[A-Z]\.(?:\d{1,2}\.?)*)$/;

/**
 * Whether a side head's lines (top down) are a section's number or date over its title: a plain
 * first line, and a last one bold or set in another font than the first (where the bold face is
 * not known: pdf.js in fast mode reads no font's weight). A head of one line, bold or not, is no
 * such head: a table's column heading ("Question" over its cells) passes for one.
 */
export function titled(head: readonly Line[]): boolean {
  const first = head[0];
  const last = head[head.length - 1];
  if (head.length < 2 || !first || !last || first.bold || !LETTER.test(last.text)) return false;
  return last.bold || last.font !== first.font;
}

/** Whether two lines stand on one row: baselines within half the smaller line's size. */
export const sameRow = (a: LineBox, b: LineBox): boolean => Math.abs(a.base - b.base) <= 0.5 * Math.min(a.size, b.size);

/** Whether `l` stands on the row of `prev`, after it as the row is read (left of it, right to left). */
export const onRow = (prev: Line, l: Line): boolean => sameRow(prev, l) && (l.rtl ? l.x1 < prev.x0 : l.x0 > prev.x1);

/** Whether two sizes are one, as a paragraph's lines' are (a point or 15 % apart at most). */
export const sizesClose = (a: number, b: number): boolean => Math.abs(a - b) <= Math.max(1, a * 0.15);

/** Whether two lines are set in one size (`sizesClose`). */
export const sizesMatch = (a: LineBox, b: LineBox): boolean => sizesClose(a.size, b.size);

/** How much of its measure a full line of prose spans at least: a verse's or a label's line ends short. */
export const FULL_LINE = 0.85;

/**
 * Groups items into lines. pdf.js keeps content-stream order, which is nearly always reading order
 * within a line, so this is one pass over the items plus one pass joining fragments that share a
 * baseline (runs drawn out of order); gaps wider than about an em start a new fragment so that
 * columns and table cells never fuse.
 */
export function buildLines(items: TextItem[], skip?: Set<number>): Line[] {
  // A loop into a literal, not map: an empty page's map result is another kind of array than a
  // full one's, and the line code would meet both.
  const lines: Line[] = [];
  for (const g of lineRuns(items, skip)) lines.push(makeLine(items, g));
  return mergeFragments(lines, items, makeLine);
}

/**
 * Sketches of the lines `buildLines` makes of the same runs: their boxes, equal to theirs field for
 * field, and bounds on their text's length, for tests that decide whether the lines are needed at
 * all. Marks fake bold as `buildLines` does, so that building the lines after or not at all reads
 * the same runs.
 */
export function lineSketches(items: TextItem[], skip?: Set<number>): LineSketch[] {
  const sketches: LineSketch[] = [];
  for (const g of lineRuns(items, skip)) sketches.push(lineSketch(items, g));
  return mergeFragments(sketches, items, lineSketch);
}

/**
 * The lines `buildLines` makes of the runs that `sketches` sketch (`lineSketches`), made of the
 * sketches' runs: the runs are grouped and the fragments joined once for both. The lines share
 * the sketches' `items` arrays, so the sketches are read only until then and changed by no one.
 */
export function sketchedLines(items: TextItem[], sketches: readonly LineSketch[]): Line[] {
  const lines: Line[] = [];
  for (const s of sketches) lines.push(makeLine(items, s.items));
  return lines;
}

/** The runs of each line before fragments on one baseline are joined, in drawing order. */
function lineRuns(items: TextItem[], skip?: Set<number>): number[][] {
  const groups: number[][] = [];
  let cur: number[] | null = null;
  let cb = 0;
  let cs = 0;
  let cx0 = 0;
  let cx1 = 0;
  let last: TextItem | null = null;
  for (let i = 0; i < items.length; i++) {
    if (skip?.has(i)) continue;
    const it = items[i] as TextItem;
    // Text drawn twice with a small offset is fake bold: keep one copy, flagged bold.
    if (
      last &&
      it.str === last.str &&
      Math.abs(it.x - last.x) < 1.5 &&
      Math.abs(it.y - last.y) < 1.5 &&
      it.str.trim()
    ) {
      last.bold = true;
      continue;
    }
    last = it;
    const b = runBase(it);
    const ix1 = it.x + it.w;
    if (cur && it.dir !== 'ttb') {
      const tol = 0.4 * Math.min(cs, it.size);
      const sameBase = Math.abs(b - cb) <= tol;
      // Raised small runs (footnote marks, exponents) stay on the line they annotate.
      const raised = it.size < cs * 0.85 && b < cb && b > cb - cs * 0.9;
      // The gap is weighed only for a run on the line's baseline: most runs start a line.
      if ((sameBase || raised) && joinsAcross(items, cur, it, cx0, cs, Math.max(it.x - cx1, cx0 - ix1))) {
        cur.push(i);
        if (it.x < cx0) cx0 = it.x;
        if (ix1 > cx1) cx1 = ix1;
        if (it.size > cs && sameBase) cs = it.size;
        continue;
      }
    }
    cur = [i];
    groups.push(cur);
    cb = b;
    cs = it.size;
    cx0 = it.x;
    cx1 = ix1;
  }
  return groups;
}

/**
 * Widest gaps, in the larger size of the line and the run, that a run joins a line across: plain,
 * after or before a section number (the widest), between right-to-left runs.
 */
const PLAIN_GAP = 1.1;
const NUMBERED_GAP = 3;
const RTL_GAP = 2.5;

/**
 * Whether run `it` joins the line of runs `cur`, which starts at `cx0` and is set in size `cs`,
 * across `gap`. Only a gap between the plain allowance and the widest one is weighed further: most
 * runs (words of a line, cells of a table's row) fall on either side of it, and the section-number
 * tests are regular expressions.
 */
function joinsAcross(
  items: readonly TextItem[],
  cur: readonly number[],
  it: TextItem,
  cx0: number,
  cs: number,
  gap: number,
): boolean {
  const size = Math.max(cs, it.size);
  if (gap <= Math.max(PLAIN_GAP * size, 4)) return true;
  if (!(gap <= Math.max(NUMBERED_GAP * size, 4))) return false;
  // Section numbers sit a quad or two before their title ("5.1   Results"), drawn before it or,
  // in some files, after it (normal_4pages' "1" after "들어가며" on pdf.js, which keeps the
  // drawing order; PDFium gave the number first).
  const numbered =
    (cur.length === 1 && sectionNumber.test((items[cur[0] as number] as TextItem).str.trim())) ||
    (it.x + it.w <= cx0 && sectionNumber.test(it.str.trim()));
  // Justified right-to-left lines stretch their word gaps far more than Latin text does.
  const rtl = it.dir === 'rtl' && (items[cur[cur.length - 1] as number] as TextItem).dir === 'rtl';
  return gap <= Math.max((numbered ? NUMBERED_GAP : rtl ? RTL_GAP : PLAIN_GAP) * size, 4);
}

/**
 * A line is rebuilt after each fragment joining it this many times; past that, fragments are
 * collected and the line rebuilt once at the end. Rebuilding every time is quadratic: 300,000
 * one-letter runs scattered over 60 baselines took 36 s, past the timeout.
 */
const MAX_REBUILDS = 64;

/** Joins fragments on the same baseline that touch horizontally (runs drawn out of order). */
function mergeFragments<L extends LineBox>(
  lines: L[],
  items: TextItem[],
  make: (items: TextItem[], idx: number[]) => L,
): L[] {
  if (lines.length < 2) return lines;
  const rebuilds = new Map<number, number>();
  const deferred = new Set<number>();
  const byKey = new Map<number, number[]>();
  // Not map (packed from the builtin, holey from an optimized caller): one kind of array.
  const alive: boolean[] = [];
  for (let i = 0; i < lines.length; i++) alive.push(true);
  let merged = false;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as L;
    const k = Math.round(l.base / 3);
    let target = -1;
    // Counted by the step, not the key: past 2^53, or at an infinite or NaN baseline (a text box
    // sized 1e17 by its /DA), k ± 1 is k itself and a loop on the key never ended.
    for (let d = -1; d <= 1; d++) {
      const near = byKey.get(k + d);
      if (!near) continue;
      for (const j of near) {
        const o = lines[j] as L;
        if (!alive[j] || Math.abs(o.base - l.base) > 0.3 * Math.min(o.size, l.size)) continue;
        const gap = Math.max(l.x0 - o.x1, o.x0 - l.x1);
        if (gap <= 0.3 * Math.max(o.size, l.size) && Math.abs(o.size - l.size) < 0.5) {
          target = j;
          break;
        }
      }
      if (target >= 0) break;
    }
    if (target >= 0) {
      const o = lines[target] as L;
      const count = (rebuilds.get(target) ?? 0) + 1;
      rebuilds.set(target, count);
      if (count <= MAX_REBUILDS) lines[target] = make(items, [...o.items, ...l.items]);
      else {
        // Only the extent is kept up to date for later fragments; the line itself is made below.
        for (const k of l.items) o.items.push(k);
        o.x0 = Math.min(o.x0, l.x0);
        o.x1 = Math.max(o.x1, l.x1);
        deferred.add(target);
      }
      alive[i] = false;
      merged = true;
      continue;
    }
    const list = byKey.get(k);
    if (list) list.push(i);
    else byKey.set(k, [i]);
  }
  for (const t of deferred) lines[t] = make(items, (lines[t] as L).items);
  return merged ? lines.filter((_, i) => alive[i]) : lines;
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Fonts whose glyphs are pictures (bullets, boxes, ticks, arrows), whatever letters they map to. */
const PICTOGRAPH_FONT = /dingbat|wingding|webding/i;

/**
 * Whether run `b`, `gap` points after run `a` on a line, meets it where one of the two is set in a
 * pictograph font and the other is not. A pictograph is a word of its own: a bullet or check box set
 * flush against its label in a text font reads "● Children", not "●Children", and a Wingdings
 * bullet read as "y" must not fuse with the letters beside it. Font names are compared first: the
 * pattern is tested only where the font changes.
 */
export function pictographEdge(a: TextItem, b: TextItem, gap: number): boolean {
  return (
    a.fontName !== b.fontName &&
    gap > -0.2 * b.size &&
    PICTOGRAPH_FONT.test(a.fontName) !== PICTOGRAPH_FONT.test(b.fontName)
  );
}

/** A number closing in a dot or bracket, alone: an item's number drawn as a run of its own. */
const ITEM_NUMBER = /^\(?\d{1,3}[.)]$/;
/** A letter of a script with case: the text of an item ("概述" after "1." heads a section). */
const CASED = /^\p{LC}/u;

/**
 * Whether run `b`, `gap` points after the line's first run `a`, is an item's text after its number
 * drawn as a run of its own ("1)", "2."): LibreOffice sets the number right against the text, less
 * than a blank apart, so only the runs' edge tells the item from "1)Nested". Runs that touch are one
 * word ("4)AX-series"); letters are no such number ("e." and "g." drawn apart are one word).
 */
function numberEdge(a: TextItem, b: TextItem, gap: number): boolean {
  return (
    gap > 0.03 * b.size &&
    Math.abs(a.size - b.size) < 0.5 * b.size &&
    ITEM_NUMBER.test(a.str.trim()) &&
    CASED.test(b.str)
  );
}

const ONE_LETTER = /^\p{L}\s*$/u;
const STARTS_LOWER = /^\s*\p{Ll}/u;

/**
 * Whether a line's first run is a bullet drawn as a letter: one letter set well smaller than the
 * line, on its baseline, and apart from the words after it, which do not go on in lower case, in a
 * font that draws pictures at letters' codes. A pictograph font reads so by its name; so does a
 * second embedding of the words' own face (redp5110's "r" before each item: a composite copy of
 * the text face without a map to Unicode, its bullet at the code of "r"). A letter in the words'
 * own font, or in another face of text, is a letter: grade codes "A", "B" set small before their
 * descriptions keep them.
 */
function letterMark(first: TextItem, next: TextItem, size: number, lineBase: number): boolean {
  if (!ONE_LETTER.test(first.str) || first.size > 0.8 * size || first.size < 0.4 * size) return false;
  const pictures =
    PICTOGRAPH_FONT.test(first.fontName) || (first.fontName === next.fontName && first.fontId !== next.fontId);
  if (!pictures) return false;
  if (Math.abs(runBase(first) - lineBase) > 0.2 * size) return false;
  const gap = next.x - (first.x + first.w);
  return gap > -0.05 * size && (first.str.length > 1 || gap > 0.2 * size) && !STARTS_LOWER.test(next.str);
}

/** A line's box, dominant size and direction, and its runs in reading order (redrawn runs left out). */
interface Frame {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  size: number;
  rtl: boolean;
  order: number[];
}

/** The frame of the line of runs `idx`; with `fontChars`, each font's characters are counted into it. */
function lineFrame(items: TextItem[], idx: number[], fontChars: Map<string, number> | null): Frame {
  let rtlChars = 0;
  let chars = 0;
  // A line of one run (most lines) is set in its size: no count of sizes.
  const sizeChars = idx.length === 1 ? null : new Map<number, number>();
  let only = 0;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const i of idx) {
    const it = items[i] as TextItem;
    const n = it.str.length;
    chars += n;
    if (it.dir === 'rtl') rtlChars += n;
    // Runs without a letter or digit count only on a line made of nothing else: a large checkbox
    // or bullet glyph, and the space set in its size, must not make "☐ No" heading-sized.
    const s = Math.round(it.size * 2) / 2;
    if (sizeChars) sizeChars.set(s, (sizeChars.get(s) ?? 0) + (WORD_CHAR.test(it.str) ? n * 1024 : n));
    else only = s;
    fontChars?.set(it.fontName, (fontChars.get(it.fontName) ?? 0) + n);
    if (it.x < x0) x0 = it.x;
    if (it.y < y0) y0 = it.y;
    if (it.x + it.w > x1) x1 = it.x + it.w;
    if (it.y + it.h > y1) y1 = it.y + it.h;
  }
  const size = sizeChars ? (mostCounted(sizeChars) ?? 0) : only;
  const rtl = rtlChars * 2 > chars;
  const order = idx.slice();
  if (order.length > 1) {
    order.sort((a, b) => {
      const d = (items[a] as TextItem).x - (items[b] as TextItem).x;
      return rtl ? -d : d;
    });
  }
  if (order.length > 1) dropRedrawn(items, order);
  return { x0, y0, x1, y1, size, rtl, order };
}

/** The baseline of a line's runs of its dominant size (its bottom where none is). */
function lineBaseOf(items: TextItem[], { order, size, y1 }: Frame): number {
  let lineBase = -Infinity;
  for (const i of order) {
    const it = items[i] as TextItem;
    if (Math.abs(it.size - size) < 0.6) lineBase = Math.max(lineBase, runBase(it));
  }
  return Number.isFinite(lineBase) ? lineBase : y1;
}

/** The sketch of the line `makeLine` makes of the same runs. */
function lineSketch(items: TextItem[], idx: number[]): LineSketch {
  const f = lineFrame(items, idx, null);
  let most = f.order.length - 1;
  for (const i of f.order) most += (items[i] as TextItem).str.length;
  const base = lineBaseOf(items, f);
  return { x0: f.x0, y0: f.y0, x1: f.x1, y1: f.y1, base, size: f.size, items: idx, most, runs: f.order };
}

/**
 * The characters of a sketched line's text at least: its runs' printable ASCII characters but the
 * blank. The text is the runs' in that order, with blanks added, trimmed or merged; a bullet drawn
 * as a letter becomes '•' and brackets turn into brackets, so each such character stays one.
 */
export function sketchLeast(items: readonly TextItem[], sketch: LineSketch): number {
  let least = 0;
  for (const i of sketch.runs) {
    const str = (items[i] as TextItem).str;
    for (let k = 0; k < str.length; k++) {
      const c = str.charCodeAt(k);
      if (c > 32 && c < 127) least++;
    }
  }
  return least;
}

/** One line from the given runs: reading order (right to left where the line is), spacing, styles. */
export function makeLine(items: TextItem[], idx: number[]): Line {
  const fontChars = new Map<string, number>();
  const frame = lineFrame(items, idx, fontChars);
  const { x0, y0, x1, y1, size, rtl, order } = frame;
  const font = mostCounted(fontChars) ?? '';
  const ends = rtl ? new Map<number, [number, number]>() : null;
  const extent = ends ? leftToRightRuns(items, order, ends) : null;
  const turned = rtl ? pairBrackets(items, order) : null;
  const lineBase = lineBaseOf(items, frame);
  const spans: Span[] = [];
  let text = '';
  let prev: TextItem | null = null;
  const first = items[order[0] as number];
  let allBold = true;
  let allItalic = true;
  for (const i of order) {
    const it = items[i] as TextItem;
    let s = turned?.get(i) ?? it.str;
    const moved = ends?.get(i);
    if (moved) s = neutralsOut(s, moved);
    if (prev) {
      const pe = extent?.get(prev);
      const ie = extent?.get(it);
      const gap = !rtl
        ? it.x - (prev.x + prev.w)
        : pe && pe === ie
          ? it.x - (prev.x + prev.w)
          : (pe?.[0] ?? prev.x) - (ie?.[1] ?? it.x + it.w);
      // Where the writing direction flips, pdf.js runs abut even though the words are apart.
      const flip = prev.dir !== it.dir && ENDS_LETTER.test(text) && STARTS_LETTER.test(s);
      const needs =
        !text.endsWith(' ') &&
        !s.startsWith(' ') &&
        (gap > 0.15 * Math.min(it.size, prev.size) ||
          (flip && gap > -0.2 * it.size) ||
          pictographEdge(prev, it, gap) ||
          (prev === first && !rtl && numberEdge(prev, it, gap))) &&
        !(isCjk(text.slice(-1)) && isCjk(s.charAt(0)));
      if (needs) s = ` ${s}`;
    } else {
      s = s.replace(/^\s+/, '');
      if (order.length > 1 && !rtl && letterMark(it, items[order[1] as number] as TextItem, size, lineBase)) s = '•';
    }
    const visible = it.str.trim();
    const sup = it.size < size * 0.85 && runBase(it) < lineBase - size * 0.15 && visible.length <= 4;
    const href = it.href;
    if (visible) {
      allBold &&= it.bold;
      allItalic &&= it.italic;
    }
    const last = spans[spans.length - 1];
    if (
      last &&
      last.bold === it.bold &&
      last.italic === it.italic &&
      last.sup === sup &&
      last.href === href &&
      (last.font === it.fontName || !visible)
    )
      last.text += s;
    else {
      // Separating spaces stay outside links and styles.
      if (last && s.startsWith(' ')) {
        last.text += ' ';
        text += ' ';
        s = s.slice(1);
      }
      spans.push({ text: s, bold: it.bold, italic: it.italic, sup, href, font: it.fontName });
    }
    text += s;
    prev = it;
  }
  const last = spans[spans.length - 1];
  // `trimEnd` removes exactly what /\s+$/ does, without the regex retrying at every inner space.
  if (last) last.text = last.text.trimEnd();
  text = text.trimEnd().replace(/ {2,}/g, ' ');
  return {
    x0,
    y0,
    x1,
    y1,
    base: lineBase,
    size,
    font,
    fonts: [...fontChars.keys()],
    bold: allBold,
    italic: allItalic,
    rtl,
    text,
    spans,
    items: idx,
  };
}

/**
 * Drops runs that repeat part of the run before them in place: some producers draw a line whole
 * and then again word by word ("ENFORCED FOR ALL ACCESS", then "ENFORCED ", "FOR ", …), which
 * read "… ACCESSENFORCED FOR ALL ACCESS". A run is dropped when it lies within the previous kept
 * run on its baseline and that run's text holds it at about the same place.
 */
function dropRedrawn(items: TextItem[], order: number[]): void {
  let last: TextItem | null = null;
  let n = 0;
  for (const k of order) {
    const it = items[k] as TextItem;
    if (!(last && redraws(last, it))) {
      order[n++] = k;
      last = it;
    }
  }
  order.length = n;
}

function redraws(a: TextItem, b: TextItem): boolean {
  const t = b.str.trim();
  if (t.length < 2 || a.dir !== 'ltr' || b.dir !== 'ltr' || b.w <= 0) return false;
  if (Math.abs(a.y + a.h - (b.y + b.h)) > 0.2 * a.size || Math.abs(a.size - b.size) > 0.5) return false;
  if (b.x < a.x - 1 || b.x + b.w > a.x + a.w + 0.25 * a.size) return false;
  // The place the text holds b's characters, at the run's average character width.
  const per = a.w / Math.max(1, a.str.length);
  for (let at = a.str.indexOf(t); at >= 0; at = a.str.indexOf(t, at + 1)) {
    if (Math.abs(a.x + at * per - b.x) <= Math.max(2 * per, 0.5 * a.size)) return true;
  }
  return false;
}

const BRACKETS = /^[()[\]{}<>«»]+$/;
/**
 * Separators and stops (with their blanks) take the direction of the text around them (Unicode's
 * bidi rules, N1/N2): at either end of a stretch of left-to-right text in a right-to-left line,
 * beside the right-to-left text or the line's end, they are the right-to-left text's, as "," is in
 * "המשק, 31.12.14". Between two figures ("1,000", "47.500") they are the number's. A run of them
 * alone (`NEUTRALS`), or the end of a run holding a number before them or after them (`NEUTRAL_TAIL`,
 * `NEUTRAL_HEAD`: pdf.js gives "31.12.14 ," as one run), is read with the right-to-left text.
 */
const NEUTRALS = /^[\s,.:;!?\u060c\u061b]+$/;
const NEUTRAL_TAIL = /(?<=\p{N})\s*[,.:;!?\u060c\u061b][\s,.:;!?\u060c\u061b]*$/u;
const NEUTRAL_HEAD = /^[\s,.:;!?\u060c\u061b]*[,.:;!?\u060c\u061b]\s*(?=\p{N})/u;

/**
 * Puts left-to-right runs of a right-to-left line back in reading order. The line is sorted right
 * to left, but numbers and Latin words inside it read left to right ("47.500", "%50", "R Python"):
 * each stretch of consecutive left-to-right items is turned round in place. Punctuation at either
 * end of a stretch belongs to the right-to-left text around it when it is a bracket or stands apart
 * from the stretch (the dash of "(2024 - 2026)" broken over two lines); punctuation that touches a
 * number stays with it ("-3"); separators at a stretch's ends are the right-to-left text's (see
 * `NEUTRALS`), and where a run holds them with its number `ends` gets how many characters of its
 * text start and end it (for `neutralsOut`). Returns the horizontal extent of each turned stretch
 * by item, for the spacing between a stretch and its neighbours.
 */
function leftToRightRuns(
  items: TextItem[],
  order: number[],
  ends: Map<number, [number, number]>,
): Map<TextItem, [number, number]> {
  const extent = new Map<TextItem, [number, number]>();
  const at = (k: number) => items[order[k] as number] as TextItem;
  const apart = (edge: TextItem, inner: TextItem): boolean =>
    !WORD_CHAR.test(edge.str) &&
    (BRACKETS.test(edge.str.trim()) ||
      NEUTRALS.test(edge.str) ||
      Math.max(edge.x - (inner.x + inner.w), inner.x - (edge.x + edge.w)) > 0.15 * Math.min(edge.size, inner.size) ||
      (edge.x > inner.x
        ? /\s$/.test(inner.str) || /^\s/.test(edge.str)
        : /\s$/.test(edge.str) || /^\s/.test(inner.str)));
  for (let i = 0; i < order.length; ) {
    if (at(i).dir === 'rtl') {
      i++;
      continue;
    }
    let j = i;
    while (j < order.length && at(j).dir !== 'rtl') j++;
    // A run that holds a number and the separator after it on the page (pdf.js's "31.12.14 ,"):
    // the separator at the stretch's right end (read first) or left end (read last) goes out.
    const right = order[i] as number;
    const left = order[j - 1] as number;
    const tail = NEUTRAL_TAIL.exec(at(i).str)?.[0].length ?? 0;
    const head = NEUTRAL_HEAD.exec(at(j - 1).str)?.[0].length ?? 0;
    if (right === left && (tail || head)) ends.set(right, [head, tail]);
    else {
      if (tail) ends.set(right, [0, tail]);
      if (head) ends.set(left, [head, 0]);
    }
    let a = i;
    let b = j;
    while (b - a > 1 && apart(at(a), at(a + 1))) a++;
    while (b - a > 1 && apart(at(b - 1), at(b - 2))) b--;
    if (b - a > 1) {
      const run = order.slice(a, b).reverse();
      order.splice(a, b - a, ...run);
      const box: [number, number] = [Infinity, -Infinity];
      for (const k of run) {
        const it = items[k] as TextItem;
        box[0] = Math.min(box[0], it.x);
        box[1] = Math.max(box[1], it.x + it.w);
        extent.set(it, box);
      }
    }
    i = j;
  }
  return extent;
}

/**
 * A left-to-right run's text with the separators at its ends, `[head, tail]` characters, read where
 * right-to-left text reads them: the tail (the run's right end, next to the text read before it)
 * first, the head last, each turned round as right-to-left text is read.
 */
function neutralsOut(s: string, [head, tail]: [number, number]): string {
  const turn = (t: string) => [...t].reverse().join('');
  return turn(s.slice(s.length - tail)) + s.slice(head, s.length - tail) + turn(s.slice(0, head));
}

/** The box lines stand in on the page (`onPage` where read in another frame). */
export function bboxOf(lines: readonly Line[]): BBox {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const line of lines) {
    const l = line.onPage ?? line;
    x0 = Math.min(x0, l.x0);
    y0 = Math.min(y0, l.y0);
    x1 = Math.max(x1, l.x1);
    y1 = Math.max(y1, l.y1);
  }
  return [round2(x0), round2(y0), round2(x1), round2(y1)];
}
