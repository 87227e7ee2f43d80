import { isElement, type XmlElement } from '../../util/xml.ts';
import { startPages, Tally } from '../common/page-turns.ts';
import { ln, pickAlternate } from './xml.ts';

/** Whether a `w:t` holds visible characters: what ends a run of page-break marks. */
export const showsText = (t: XmlElement): boolean => t.children.some((c) => typeof c === 'string' && c.trim() !== '');

/**
 * Word's rendered page breaks. On saving, Word writes `w:lastRenderedPageBreak` where its layout
 * started a new page (after hard page breaks too), so counting them gives the page of every body
 * element as Word last showed it. Files from other writers have none: they get no pages.
 *
 * Word marks one break several times: in each run of a paragraph the break falls in, in each cell
 * of a row split over two pages, and again in the row that continues on the next page. Marks with
 * no visible text between them, and marked rows in a row, are one break.
 */
function walk(el: XmlElement, tally: Tally): void {
  switch (ln(el)) {
    case 'lastRenderedPageBreak':
      tally.mark();
      return;
    case 't':
      if (showsText(el)) tally.seeText();
      return;
    case 'tr': {
      const row = new Tally();
      for (const c of el.children) if (isElement(c)) walk(c, row);
      if (row.total) tally.mark();
      else if (row.text) tally.seeText();
      return;
    }
    case 'AlternateContent': {
      const branch = pickAlternate(el);
      if (branch) walk(branch, tally);
      return;
    }
    // Text boxes and pictures flow apart from the page's text.
    case 'drawing':
    case 'pict':
    case 'txbxContent':
      return;
    default:
      for (const c of el.children) if (isElement(c)) walk(c, tally);
  }
}

/**
 * The 1-based page each top-level body element starts on, or undefined when the document has no
 * rendered page breaks. The walk goes as deep as the element's markup (bounded by the XML depth limit).
 */
export function elementPages(body: readonly XmlElement[]): number[] | undefined {
  return startPages(
    body.map((el) => {
      const t = new Tally();
      walk(el, t);
      return t;
    }),
  );
}
