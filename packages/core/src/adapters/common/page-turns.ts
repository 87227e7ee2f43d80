import { markContinued, unmark } from '../../tree/continued.ts';
import type { Block, Inline } from '../../tree/types.ts';
import type { XmlElement } from '../../util/xml.ts';

/**
 * Page breaks a word processor's layout left in the file (Word's `w:lastRenderedPageBreak`,
 * LibreOffice's `text:soft-page-break`), counted over one element. Writers mark one break several
 * times (Word in each run the break falls in): marks with no visible text between them are one.
 */
export class Tally {
  /** Breaks before the element's first visible text (it starts on the page after them). */
  before = 0;
  total = 0;
  text = false;
  private pending = false;

  /** Breaks after the element's first visible text: its later parts start that many pages on. */
  get after(): number {
    return this.total - this.before;
  }

  /** Counts a mark; false when it repeats the break just counted. */
  mark(): boolean {
    if (this.pending) return false;
    this.pending = true;
    this.total++;
    if (!this.text) this.before++;
    return true;
  }

  seeText(): void {
    this.text = true;
    this.pending = false;
  }
}

/** Where a writer last laid out a body: the page each block element starts on, and each of its units. */
export interface BodyPages {
  blocks: Map<XmlElement, number>;
  /** The page the body ends on. */
  last: number;
  /** Rows of the body's tables and (ODF) items of its lists: the parts a block's `continued` names. */
  units: Map<XmlElement, number>;
}

/** Hears a unit of a block (a table row, a list item) and its page, counted from the block's start. */
export type UnitPage = (unit: XmlElement, offset: number) => void;

/** A character that is not white space: text a reader sees (no string is made, unlike `trim`). */
export const VISIBLE = /\S/;

/** How one format marks its layout: what wraps block elements, and how an element's breaks count. */
export interface PageMarkup {
  /** The block elements a wrapper (a content control, a section) holds, or undefined for a block. */
  wrapped(el: XmlElement): readonly XmlElement[] | undefined;
  /** Counts an element's breaks and text; `unit` hears its units' pages, counted from the element's start. */
  walk(el: XmlElement, tally: Tally, unit: UnitPage): void;
}

/**
 * The 1-based page each block element of a body starts on (inside wrappers too), and each of its
 * units, or undefined when the file records no breaks (a writer that keeps no layout): such
 * documents get no pages.
 */
export function layoutPages(body: readonly XmlElement[], markup: PageMarkup): BodyPages | undefined {
  const out: BodyPages = { blocks: new Map(), units: new Map(), last: 1 };
  let breaks = 0;
  let start = 0;
  const unit: UnitPage = (el, offset) => out.units.set(el, start + offset);
  const read = (els: readonly XmlElement[], from: number): number => {
    let page = from;
    for (const el of els) {
      const inner = markup.wrapped(el);
      if (inner) {
        page = read(inner, page);
        continue;
      }
      const tally = new Tally();
      start = page;
      markup.walk(el, tally, unit);
      out.blocks.set(el, page + tally.before);
      page += tally.total;
      breaks += tally.total;
    }
    return page;
  };
  out.last = read(body, 1);
  return breaks ? out : undefined;
}

/**
 * A paragraph the layout ran over page breaks: the first inline of each later page's part carries
 * that page (`CONTINUED_ON`), as a PDF paragraph a page break cut does, so chunks and `data.blocks`
 * give each part its page.
 */
export class PageTurns {
  private readonly tally = new Tally();
  /** Breaks already stamped on an inline. */
  private stamped = 0;
  /** The page the next inline emitted starts, when a break came since the last one. */
  private next: number | undefined;

  /** `start`: the page the paragraph starts on. */
  constructor(private readonly start: number) {}

  mark(): void {
    this.tally.mark();
  }

  /** The page being read: where a note referenced here is printed. */
  get page(): number {
    return this.start + this.tally.after;
  }

  /** Visible text is read: if the page turned since the last text, the next inline starts a part. */
  seeText(): void {
    this.tally.seeText();
    const after = this.tally.after;
    if (after > this.stamped) {
      this.stamped = after;
      this.next = this.start + after;
    }
  }

  /** Marks `node` with the page its part starts on, when it is the first inline of a later page. */
  stamp(node: Inline): Inline {
    const page = this.take();
    if (page !== undefined) markContinued(node, { page });
    return node;
  }

  /** The page a block read here starts (a display equation after a break), when the page turned before it. */
  take(): number | undefined {
    const page = this.next;
    this.next = undefined;
    return page;
  }
}

/**
 * A link whose text the page turns inside: one link per page's part, each later one carrying its
 * page (parts start at a paragraph's own inlines); the Markdown joins them again (`normalizeInlines`).
 */
export function splitAtMarks(wrapper: Extract<Inline, { type: 'link' }>): Inline[] {
  const out: Inline[] = [];
  let part: Inline[] = [];
  let page: number | undefined;
  const flush = () => {
    if (!part.length) return;
    const piece: Inline = { ...wrapper, children: part };
    if (page !== undefined) markContinued(piece, { page });
    out.push(piece);
  };
  for (const n of wrapper.children) {
    const turned = unmark(n);
    if (turned !== undefined) {
      flush();
      part = [];
      page = turned;
    }
    part.push(n);
  }
  flush();
  return out;
}

/** Takes the marks off a run of inlines that does not become a paragraph (a heading), returning the last page. */
export function unmarkAll(nodes: readonly Inline[]): number | undefined {
  let last: number | undefined;
  for (const n of nodes) last = unmark(n) ?? last;
  return last;
}

/** Notes with no page of their own (endnotes, printed after the body) are on the body's last page. */
export function notesOnLastPage(notes: readonly Block[], last: number | undefined): void {
  if (last === undefined) return;
  for (const n of notes) if (n.source?.page === undefined) n.source = { ...n.source, page: last };
}
