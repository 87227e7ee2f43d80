import { isElement, type XmlElement } from '../../util/xml.ts';
import { type BodyPages, layoutPages, type PageMarkup, type Tally } from '../common/page-turns.ts';
import { wraps } from './blocks.ts';
import { isShape } from './shapes.ts';

/** The mark LibreOffice writes where its layout started a new page (`text:use-soft-page-breaks`). */
export const SOFT_PAGE_BREAK = 'text:soft-page-break';

/** Elements whose text is printed apart from the body's flow: frames, notes at the page's foot, comments. */
const APART = new Set(['text:note', 'office:annotation', 'text:tracked-changes']);

function walk(el: XmlElement, tally: Tally, rows: Map<XmlElement, number>): void {
  if (el.name === SOFT_PAGE_BREAK) {
    tally.mark();
    return;
  }
  if (APART.has(el.name) || isShape(el)) return;
  if (el.name === 'table:table-row') {
    // LibreOffice marks a row that opens a page with a break before it, between the rows.
    rows.set(el, tally.total);
    for (const c of el.children) if (isElement(c)) walk(c, tally, new Map());
    return;
  }
  for (const c of el.children) {
    if (isElement(c)) walk(c, tally, el.name === 'table:table-cell' ? new Map() : rows);
    else if (c.trim() !== '') tally.seeText();
  }
}

const ODF: PageMarkup = {
  wrapped: (el) => (wraps(el) ? el.children.filter(isElement) : undefined),
  walk,
};

/**
 * The page each body block element (inside sections too) and each row of a body table starts on,
 * as LibreOffice last laid the document out, or undefined when the file has no soft page breaks
 * (other writers, or the option off).
 */
export function elementPages(body: readonly XmlElement[]): BodyPages | undefined {
  return layoutPages(body, ODF);
}
