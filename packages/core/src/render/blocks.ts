import { unionBox } from '../tree/boxes.ts';
import { type ContinuedOn, continuedOn, linesOn } from '../tree/continued.ts';
import type {
  Block,
  Blockquote,
  Code,
  List,
  ListItem,
  Paragraph,
  Root,
  Section,
  SectionKind,
  Source,
  Table,
} from '../tree/types.ts';
import { renderBlocksMarkdown, type SpanMap } from './markdown.ts';

/** One typed block of `data.blocks`: what it is, where it is in the source and in `data.markdown`. */
export interface LayoutItem {
  id: string;
  type: string;
  label: string;
  bbox: [number, number, number, number] | null;
  content: string;
  markdownSpan: [number, number] | null;
  readingOrder: number;
  source: 'text-layer' | 'ocr';
  confidence: { layout: number; ocr: number | null };
  /**
   * docmill extension, blocks continued on later pages: for a table, from line `line` of `content`
   * (0-based) on, the rows were printed on page `pageNumber`, inside `bbox`; for a list, its items
   * from line `line` on (from character `offset` where an item's own text goes on over the page);
   * for a paragraph a page break cut, or a quote, from character `offset` of `content` on. A
   * paragraph a pull quote or caption is set into has a part on its own page, past the set-in block.
   */
  continued?: TablePagePart[];
}

/** The part of a block (a table's rows, a paragraph's sentence) printed on a later page than its start. */
export interface TablePagePart {
  pageNumber: number;
  /** Where the part stands on that page. */
  bbox: [number, number, number, number] | null;
  /** The line of `content` (0-based) the part starts on: a table's first row printed there. */
  line: number;
  /** A paragraph's part starts inside a line: the character of `content` it starts at. */
  offset?: number;
}

/**
 * Where a group of blocks lives: a PDF or image page, a Word page (from the page breaks Word
 * rendered), a slide, a sheet, an EPUB chapter, or the whole document for formats without any.
 */
export type BlockGroupKind = SectionKind | 'document';

export interface PageBlocks {
  /** 1-based number of the page, slide, sheet or chapter (1 for `document`). */
  pageNumber: number;
  width: number | null;
  height: number | null;
  /**
   * `empty` where the page holds no text. A page whose only text goes on a block begun on an earlier
   * page is `ok` with no items: its text is in that block (`continued` tells where).
   */
  status: 'ok' | 'empty';
  items: LayoutItem[];
  /** docmill extension: what `pageNumber` counts. */
  kind: BlockGroupKind;
  /** docmill extension: the sheet's name or the chapter's title, when there is one. */
  name?: string;
  /**
   * docmill extension, documents inside documents: the messages, attachments, archive members and
   * feed items the group lies in, outermost first, its own name last when it is one of them
   * (`["bundle.zip member archive/inner.zip", …]` reads `["archive/inner.zip", "notes/readme.md"]`).
   */
  within?: string[];
}

const SEPARATOR_ROW = /^\|(?:\s*:?-{3,}:?\s*\|)+\s*$/;

/**
 * The parts of a block whose units (a table's rows, a list's items) were printed on later pages than
 * the block's start: a part at each unit whose page differs from the one before, at `lineOf(i)`
 * (undefined for a unit that cannot start a part), and the parts `within(i)` finds inside unit `i`
 * (an item's sentence going on over a page), after it.
 */
function partsOf(
  page: number,
  units: readonly { source?: Source }[],
  lineOf: (i: number) => number | undefined,
  within: (i: number, page: number) => TablePagePart[] | undefined = () => undefined,
): TablePagePart[] | undefined {
  const parts: TablePagePart[] = [];
  let current = page;
  units.forEach((unit, i) => {
    const p = unit.source?.page ?? current;
    const line = p === current ? undefined : lineOf(i);
    if (line !== undefined) {
      current = p;
      parts.push({ pageNumber: p, bbox: unit.source?.bbox ?? null, line });
    }
    for (const part of within(i, current) ?? []) {
      parts.push(part);
      current = part.pageNumber;
    }
  });
  return parts.length ? parts : undefined;
}

const turnsPage = (page: number | undefined, units: readonly { source?: Source }[]): page is number =>
  page !== undefined && units.some((u) => u.source?.page !== undefined && u.source.page !== page);

/**
 * Where the rows of a table printed on later pages begin in its Markdown. Each row is one line after
 * the separator; the header line is the first row only when the table has a real header row.
 */
function continuedParts(table: Table, content: string): TablePagePart[] | undefined {
  const page = table.source?.page;
  if (!turnsPage(page, table.children)) return undefined;
  const lines = content.split('\n');
  const sep = lines.findIndex((l) => SEPARATOR_ROW.test(l));
  if (sep < 1) return undefined;
  const bodyLines = lines.length - sep - 1;
  // One row fewer below the separator than in the table: row 0 is the header line.
  const shift = bodyLines === table.children.length - 1 ? 1 : 0;
  return partsOf(page, table.children, (i) => (i < shift ? undefined : sep + 1 + i - shift));
}

/** A list item's first line in Markdown: its marker, at any depth. */
const ITEM_START = /^ *(?:[-*+]|\d{1,9}[.)])(?: |$)/;

/** A list's items and those of the lists inside them, in reading order. */
function itemsOf(list: List, out: ListItem[] = []): ListItem[] {
  for (const item of list.children) {
    out.push(item);
    for (const b of item.children) if (b.type === 'list') itemsOf(b, out);
  }
  return out;
}

/**
 * Where the items of a list printed on later pages begin in its Markdown (a Word list over pages, a
 * PDF list a page break cut): each item's marker line, when every item's line is found; and where
 * an item's own blocks go on over a page (a PDF item's sentence the break cut, a quote or listing
 * under it: `innerParts` on the item's text up to the next item).
 */
function listParts(list: List, content: string): TablePagePart[] | undefined {
  const items = itemsOf(list);
  const page = list.source?.page;
  if (page === undefined || !items.some((item) => turnsWithin(item, page))) return undefined;
  const starts: number[] = [];
  const offsets: number[] = [];
  let offset = 0;
  for (const [n, line] of content.split('\n').entries()) {
    if (ITEM_START.test(line)) {
      starts.push(n);
      offsets.push(offset);
    }
    offset += line.length + 1;
  }
  // A line in an item's code that reads like a marker: the items cannot be placed.
  if (starts.length !== items.length) return undefined;
  return partsOf(
    page,
    items,
    (i) => starts[i],
    (i, current) => {
      const children = (items[i] as ListItem).children.filter((c) => c.type !== 'list');
      if (!children.some((c) => turnsWithin(c, current))) return undefined;
      const from = offsets[i] as number;
      const own = content.slice(from, offsets[i + 1] ?? content.length).trimEnd();
      // The item's blocks stand behind its marker on its first line, behind as many blanks on the rest.
      const width = ITEM_START.exec(own)?.[0].length ?? 0;
      const unmark = (line: string, k: number) =>
        k === 0 ? line.slice(width) : line.slice(Math.min(width, /^ */.exec(line)?.[0].length ?? 0));
      const parts = innerParts(children, own, unmark, current);
      // A later item printed on a part's page carries the box of all that page holds of the list.
      const boxOn = (n: number) => items.find((it, j) => j > i && it.source?.page === n)?.source?.bbox;
      return parts.map((p) => ({
        ...p,
        bbox: boxOn(p.pageNumber) ?? p.bbox,
        line: p.line + (starts[i] as number),
        offset: from + (p.offset ?? 0),
      }));
    },
  );
}

/** Characters of a part's Markdown matched against the paragraph's to place it. */
const HEAD = 64;

/** How far before its expected place a part's first characters are looked for. */
const SLACK = 256;

/** A part's first characters before any Markdown syntax, long enough to be found where they stand. */
const PLAIN_START = /^[^*_~`[\]()<>\\!]{8,}/;

/**
 * Where a part whose Markdown alone is `alone` starts in `content`, its end at or before `to` (the
 * next part's start, or the end): just a blank before that (or none, a word broken at the page),
 * the part rendered alone perhaps with a line-start escape, or an emphasis, code span or link it
 * shares with the text before it ("*informa*" and "*tion …*" render as "*information …*"), that its place does not
 * have; else where its first characters last stand shortly before. The search stays near `to`,
 * so a paragraph of many parts costs one reading of its Markdown.
 */
function placePart(content: string, alone: string, to: number): number {
  const forms = [alone, alone.replace(/^\\/, ''), alone.replace(/^[*_~`[]+/, '')];
  for (const part of forms) {
    const head = part.slice(0, HEAD);
    for (const gap of [0, 1]) {
      const at = to - part.length - gap;
      if (at >= 0 && content.startsWith(head, at)) return at;
    }
  }
  const from = Math.max(0, to - alone.length - SLACK);
  const near = content.slice(from, to);
  for (const part of forms) {
    const found = near.lastIndexOf(part.slice(0, HEAD));
    if (found >= 0) return from + found;
  }
  // A part that starts inside a link or an emphasis and ends inside it too (a link the page turns
  // in twice): its plain words up to the first markup.
  const words = PLAIN_START.exec(forms[2] as string)?.[0];
  const found = words ? near.lastIndexOf(words.slice(0, HEAD)) : -1;
  if (found >= 0) return from + found;
  return Math.max(0, to - alone.length);
}

/**
 * Where the parts of a paragraph printed on later pages start in its Markdown: each part (from the
 * inline that carries its page to the next such) is rendered alone and placed from the end, so a
 * paragraph over many pages costs one rendering of its text.
 */
function paragraphParts(p: Paragraph, content: string): TablePagePart[] | undefined {
  const marks: { at: number; mark: ContinuedOn }[] = [];
  p.children.forEach((node, i) => {
    const mark = i > 0 ? continuedOn(node) : undefined;
    if (mark) marks.push({ at: i, mark });
  });
  if (!marks.length) return undefined;
  const offsets: number[] = [];
  let to = content.length;
  for (let j = marks.length - 1; j >= 0; j--) {
    const end = marks[j + 1]?.at ?? p.children.length;
    const children = p.children.slice((marks[j] as (typeof marks)[number]).at, end);
    const alone = renderBlocksMarkdown([{ type: 'paragraph', children }]).trim();
    to = placePart(content, alone, to);
    offsets[j] = to;
  }
  let line = 0;
  let counted = 0;
  return marks.map(({ mark }, j) => {
    const offset = offsets[j] as number;
    for (let k = content.indexOf('\n', counted); k >= 0 && k < offset; k = content.indexOf('\n', k + 1)) line++;
    counted = Math.max(counted, offset);
    return { pageNumber: mark.page, bbox: mark.bbox ?? null, line, offset };
  });
}

/** Where the parts of a block printed on later pages than its start begin in its Markdown (`content`). */
function blockParts(b: Block, content: string): TablePagePart[] | undefined {
  switch (b.type) {
    case 'table':
      return continuedParts(b, content);
    case 'list':
      return listParts(b, content);
    case 'paragraph':
      return paragraphParts(b, content);
    case 'code':
      return codeParts(b, content);
    case 'blockquote':
      return quoteParts(b, content);
    default:
      return undefined;
  }
}

/**
 * Whether a block (or list item) holds text printed on another page than `page`: a block of it, or
 * a paragraph's or a listing's part.
 */
function turnsWithin(b: Block | ListItem, page: number): boolean {
  if (b.source?.page !== undefined && b.source.page !== page) return true;
  if (b.type === 'blockquote' || b.type === 'listItem') return b.children.some((c) => turnsWithin(c, page));
  if (b.type === 'code') return linesOn(b).length > 0;
  return b.type === 'paragraph' && goesOverPage(b);
}

/** Whether a paragraph goes on over a page: an inline after its first carries a later page's part. */
const goesOverPage = (p: Paragraph): boolean => p.children.some((node, i) => i > 0 && continuedOn(node) !== undefined);

/** A quote's mark opening a line of its Markdown, with the blank after it. */
const QUOTE_MARK = /^> ?/;

/**
 * Where the parts of a quote printed on later pages (an e-mail's quoted message a page break cut,
 * joined again) begin in its Markdown: those of its blocks, behind the quote's marks.
 */
function quoteParts(quote: Blockquote, content: string): TablePagePart[] | undefined {
  const page = quote.source?.page;
  if (page === undefined || !quote.children.some((c) => turnsWithin(c, page))) return undefined;
  const parts = innerParts(quote.children, content, (line) => line.replace(QUOTE_MARK, ''), page);
  return parts.length ? parts : undefined;
}

/**
 * Where the parts of the blocks a container holds (a quote, a list item) begin in its Markdown
 * (`content`), whose lines `unmark` takes the container's own marks or indent off: each block
 * printed on another page than the block before (the first is held to `page`), and the parts of
 * the blocks (a paragraph going on over a break), found in the text without marks and placed back
 * past them. A block whose text is not found where it stands gives no part.
 */
function innerParts(
  children: readonly Block[],
  content: string,
  unmark: (line: string, k: number) => string,
  page: number,
): TablePagePart[] {
  const outer = content.split('\n');
  const inner = outer.map(unmark);
  const innerText = inner.join('\n');
  // Each line's start in the Markdown and in its text without marks.
  const outerStarts: number[] = [];
  const innerStarts: number[] = [];
  for (let k = 0, o = 0, i = 0; k < outer.length; k++) {
    outerStarts.push(o);
    innerStarts.push(i);
    o += (outer[k] as string).length + 1;
    i += (inner[k] as string).length + 1;
  }
  // Parts come in the order of the text: the line found for one is where the next one's search starts.
  let line = 0;
  const place = (at: number, pageNumber: number, bbox: TablePagePart['bbox']): TablePagePart => {
    while (line + 1 < innerStarts.length && (innerStarts[line + 1] as number) <= at) line++;
    const mark = (outer[line] as string).length - (inner[line] as string).length;
    const offset = (outerStarts[line] as number) + mark + at - (innerStarts[line] as number);
    return { pageNumber, bbox, line, offset };
  };
  const parts: TablePagePart[] = [];
  let current = page;
  let cursor = 0;
  for (const child of children) {
    const alone = renderBlocksMarkdown([child]).trim();
    const at = alone ? innerText.indexOf(alone.slice(0, HEAD), cursor) : -1;
    if (at < 0) continue;
    // The next block starts past this one's text: its first words may stand in this one too ("Ann").
    cursor = at + alone.length;
    const childPage = child.source?.page ?? current;
    const box = child.source?.bbox ?? null;
    const open = parts.at(-1);
    if (childPage !== current) parts.push(place(at, childPage, box));
    // A block printed on the page of the part before widens that part's box to all it holds.
    else if (open?.pageNumber === childPage && open.bbox && box) open.bbox = unionBox(open.bbox, box);
    current = childPage;
    const own = innerText.slice(at, at + alone.length);
    for (const part of blockParts(child, own) ?? []) {
      parts.push(place(at + (part.offset ?? lineStart(own, part.line)), part.pageNumber, part.bbox));
      current = part.pageNumber;
    }
  }
  return parts;
}

/** Where line `line` (0-based) of `text` starts. */
function lineStart(text: string, line: number): number {
  let at = 0;
  for (let k = 0; k < line; k++) {
    const nl = text.indexOf('\n', at);
    if (nl < 0) break;
    at = nl + 1;
  }
  return at;
}

function layoutLabel(b: Block): string {
  if (b.type === 'heading') return b.depth === 1 ? 'title' : 'section_header';
  if (b.type === 'list') return 'list';
  if (b.type === 'math') return 'formula';
  if (b.type === 'image') return 'picture';
  return b.type === 'paragraph' ? 'text' : b.type;
}

/** `Root.data` key: the name of the one sheet a document without sections is (a CSV file's stem). */
export const SHEET_NAME = 'sheetName';

const idPrefix: Record<BlockGroupKind, string> = {
  page: 'p',
  slide: 's',
  sheet: 'sh',
  chapter: 'ch',
  document: 'd',
  message: 'm',
  attachment: 'a',
  file: 'f',
  item: 'i',
};

/** Sections that hold a document of their own (or a message, or a feed item) rather than a page. */
const CONTAINER_KINDS: ReadonlySet<BlockGroupKind> = new Set<BlockGroupKind>(['message', 'attachment', 'file', 'item']);

/**
 * The document's blocks grouped by page, slide, sheet or chapter, in reading order. Top-level blocks
 * outside sections are grouped by their `source.page` when the adapter knows it (the page breaks Word
 * and LibreOffice record), otherwise into one `document` group; a page comes again where reading order
 * returns to it (notes, read after the body, on the pages they are printed on). Sections inside sections (an archive member's pages,
 * a message's attachments) are groups of their own, with the containers they lie in in `within` and
 * their ids prefixed by their containers' (`f1-p2-b0`). Ids (`p3-b0`, `s2-b1`, `d1-b7`) are stable
 * for the same bytes and options.
 */
/** A code fence's line (the fence itself captured), as the Markdown renderer writes them. */
export const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Where the lines of a code block a page break cut (a PDF listing, joined again) printed on later
 * pages begin in its Markdown: the line after the opening fence, counted on.
 */
function codeParts(code: Code, content: string): TablePagePart[] | undefined {
  const marks = linesOn(code);
  if (!marks.length) return undefined;
  const open = content.split('\n').findIndex((l) => FENCE.test(l));
  if (open < 0) return undefined;
  return marks.map((m) => ({ pageNumber: m.page, bbox: m.bbox ?? null, line: open + 1 + m.line }));
}

export function layoutBlocks(tree: Root, spans: SpanMap, markdown: string): PageBlocks[] {
  const groups: PageBlocks[] = [];
  const counters = new Map<string, number>();
  const keys = new Map<PageBlocks, string>();
  let open: PageBlocks | undefined;
  const groupFor = (kind: BlockGroupKind, number: number, extra: Partial<PageBlocks>, parent = ''): PageBlocks => {
    if (open && open.kind === kind && open.pageNumber === number && open.name === extra.name) return open;
    open = { pageNumber: number, width: null, height: null, status: 'empty', items: [], kind, ...extra };
    groups.push(open);
    keys.set(open, `${parent}${idPrefix[kind]}${number}`);
    return open;
  };
  const add = (group: PageBlocks, b: Block, index?: number) => {
    const key = keys.get(group) as string;
    const i = index ?? counters.get(key) ?? 0;
    counters.set(key, i + 1);
    const span = spans.get(b) ?? null;
    const content = span ? markdown.slice(span[0], span[1]) : '';
    const item: LayoutItem = {
      id: `${key}-b${i}`,
      type: b.type,
      label: layoutLabel(b),
      bbox: b.source?.bbox ?? null,
      content,
      markdownSpan: span,
      readingOrder: group.items.length,
      source: b.data?.ocr ? 'ocr' : 'text-layer',
      confidence: { layout: 1, ocr: typeof b.data?.ocrConfidence === 'number' ? b.data.ocrConfidence : null },
    };
    const continued = content ? blockParts(b, content) : undefined;
    if (continued) item.continued = continued;
    group.items.push(item);
    group.status = 'ok';
  };
  const section = (b: Section, within: string[], parent: string) => {
    const extra: Partial<PageBlocks> = { width: b.width ?? null, height: b.height ?? null };
    if (b.name) extra.name = b.name;
    const path = CONTAINER_KINDS.has(b.kind) ? [...within, b.name ?? `${b.kind} ${b.number}`] : within;
    if (path.length) extra.within = path;
    open = undefined;
    let group = groupFor(b.kind, b.number, extra, parent);
    const key = keys.get(group) as string;
    // Index within the section's children (empty blocks included), as PDF block ids always were.
    b.children.forEach((c, i) => {
      if (c.type === 'section') section(c, path, `${key}-`);
      else {
        if (open !== group) group = reopen(group);
        add(group, c, i);
      }
    });
    open = undefined;
  };
  // After a nested section, the container's own blocks go on in a group of its own again.
  const reopen = (group: PageBlocks): PageBlocks => {
    const again: PageBlocks = { ...group, status: 'empty', items: [] };
    groups.push(again);
    keys.set(again, keys.get(group) as string);
    open = again;
    return again;
  };
  const sheet = tree.data?.[SHEET_NAME];
  for (const b of tree.children) {
    if (b.type === 'section') section(b, [], '');
    else {
      const page = b.source?.page;
      if (typeof sheet === 'string') add(groupFor('sheet', 1, { name: sheet }), b);
      else add(page === undefined ? groupFor('document', 1, {}) : groupFor('page', page, {}), b);
    }
  }
  markContinuedPages(groups);
  return groups;
}

/**
 * A page whose only text goes on a block begun on an earlier page (a table's rows, a paragraph's
 * sentence) holds that text, not nothing: its status is `ok`.
 */
function markContinuedPages(groups: PageBlocks[]): void {
  const where = (g: PageBlocks, page: number) => `${(g.within ?? []).join('\u0000')}\u0001${page}`;
  const empty = new Map<string, PageBlocks>();
  for (const g of groups) if (g.kind === 'page' && g.status === 'empty') empty.set(where(g, g.pageNumber), g);
  if (!empty.size) return;
  for (const g of groups)
    for (const item of g.items)
      for (const part of item.continued ?? []) {
        const target = empty.get(where(g, part.pageNumber));
        if (target) target.status = 'ok';
      }
}
