import { isElement, type XmlElement } from '../../util/xml.ts';
import { type BodyPages, layoutPages, type PageMarkup, Tally, type UnitPage, VISIBLE } from '../common/page-turns.ts';
import { kid, ln, pickAlternate } from './xml.ts';

/** Whether a `w:t` holds visible characters: what ends a run of page-break marks. */
export const showsText = (t: XmlElement): boolean => t.children.some((c) => typeof c === 'string' && VISIBLE.test(c));

/** What a table row's cells say of the page: one opens a page (a break before its text), one is split (after). */
interface RowBreaks {
  opens: boolean;
  split: boolean;
  text: boolean;
}

/** Each cell is counted apart: Word marks the break once in every cell. */
function readRow(el: XmlElement): RowBreaks {
  const out: RowBreaks = { opens: false, split: false, text: false };
  let blank = false;
  const visit = (node: XmlElement) => {
    for (const c of node.children) {
      if (!isElement(c)) continue;
      if (ln(c) !== 'tc') {
        visit(c);
        continue;
      }
      const cell = new Tally();
      walk(c, cell);
      out.opens ||= cell.before > 0 && cell.text;
      // Word marks a split row in several of its cells, some at their start: one break, whatever
      // the cells say (the pages Word stored for the corpus's tables agree only so).
      out.split ||= cell.after > 0;
      out.text ||= cell.text;
      blank ||= cell.total > 0 && !cell.text;
    }
  };
  visit(el);
  // A mark in an empty cell says nothing of where in the row the page turned, unless no cell has text.
  if (blank && !out.opens && !out.split) out.opens = true;
  return out;
}

/**
 * Word's rendered page breaks. On saving, Word writes `w:lastRenderedPageBreak` where its layout
 * started a new page (after hard page breaks too), so counting them gives the page of every body
 * element as Word last showed it. Files from other writers have none: they get no pages.
 *
 * Word marks one break several times: in each run of a paragraph the break falls in, in each cell
 * of a row split over two pages, and again in the row that continues on the next page. Marks with
 * no visible text between them, marks in the cells of one row, and a split row's with the next
 * row's, are one break. `rows` (the element's own
 * table rows, not those of tables in its cells) hears each row's page, counted from the element's start.
 */
function walk(el: XmlElement, tally: Tally, rows?: UnitPage): void {
  switch (ln(el)) {
    case 'lastRenderedPageBreak':
      tally.mark();
      return;
    case 't':
      if (showsText(el)) tally.seeText();
      return;
    case 'tr': {
      const row = readRow(el);
      const base = tally.total;
      if (row.split) {
        // The row starts on the page it was on when its text began: the break is after that text,
        // and Word marks it again in the row that goes on (one break).
        if (row.text) tally.seeText();
        tally.mark();
        rows?.(el, base);
        return;
      }
      const opened = row.opens && tally.mark();
      if (row.text) tally.seeText();
      rows?.(el, opened ? base + 1 : base);
      return;
    }
    case 'AlternateContent': {
      const branch = pickAlternate(el);
      if (branch) walk(branch, tally, rows);
      return;
    }
    // Text boxes and pictures flow apart from the page's text.
    case 'drawing':
    case 'pict':
    case 'txbxContent':
      return;
    default:
      for (const c of el.children) if (isElement(c)) walk(c, tally, rows);
  }
}

/** The block elements a body-level wrapper holds, as the block reader goes into them (`walkBlocks`). */
function wrapped(el: XmlElement): readonly XmlElement[] | undefined {
  switch (ln(el)) {
    case 'sdt':
      return (kid(el, 'sdtContent')?.children ?? []).filter(isElement);
    case 'customXml':
    case 'ins':
    case 'moveTo':
    case 'smartTag':
      return el.children.filter(isElement);
    case 'AlternateContent':
      return pickAlternate(el)?.children.filter(isElement) ?? [];
    default:
      return undefined;
  }
}

const WORD: PageMarkup = { wrapped, walk };

/**
 * The page each body block element (inside content controls too) and each row of a body table
 * starts on, or undefined when the document has no rendered page breaks. The walk goes as deep as
 * the element's markup (bounded by the XML depth limit).
 */
export function elementPages(body: readonly XmlElement[]): BodyPages | undefined {
  return layoutPages(body, WORD);
}
