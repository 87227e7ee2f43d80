import { CONTINUED_ON, type ContinuedOn } from '../../tree/continued.ts';
import type { Block, Inline, Paragraph, Section, Table, TableRow } from '../../tree/types.ts';
import { blockText, inlineText } from '../../tree/walk.ts';
import { append } from '../../util/arrays.ts';
import { readsOn } from '../../util/letters.ts';

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

/** Three words at least: a lone label ("Glossary") is not a paragraph the page's end cut. */
const THREE_WORDS = /\S\s+\S+\s+\S/;

/** The kind of a paragraph's first (`at` 0) or last (`at` -1) inline that is not blank. */
function edgeStyle(p: Paragraph, at: 0 | -1): string | undefined {
  const n = p.children.length;
  for (let k = 0; k < n; k++) {
    const node = p.children[at === 0 ? k : n - 1 - k] as Inline;
    if (node.type !== 'text' || node.value.trim() !== '') return node.type;
  }
  return undefined;
}

/** Whether a paragraph's box lies in the given half of its page (`low`: the lower half). */
function inHalf(p: Paragraph, page: Section, low: boolean): boolean {
  const box = p.source?.bbox;
  if (!box || !page.height) return false;
  return low ? box[3] >= page.height * BOTTOM_HALF : box[1] <= page.height * (1 - BOTTOM_HALF);
}

/**
 * A paragraph the page's end cuts mid-sentence goes on as the next page's first paragraph: its last
 * line ends with no full stop, colon or semicolon in the lower half of the page, and the next page
 * opens in the upper half, in the same style, with a line in lower case ("…protocols should be" /
 * "reviewed to prevent …"). The two are one paragraph, so readers, chunks and the Markdown get the
 * sentence whole; the first inline printed on the later page carries that page and box
 * (`CONTINUED_ON`) for provenance. Only pages `settled` (no later stage reads them again) are
 * joined; per-page output asks for text where it was printed, so callers skip this there.
 */
export function joinContinuedParagraphs(pages: Block[], settled: (page: number) => boolean): void {
  for (let p = 0; p + 1 < pages.length; p++) {
    const here = pages[p] as Section;
    const next = pages[p + 1] as Section;
    if (here.type !== 'section' || next.type !== 'section' || next.number !== here.number + 1) continue;
    if (!settled(here.number) || !settled(next.number)) continue;
    const last = here.children[here.children.length - 1];
    const first = next.children[0];
    if (last?.type !== 'paragraph' || first?.type !== 'paragraph' || !first.children.length) continue;
    if (!inHalf(last, here, true) || !inHalf(first, next, false)) continue;
    const above = inlineText(last.children).trimEnd();
    if (!readsOn(above, inlineText(first.children).trimStart()) || !THREE_WORDS.test(above)) continue;
    // A term set in bold under a label ("Glossary" / "**locally advanced …**") is not a sentence going on.
    if (edgeStyle(last, -1) !== edgeStyle(first, 0)) continue;
    const mark: ContinuedOn = { page: next.number };
    if (first.source?.bbox) mark.bbox = first.source.bbox;
    const opening = first.children[0] as (typeof first.children)[number];
    opening.data = { ...opening.data, [CONTINUED_ON]: mark };
    last.children.push({ type: 'text', value: ' ' });
    append(last.children, first.children);
    next.children.shift();
  }
}
