import { isElement, type XmlElement } from '../../util/xml.ts';
import { type BodyPages, layoutPages, type PageMarkup, Tally, type UnitPage, VISIBLE } from '../common/page-turns.ts';
import { wraps } from './blocks.ts';
import { isShape } from './shapes.ts';

/** The mark LibreOffice writes where its layout started a new page (`text:use-soft-page-breaks`). */
export const SOFT_PAGE_BREAK = 'text:soft-page-break';

/** Elements whose text is printed apart from the body's flow: frames, notes at the page's foot, comments. */
const APART = new Set(['text:note', 'office:annotation', 'text:tracked-changes']);

/**
 * Counts one body element's breaks and text, and the page of each of its own table rows and list
 * items (not those inside a table's cells): where the unit's first text is printed, so a break
 * written between rows or at the start of an item's paragraph both count.
 */
/** Units inside a table's cells are the cell's content, not the body's. */
const IGNORED: UnitPage = () => {};

class OdfWalk {
  private readonly waiting: XmlElement[] = [];
  private cells = 0;

  constructor(
    private readonly tally: Tally,
    private readonly unit: UnitPage,
  ) {}

  visit(el: XmlElement): void {
    const name = el.name;
    if (name === SOFT_PAGE_BREAK) {
      this.tally.mark();
      return;
    }
    if (APART.has(name) || isShape(el)) return;
    if (!this.cells && name === 'table:table-row') {
      this.row(el);
      return;
    }
    if (!this.cells && name === 'text:list-item') this.waiting.push(el);
    const cell = name === 'table:table-cell';
    if (cell) this.cells++;
    for (const c of el.children) {
      if (isElement(c)) this.visit(c);
      else if (VISIBLE.test(c)) this.text();
    }
    if (cell) this.cells--;
  }

  private text(): void {
    this.tally.seeText();
    this.finish();
    this.waiting.length = 0;
  }

  /**
   * A row of the element's own table. LibreOffice writes a break between rows where a row opens a
   * page, and in every cell where a row is split over two: each cell is counted apart, and the
   * row's cells make one break, the row printed from the page its first text is on.
   */
  private row(el: XmlElement): void {
    let marked = false;
    let split = false;
    let text = false;
    for (const cell of el.children) {
      if (!isElement(cell)) continue;
      const tally = new Tally();
      const inner = new OdfWalk(tally, IGNORED);
      inner.cells = 1;
      inner.visit(cell);
      marked ||= tally.total > 0;
      split ||= tally.after > 0;
      text ||= tally.text;
    }
    this.waiting.push(el);
    // A split row has text before its break (`split` holds only with `text`).
    if (split) {
      this.text();
      this.tally.mark();
      return;
    }
    if (marked) this.tally.mark();
    if (text) this.text();
  }

  /** The units waiting for text stand here (at the element's end: units with no text of their own). */
  finish(): void {
    for (const waiting of this.waiting) this.unit(waiting, this.tally.total);
  }
}

function walk(el: XmlElement, tally: Tally, unit: UnitPage): void {
  const w = new OdfWalk(tally, unit);
  w.visit(el);
  w.finish();
}

const ODF: PageMarkup = {
  wrapped: (el) => (wraps(el) ? el.children.filter(isElement) : undefined),
  walk,
};

/**
 * The page each body block element (inside sections too), each row of a body table and each item
 * of a body list starts on,
 * as LibreOffice last laid the document out, or undefined when the file has no soft page breaks
 * (other writers, or the option off).
 */
export function elementPages(body: readonly XmlElement[]): BodyPages | undefined {
  return layoutPages(body, ODF);
}
