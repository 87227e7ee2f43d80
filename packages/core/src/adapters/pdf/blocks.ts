import { unionBox } from '../../tree/boxes.ts';
import { blockquote, code, heading, image, link, list, listItem, paragraph, text } from '../../tree/build.ts';
import type { BBox, Block, Inline, List, ListItem, Node, Paragraph } from '../../tree/types.ts';
import { childrenOf, unbold } from '../../tree/walk.ts';
import { mostCounted } from '../../util/arrays.ts';
import { ENDS_LOWER, ENDS_SENTENCE, LETTER, readsOn, STARTS_LOWER } from '../../util/letters.ts';
import { appendText, boxAfterLabel, CHECK_BOX, checklistRow, ENDS_IN_BOX, HAS_BOX, prependText } from './boxes.ts';
import { codeRuns, codeText, hasInlineCode, inCodeFace, inlineCode } from './code.ts';
import {
  endsHyphen,
  lastChars,
  lazyVocabulary,
  lineSeam,
  OPEN_HYPHEN,
  settleHyphens,
  type Vocabulary,
} from './hyphens.ts';
import { leadingOf, pageLeading } from './leading.ts';
import { bboxOf, type Line, onRow, type Span, sameRow, sizesMatch, stripPrefix, titled } from './lines.ts';
import { headerBreaks, signOffBreaks } from './mail.ts';
import { bullet, bulletAlone, enumerator, enumeratorAlone, glyphWord, yearLike } from './markers.ts';
import { isTextBoxFont, type Rect, round2, type TableRegion } from './model.ts';
import { edgeRun, QUOTE_DEPTH, type QuoteOverBreak, quoteRun, unquoted } from './quotes.ts';
import { nonAscii } from './text.ts';
import { keptBreaks } from './typed.ts';

/** A page ready for block building: lines in reading order, furniture removed. */
export interface LaidOutPage {
  number: number;
  width: number;
  height: number;
  lines: Line[];
  tables: TableRegion[];
  images: Rect[];
  /** Quoted lines on the pages either side that are one quote with this page's first or last lines. */
  quoteOver?: QuoteOverBreak;
}

/** Document-wide typography: what body text looks like and which sizes are heading tiers. */
export interface DocStats {
  bodySize: number;
  bodyFont: string;
  /** Heading sizes, largest first (index + 1 = level). */
  tiers: number[];
  /** Fonts used for few characters (candidates for bold run-in or standalone headings). */
  rareFonts: Set<string>;
  monoFonts: Set<string>;
  /**
   * Whether a font is monospaced as code is set (`codeRuns`): by its name, measured even, or by
   * PDFium's reading of its descriptor (`PitchTally.codeFonts`). Not by pdf.js's flag: it calls a
   * font monospaced whose embedded widths are all one, and a subset holding a few glyphs of a text
   * face can be (CMR9 in the LayoutParser paper: its abstract read as code).
   */
  codeFont: (font: string) => boolean;
  /** Outline titles (normalized) → depth. */
  outline: Map<string, number>;
  /** First word of every outline title: a line starting with another word is no title. */
  outlineFirstWords: Set<string>;
  /** Median blank space between consecutive body lines. */
  lineGap: number;
  /** Words and compounds written away from line ends: evidence for line-end hyphens. */
  vocab?: () => Vocabulary;
}

const round = (s: number): number => Math.round(s * 2) / 2;
/** Number comparators. Module-level: a closure written inline is a new function on every call, compiled again once earlier calls' copies are collected. */
const ascending = (a: number, b: number): number => a - b;
const descending = (a: number, b: number): number => b - a;

/**
 * Document-wide typography from the pages' lines (tables' text aside). `tableChars`, the characters
 * the pages' tables hold, counts in the whole a heading's size must be a small share of: where no
 * face tells a title (words OCR read), a form whose labels and values stand in a table keeps it.
 */
export function docStats(
  pages: LaidOutPage[],
  monoFonts: Set<string>,
  outline: Map<string, number>,
  codeFont: (font: string) => boolean = () => false,
  tableChars = 0,
): DocStats {
  const sizeChars = new Map<number, number>();
  const fontChars = new Map<string, number>();
  let total = tableChars;
  for (const p of pages) {
    for (const l of p.lines) {
      // A text box's note is not set in the document's type: it makes no body size nor heading tier.
      if (l.fonts.every(isTextBoxFont)) continue;
      const n = l.text.length;
      total += n;
      sizeChars.set(round(l.size), (sizeChars.get(round(l.size)) ?? 0) + n);
      fontChars.set(l.font, (fontChars.get(l.font) ?? 0) + n);
    }
  }
  const bodySize = mostCounted(sizeChars) ?? 10;
  const bodyFont = mostCounted(fontChars) ?? '';
  const gaps: number[] = [];
  for (const p of pages) {
    for (let i = 1; i < p.lines.length && gaps.length < 5000; i++) {
      const a = p.lines[i - 1] as Line;
      const b = p.lines[i] as Line;
      const g = b.y0 - a.y1;
      if (round(a.size) === bodySize && round(b.size) === bodySize && g > -1 && g < 2 * bodySize) gaps.push(g);
    }
  }
  gaps.sort(ascending);
  const lineGap = gaps.length ? (gaps[gaps.length >> 1] as number) : bodySize * 0.3;
  const rareFonts = new Set<string>();
  for (const [f, n] of fontChars) if (f !== bodyFont && n < total * 0.12) rareFonts.add(f);
  // Heading tiers: sizes clearly above body that are not themselves running text.
  // Pushed into one array literal rather than made by filter/map, which pick the array's elements
  // kind anew from each document's sizes (whole, halves, none): one kind for the code that reads it.
  const tiers: number[] = [];
  for (const [s, n] of sizeChars) if (s >= bodySize + Math.max(0.9, bodySize * 0.07) && n < total * 0.3) tiers.push(s);
  tiers.sort(descending);
  const outlineFirstWords = new Set<string>();
  for (const title of outline.keys()) outlineFirstWords.add(title.split(' ')[0] as string);
  return {
    bodySize,
    bodyFont,
    tiers,
    rareFonts,
    monoFonts,
    codeFont,
    outline,
    outlineFirstWords,
    lineGap,
    vocab: lazyVocabulary(pages),
  };
}

const firstWord = /[\p{L}\p{N}]+/u;

/**
 * The outline depth of the entry titled as `t` reads, if any. Normalizing every line of a long
 * document for the lookup is costly; a line whose first word starts no title is settled without it
 * (`normTitle` keeps the words of the lower-cased text, so a title's first word is the line's).
 */
function outlineDepth(t: string, s: DocStats): number | undefined {
  const lower = t.toLowerCase();
  const first = firstWord.exec(lower)?.[0];
  if (first === undefined || !s.outlineFirstWords.has(first)) return undefined;
  return s.outline.get(normTitle(t));
}

/** Outside ASCII letters and digits, for ASCII text: the same as the Unicode classes, and faster. */
const asciiOther = /[^A-Za-z0-9]+/g;

export const normTitle = (s: string): string => {
  const lower = s.toLowerCase();
  return lower.replace(nonAscii.test(lower) ? /[^\p{L}\p{N}]+/gu : asciiOther, ' ').trim();
};

/** Widest gap, in sizes, between an enumerator drawn as its own run and its item's text. */
const MARK_GAP = 4;
/**
 * A paragraph number of a construction specification (MasterFormat's ".1", ".2" under article
 * "1."): kept as the paragraph's first word, as such documents are cited. Its tab stop is wider
 * than a list's (4.1 sizes in masterformat_partial_numbering).
 */
const partialNumber = /^\.\d{1,2}$/;
const PARTIAL_GAP = 6;

/** Every marker has all five fields (`start` undefined on unordered ones): one object shape. */
interface Marker {
  ordered: boolean;
  start: number | undefined;
  /** A check box for a bullet (☐, ☑, ☒): a task, done or not. */
  checked: boolean | undefined;
  /** Marker text to keep in the item (non-numeric enumerators Markdown cannot number). */
  keep: string;
  length: number;
}

/**
 * A number closing in a bracket set right against a capitalised word ("1)Nested list item a"):
 * LibreOffice's numbered item where the backend joined the number's run to the text's (pdf.js does,
 * less than a blank apart; PDFium's runs keep the edge, `lines.ts` `numberEdge`). Not a dot: a
 * date's "1.Januar" opens a wrapped line as often.
 */
const tightNumber = /^(\d{1,2})\)(?=\p{Lu}\p{Ll})/u;

function listMarker(t: string): Marker | null {
  const b = bullet.exec(t);
  if (b) {
    const box = b[1] === '☐' ? false : b[1] === '☑' || b[1] === '☒' ? true : undefined;
    return { ordered: false, start: undefined, checked: box, keep: '', length: b[0].length };
  }
  const e = enumerator.exec(t);
  if (e) {
    const body = e[2] ?? '';
    if (/^\d+$/.test(body)) {
      if (yearLike(body)) return null;
      return { ordered: true, start: Number(body), checked: undefined, keep: '', length: e[0].length };
    }
    return { ordered: false, start: undefined, checked: undefined, keep: `${e[1]} `, length: e[0].length };
  }
  const n = tightNumber.exec(t);
  if (n) return { ordered: true, start: Number(n[1]), checked: undefined, keep: '', length: n[0].length };
  return null;
}

/**
 * A multi-level number ("1.1.", "2.3.1.", "2.3.59.2"): a word processor's outline list, its levels
 * set in step by step, or a contents page's entries with no page numbers. Alone it is a heading's
 * number ("2.3. Methods"). Without a closing dot it needs three levels and a title opening in a
 * capital: "2.5 Million" opening a wrapped line is a figure, and "2.3 Methods" a heading's number.
 */
const outlineNumber = /^(\d{1,2}(?:\.\d{1,3}){1,5})(\.?)\s+(?=(\S))/u;
const CAPITAL = /\p{Lu}/u;
/** A plain number closing in a dot ("1."): an outline's first level. */
const FIRST_LEVEL = /^\d{1,2}\.\s/;

/** The outline number opening `text` (with its blanks), or null. */
function outlineOf(text: string): RegExpExecArray | null {
  const o = outlineNumber.exec(text);
  if (!o) return null;
  if (o[2]) return o;
  return (o[1] as string).split('.').length >= 3 && CAPITAL.test(o[3] ?? '') ? o : null;
}

/**
 * The lines that open items of an outline list: in a run of lines a line or so apart in one size,
 * lines opening with an outline number, not set in bold (a heading's number, "2.1. Setup" under
 * "2. Methods"), with another such line, or a "1." above (the outline's first level), at most
 * `ITEM_REACH` lines away (an item's wrapped lines between them). One such line over items lettered
 * "(a)" is their heading, and paragraphs each opening with a section number ("13.3.3 Summary of
 * …", then five lines) are paragraphs.
 */
function outlineItems(lines: readonly Line[]): Set<Line> | null {
  let out: Set<Line> | null = null;
  // Numbered lines of the current run: their indices, and whether each is an outline's.
  const at: number[] = [];
  const outline: boolean[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as Line;
    const a = lines[i - 1];
    if (a && !(l.base > a.base && l.base - a.base <= a.size * 2 && sizesMatch(a, l))) {
      out = outlineRun(lines, at, outline, out);
      at.length = 0;
      outline.length = 0;
    }
    // Most lines open with no figure: the patterns are not asked (every page's every line comes here).
    if (!opensWithDigit(l.text)) continue;
    const o = outlineLine(l);
    if (o || FIRST_LEVEL.test(l.text)) {
      at.push(i);
      outline.push(o);
    }
  }
  return outlineRun(lines, at, outline, out);
}

/** Lines apart, at most, of an outline's items one after the other (the first wrapped twice). */
const ITEM_REACH = 3;

/** Adds the outline items of one run (`outlineItems`) to `out`. */
function outlineRun(
  lines: readonly Line[],
  at: readonly number[],
  outline: readonly boolean[],
  out: Set<Line> | null,
): Set<Line> | null {
  for (let k = 0; k < at.length; k++) {
    if (!outline[k]) continue;
    const i = at[k] as number;
    const before = k > 0 && i - (at[k - 1] as number) <= ITEM_REACH;
    const after = k + 1 < at.length && outline[k + 1] === true && (at[k + 1] as number) - i <= ITEM_REACH;
    if (!before && !after) continue;
    out ??= new Set();
    out.add(lines[i] as Line);
  }
  return out;
}

const outlineLine = (l: Line): boolean => !l.bold && outlineOf(l.text) !== null;

const opensWithDigit = (t: string): boolean => {
  const c = t.charCodeAt(0);
  return c >= 48 && c <= 57;
};

/** The marker a line opens with: a bullet, an enumerator, or an outline number where `outlined` has the line. */
function markerOf(l: Line, outlined: ReadonlySet<Line> | null): Marker | null {
  const m = listMarker(l.text);
  if (m || !outlined?.has(l)) return m;
  const o = outlineOf(l.text) as RegExpExecArray;
  return { ordered: false, start: undefined, checked: undefined, keep: `${o[1]}${o[2]} `, length: o[0].length };
}

/** Size, in body sizes, from which a line is set large: a heading's, or a slide's bullet. */
const LARGE = 1.3;

/** Lines in another size read between two of a slide's bullets, at most (a shape's text beside them). */
const SLIDE_ASIDE = 3;

/**
 * A slide's bullets: lines set large that open with a bullet glyph (a dash opens a cover's "— A
 * Novel —" or an epigraph's author), two or more in one size, each a few sizes under the one
 * before; and the lines each wraps onto, set in under its text. Items, not headings, however large.
 */
function slideBullets(lines: readonly Line[], s: DocStats): Set<Line> | null {
  let out: Set<Line> | null = null;
  const large = (l: Line): boolean => l.size >= s.bodySize * LARGE && glyphWord.test(l.text);
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as Line;
    if (!large(l) || out?.has(l)) continue;
    // The bullets one after the other, their wrapped lines between them.
    const run: Line[] = [l];
    let last = l;
    let bullet = l;
    let bullets = 1;
    let other = 0;
    for (let k = i + 1; k < lines.length; k++) {
      const n = lines[k] as Line;
      // A shape's text beside the bullets, in its own size, is read between them by row.
      if (!sizesMatch(n, l) && ++other <= SLIDE_ASIDE) continue;
      if (!sizesMatch(n, l) || n.base <= last.base || n.base - last.base > l.size * 2.5) break;
      other = 0;
      if (large(n)) {
        bullet = n;
        bullets++;
      } else if (n.x0 <= bullet.x0 + l.size * 0.5) break;
      run.push(n);
      last = n;
    }
    if (bullets < 2) continue;
    out ??= new Set();
    for (const n of run) out.add(n);
  }
  return out;
}

/**
 * What a line starts. Made by the three helpers below only, all fields present (undefined where
 * unused): the loops reading kinds then see one object shape, not three.
 */
type Kind =
  | { type: 'heading'; depth: number; marker: undefined }
  | { type: 'item'; depth: undefined; marker: Marker }
  | { type: 'text'; depth: undefined; marker: undefined };

const headingKind = (depth: number): Kind => ({ type: 'heading', depth, marker: undefined });
const itemKind = (marker: Marker): Kind => ({ type: 'item', depth: undefined, marker });
const TEXT_KIND: Kind = { type: 'text', depth: undefined, marker: undefined };
/** A list item where the line starts with a marker, else text. */
const itemOrText = (m: Marker | null): Kind => (m ? itemKind(m) : TEXT_KIND);

/**
 * Whether the line after `l` in reading order sits beside it on its row, in plain text: `l` labels
 * a value (a form's field, a definition list's term), which no heading has.
 */
function labels(l: Line, next: Line | null | undefined): boolean {
  if (!next || !sameRow(l, next)) return false;
  // The value is plain text no larger than its label (a styled neighbour is a tag or a heading).
  if (next.bold || next.italic || next.size > l.size + 0.5) return false;
  return Math.max(next.x0 - l.x1, l.x0 - next.x1) > l.size;
}

/**
 * A line of body text with words in bold among them ("In our **third decade of climate action**, we
 * recognize that"): the bold font may hold most of its characters, yet the line is prose.
 */
function boldInBody(l: Line, bodyFont: string): boolean {
  if (!l.fonts.includes(bodyFont)) return false;
  let bold = false;
  let plain = false;
  for (const sp of l.spans) {
    if (!LETTER.test(sp.text)) continue;
    if (sp.bold) bold = true;
    else plain = true;
  }
  return bold && plain;
}

/**
 * Whether a line ends in a word its hyphen breaks into the next line ("Our *Dense Passage
 * Retriever* (DPR) is exception-" over "ally strong."): a paragraph's first line in a styled font,
 * not a heading standing alone.
 */
const brokenInto = (t: string, next: Line | null): boolean =>
  next !== null && endsHyphen.test(lastChars(t)) && STARTS_LOWER.test(next.text);

function classify(
  l: Line,
  prev: Line | null,
  next: Line | null,
  s: DocStats,
  after: Line | null,
  items: ReadonlySet<Line> | null,
  slide: ReadonlySet<Line> | null,
): Kind {
  const t = l.text;
  // A text box's note is written on the page, not set in the document's type: no heading.
  if (l.fonts.every(isTextBoxFont)) return itemOrText(markerOf(l, items));
  // Running headers repeat the outline's titles in small print; real headings are not smaller than body.
  // The cheap tests go first: normalizing every line's text for the lookup costs more than they do.
  const outlined = s.outline.size && t.length > 1 && l.size >= s.bodySize - 0.5 ? outlineDepth(t, s) : undefined;
  if (outlined !== undefined) return headingKind(outlined);
  const letters = LETTER.test(t);
  if (letters && t.length <= 160) {
    const r = round(l.size);
    const tier = s.tiers.indexOf(r);
    // Large labels followed by small print are figure or diagram text, not section headings; a
    // slide's bullets and their wrapped lines are its items.
    const smallAfter = next !== null && next.size < s.bodySize - 0.5 && next.y0 - l.y1 < l.size * 2;
    if (tier >= 0 && !smallAfter && !slide?.has(l)) return headingKind(Math.min(6, tier + 1));
    if (
      r >= s.bodySize - 0.5 &&
      t.length <= 90 &&
      !s.monoFonts.has(l.font) &&
      !/[.,;:]$/.test(t) &&
      !brokenInto(t, next)
    ) {
      const styled = l.bold || (l.font !== s.bodyFont && s.rareFonts.has(l.font) && !boldInBody(l, s.bodyFont));
      // A section number inside right-to-left text keeps its dash on the left, ahead of it ("-3 …").
      const startsWell = (l.rtl ? /^[-–]?[\p{Lu}\p{N}\p{Lo}]/u : /^[\p{Lu}\p{N}\p{Lo}]/u).test(t);
      // A standalone styled line: the next line is back to another font or far below, or is itself
      // the label of a row.
      const alone =
        !next ||
        next.font !== l.font ||
        next.y0 - l.y1 > l.size * 0.8 ||
        Math.abs(next.size - l.size) > 0.5 ||
        labels(next, after);
      const gapAbove =
        !prev ||
        prev.y0 > l.y0 ||
        (l.y0 - prev.y1 > Math.max(s.lineGap * 1.3, s.lineGap + 1) &&
          !(prev.font === l.font && l.y0 - prev.y1 < l.size)) ||
        (prev.font !== l.font && /[.!?:。]$/.test(prev.text));
      if (styled && startsWell && alone && gapAbove && !listMarker(t) && !labels(l, next))
        return headingKind(Math.min(6, s.tiers.length + 1));
    }
  }
  return itemOrText(markerOf(l, items));
}

/** Adds line `l` to the heading just placed, its text read again with the new line's. */
function joinHeading(last: { node: Block; line: Line; lines: Line[] }, l: Line, s: DocStats): void {
  last.lines.push(l);
  const h = last.node as { children: Inline[]; source?: { bbox?: BBox } };
  h.children = unbold(inlines(last.lines, s));
  if (h.source) h.source.bbox = bboxOf(last.lines);
  last.line = l;
}

/** Most lines and characters a margin side head read as a heading holds. */
const SIDE_HEAD_LINES = 8;
const SIDE_HEAD_CHARS = 160;

/**
 * Makes a margin side head (`Line.sideHead`: "2.3.59.1 / (12-12-2022) / **Program Scope and
 * Objectives**") a heading when it ends in a bold title (`titled`): the section's heading, set in a column
 * beside its first paragraph. Read line by line its title failed the heading tests: it stands
 * right under the plain number or date line, and a title of two lines is no line alone. A head
 * with no bold title (a margin note, a date) stays text. Its depth is that of a styled line's
 * heading, or of a line of it classed a heading already.
 */
function sideHeadKinds(lines: readonly Line[], kinds: Kind[], s: DocStats): void {
  for (let i = 0; i < lines.length; ) {
    const head = (lines[i] as Line).sideHead;
    let end = i + 1;
    while (end < lines.length && head !== undefined && (lines[end] as Line).sideHead === head) end++;
    const group = lines.slice(i, end);
    const chars = group.reduce((n, l) => n + l.text.length, 0);
    if (head !== undefined && group.length <= SIDE_HEAD_LINES && chars <= SIDE_HEAD_CHARS && titled(group)) {
      let depth = Math.min(6, s.tiers.length + 1);
      for (let k = i; k < end; k++) {
        const kind = kinds[k] as Kind;
        if (kind.type === 'heading') depth = Math.min(depth, kind.depth);
      }
      for (let k = i; k < end; k++) kinds[k] = headingKind(depth);
    }
    i = end;
  }
}

/**
 * Joins the lines' spans into inline content: de-hyphenation, footnote marks, links, known
 * bold/italic, words in a code face.
 */
function inlines(lines: Line[], s: DocStats, stripFirst = 0): Inline[] {
  const { vocab, codeFont, bodyFont } = s;
  const head = lines[0]?.spans ?? [];
  const first = stripFirst > 0 ? stripPrefix(head, stripFirst) : head;
  const coded = hasInlineCode(lines, first, codeFont, bodyFont);
  // Each span's text is kept as the pieces its lines give and joined once at the end: its end is
  // read at every line, and read from a string grown by appending, it is copied whole each time
  // (a paragraph of thousands of lines would be quadratic).
  const spans: { sp: Span; code: boolean; parts: string[] }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const ls = i ? (lines[i] as Line).spans : first;
    for (let k = 0; k < ls.length; k++) {
      const sp = ls[k] as Span;
      let t = sp.text;
      if (k === 0) t = t.replace(/^\s+/, '');
      if (!t) continue;
      const prev = spans[spans.length - 1];
      if (prev && k === 0) {
        // The span holds the paragraph so far: its end is tested on its last characters alone.
        const end = lastChars(endOf(prev.parts, 3));
        // A hyphen ending a line runs on into the next line's word, whether or not it stays.
        const parts = prev.parts;
        const seam = lineSeam(end, t, lines[i - 1]?.text ?? end, vocab, () => beforeHyphen(parts));
        if (seam === 'join') dropLast(parts);
        else if (seam !== 'hyphen') t = seam + t;
      }
      const code = coded && inCodeFace(sp, codeFont, bodyFont);
      if (
        prev &&
        prev.sp.bold === sp.bold &&
        prev.sp.italic === sp.italic &&
        prev.sp.sup === sp.sup &&
        prev.sp.href === sp.href &&
        prev.code === code
      )
        prev.parts.push(t);
      else spans.push({ sp, code, parts: [t] });
    }
  }
  const values = spans.map(joined);
  const out: Inline[] = [];
  for (let k = 0; k < spans.length; k++) {
    const { sp, code } = spans[k] as { sp: Span; code: boolean };
    const value = values[k] as string;
    if (!value) continue;
    let nodes: Inline[];
    if (code && inlineCode(value, wordAround(values, k), values[k - 1] ?? '')) nodes = codeNode(value, sp);
    else {
      let node: Inline = text(value);
      if (sp.sup) node = { type: 'superscript', children: [node] };
      else {
        // Emphasis on a lone symbol (a checkbox glyph, a bullet) is noise, not styling.
        const worded = wordy.test(value);
        if (sp.italic && worded) node = { type: 'emphasis', children: [node] };
        if (sp.bold && worded) node = { type: 'strong', children: [node] };
      }
      if (!sp.href) {
        out.push(node);
        continue;
      }
      nodes = [node];
    }
    if (!sp.href) out.push(...nodes);
    else {
      // A link's runs are one link, whichever styles and faces its words change between.
      const prev = out[out.length - 1];
      if (prev?.type === 'link' && prev.href === sp.href)
        out[out.length - 1] = { ...prev, children: [...prev.children, ...nodes] };
      else out.push(link(sp.href, nodes));
    }
  }
  return out;
}

/** A span's text as its pieces give it, blanks in a row one. */
const joined = ({ parts }: { parts: string[] }): string => parts.join('').replace(/ {2,}/g, ' ');

const blankStart = /^\s/;
const blankEnd = /\s$/;
const blank = /\s/;
/** Neighbouring runs read for the word a run belongs to at most, each way, and characters of them. */
const WORD_RUNS = 4;
const WORD_CHARS = 256;

/** The characters a run ends with after its last blank (its whole text where it has none). */
function tailWord(v: string): string {
  let i = v.length;
  while (i > 0 && v.length - i < WORD_CHARS && !blank.test(v.charAt(i - 1))) i--;
  return v.slice(i);
}

/** The characters a run starts with before its first blank. */
function headWord(v: string): string {
  let i = 0;
  while (i < v.length && i < WORD_CHARS && !blank.test(v.charAt(i))) i++;
  return v.slice(0, i);
}

/**
 * A run with the characters its neighbours join to it, up to a blank each way: an address's braces
 * or its "@" may be set in another face than its names.
 */
function wordAround(values: readonly string[], k: number): string {
  const value = values[k] as string;
  let word = value;
  for (let j = k - 1; j >= 0 && j >= k - WORD_RUNS && !blankStart.test(value); j--) {
    const v = values[j] as string;
    const end = tailWord(v);
    word = end + word;
    if (end.length < v.length) break;
  }
  for (let j = k + 1; j < values.length && j <= k + WORD_RUNS && !blankEnd.test(value); j++) {
    const v = values[j] as string;
    const start = headWord(v);
    word += start;
    if (start.length < v.length) break;
  }
  return word;
}

/**
 * A run in a code face as inline code, its emphasis around it; its blanks stay outside the code
 * and inside the emphasis, which then runs on into a neighbour's of the same style.
 */
function codeNode(value: string, sp: Span): Inline[] {
  let nodes: Inline[] = [{ type: 'inlineCode', value: value.trim() }];
  if (blankStart.test(value)) nodes.unshift(text(' '));
  if (blankEnd.test(value)) nodes.push(text(' '));
  if (sp.italic) nodes = [{ type: 'emphasis', children: nodes }];
  if (sp.bold) nodes = [{ type: 'strong', children: nodes }];
  return nodes;
}

/**
 * Letters before a line-end hyphen read at most. `removeHyphen` asks only about the letters before
 * it, and a longer run (a paragraph of lines joined at hyphens) is judged as any other run past
 * every word the document writes (unless it writes a word of more letters than this elsewhere):
 * read back whole at each line, such a paragraph took time cubic in its lines.
 */
const WORD_REACH = 256;
const notLetter = /\P{L}/u;

/**
 * The text before the line-end hyphen that ends `parts`, the hyphen left out: back to a character
 * that is no letter, or past `WORD_REACH` letters. Each piece is tested on its own, so a line costs
 * what it reads, not the paragraph so far.
 */
function beforeHyphen(parts: readonly string[]): string {
  const pieces: string[] = [];
  let n = 0;
  let hyphen = true;
  for (let k = parts.length - 1; k >= 0 && n <= WORD_REACH; k--) {
    let p = parts[k] as string;
    if (hyphen && p) {
      p = p.slice(0, -1);
      hyphen = false;
    }
    if (p.length > WORD_REACH + 2) p = p.slice(-(WORD_REACH + 2));
    pieces.push(p);
    n += p.length;
    if (notLetter.test(p)) break;
  }
  return pieces.reverse().join('');
}

/** The end of a text kept in pieces, at least `n` characters of it (all of it when shorter): the last pieces joined. */
function endOf(parts: readonly string[], n: number): string {
  let end = '';
  for (let k = parts.length - 1; k >= 0 && end.length < n; k--) end = (parts[k] as string) + end;
  return end;
}

/** Drops the last character of a text kept in pieces (the last piece not empty holds it). */
function dropLast(parts: string[]): void {
  for (let k = parts.length - 1; k >= 0; k--) {
    const p = parts[k] as string;
    if (!p) continue;
    parts[k] = p.slice(0, -1);
    return;
  }
}

const wordy = /[\p{L}\p{N}]/u;

function inlineLength(nodes: Inline[]): number {
  let n = 0;
  for (const x of nodes)
    n += 'value' in x ? x.value.length : 'children' in x ? inlineLength(x.children as Inline[]) : 0;
  return n;
}

/**
 * The quoted lines `lines[from…to)` of a page, their marks taken off, as a page of their own (no
 * tables or pictures). Where they open or end the page, the quoted lines the page break parts them
 * from go with them one level deeper, so a quote within the quote is read over the break as well.
 */
function quotePage(page: LaidOutPage, lines: readonly Line[], from: number, to: number): LaidOutPage {
  const out: LaidOutPage = {
    number: page.number,
    width: page.width,
    height: page.height,
    lines: unquoted(lines.slice(from, to)),
    tables: [],
    images: [],
  };
  const { before, after } = page.quoteOver ?? {};
  const over: QuoteOverBreak = {};
  if (from === 0 && before) over.before = edgeRun(unquoted(before), 'last');
  if (to === lines.length && after) over.after = edgeRun(unquoted(after), 'first');
  if (over.before?.length || over.after?.length) out.quoteOver = over;
  return out;
}

/**
 * Whether an item (marked `m`) can go on `list`: of its kind, and numbered next where numbered in
 * figures (a letter's place is not weighed: "c)" goes on any list of lettered items).
 */
const goesOnList = (list: List, m: Marker): boolean =>
  list.ordered === m.ordered && (m.start === undefined || m.start === (list.start ?? 1) + list.children.length);

/** A list open while a page's blocks are built, at the indent `x` its items stand at. */
interface ListLevel {
  x: number;
  rtl: boolean;
  list: List;
  /** Right edge of the first line of its last item. */
  reach: number;
  /** First line of its first item in the column it is read in. */
  top: Line;
}

/**
 * Where an item set above the line before it goes (`l`, marked `m`): it opens the next column of
 * lists read one after the other (`listsSideBySide`, or a page's columns), no level of the item
 * before it. Levels whose last item reaches over it (a question over its choices set two a row),
 * and those of the other kind, stay its parents; the level under them goes on, its items now at
 * this column's indent `at` (and the parents not reaching over, at theirs moved as far), unless the
 * item numbers anew. An item on the row a level's first item in this column opens on (lists set
 * side by side within a column, read one after the other) goes on that level. `stack` is cut to
 * the levels the item joins.
 */
function continueInColumn(stack: ListLevel[], l: Line, m: Marker, at: number): void {
  // An item on the row a level's column opens on is that level's, in the column beside.
  for (let d = stack.length - 1; d >= 0; d--) {
    const level = stack[d] as ListLevel;
    if (onRow(level.top, l) && goesOnList(level.list, m)) {
      stack.length = d + 1;
      level.x = at;
      level.top = l;
      return;
    }
  }
  let parents = 0;
  for (let d = stack.length - 1; d >= 0; d--)
    if ((stack[d] as ListLevel).reach > l.x0) {
      parents = d + 1;
      break;
    }
  // A level of the other kind over one of the item's (numbered questions over their lettered
  // choices) is a parent too.
  let own = parents;
  while (own < stack.length && (stack[own] as ListLevel).list.ordered !== m.ordered) own++;
  if (own < stack.length) parents = own;
  const goesOn = stack[parents];
  const joins = goesOn !== undefined && goesOnList(goesOn.list, m);
  stack.length = joins ? parents + 1 : parents;
  if (!joins) return;
  // The levels above it in the column before move with it, but for those reaching over it.
  const shift = at - goesOn.x;
  for (const level of stack) if (level === goesOn || level.reach <= l.x0) level.x += shift;
  goesOn.top = l;
}

/**
 * Turns one page's ordered lines into blocks. Paragraph breaks come from vertical gaps larger than
 * the running line pitch, indentation, and short last lines; list items from markers, with hanging
 * continuation lines and nesting by marker indentation; an e-mail's quoted lines (`quoteRun`) a
 * quote, its lines read as a page of their own at `depth` + 1 (`QUOTE_DEPTH` levels at most).
 */
export function buildBlocks(page: LaidOutPage, s: DocStats, depth = 0): Block[] {
  const blocks: Block[] = [];
  let para: Line[] = [];
  let shape = paraShape();
  // `x` is an indent (`indentOf`), comparable only between lines read the same way (`rtl`).
  let item: {
    lines: Line[];
    strip: number;
    keep: string;
    node: ListItem;
    x: number;
    rtl: boolean;
    /** Where the item's lines wrap back to, left of its marker (`wrapsBack`). */
    wrap?: number;
  } | null = null;
  const stack: ListLevel[] = [];
  let lastHeading: { node: Block; line: Line; lines: Line[] } | null = null;

  const place = (b: Block, bbox: BBox): void => {
    b.source = { page: page.number, bbox };
    blocks.push(b);
  };
  const flushPara = (): void => {
    if (!para.length) return;
    const kids = inlines(para, s);
    if (kids.length) place(paragraph(kids), bboxOf(para));
    para = [];
    shape = paraShape();
  };
  const flushItem = (): void => {
    if (!item) return;
    const kids = inlines(item.lines, s, item.strip);
    if (item.keep) kids.unshift(text(item.keep));
    const p: Paragraph = paragraph(kids);
    p.source = { page: page.number, bbox: bboxOf(item.lines) };
    item.node.children.unshift(p);
    item = null;
  };
  const closeLists = (): void => {
    flushItem();
    stack.length = 0;
  };

  // A block made of rows of lines (code, a quote) set in from an open item's marker is the item's
  // ("1. Run these commands:", then them); else it stands on the page, after the lists close.
  const placeRows = (node: Block, rows: Line[]): void => {
    const owner = item && !item.rtl && Math.min(...rows.map((r) => r.x0)) > item.x + 2 ? item.node : null;
    flushPara();
    if (owner) {
      flushItem();
      node.source = { page: page.number, bbox: bboxOf(rows) };
      owner.children.push(node);
    } else {
      closeLists();
      place(node, bboxOf(rows));
    }
  };

  const lines = foldBullets(page.lines, s.monoFonts);
  const slide = slideBullets(lines, s);
  const kinds = classifyAll(lines, s, slide);
  const leading = pageLeading(lines);
  if (page.number === 1) demoteBylines(lines, kinds, s);
  sideHeadKinds(lines, kinds, s);
  const codes = codeRuns(lines, s.codeFont, s.bodyFont);
  const kept = keptBreaks(lines, s.codeFont);
  const headers = headerBreaks(lines);
  for (const l of headers.keep) kept.add(l);
  for (const l of signOffBreaks(lines)) kept.add(l);
  for (const l of headers.join) kept.delete(l);
  let noQuoteUntil = 0;
  for (let i = 0; i < lines.length; i++) {
    const codeEnd = codes.get(i);
    if (codeEnd !== undefined) {
      const rows = lines.slice(i, codeEnd);
      placeRows(code(codeText(rows)), rows);
      i = codeEnd - 1;
      continue;
    }
    if (depth < QUOTE_DEPTH && i >= noQuoteUntil) {
      const run = quoteRun(lines, i, page.quoteOver, depth > 0);
      if (run.quote) {
        const inner = quotePage(page, lines, i, run.end);
        placeRows(blockquote(buildBlocks(inner, s, depth + 1)), lines.slice(i, run.end));
        i = run.end - 1;
        continue;
      }
      // Lines of a run that is no quote open no quote either.
      noQuoteUntil = run.end;
    }
    const l = lines[i] as Line;
    const prev = i > 0 ? (lines[i - 1] as Line) : null;
    const kind = kinds[i] as Kind;
    if (kind.type === 'heading') {
      flushPara();
      closeLists();
      if (
        lastHeading &&
        lastHeading.node === blocks[blocks.length - 1] &&
        l.sideHead !== undefined &&
        l.sideHead === lastHeading.line.sideHead
      ) {
        // A margin side head's lines (number, date, title) are one heading, whatever their styles.
        joinHeading(lastHeading, l, s);
        continue;
      }
      if (
        lastHeading &&
        lastHeading.node === blocks[blocks.length - 1] &&
        // One style of a font may end a line and start the next ("… the *National* / *Strategy*").
        lastHeading.lines.some((h) => h.fonts.some((f) => l.fonts.includes(f))) &&
        // A title's second line may be set a little smaller to fit ("… Access Control" 33 pt,
        // "Support in IBM DB2 for i" 30 pt); a numbered line starts a heading of its own.
        (Math.abs(lastHeading.line.size - l.size) < 0.5 ||
          (Math.abs(lastHeading.line.size - l.size) <= 0.1 * Math.max(lastHeading.line.size, l.size) &&
            !numbered.test(l.text))) &&
        l.y0 - lastHeading.line.y1 < l.size * 0.9 &&
        l.y0 >= lastHeading.line.y0
      ) {
        joinHeading(lastHeading, l, s);
        continue;
      }
      const h = heading(kind.depth, unbold(inlines([l], s)));
      place(h, bboxOf([l]));
      lastHeading = { node: h, line: l, lines: [l] };
      continue;
    }
    // An enumerator set large numbers a heading; a slide's bullets are set large.
    if (kind.type === 'item' && (l.size < s.bodySize * LARGE || slide?.has(l))) {
      const m = kind.marker;
      const at = indentOf(l);
      const rtl = l.rtl;
      // A check box on the row of the line before it is a form's choice beside its question or
      // another choice ("Smoker?  ☒ Yes  ☐ No"), no level of a list: after a question (a paragraph's
      // line or a numbered item's) it reads on in the question's line, after a choice it is the
      // choice's sibling. But where more boxes follow under it at its indent, it opens their list
      // ("Packing list:  ☐ Passport", then "☒ Tickets" under the box).
      if (m.checked !== undefined && prev && onRow(prev, l) && !boxesBelow(lines, kinds, i, at)) {
        if (para[para.length - 1] === prev) {
          grow(para, shape, l);
          continue;
        }
        const top = stack[stack.length - 1];
        if (item && top && item.lines[item.lines.length - 1] === prev && item.rtl === rtl) {
          if (item.node.checked === undefined) {
            item.lines.push(l);
            continue;
          }
          flushItem();
          const node = listItem([], m.checked);
          top.list.children.push(node);
          top.reach = l.x1;
          item = { lines: [l], strip: m.length, keep: m.keep, node, x: at, rtl };
          continue;
        }
      }
      const beside =
        prev !== null &&
        item?.lines[item.lines.length - 1] === prev &&
        onRow(item.lines[0] as Line, l) &&
        itemBelow(lines, kinds, i, at) < 0;
      flushPara();
      flushItem();
      // A list read the other way is no level of this one: the item starts a list of its own.
      if (stack.length && (stack[stack.length - 1] as ListLevel).rtl !== rtl) stack.length = 0;
      let level = at;
      const last = stack[stack.length - 1];
      if (beside && last && goesOnList(last.list, m)) {
        // An item beside the one before it, on the row that one opens on (choices side by side,
        // read each with the lines it wraps to), is its sibling; unless items follow under it (an
        // outline's second level set beside the first), or it goes on no list of the item's (a
        // question's lettered choices, or its answer codes "1. Yes  2. No", on its row).
        level = last.x;
      } else if (prev && stack.length && !rtl && l.y1 <= prev.y0) continueInColumn(stack, l, m, at);
      while (stack.length && (stack[stack.length - 1] as ListLevel).x > level + 3) stack.pop();
      const topEntry = stack[stack.length - 1];
      const node = listItem([], m.checked);
      if (topEntry && Math.abs(topEntry.x - level) <= 3 && topEntry.list.ordered === m.ordered) {
        topEntry.list.children.push(node);
        topEntry.reach = l.x1;
      } else {
        const lst = list(m.ordered, [node], m.start);
        if (topEntry && topEntry.x < level - 3) {
          const parent = topEntry.list.children[topEntry.list.children.length - 1];
          parent?.children.push(lst);
        } else {
          stack.length = 0;
          place(lst, bboxOf([l]));
        }
        stack.push({ x: at, rtl, list: lst, reach: l.x1, top: l });
      }
      item = { lines: [l], strip: m.length, keep: m.keep, node, x: at, rtl };
      continue;
    }
    if (item && prev) {
      const pitch = l.base - prev.base;
      const wraps =
        !l.rtl &&
        (item.wrap === undefined
          ? wrapsBack(prev, l, item.x)
          : Math.abs(l.x0 - item.wrap) <= 2 && fullLine(prev, item.lines));
      if (
        l.rtl === item.rtl &&
        (indentOf(l) > item.x + 2 || runsOnFlush(prev, l, item.x) || wraps) &&
        pitch > 0 &&
        pitch < prev.size * 1.9 &&
        Math.abs(l.size - prev.size) < 1
      ) {
        if (wraps) item.wrap ??= l.x0;
        item.lines.push(l);
        continue;
      }
    }
    if (stack.length) closeLists();
    if (
      para.length &&
      prev &&
      !kept.has(prev) &&
      continues(para, shape, prev, lines, i, i > 1 ? (lines[i - 2] as Line) : null, leading)
    ) {
      grow(para, shape, l);
      continue;
    }
    flushPara();
    grow(para, shape, l);
  }
  flushPara();
  closeLists();
  // Large type running over several lines is a pull quote or cover blurb, not a heading.
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i] as Block;
    if (b.type === 'heading' && inlineLength(b.children) > 200) {
      const p = paragraph(b.children);
      if (b.source) p.source = b.source;
      blocks[i] = p;
    }
  }
  insertFloats(blocks, page, s.vocab);
  // A list is placed at its first line while it is built (floats are put in the flow by that
  // place); its box is every item's.
  for (const b of blocks) if (b.type === 'list' && b.source) b.source.bbox = boxOfItems(b, b.source.bbox);
  return blocks;
}

/** The box holding `box` and every item of `lst`, nested lists' and quotes' too. */
function boxOfItems(lst: List, box: BBox | undefined): BBox | undefined {
  let out = box;
  const add = (b: Block): void => {
    const bb = b.source?.bbox;
    if (bb) out = out ? unionBox(out, bb) : bb;
    if (b.type === 'list') for (const item of b.children) for (const c of item.children) add(c);
  };
  for (const item of lst.children) for (const c of item.children) add(c);
  return out;
}

/**
 * A bullet glyph drawn as its own run joins the line that follows it on its row. So does an
 * enumerator set a tab's width apart from its text ("(1)", then the item, its other lines set
 * under the text: the IRM manual's transmittal page, 2.4 sizes apart): a line of its own, it
 * started no item, and the item's lines under its text were read as paragraphs of their own.
 * Enumerators further apart than `MARK_GAP` sizes, or beside another enumerator (a figure's "(a)",
 * "(b)", "(c)" on one row), are no item's. A specification's paragraph number (`partialNumber`)
 * joins its text too, as text: on a row of its own beside the text, the two read as a row of
 * cells, and the paragraph's next line as the next row. A check box set after its label joins the
 * label (`boxAfterLabel`): after it in its line, or ahead of it where the label is a checklist's
 * entry (`checklistRow`).
 */
function foldBullets(lines: Line[], mono: Set<string>): Line[] {
  const out: Line[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as Line;
    const next = lines[i + 1];
    const label = out[out.length - 1];
    if (label && boxAfterLabel(label, l, next)) {
      const box = l.text.trim();
      // A checklist whose boxes stand right of their labels: tasks, as boxes opening lines are
      // (a label that is an item already keeps its marker, the box after it).
      if (
        !bullet.test(label.text) &&
        !enumerator.test(label.text) &&
        checklistRow(lines, i, label, out[out.length - 2])
      )
        prependText(label, `${box} `, l.font);
      else appendText(label, ` ${box}`, l.font);
      label.x1 = Math.max(label.x1, l.x1);
      continue;
    }
    if (next && Math.abs(next.base - l.base) < l.size && next.x0 > l.x0) {
      const glyph = bulletAlone.test(l.text) || monoBullet(l, next, mono);
      // A number apart from a title in bold ("1." then "INTENT") numbers a section's heading, no item.
      if (
        glyph ||
        (!next.bold && (numbers(l, next, enumeratorAlone, MARK_GAP) || numbers(l, next, partialNumber, PARTIAL_GAP)))
      ) {
        // A check box keeps its glyph: ticked or not, it makes the item a task (`listMarker`).
        const mark = glyph ? (CHECK_BOX.test(l.text) ? `${l.text.trim()} ` : '• ') : `${l.text} `;
        prependText(next, mark, l.font);
        next.x0 = l.x0;
        continue;
      }
    }
    out.push(l);
  }
  return out;
}

/** Whether `l` is a number alone (`mark`) that numbers `next`, at most `gap` sizes after it, not another number. */
const numbers = (l: Line, next: Line, mark: RegExp, gap: number): boolean =>
  mark.test(l.text) && !mark.test(next.text) && next.x0 - l.x1 <= gap * l.size;

/**
 * Word's second-level bullet: an "o" in a monospaced font (Courier New), no larger than the text
 * in another font a tab after it (more than a word space). Read as a letter, it opened a
 * paragraph ("o SI1.1:% distribution per country …", eu-017) and the item's second line stood
 * apart.
 */
const monoBullet = (l: Line, next: Line, mono: Set<string>): boolean =>
  l.text === 'o' &&
  mono.has(l.font) &&
  !mono.has(next.font) &&
  l.size <= next.size + 0.5 &&
  next.x0 - l.x1 >= l.size * 0.8;

/**
 * Classifies every line, then demotes long runs of heading-looking lines: four or more in a row
 * are the text of a figure, a code sample or a cover, not a stack of headings.
 */
function classifyAll(lines: Line[], s: DocStats, slide: ReadonlySet<Line> | null): Kind[] {
  const outlined = outlineItems(lines);
  // A loop into a literal, not map: map's result is packed from the builtin but holey once the
  // caller is optimized, and the code reading kinds would meet both kinds of array.
  const kinds: Kind[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as Line;
    kinds.push(classify(l, lines[i - 1] ?? null, lines[i + 1] ?? null, s, lines[i + 2] ?? null, outlined, slide));
  }
  let runStart = 0;
  for (let i = 0; i <= kinds.length; i++) {
    const l = lines[i];
    const first = lines[runStart];
    const same = l && first && l.font === first.font && Math.abs(l.size - first.size) < 0.5;
    if (i < kinds.length && kinds[i]?.type === 'heading' && (same || i === runStart)) continue;
    if (i - runStart >= 4) {
      for (let k = runStart; k < i; k++) {
        kinds[k] = itemOrText(markerOf(lines[k] as Line, outlined));
      }
    }
    // A heading of another style starts a new run.
    runStart = i < kinds.length && kinds[i]?.type === 'heading' ? i : i + 1;
  }
  loneInitials(kinds);
  return kinds;
}

/** A capital letter marking an item ("B. ", "(C) "), the letter its group. */
const LETTER_MARK = /^\(?([A-Z])[.)] $/;
/** Letters that are roman figures too ("I.", "V."): an outline's marks, left as they are. */
const ROMAN = /[IVXLC]/;
/** Lines either way a lettered item's neighbour in its sequence may stand (a clause may run on for a page). */
const LETTER_REACH = 60;

/**
 * A capital letter and a dot opening a line marks an item where the lettered item before it or
 * after it carries the letter before or after it ("A. Scope" over "B. Terms"); alone, it is a
 * name's initial ("J. Smith" under "Author:", a reference's first author), and the line is text.
 */
function loneInitials(kinds: Kind[]): void {
  const at: number[] = [];
  const letters: number[] = [];
  for (let k = 0; k < kinds.length; k++) {
    const letter = letterOf(kinds[k]);
    if (letter === null || ROMAN.test(letter)) continue;
    at.push(k);
    letters.push(letter.charCodeAt(0));
  }
  const near = (a: number, b: number): boolean =>
    b >= 0 &&
    b < at.length &&
    Math.abs((at[a] as number) - (at[b] as number)) <= LETTER_REACH &&
    Math.abs((letters[a] as number) - (letters[b] as number)) === 1;
  for (let n = 0; n < at.length; n++) if (!near(n, n - 1) && !near(n, n + 1)) kinds[at[n] as number] = TEXT_KIND;
}

function letterOf(kind: Kind | undefined): string | null {
  if (kind?.type !== 'item') return null;
  return LETTER_MARK.exec(kind.marker.keep)?.[1] ?? null;
}

const affiliation =
  /\b(?:Universit|Institut|College|Laborator|Department|Dept\.|School of|Faculty|Academy|Inc\.|Ltd\b|GmbH|Corporation|Research (?:Center|Centre|Lab))/i;
const nameWord = /^\p{Lu}[\p{L}'’.-]*[∗*†‡§¶\d]*$/u;

/** "Jane Doe∗, John Roe†, and Ann Poe": two or more short capitalised names and nothing else. */
function nameList(t: string): boolean {
  const parts = t
    .split(/,|\band\b|&/)
    .map((p) => p.trim())
    .filter(Boolean);
  // Title-case headings ("Row and Column Access Control") split on "and" too: names come with
  // commas or footnote marks, and each has a given and a family name.
  if (parts.length < 2 || !/[,∗†‡§¶]/.test(t)) return false;
  return parts.every((p) => {
    const words = p.split(/\s+/).filter((w) => !/^[∗*†‡§¶\d]+$/.test(w));
    return words.length >= 2 && words.length <= 4 && words.every((w) => nameWord.test(w));
  });
}

/** One author with the mark of a footnote about them ("Jane Doe∗", "김 창 호*"): a few words, no digits. */
const markedName = (t: string): boolean => /^[^\d∗*†‡]{2,40}[∗*†‡]$/u.test(t) && t.split(/\s+/).length <= 4;

/**
 * A paper's author and affiliation lines are set large, but they are no headings: below the title
 * and above the first running text, lines of names, institutions or e-mail addresses stay text.
 */
function demoteBylines(lines: Line[], kinds: Kind[], s: DocStats): void {
  let title = false;
  for (const [i, l] of lines.entries()) {
    const kind = kinds[i] as Kind;
    if (kind.type !== 'heading') {
      // Running text ends the front matter.
      if (l.text.length > 60 && Math.abs(l.size - s.bodySize) < 1) return;
      continue;
    }
    if (!title) {
      title = true;
      continue;
    }
    const t = l.text;
    if (t.includes('@') || affiliation.test(t) || nameList(t) || markedName(t)) kinds[i] = TEXT_KIND;
  }
}

const fieldLabel = (l: Line): boolean => {
  const first = l.spans[0];
  if (!first?.bold || l.bold) return false;
  // The line's opening in the first span's style, whichever faces it is set in (spans part where
  // the face changes).
  let label = '';
  for (const sp of l.spans) {
    if (sp.bold !== first.bold || sp.italic !== first.italic || sp.sup !== first.sup || sp.href !== first.href) break;
    label += sp.text;
  }
  return /^\S.{0,40}:\s*$/.test(label);
};

/**
 * Whether a paragraph's last two lines in its column (or its one line there after the first) are
 * set flush at `left`, the last ending a sentence.
 */
function endsFlush(para: Line[], shape: ParaShape): boolean {
  const last = para[para.length - 1] as Line;
  const before = para[para.length - 2] as Line;
  const flush = (l: Line) => l.x0 - shape.left < l.size * 0.3;
  return /[.!?。]$/.test(last.text) && flush(last) && (para.length - shape.from === 2 || flush(before));
}

/**
 * What `continues` measures of a paragraph, kept up as its lines are added rather than measured
 * again at each line (a paragraph of thousands of lines stays linear).
 */
interface ParaShape {
  /** Where the paragraph's part in the current column starts: after its last step up the page. */
  from: number;
  /** That part's left and right edges. */
  left: number;
  right: number;
  /** The paragraph's widest line. */
  widest: number;
}

const paraShape = (): ParaShape => ({ from: 0, left: Infinity, right: -Infinity, widest: -Infinity });

/** Adds `l` to the paragraph and its shape. */
function grow(para: Line[], shape: ParaShape, l: Line): void {
  const last = para[para.length - 1];
  // A line starting higher up than the one before it starts the paragraph's part in a new column.
  if (last && l.base - last.base <= -last.size * 0.3) {
    shape.from = para.length;
    shape.left = Infinity;
    shape.right = -Infinity;
  }
  para.push(l);
  shape.left = Math.min(shape.left, l.x0);
  shape.right = Math.max(shape.right, l.x1);
  shape.widest = Math.max(shape.widest, l.x1 - l.x0);
}

/** Whether a check box stands under `lines[i]`, at its indent `at` (`itemBelow`): a list going on. */
function boxesBelow(lines: readonly Line[], kinds: readonly Kind[], i: number, at: number): boolean {
  const k = itemBelow(lines, kinds, i, at);
  return k >= 0 && (kinds[k] as Kind).marker?.checked !== undefined;
}

/**
 * Where an item stands under `lines[i]` at its indent `at`, past the lines it wraps to (set in
 * further, opening no item): a list going on; -1 where none does.
 */
function itemBelow(lines: readonly Line[], kinds: readonly Kind[], i: number, at: number): number {
  const l = lines[i] as Line;
  let k = i + 1;
  while (lines[k] && kinds[k]?.type === 'text' && indentOf(lines[k] as Line) > at + 3) k++;
  const next = lines[k];
  const below =
    next !== undefined && kinds[k]?.type === 'item' && !onRow(l, next) && Math.abs(indentOf(next) - at) <= 3;
  return below ? k : -1;
}

/** A line opening with a number: a contents entry's page, a section's number. */
const numbered = /^\p{N}/u;

const tocEntry = /(?:\.\s?){4,}\s*(?:\d{1,4}|[ivxlc]{1,6})$/i;

/** Lines of a column looked at below its first one for its width: a bound, so a page stays linear. */
const COLUMN_PROBE = 6;

/**
 * The width of the column that `lines[at]` opens: its widest line among the first few that go on
 * below it at its left edge, at a line's pitch or across a paragraph's gap (three times the size:
 * a booklet's panel sets its paragraphs a line and a half apart, failure-after-repair p. 11, and a
 * short paragraph at a column's foot measured alone looked narrower than the next column). With
 * `step` -1, of the column that `lines[at]` ends, looking up from it.
 */
function columnWidth(lines: readonly Line[], at: number, step: 1 | -1 = 1): number {
  let last = lines[at] as Line;
  let width = last.x1 - last.x0;
  for (let k = at + step; k >= 0 && k < lines.length && Math.abs(k - at) <= COLUMN_PROBE; k += step) {
    const n = lines[k] as Line;
    const pitch = (n.base - last.base) * step;
    if (pitch <= 0 || pitch > last.size * 3 || Math.abs(n.x0 - last.x0) > last.size) break;
    width = Math.max(width, n.x1 - n.x0);
    last = n;
  }
  return width;
}

/**
 * Widest word gap of a justified line split in pieces, in sizes (DPR's caption stretches one to
 * 1.26, DA-619p p. 74 one to 1.55): past it the pieces are a form's label and value (18 pt after
 * the label at 10 pt, 1.8) or cells.
 */
const JUSTIFIED_GAP = 1.6;

/**
 * Whether the paragraph's last row of pieces is one justified line of it that `l` goes on from: a
 * line set full out to the edges of the whole lines above it, split only where justifying stretched
 * a word gap past a line's allowance ("tions (development set)." and "#N: number of negative" 12.6
 * pt apart at 10 pt, DPR's Table 3 caption), not ending a sentence, `l` under its start. A row of
 * a form or of a borderless table ends short of or past those edges, or leaves wider gaps.
 */
function justifiedRow(para: readonly Line[], shape: ParaShape, l: Line): boolean {
  const last = para[para.length - 1] as Line;
  let k = para.length - 1;
  while (k > shape.from && sameRow(para[k - 1] as Line, last)) k--;
  // The paragraph's edges come from whole lines of it above the row (alone on their baselines): a
  // form's rows above set their values flush to an edge of their own.
  let left = Number.POSITIVE_INFINITY;
  let right = Number.NEGATIVE_INFINITY;
  for (let j = k - 1; j >= Math.max(shape.from, k - COLUMN_PROBE); j--) {
    const line = para[j] as Line;
    const mate = (n: number) => n >= shape.from && n < k && sameRow(para[n] as Line, line);
    if (mate(j - 1) || mate(j + 1)) continue;
    left = Math.min(left, line.x0);
    right = Math.max(right, line.x1);
  }
  if (right < left) return false;
  const first = para[k] as Line;
  for (let j = k + 1; j < para.length; j++) {
    const a = para[j - 1] as Line;
    const b = para[j] as Line;
    if (b.x0 - a.x1 > JUSTIFIED_GAP * last.size || b.x0 < a.x1) return false;
  }
  const edge = last.size;
  return (
    Math.abs(first.x0 - left) < edge * 0.3 &&
    Math.abs(right - last.x1) < edge &&
    !ENDS_SENTENCE.test(last.text) &&
    Math.abs(l.x0 - first.x0) < edge * 0.3
  );
}

/**
 * Whether `lines[at]` goes on with the paragraph `para` (whose last line is `prev`, the line above
 * that `above`).
 */
function continues(
  para: Line[],
  shape: ParaShape,
  prev: Line,
  lines: readonly Line[],
  at: number,
  above: Line | null,
  leading: Map<number, number>,
): boolean {
  const l = lines[at] as Line;
  if (!sizesMatch(prev, l)) return false;
  const pitch = l.base - prev.base;
  // A fragment beside the previous one on its baseline (cells of a borderless row read in order)
  // belongs with it, not with the row below.
  if (Math.abs(pitch) < prev.size * 0.3 && l.x0 > prev.x1) return true;
  const before = para.length > 1 ? prev.base - (para[para.length - 2] as Line).base : 0;
  // After such a row of separate cells, the next baseline is the next row, unless the row is a
  // justified line whose word gaps came out wide enough to split it.
  if (para.length > 1 && Math.abs(before) < prev.size * 0.3 && !justifiedRow(para, shape, l)) return false;
  // A line ending in a check box ends its paragraph: the box is its answer ("I have read the
  // conditions above ☐"), the line below no more of its sentence, unless it goes on in a small
  // letter and holds no box of its own (the next entry: "by e-mail ☐" over "by post ☒").
  if (ENDS_IN_BOX.test(prev.text) && (!readsOn(prev.text, l.text) || HAS_BOX.test(l.text))) return false;
  // Column change: the next line starts higher up, beside the previous column. A paragraph runs on
  // from one column of text into the next, as wide: a side menu's entries beside the prose are a
  // layout column of their own, whatever letter the last one ends in, even one nearly as wide.
  // A paragraph whose part at a column's foot is one short line runs on where its column is as
  // wide as the next and the next column's line goes on with its sentence in a small letter.
  // Numbered entries (a contents list's) start afresh at the top of the next column.
  if (pitch <= 0) {
    if (!(l.x0 > prev.x1 && /[\p{Ll},-]$/u.test(prev.text))) return false;
    if (numbered.test((para[0] as Line).text) && numbered.test(l.text)) return false;
    const next = columnWidth(lines, at) * 0.9;
    return shape.widest >= next || (STARTS_LOWER.test(l.text) && columnWidth(lines, at - 1, -1) >= next);
  }
  // A form's value, beside its label on its row, is no paragraph's start: a line below it and clear
  // of it is the next field's label, across the gap.
  if (above && besideOnRow(above, prev) && (l.x0 > prev.x1 || l.x1 < prev.x0)) return false;
  // A paragraph's first pitch is judged by the page's measured leading where it is wider than usual.
  const usual = before > prev.size * 0.3 ? before : Math.max(prev.size * 1.25, leadingOf(leading, prev.size) ?? 0);
  if (pitch > Math.max(usual * 1.35, prev.size * 1.5)) return false;
  // Edges of the paragraph's part in this column: a paragraph run on from the column before has
  // its other lines there, and measured with them, this column's second line looks set in.
  const { left, right } = shape;
  const inColumn = para.length - shape.from;
  // A contents entry ends at its page number, after a leader of dots.
  if (tocEntry.test(prev.text)) return false;
  // Lines that each open with a bold "Label:" are a list of fields, not one paragraph.
  if (fieldLabel(prev) && fieldLabel(l)) return false;
  // A short line ending a sentence closes the paragraph.
  // (Right to left, a line falls short at its left end.)
  const short = prev.rtl ? prev.x0 > left + prev.size * 4 : prev.x1 < right - prev.size * 4;
  if (para.length > 1 && short && /[.!?:。]$/.test(prev.text)) return false;
  // A line all in bold, no sentence itself and short of its column's width, after a sentence's
  // end in plain type is the next entry's term: a glossary set term over definition, entry under
  // entry at one pitch ("… nipple of the breast." over "aromatase inhibitors"), whose definitions'
  // last lines are not all short. A sentence set in bold ("Never immerse the base in water.",
  // or its first line, as wide as the column) goes on in its paragraph.
  if (
    l.bold &&
    !prev.bold &&
    LETTER.test(l.text) &&
    !/[.!?]$/.test(l.text) &&
    l.x1 - l.x0 < columnWidth(lines, at) - l.size &&
    /[.!?]$/.test(prev.text)
  )
    return false;
  // First-line indent of a new paragraph. An indent of one character (Korean and Japanese set
  // one) counts after a sentence's end, under lines set flush (not under a hanging indent, where
  // the lines of a reference or an item after its first are set in by about as much).
  const indent = l.x0 - left;
  if (
    para.length > 1 &&
    !prev.rtl &&
    (indent > prev.size * 1.2 || (indent > prev.size * 0.8 && inColumn > 1 && endsFlush(para, shape)))
  )
    return false;
  // A question or a lead-in alone on its line over a line set in under it is what that line answers
  // or lists ("How would you like us to contact you?" over "by e-mail ☐"), not its sentence going on.
  if (para.length === 1 && !prev.rtl && indent > prev.size * 1.2 && /[?:]$/.test(prev.text)) return false;
  // Numbered entries set with a hanging indent: under an entry's first line the rest is set in
  // ("8 Chairman and Managing" over "Director's Statement"); a numbered line back at the first
  // line's edge starts the next entry. (Prose indents a paragraph's first line, not its others.)
  const first = para[0] as Line;
  if (
    para.length > 1 &&
    !prev.rtl &&
    prev.x0 > first.x0 + prev.size &&
    Math.abs(l.x0 - first.x0) < prev.size * 0.3 &&
    numbered.test(first.text) &&
    numbered.test(l.text)
  )
    return false;
  return true;
}

/**
 * Where a line starts, measured inwards from the side it is read from: its left edge, or for a
 * right-to-left line its right edge mirrored. List items nest by it, so right-to-left notes set
 * flush right ("(1) …" over a shorter "(2) …") are one flat list, not the shorter one nested.
 */
const indentOf = (l: Line): number => (l.rtl ? -l.x1 : l.x0);

/**
 * Whether a line set back at its item's marker goes on with the item: notes set flush ("(2) d
 * represents the accuracy calculated through the formula for the" over "determination of the
 * sample's size.") wrap to the marker's edge, not under the text. Only a sentence going on does:
 * the line above ends in no stop, and this one opens in a small letter; or the line above ends
 * in a small letter and this one opens with a share or a decimal that a small word follows
 * ("… an increase in yield of" over "22.4% and 11.5%, respectively."). A year or a count ("2024
 * saw", "3 members") may open a sentence of its own, and stays apart.
 */
const runsOnFlush = (prev: Line, l: Line, x: number): boolean =>
  Math.abs(indentOf(l) - x) <= 2 &&
  (readsOn(prev.text, l.text) || (ENDS_LOWER.test(prev.text) && FIGURE_GOES_ON.test(l.text)));

/**
 * Whether a line set left of its item's marker goes on with the item: a numbered paragraph whose
 * lines wrap back to the column's edge ("7) If x and y are objects, then … In" over "words: the
 * meaning of an FFP application …", backus p. 21). The line above runs to this one's right edge,
 * its sentence going on into this one, which opens in a small letter at most three sizes left of
 * the marker. The item's later lines stand where this one does, each under a full line
 * (`fullLine`): the paragraph after the item opens indented, or under the item's short last line.
 */
const wrapsBack = (prev: Line, l: Line, x: number): boolean =>
  l.x0 < x - 2 && x - l.x0 <= 3 * l.size && prev.x1 >= l.x1 - l.size && readsOn(prev.text, l.text);

/** Whether a line runs to the right edge of the lines it is set among, as a paragraph's inner lines do. */
const fullLine = (l: Line, among: readonly Line[]): boolean => l.x1 >= Math.max(...among.map((m) => m.x1)) - l.size;

/** A share or a decimal and then a word in small letters: the middle of a sentence. */
const FIGURE_GOES_ON = /^(?:\d+(?:[.,]\d+)+%?|\d+%)\s+\p{Ll}/u;

/** Whether two lines stand apart on one baseline: a form's label and its value. */
const besideOnRow = (a: Line, b: Line): boolean => sameRow(a, b) && (b.x0 > a.x1 || b.x1 < a.x0);

/** A table or image placed in a page's flow: where it sits, and where it goes among the blocks. */
interface Float {
  y: number;
  y1: number;
  x0: number;
  x1: number;
  block: Block;
  at: number;
}

/**
 * Index of the first block that starts below the float in its own column (`end` when none does),
 * or of the side heads ahead of it: blocks beside the float's column that start on that block's
 * row, under the float (a manual's margin head read before the section it opens, whose first
 * paragraph is that block). The section follows the float: the head goes after it too.
 */
function placeOf(blocks: Block[], f: Float, end: number): number {
  for (let i = 0; i < end; i++) {
    const bb = (blocks[i] as Block).source?.bbox;
    if (!bb || bb[1] < f.y - 1 || bb[0] >= f.x1 || bb[2] <= f.x0) continue;
    let at = i;
    for (; at > 0; at--) {
      const head = (blocks[at - 1] as Block).source?.bbox;
      if (!head || Math.abs(head[1] - bb[1]) > ROW_SLACK || head[1] < f.y1 || (head[0] < f.x1 && head[2] > f.x0)) break;
    }
    return at;
  }
  return end;
}

/** Points two blocks' tops may differ by on one row (a bold head's box over its plain paragraph's). */
const ROW_SLACK = 3;

/**
 * Tables set side by side read left to right, though the right one starts a little higher, and
 * where one has nothing below it in its own column it goes with its neighbour. Each such table
 * takes the row's top as its `y` for the order.
 */
function sideBySide(tables: Float[], end: number): void {
  const sorted = [...tables].sort((a, b) => a.y - b.y || a.x0 - b.x0);
  for (let k = 0; k < sorted.length; ) {
    const row = [sorted[k] as Float];
    let j = k + 1;
    for (; j < sorted.length; j++) {
      const f = sorted[j] as Float;
      if (!row.every((g) => f.y < g.y1 && (f.x0 >= g.x1 || f.x1 <= g.x0))) break;
      row.push(f);
    }
    k = j;
    if (row.length < 2) continue;
    const top = (row[0] as Float).y;
    let least = end;
    for (const f of row) least = Math.min(least, f.at);
    for (const f of row) {
      f.y = top;
      if (f.at === end) f.at = least;
    }
  }
}

/** Decides the hyphens a table's cells left open (`OPEN_HYPHEN`) with the document's words. */
function settleCells(node: Node, vocab: (() => Vocabulary) | undefined): void {
  if (node.type === 'text') {
    if (node.value.includes(OPEN_HYPHEN))
      node.value = vocab ? settleHyphens(node.value, vocab) : node.value.replaceAll(OPEN_HYPHEN, '-');
    return;
  }
  for (const kid of childrenOf(node)) settleCells(kid, vocab);
}

/** Puts tables and images where they sit in the flow: before the first block that starts below them. */
function insertFloats(blocks: Block[], page: LaidOutPage, vocab: (() => Vocabulary) | undefined): void {
  const floats: Float[] = [];
  const end = blocks.length;
  for (const t of page.tables) {
    t.table.source = { page: page.number, bbox: t.bbox };
    if (t.openHyphens) settleCells(t.table, vocab);
    floats.push({ y: t.bbox[1], y1: t.bbox[3], x0: t.bbox[0], x1: t.bbox[2], block: t.table, at: end });
  }
  const tables = floats.length;
  for (const r of page.images) {
    // A literal like bboxOf's, not map (packed from the builtin, holey from an optimized caller).
    const bbox: BBox = [round2(r.x0), round2(r.y0), round2(r.x1), round2(r.y1)];
    const img = image('Image', { ref: `page-${page.number}-image-${floats.length + 1}` });
    img.source = { page: page.number, bbox };
    floats.push({ y: r.y0, y1: r.y1, x0: r.x0, x1: r.x1, block: img, at: end });
  }
  if (!floats.length) return;
  for (const f of floats) f.at = placeOf(blocks, f, end);
  sideBySide(floats.slice(0, tables), end);
  // From the last place back, so earlier places keep their indices; floats at one place top down.
  floats.sort((a, b) => b.at - a.at || b.y - a.y || b.x0 - a.x0);
  for (const f of floats) blocks.splice(f.at, 0, f.block);
}
