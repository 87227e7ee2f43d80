import { type ContinuedOn, joinCode, markContinued } from '../../tree/continued.ts';
import type { BBox, Block, Code, Inline, Paragraph, Section, Table, TableRow, Text } from '../../tree/types.ts';
import { blockText, inlineText } from '../../tree/walk.ts';
import { append } from '../../util/arrays.ts';
import { readsOn, THREE_WORDS } from '../../util/letters.ts';
import { lastChars, lineSeam, type Vocabulary } from './hyphens.ts';
import { FULL_LINE, type Line, sizesMatch } from './lines.ts';

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
 * How far down its page a paragraph broken by the page's end reaches, and how near the top the next
 * page's part starts, in page heights: a paragraph ending mid-page is not cut by the page break.
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

/** Whether a box lies in the given half of its page (`low`: the lower half). */
function inHalf(box: BBox | undefined, page: Section, low: boolean): boolean {
  if (!box || !page.height) return false;
  return low ? box[3] >= page.height * BOTTOM_HALF : box[1] <= page.height * (1 - BOTTOM_HALF);
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
  lines: readonly Line[];
}

/** What joining paragraphs over pages needs of each page: its lines, and whether a stage reads it again. */
export interface PageText {
  lines: readonly Line[];
  /** No later stage reads the page again (OCR replaces a page's blocks). */
  settled: boolean;
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
  // The paragraph whose part filled the page before, when it took the page's every block.
  let carried: Tail | undefined;
  for (let p = 0; p + 1 < pages.length; p++) {
    const here = pages[p] as Section;
    const next = pages[p + 1] as Section;
    const own = here.type === 'section' ? here.children[here.children.length - 1] : undefined;
    const tail: Tail | undefined = own
      ? own.type === 'paragraph'
        ? { para: own, part: own, lines: text[p]?.lines ?? [] }
        : undefined
      : carried;
    carried = undefined;
    if (!tail || here.type !== 'section' || next.type !== 'section' || next.number !== here.number + 1) continue;
    if (!text[p]?.settled || !text[p + 1]?.settled) continue;
    const first = next.children[0];
    if (first?.type !== 'paragraph' || !first.children.length) continue;
    if (!joins(tail, here, first, next, text[p + 1]?.lines ?? [])) continue;
    const mark: ContinuedOn = { page: next.number };
    if (first.source?.bbox) mark.bbox = first.source.bbox;
    const opening = first.children[0] as Inline;
    markContinued(opening, mark);
    seam(tail.para, first, vocab);
    append(tail.para.children, first.children);
    next.children.shift();
    if (!next.children.length) carried = { para: tail.para, part: first, lines: text[p + 1]?.lines ?? [] };
  }
}

/**
 * Joins a code block the page's end cut to the code block the next page opens with: a listing
 * runs on over the page break as a paragraph does. The page's part reaches down to where the
 * document's pages end their text, and the next part opens its page where they begin it, within
 * two of the block's rows, with no line of the page beyond it: two listings, one ending mid-page
 * or with space left below it, stay apart. Each part keeps its own indentation (its rows counted
 * from its own left edge) and its page, for provenance (`linesOn`).
 */
export function joinContinuedCode(pages: Block[], text: readonly PageText[]): void {
  const frame = textFrame(text);
  // The code block whose part filled the page before, when it took the page's every block, and that part's box.
  let carried: { code: Code; box: BBox | undefined } | undefined;
  for (let p = 0; p + 1 < pages.length; p++) {
    const here = pages[p] as Section;
    const next = pages[p + 1] as Section;
    const own = here.type === 'section' ? here.children[here.children.length - 1] : undefined;
    const tail = own ? (own.type === 'code' ? { code: own, box: own.source?.bbox } : undefined) : carried;
    carried = undefined;
    if (!tail || here.type !== 'section' || next.type !== 'section' || next.number !== here.number + 1) continue;
    if (!text[p]?.settled || !text[p + 1]?.settled) continue;
    const first = next.children[0];
    if (first?.type !== 'code' || !tail.box || !first.source?.bbox) continue;
    if (
      !endsText(tail.box, text[p]?.lines ?? [], frame, true) ||
      !endsText(first.source.bbox, text[p + 1]?.lines ?? [], frame, false)
    )
      continue;
    const mark: ContinuedOn = { page: next.number, bbox: first.source.bbox };
    joinCode(tail.code, first, mark);
    next.children.shift();
    if (!next.children.length) carried = { code: tail.code, box: first.source.bbox };
  }
}

/** Rows of a code block's size that may stand between it and its page's last (or first) line of text. */
const CODE_EDGE_ROWS = 2;

/** Where the document's pages commonly begin and end their text: the medians of their first and last lines' edges. */
function textFrame(text: readonly PageText[]): { top: number; bottom: number } {
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
  const median = (v: number[]): number => v.sort((a, b) => a - b)[v.length >> 1] ?? 0;
  return { top: median(tops), bottom: median(bottoms) };
}

/**
 * Whether a block's box ends its page's text (`last`) or opens it: no line of the page further
 * down (up) than two of its rows, and the box within two rows of where the document's pages end
 * (begin) their text. Its rows' size is read from its own edge line.
 */
function endsText(box: BBox, lines: readonly Line[], frame: { top: number; bottom: number }, last: boolean): boolean {
  const edge = edgeLine(lines, box, !last);
  if (!edge) return false;
  const reach = CODE_EDGE_ROWS * edge.size * 1.2;
  if (last ? box[3] < frame.bottom - reach : box[1] > frame.top + reach) return false;
  for (const l of lines) {
    const at = l.onPage ?? l;
    if (last ? at.y1 > box[3] + reach : at.y0 < box[1] - reach) return false;
  }
  return true;
}

/** Whether the page's last part `tail` reads on into `first`, the next page's first paragraph. */
function joins(tail: Tail, here: Section, first: Paragraph, next: Section, nextLines: readonly Line[]): boolean {
  const box = tail.part.source?.bbox;
  if (!box || !inHalf(box, here, true) || !inHalf(first.source?.bbox, next, false)) return false;
  const above = inlineText(tail.part.children).trimEnd();
  // A lone label ("Glossary") is no paragraph the page's end cut.
  if (!readsOn(above, inlineText(first.children).trimStart()) || !THREE_WORDS.test(above)) return false;
  // A term set in bold under a label ("Glossary" / "**locally advanced …**") is not a sentence going on.
  if (edgeStyle(tail.part, -1) !== edgeStyle(first, 0)) return false;
  const last = edgeLine(tail.lines, box, false);
  const opening = first.source?.bbox ? edgeLine(nextLines, first.source.bbox, true) : undefined;
  if (!last || !opening) return false;
  // A footnote or a running line in small print is no part of the body's sentence.
  if (!sizesMatch(last, opening)) return false;
  // Prose the page's end cuts runs to its column's edge; a verse's line ends short.
  const edge = last.onPage ?? last;
  return edge.x1 - box[0] >= (box[2] - box[0]) * FULL_LINE;
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
