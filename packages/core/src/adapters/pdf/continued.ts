import { unionBox } from '../../tree/boxes.ts';
import { list } from '../../tree/build.ts';
import { type ContinuedOn, joinCode, markContinued } from '../../tree/continued.ts';
import type {
  BBox,
  Block,
  Blockquote,
  Code,
  Inline,
  List,
  ListItem,
  Paragraph,
  Section,
  Table,
  TableRow,
  Text,
} from '../../tree/types.ts';
import { blockText, inlineText } from '../../tree/walk.ts';
import { append, median } from '../../util/arrays.ts';
import { readsOn, THREE_WORDS } from '../../util/letters.ts';
import { normTitle } from './blocks.ts';
import { lastChars, lineSeam, type Vocabulary } from './hyphens.ts';
import { FULL_LINE, type Line, sizesMatch } from './lines.ts';
import { bullet, enumerator } from './markers.ts';

const rowKey = (row: TableRow | undefined): string =>
  (row?.children ?? []).map((c) => `${c.colSpan ?? 1}:${blockText(c).trim().toLowerCase()}`).join('|');

const width = (row: TableRow | undefined): number => (row?.children ?? []).reduce((n, c) => n + (c.colSpan ?? 1), 0);

/**
 * A table that ends one page and starts the next with the same header row is one table broken by
 * the page: the continuation's rows (its repeated header dropped) join the first part, so readers
 * and the Markdown get one table. So does a lone ruled row of as many columns with no header.
 */
export function joinContinuedTables(pages: Block[]): void {
  for (let p = 0; p + 1 < pages.length; p++) {
    const here = pages[p] as Section;
    const next = pages[p + 1] as Section;
    if (here.type !== 'section' || next.type !== 'section') continue;
    const last = here.children[here.children.length - 1];
    const first = next.children[0];
    if (last?.type !== 'table' || first?.type !== 'table') continue;
    const a = last as Table;
    const b = first as Table;
    const header = a.children[0];
    if (!header || width(header) !== width(b.children[0])) continue;
    // A lone row of no headings at the top of the page (`loneRow`) is the table's last row.
    if (b.children.length === 1 && b.children[0]?.children.every((c) => !c.header)) {
      if (b.source) for (const row of b.children) row.source ??= b.source;
      append(a.children, b.children);
      next.children.shift();
      continue;
    }
    if (rowKey(header) !== rowKey(b.children[0])) continue;
    // Rows spanning into the repeated header would lose their anchor; such tables stay apart.
    if (b.children[0]?.children.some((c) => (c.rowSpan ?? 1) > 1)) continue;
    const moved = b.children.slice(1);
    // Each row keeps where it was printed, for provenance (chunks, `data.blocks`).
    if (b.source) for (const row of moved) row.source ??= b.source;
    append(a.children, moved);
    next.children.shift();
  }
}

/**
 * How far down its page a block broken by the page's end (a paragraph, a quote, a list) reaches, and
 * how near the top the next page's part starts, in page heights: a block ending mid-page is not cut
 * by the page break.
 */
const BOTTOM_HALF = 0.5;

/** The kind of a paragraph's first (`at` 0) or last (`at` -1) inline that is not blank. */
function edgeStyle(p: Paragraph, at: 0 | -1): string | undefined {
  const n = p.children.length;
  for (let k = 0; k < n; k++) {
    const node = p.children[at === 0 ? k : n - 1 - k] as Inline;
    if (node.type !== 'text' || node.value.trim() !== '') return node.type;
  }
  return undefined;
}

/** The text node a list of inlines starts (`at` 0) or ends (`at` -1) with, inside its emphasis or link. */
function edgeText(nodes: readonly Inline[], at: 0 | -1): Text | undefined {
  const node = nodes[at === 0 ? 0 : nodes.length - 1];
  if (!node) return undefined;
  if (node.type === 'text') return node;
  return 'children' in node ? edgeText(node.children, at) : undefined;
}

/** Whether a box lies in the given half of a page `height` high (`low`: the lower half). */
export function inHalf(box: BBox | undefined, height: number | undefined, low: boolean): boolean {
  if (!box || !height) return false;
  return low ? box[3] >= height * BOTTOM_HALF : box[1] <= height * (1 - BOTTOM_HALF);
}

/**
 * The line a paragraph's box starts (`first`) or ends with on its page: the first (last) of the
 * page's lines in reading order inside the box. A paragraph run from one column into the next ends
 * in the second column, however low the first one reaches.
 */
function edgeLine(lines: readonly Line[], box: BBox, first: boolean): Line | undefined {
  const n = lines.length;
  for (let k = 0; k < n; k++) {
    const l = lines[first ? k : n - 1 - k] as Line;
    const b = l.onPage ?? l;
    const x = (b.x0 + b.x1) / 2;
    const y = (b.y0 + b.y1) / 2;
    if (x >= box[0] - 1 && x <= box[2] + 1 && y >= box[1] - 1 && y <= box[3] + 1) return l;
  }
  return undefined;
}

/** A paragraph's part at the foot of a page: the paragraph, and the part printed there. */
interface Tail {
  para: Paragraph;
  part: Paragraph;
}

/** What joining paragraphs over pages needs of each page: its lines, and whether a stage reads it again. */
export interface PageText {
  lines: readonly Line[];
  /** The page's last quoted lines go on in those the next page opens with (`markQuotesOverBreaks`). */
  quoteGoesOn?: boolean;
  /** No later stage reads the page again (OCR replaces a page's blocks). */
  settled: boolean;
}

/** A page break a block may be joined over: the pages either side of it, and their text. */
interface Break {
  here: Section;
  next: Section;
  before: PageText;
  after: PageText;
}

/**
 * Joins blocks over page breaks. At each break between two settled pages, one after the other, the
 * block the page before ends with (as `open` reads it; or what was carried over a page joined
 * whole) and the block the next page opens with go to `join`; where it joins them, the blocks it
 * took (`taken`, from the top) leave the next page, and where they were all of it, `carry` goes on
 * to the next break as the page's end.
 */
function joinOverBreaks<T>(
  pages: Block[],
  text: readonly PageText[],
  open: (b: Block) => T | undefined,
  join: (tail: T, first: Block, at: Break) => { carry: T; taken: number } | undefined,
): void {
  let carried: T | undefined;
  for (let p = 0; p + 1 < pages.length; p++) {
    const here = pages[p] as Section;
    const next = pages[p + 1] as Section;
    const before = text[p];
    const after = text[p + 1];
    const own = here.type === 'section' ? here.children[here.children.length - 1] : undefined;
    const tail = own ? open(own) : carried;
    carried = undefined;
    if (!tail || here.type !== 'section' || next.type !== 'section' || next.number !== here.number + 1) continue;
    const first = next.children[0];
    if (!first || !before?.settled || !after?.settled) continue;
    const joined = join(tail, first, { here, next, before, after });
    if (!joined) continue;
    next.children.splice(0, joined.taken);
    if (!next.children.length) carried = joined.carry;
  }
}

/**
 * A paragraph the page's end cuts mid-sentence goes on as the next page's first paragraph: its last
 * line spans its width and ends with no full stop, colon or semicolon in the lower half of the
 * page, and the next page opens in the upper half, in the same size and style, with a line in
 * lower case ("…protocols should be" / "reviewed to prevent …"). The two are one paragraph, so
 * readers, chunks and the Markdown get the sentence whole; the first inline printed on the later
 * page carries that page and box (`CONTINUED_ON`) for provenance. A paragraph filling a page goes
 * on over the next. Only `settled` pages are joined; per-page output asks for text where it was
 * printed, so callers skip this there.
 */
export function joinContinuedParagraphs(
  pages: Block[],
  text: readonly PageText[],
  vocab: (() => Vocabulary) | undefined,
): void {
  joinOverBreaks<Tail>(
    pages,
    text,
    (b) => (b.type === 'paragraph' ? { para: b, part: b } : undefined),
    (tail, first, at) =>
      first.type === 'paragraph' && readsOnInto(tail.para, tail.part, first, at, vocab)
        ? { carry: { para: tail.para, part: first }, taken: 1 }
        : undefined,
  );
}

/** Most blocks set into a paragraph's column between two of its lines (a pull quote, a caption). */
const MAX_SET_IN = 2;
/** Least space, in the text's sizes, over and under what is set into a paragraph. */
const SET_APART = 0.5;
/** A section's number or name opening a heading ("2 Methods", "3.1 Flow", "Appendix B"): no pull quote. */
const SECTION_NUMBER = /^(?:\d+(?:\.\d+)*\.?|[IVXLC]+\.|[A-Z]\.|§+)\s+\S|^(?:chapter|section|part|appendix)\b/i;
/** A caption's label: small type set into a paragraph that is no caption is a quote or a note. */
const CAPTION = /^(?:fig(?:ure)?|table|plate|photo(?:graph)?|image|illustration|chart|map|exhibit|source)\b/i;
/** A relation or operator of a formula set between a sentence's parts: part of the sentence. */
const FORMULA = /[=<>≤≥≈≠±×÷∑∏∫√∞]/;
/** A word opening in lower case with a capital in it ("pH", "iOS", "eBay"): a name, not a sentence going on. */
const MIXED_CASE_START = /^\p{Ll}+\p{Lu}/u;

/**
 * A paragraph a pull quote or a figure's caption cuts mid-sentence on its page ("…The children" /
 * "Nobody could remember a winter" in a larger face / "skated on the pond…") is one paragraph, the
 * blocks set into it read after it: the line before them spans the paragraph's width and ends with
 * no full stop, colon or semicolon, the line after them goes on in lower case at the paragraph's
 * edge in its size and style, and what stands between (one or two headings, paragraphs in another
 * size, images) lies between the two in the paragraph's column, half a size clear of the lines over
 * and under it at least (`setInto` names what is no pull quote). A heading so set into a sentence
 * heads no section: it reads as a paragraph. Read as they stood, the sentence was cut in two around
 * the pull quote, which read as a section's heading.
 */
export function joinSetInParagraphs(
  pages: Block[],
  text: readonly PageText[],
  vocab: (() => Vocabulary) | undefined,
  outline: ReadonlyMap<string, number> = new Map(),
): void {
  for (const [p, page] of pages.entries()) {
    const lines = text[p]?.settled ? text[p]?.lines : undefined;
    if (page.type !== 'section' || !lines?.length) continue;
    const kids = page.children;
    for (let k = 0; k + 2 < kids.length; k++) {
      const para = kids[k] as Block;
      if (para.type !== 'paragraph') continue;
      for (let n = 1; n <= MAX_SET_IN && k + n + 1 < kids.length; n++) {
        const next = kids[k + n + 1] as Block;
        const between = kids.slice(k + 1, k + n + 1);
        if (next.type !== 'paragraph' || !setInto(para, between, next, lines, outline)) continue;
        joinParagraph(para, next, page, vocab);
        kids.splice(k + n + 1, 1);
        for (const [i, b] of between.entries()) {
          if (b.type !== 'heading') continue;
          const { depth: _, ...rest } = b;
          kids[k + 1 + i] = { ...rest, type: 'paragraph' };
        }
        break;
      }
    }
  }
}

/**
 * Whether `between` is set into `para`'s column, its sentence going on in `next`
 * (`joinSetInParagraphs`): not where a heading between is a section's, a block holds a formula
 * (part of the sentence), small type is no caption (a quote the sentence runs through), or the
 * next paragraph opens with a name in mixed case ("pH") rather than the sentence going on.
 */
function setInto(
  para: Paragraph,
  between: readonly Block[],
  next: Paragraph,
  lines: readonly Line[],
  outline: ReadonlyMap<string, number>,
): boolean {
  const box = para.source?.bbox;
  const nextBox = next.source?.bbox;
  if (!box || !nextBox || !next.children.length || nextBox[1] < box[3]) return false;
  if (MIXED_CASE_START.test(inlineText(next.children).trimStart())) return false;
  const last = sentenceGoesOn(para, next, lines, lines);
  if (!last || Math.abs(nextBox[0] - box[0]) > last.size) return false;
  // What is set in stands apart from the text above and under it (a line of the paragraph that
  // reads in another size, a fraction's, stands at the lines' pitch).
  const apart = SET_APART * last.size;
  for (const [i, b] of between.entries()) {
    const bb = b.source?.bbox;
    if (!bb || bb[0] < box[0] - last.size || bb[2] > box[2] + last.size) return false;
    if ((i === 0 && bb[1] - box[3] < apart) || (i === between.length - 1 && nextBox[1] - bb[3] < apart)) return false;
    if (b.type === 'image') continue;
    if (b.type !== 'heading' && b.type !== 'paragraph') return false;
    const said = blockText(b).trim();
    // A formula set between a sentence's parts ("given by" / "E = mgh" / "where m is") belongs there.
    if (FORMULA.test(said)) return false;
    if (b.type === 'heading') {
      // A section's heading (numbered, in the document's outline, or flush with the column's edge)
      // opens a section, however the paragraph before it ends.
      if (SECTION_NUMBER.test(said) || outline.has(normTitle(said))) return false;
      if (Math.abs(bb[0] - box[0]) < last.size / 2) return false;
      continue;
    }
    const first = edgeLine(lines, bb, true);
    if (!first || sizesMatch(first, last)) return false;
    // Small type set in is a caption (by its label, or under an image); a quote or note so set reads in place.
    if (first.size < last.size && !CAPTION.test(said) && !between.some((o) => o.type === 'image')) return false;
  }
  // Two headings one over the other at two depths are a section's and its subsection's.
  const depths = new Set(between.flatMap((b) => (b.type === 'heading' ? [b.depth] : [])));
  return depths.size <= 1;
}

/**
 * A quote the page's end cuts (an e-mail's quoted message printed over two pages) goes on as the
 * quote the next page opens with: one quote, as it was written. A quote within it the break cuts
 * too is joined the same way, and a paragraph of it as a page's paragraph is (`joins`), so the
 * quoted sentence reads whole; each block keeps the page it was printed on, for provenance.
 */
export function joinContinuedQuotes(
  pages: Block[],
  text: readonly PageText[],
  vocab: (() => Vocabulary) | undefined,
): void {
  // A quote carried over a page it filled: the quote, and its part as printed there.
  joinOverBreaks<{ quote: Blockquote; part: Blockquote }>(
    pages,
    text,
    (b) => (b.type === 'blockquote' ? { quote: b, part: b } : undefined),
    (tail, first, at) => {
      if (first.type !== 'blockquote' || !at.before.quoteGoesOn) return undefined;
      joinQuote(tail.quote, tail.part, first, at, vocab);
      return { carry: { quote: tail.quote, part: first }, taken: 1 };
    },
  );
}

/**
 * A list the page's end cuts goes on in the blocks the next page opens with: the sentence its last
 * item was cut in, going on in a paragraph at the item's text, reads on as a page's paragraph does
 * (`readsOnInto`), and a quote it ends with goes on in the quote there (`joinQuote`); lists at a level's markers, of its kind and numbered on, join that level (the
 * list, or a list its last item ends with), and a list of the other kind set in past the last
 * level's markers opens a level in its last item (`putOnLevel`). The list reaches down to where
 * the document's pages end their text, and the next page's part opens where they begin it
 * (`endsText`). So a list over pages is one list, its items whole; the items printed on a later
 * page carry that page and the box of its part (`listParts`).
 */
export function joinContinuedLists(
  pages: Block[],
  text: readonly PageText[],
  frame: TextFrame,
  vocab: (() => Vocabulary) | undefined,
): void {
  joinOverBreaks<ListTail>(
    pages,
    text,
    (b) => (b.type === 'list' && b.source?.bbox ? listTail(b, b.source.bbox, b) : undefined),
    (tail, first, at) => {
      const opens = first.source?.bbox;
      if (!opens) return undefined;
      // Two short pages set the frame where their text stops: a list ending in a page's upper
      // half, or the next page's part opening in its lower half, is no list the break cut.
      if (!inHalf(tail.box, at.here.height, true) || !inHalf(opens, at.next.height, false)) return undefined;
      if (!endsText(tail.box, at.before.lines, frame, true) || !endsText(opens, at.after.lines, frame, false))
        return undefined;
      const kids = at.next.children;
      let taken = 0;
      let box = opens;
      let last: ListTail | undefined;
      const own = lastItem(tail.list).children.at(-1);
      if (first.type === 'paragraph') {
        if (own?.type !== 'paragraph' || tail.printed?.type !== 'paragraph') return undefined;
        const x = itemTextX(tail.printed, at.before.lines);
        if (x === undefined || Math.abs(opens[0] - x) > TEXT_SLACK) return undefined;
        if (!readsOnInto(own, tail.printed, first, at, vocab)) return undefined;
        taken = 1;
        last = { list: tail.list, box, printed: first };
      } else if (first.type === 'blockquote') {
        // The quoted lines under a point ("1. Ann asked:" over "> Could you …") a page break cuts.
        if (own?.type !== 'blockquote' || tail.printed?.type !== 'blockquote' || !at.before.quoteGoesOn)
          return undefined;
        joinQuote(own, tail.printed, first, at, vocab);
        taken = 1;
        last = { list: tail.list, box, printed: first };
      } else if (first.type === 'code') {
        // A listing under a step ("1. Install it:" over its commands) the break cuts: the next
        // page's code goes on in the item's where it stands at the item's code or further in.
        const x = tail.printed?.type === 'code' ? tail.printed.source?.bbox?.[0] : undefined;
        if (own?.type !== 'code' || x === undefined || opens[0] < x - TEXT_SLACK) return undefined;
        joinCode(own, first, { page: at.next.number, bbox: opens });
        taken = 1;
        last = { list: tail.list, box, printed: first };
      }
      const items: ListItem[] = [];
      for (; taken < kids.length; taken++) {
        const b = kids[taken] as Block;
        if (b.type !== 'list' || !b.source?.bbox || !putOnLevel(tail.list, b)) break;
        append(items, b.children);
        box = unionBox(box, b.source.bbox);
        last = listTail(tail.list, box, b);
      }
      if (!last) return undefined;
      // A part's box is all the page holds of the list: its items' chunks are placed by it.
      for (const item of items) item.source = { page: at.next.number, bbox: box };
      if (taken > 1 && first.type === 'paragraph') {
        const mark = first.children[0] as Inline;
        markContinued(mark, { page: at.next.number, bbox: box });
      }
      return { carry: { ...last, box }, taken };
    },
  );
}

/**
 * A list's part at the foot of a page: the list, the box of what the page holds of it, and the
 * paragraph, quote or code its last item ends with as printed there.
 */
interface ListTail {
  list: List;
  box: BBox;
  printed: Paragraph | Blockquote | Code | undefined;
}

/** The tail of `lst` whose part printed last on its page is `part` (a list of it), in `box`. */
function listTail(lst: List, box: BBox, part: List): ListTail {
  const p = lastItem(part).children.at(-1);
  return {
    list: lst,
    box,
    printed: p?.type === 'paragraph' || p?.type === 'blockquote' || p?.type === 'code' ? p : undefined,
  };
}

/** Points an item's text going on over a page may stand from where its text stands. */
const TEXT_SLACK = 4;

/**
 * Where the text of a paragraph's lines stands on its page (`lines`): an item's, past its marker.
 * Its second line's edge where it has one; else its first line's, past the marker by the share of
 * the line's width the marker's characters take.
 */
function itemTextX(para: Paragraph, lines: readonly Line[]): number | undefined {
  const box = para.source?.bbox;
  if (!box) return undefined;
  const first = edgeLine(lines, box, true);
  if (!first) return undefined;
  const at = first.onPage ?? first;
  const marker = (bullet.exec(first.text) ?? enumerator.exec(first.text))?.[0].length ?? 0;
  if (!marker) return at.x0;
  const second = lines[lines.indexOf(first) + 1];
  const below = second?.onPage ?? second;
  if (below && below.y0 >= at.y1 - 1 && below.y1 <= box[3] + 1 && below.x0 >= box[0] - 1) return below.x0;
  return at.x0 + ((at.x1 - at.x0) * marker) / Math.max(1, first.text.length);
}

/** The last item of a list, or of the list its last item ends with, and so on down. */
function lastItem(lst: List): ListItem {
  let item = lst.children[lst.children.length - 1] as ListItem;
  for (let inner = item.children.at(-1); inner?.type === 'list'; inner = item.children.at(-1))
    item = inner.children[inner.children.length - 1] as ListItem;
  return item;
}

/**
 * Puts `next`, a list the next page opens with, on the level of `lst` it goes on (it, or a list
 * its last item ends with, and so on down): the deepest whose markers stand where its own do, of
 * its kind, numbered on from it where numbered (or, numbered on, wherever its markers stand; or,
 * bulleted, set out past the list's own markers); or, set in past the deepest level's markers and
 * of the other kind, as a level of its own in that level's last item. Whether it went anywhere.
 */
function putOnLevel(lst: List, next: List): boolean {
  const x = next.source?.bbox?.[0];
  if (x === undefined) return false;
  let found: List | undefined;
  // A numbered level the list's numbers go on from, wherever its markers stand: a list going on
  // from a page's right column into the next page's left one.
  let numberedOn: List | undefined;
  let deepest: { level: List; at: number } | undefined;
  for (let level: List | undefined = lst; level; ) {
    const last: ListItem | undefined = level.children[level.children.length - 1];
    const at = last?.children[0]?.source?.bbox?.[0];
    if (at !== undefined) {
      deepest = { level, at };
      const goesOn = next.start === (level.start ?? 1) + level.children.length;
      if (level.ordered && next.ordered && goesOn) numberedOn = level;
      if (Math.abs(at - x) <= 2 && level.ordered === next.ordered && (!level.ordered || goesOn)) found = level;
    }
    const inner: Block | undefined = last?.children.at(-1);
    level = inner?.type === 'list' ? inner : undefined;
  }
  found ??= numberedOn;
  // A bulleted list set further out than the list's own level can be no level within it: the list
  // going on at the next page's left column (or its other margin).
  const top = lst.children[lst.children.length - 1]?.children[0]?.source?.bbox?.[0];
  if (!found && !lst.ordered && !next.ordered && top !== undefined && x < top - 2) found = lst;
  if (found) {
    append(found.children, next.children);
    return true;
  }
  // A level deeper than any the page before ended with: sub-items opening the page, told from a
  // list the page merely sets further in (a manual's next page) by their kind, as sub-items under
  // numbered steps are bulleted.
  if (!deepest || x <= deepest.at + NESTED || next.ordered === deepest.level.ordered) return false;
  const item = deepest.level.children[deepest.level.children.length - 1] as ListItem;
  item.children.push(list(next.ordered, next.children, next.start));
  return true;
}

/** Points past a level's markers a list stands at least to be a level within it (as `buildBlocks` nests). */
const NESTED = 3;

/**
 * Appends the blocks of `first` (the quote the next page opens with) to `quote`, whose part printed
 * on the page before is `part`: a quote or paragraph `first` opens with goes on the one `part`
 * ends with, where it reads on. `first` and `part` keep their blocks as printed.
 */
function joinQuote(
  quote: Blockquote,
  part: Blockquote,
  first: Blockquote,
  at: Break,
  vocab: (() => Vocabulary) | undefined,
): void {
  const last = quote.children[quote.children.length - 1];
  const lastPart = part.children[part.children.length - 1];
  const opening = first.children[0];
  let from = 0;
  if (last?.type === 'blockquote' && lastPart?.type === 'blockquote' && opening?.type === 'blockquote') {
    joinQuote(last, lastPart, opening, at, vocab);
    from = 1;
  } else if (
    last?.type === 'paragraph' &&
    lastPart?.type === 'paragraph' &&
    opening?.type === 'paragraph' &&
    readsOnInto(last, lastPart, opening, at, vocab)
  ) {
    from = 1;
  }
  append(quote.children, first.children.slice(from));
}

/**
 * Joins a code block the page's end cut to the code block the next page opens with: a listing
 * runs on over the page break as a paragraph does. The page's part reaches down to where the
 * document's pages end their text, and the next part opens its page where they begin it, within
 * two of the block's rows, with no line of the page beyond it: two listings, one ending mid-page
 * or with space left below it, stay apart. Each part keeps its own indentation (its rows counted
 * from its own left edge) and its page, for provenance (`linesOn`).
 */
export function joinContinuedCode(pages: Block[], text: readonly PageText[], frame: TextFrame): void {
  // A code block carried over a page it filled: the block, and its part's box there.
  joinOverBreaks<{ code: Code; box: BBox | undefined }>(
    pages,
    text,
    (b) => (b.type === 'code' ? { code: b, box: b.source?.bbox } : undefined),
    (tail, first, at) => {
      if (first.type !== 'code' || !tail.box || !first.source?.bbox) return undefined;
      if (
        !endsText(tail.box, at.before.lines, frame, true) ||
        !endsText(first.source.bbox, at.after.lines, frame, false)
      )
        return undefined;
      joinCode(tail.code, first, { page: at.next.number, bbox: first.source.bbox });
      return { carry: { code: tail.code, box: first.source.bbox }, taken: 1 };
    },
  );
}

/** Rows of a block's size that may stand between it and its page's last (or first) line of text. */
const EDGE_ROWS = 2;

/** Where the document's pages commonly begin and end their text. */
export interface TextFrame {
  top: number;
  bottom: number;
}

/** Where the document's pages commonly begin and end their text: the medians of their first and last lines' edges. */
export function textFrame(text: readonly { lines: readonly Line[] }[]): TextFrame {
  const tops: number[] = [];
  const bottoms: number[] = [];
  for (const t of text) {
    if (!t.lines.length) continue;
    let top = Infinity;
    let bottom = -Infinity;
    for (const l of t.lines) {
      const at = l.onPage ?? l;
      top = Math.min(top, at.y0);
      bottom = Math.max(bottom, at.y1);
    }
    tops.push(top);
    bottoms.push(bottom);
  }
  return { top: median(tops), bottom: median(bottoms) };
}

/**
 * Whether a block's box ends its page's text (`last`) or opens it: no line of the page further
 * down (up) than two of its rows, and the box within two rows of where the document's pages end
 * (begin) their text. Its rows' size is read from its own edge line.
 */
export function endsText(box: BBox, lines: readonly Line[], frame: TextFrame, last: boolean): boolean {
  const edge = edgeLine(lines, box, !last);
  if (!edge) return false;
  const reach = EDGE_ROWS * edge.size * 1.2;
  if (last ? box[3] < frame.bottom - reach : box[1] > frame.top + reach) return false;
  for (const l of lines) {
    const at = l.onPage ?? l;
    if (last ? at.y1 > box[3] + reach : at.y0 < box[1] - reach) return false;
  }
  return true;
}

/** Whether the page's last part `tail` reads on into `first`, the next page's first paragraph. */
function joins(tail: Tail, first: Paragraph, at: Break): boolean {
  const box = tail.part.source?.bbox;
  if (!box || !inHalf(box, at.here.height, true) || !inHalf(first.source?.bbox, at.next.height, false)) return false;
  return sentenceGoesOn(tail.part, first, at.before.lines, at.after.lines) !== undefined;
}

/**
 * The last line of `part` (its page's `before`) where its sentence goes on in `first` (on the page
 * of `after`), or undefined: the sentence reads on into `first`'s text, the two meet in one style,
 * the lines either side of the cut are set in one size, and `part`'s last line runs to its edge.
 * A page break and a block set into a paragraph (`setInto`) cut sentences alike.
 */
function sentenceGoesOn(
  part: Paragraph,
  first: Paragraph,
  before: readonly Line[],
  after: readonly Line[],
): Line | undefined {
  const box = part.source?.bbox;
  const firstBox = first.source?.bbox;
  if (!box) return undefined;
  const above = inlineText(part.children).trimEnd();
  // A lone label ("Glossary") is no paragraph the cut went through.
  if (!readsOn(above, inlineText(first.children).trimStart()) || !THREE_WORDS.test(above)) return undefined;
  // A term set in bold under a label ("Glossary" / "**locally advanced …**") is not a sentence going on.
  if (edgeStyle(part, -1) !== edgeStyle(first, 0)) return undefined;
  const last = edgeLine(before, box, false);
  const opening = firstBox ? edgeLine(after, firstBox, true) : undefined;
  // A footnote or a running line in small print is no part of the body's sentence.
  if (!last || !opening || !sizesMatch(last, opening)) return undefined;
  // Prose the cut goes through runs to its column's edge; a verse's line ends short.
  const edge = last.onPage ?? last;
  return edge.x1 - box[0] >= (box[2] - box[0]) * FULL_LINE ? last : undefined;
}

/**
 * Joins `first`, the paragraph the next page opens with, to `para`, whose part printed last on the
 * page before is `part`, where the sentence reads on over the break (`joins`); whether it did.
 */
function readsOnInto(
  para: Paragraph,
  part: Paragraph,
  first: Paragraph,
  at: Break,
  vocab: (() => Vocabulary) | undefined,
): boolean {
  if (!first.children.length || !joins({ para, part }, first, at)) return false;
  joinParagraph(para, first, at.next, vocab);
  return true;
}

/**
 * Appends the inlines of `first`, the paragraph the next page (`next`) opens with, to `para`, the
 * first of them carrying that page and box (`CONTINUED_ON`).
 */
function joinParagraph(para: Paragraph, first: Paragraph, next: Section, vocab: (() => Vocabulary) | undefined): void {
  const mark: ContinuedOn = { page: next.number };
  if (first.source?.bbox) mark.bbox = first.source.bbox;
  markContinued(first.children[0] as Inline, mark);
  seam(para, first, vocab);
  append(para.children, first.children);
}

/**
 * Joins the end of `para` to the start of `next` as a line's end runs on into the next line
 * (`lineSeam`): the page break is one more line end.
 */
function seam(para: Paragraph, next: Paragraph, vocab: (() => Vocabulary) | undefined): void {
  const end = edgeText(para.children, -1);
  const start = edgeText(next.children, 0);
  if (!end || !start) {
    para.children.push({ type: 'text', value: ' ' });
    return;
  }
  const text = end.value;
  const cut = lineSeam(lastChars(text), start.value, text, vocab, () => text.slice(0, -1));
  if (cut === 'join') end.value = text.slice(0, -1);
  else if (cut === ' ') para.children.push({ type: 'text', value: cut });
}
