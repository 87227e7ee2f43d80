import { isElement, type XmlElement } from '../../util/xml.ts';
import { startPages, Tally } from '../common/page-turns.ts';
import { isShape } from './shapes.ts';

/** The mark LibreOffice writes where its layout started a new page (`text:use-soft-page-breaks`). */
export const SOFT_PAGE_BREAK = 'text:soft-page-break';

/** Elements whose text is printed apart from the body's flow: frames, notes at the page's foot, comments. */
const APART = new Set(['text:note', 'office:annotation', 'text:tracked-changes']);

function walk(el: XmlElement, tally: Tally): void {
  if (el.name === SOFT_PAGE_BREAK) {
    tally.mark();
    return;
  }
  if (APART.has(el.name) || isShape(el)) return;
  for (const c of el.children) {
    if (isElement(c)) walk(c, tally);
    else if (c.trim() !== '') tally.seeText();
  }
}

/**
 * The 1-based page each top-level body element starts on, as LibreOffice last laid the document out,
 * or undefined when the file has no soft page breaks (other writers, or the option off).
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
