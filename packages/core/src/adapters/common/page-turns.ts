import { CONTINUED_ON, type ContinuedOn, continuedOn } from '../../tree/continued.ts';
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
  const out: BodyPages = { blocks: new Map(), units: new Map() };
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
  read(body, 1);
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
    if (page !== undefined) node.data = { ...node.data, [CONTINUED_ON]: { page } satisfies ContinuedOn };
    return node;
  }

  /** The page a block read here starts (a display equation after a break), when the page turned before it. */
  take(): number | undefined {
    const page = this.next;
    this.next = undefined;
    return page;
  }
}

/** Takes the `CONTINUED_ON` mark off an inline, returning its page. */
export function unmark(node: Inline): number | undefined {
  const page = continuedOn(node)?.page;
  if (page === undefined || !node.data) return undefined;
  const { [CONTINUED_ON]: _, ...rest } = node.data;
  node.data = Object.keys(rest).length ? rest : undefined;
  return page;
}

/**
 * The first marked inline inside a wrapper (a link whose text runs over a page break) gives its mark
 * to the wrapper: a paragraph's parts start at its own inlines. The part then starts with the link.
 */
export function hoistMark(wrapper: Inline): Inline {
  if (!('children' in wrapper) || continuedOn(wrapper)) return wrapper;
  const find = (nodes: readonly Inline[]): number | undefined => {
    for (const n of nodes) {
      const page = unmark(n) ?? ('children' in n ? find(n.children) : undefined);
      if (page !== undefined) return page;
    }
    return undefined;
  };
  const page = find(wrapper.children);
  if (page !== undefined) wrapper.data = { ...wrapper.data, [CONTINUED_ON]: { page } satisfies ContinuedOn };
  return wrapper;
}

/** Takes the marks off a run of inlines that does not become a paragraph (a heading), returning the last page. */
export function unmarkAll(nodes: readonly Inline[]): number | undefined {
  let last: number | undefined;
  for (const n of nodes) last = unmark(n) ?? last;
  return last;
}

/** The last page a block reaches: its start, a paragraph's later parts, a table's rows, a list's items. */
function lastPage(b: Block): number | undefined {
  let last = b.source?.page;
  const see = (page: number | undefined) => {
    if (page !== undefined && (last === undefined || page > last)) last = page;
  };
  if (b.type === 'paragraph') for (const node of b.children) see(continuedOn(node)?.page);
  else if (b.type === 'table') for (const row of b.children) see(row.source?.page);
  else if (b.type === 'list')
    for (const item of b.children) {
      see(item.source?.page);
      for (const inner of item.children) if (inner.type === 'list') see(lastPage(inner));
    }
  return last;
}

/**
 * Notes with no page of their own (endnotes, printed after the body) are on the body's last page,
 * when the body has pages.
 */
export function notesOnLastPage(body: readonly Block[], notes: readonly Block[]): void {
  let last: number | undefined;
  for (const b of body) {
    const page = lastPage(b);
    if (page !== undefined && (last === undefined || page > last)) last = page;
  }
  if (last === undefined) return;
  for (const n of notes) if (n.source?.page === undefined) n.source = { ...n.source, page: last };
}
