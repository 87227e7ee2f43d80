import { type BlockGroupKind, FENCE, type PageBlocks, type TablePagePart } from '../../render/blocks.ts';
import type { BBox } from '../../tree/types.ts';

/** Where a block lives: chunks never cross from one slide, sheet or chapter into the next. */
export interface Scope {
  kind: BlockGroupKind;
  number: number;
  name?: string;
  /** The messages, attachments, archive members and feed items it lies in (`PageBlocks.within`). */
  within?: string[];
}

/** A block as the chunker reads it: its Markdown, its kind and its provenance. */
export interface SourceBlock {
  /** The `data.blocks` item id. */
  id?: string;
  /** The block tree's type: heading, paragraph, list, table, code, blockquote, math, image, … */
  type: string;
  /** Heading depth (1–6). */
  depth?: number;
  /** The block's Markdown, exactly as in `data.markdown`. */
  text: string;
  /** Offset of `text` in `data.markdown`, when known. */
  start?: number;
  /** Page or slide number. */
  page?: number;
  bbox?: BBox;
  /**
   * A block continued on later pages (a table's rows, a paragraph a page break cut): where in `text`
   * each later page's part begins.
   */
  continued?: TablePagePart[];
  scope: Scope;
}

const HEADING = /^(#{1,6})(?:[ \t]|$)/;

function headingDepth(text: string): number | undefined {
  const m = HEADING.exec(text);
  return m ? (m[1] as string).length : undefined;
}

/** Blocks from `data.blocks` (or the same grouping made from a tree). */
export function blocksFromLayout(groups: readonly PageBlocks[]): SourceBlock[] {
  const out: SourceBlock[] = [];
  for (const g of groups) {
    const scope: Scope = { kind: g.kind ?? 'page', number: g.pageNumber };
    if (g.name) scope.name = g.name;
    if (g.within?.length) scope.within = g.within;
    const paged = scope.kind === 'page' || scope.kind === 'slide';
    for (const item of g.items) {
      if (!item.content.trim() || item.type === 'thematicBreak') continue;
      const b: SourceBlock = { id: item.id, type: item.type, text: item.content, scope };
      // Headings inside list items or cells are bold text in Markdown, not headings.
      if (item.type === 'heading') {
        const depth = headingDepth(item.content);
        if (depth) b.depth = depth;
        else b.type = 'paragraph';
      }
      if (item.markdownSpan) b.start = item.markdownSpan[0];
      if (paged) b.page = g.pageNumber;
      if (item.bbox) b.bbox = item.bbox;
      if (item.continued?.length) b.continued = item.continued;
      out.push(b);
    }
  }
  return out;
}

// ---------------------------------------------------------------- Markdown without a tree

const PAGE_MARKER = /^<!-- page (\d+) -->$/;
const LIST_START = /^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
const BREAK = /^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/;

function classify(first: string): string {
  if (first.startsWith('|')) return 'table';
  if (first.startsWith('>')) return 'blockquote';
  if (/^\[\^[^\]]+\]:/.test(first)) return 'footnoteDefinition';
  if (LIST_START.test(first)) return 'list';
  if (/^!\[[^\]]*\]\([^)]*\)$/.test(first)) return 'image';
  return 'paragraph';
}

interface RawBlock {
  type: string;
  start: number;
  end: number;
}

/** Splits Markdown into blocks at blank lines, keeping fenced code and `$$` math whole. */
function rawBlocks(md: string): RawBlock[] {
  const out: RawBlock[] = [];
  let pos = 0;
  const lineEnd = (at: number) => {
    const nl = md.indexOf('\n', at);
    return nl < 0 ? md.length : nl;
  };
  while (pos < md.length) {
    const end = lineEnd(pos);
    const line = md.slice(pos, end);
    if (!line.trim()) {
      pos = end + 1;
      continue;
    }
    const start = pos;
    const fence = FENCE.exec(line);
    if (fence || line.trim() === '$$') {
      const mark = fence ? (fence[1] as string) : '$$';
      let at = end + 1;
      let close = md.length;
      while (at < md.length) {
        const e = lineEnd(at);
        const l = md.slice(at, e).trim();
        if (fence ? l.startsWith(mark) && /^[`~]+$/.test(l) : l === '$$') {
          close = e;
          break;
        }
        at = e + 1;
      }
      out.push({ type: fence ? 'code' : 'math', start, end: close });
      pos = close + 1;
      continue;
    }
    if (HEADING.test(line)) {
      out.push({ type: 'heading', start, end });
      pos = end + 1;
      continue;
    }
    let at = end + 1;
    let last = end;
    while (at < md.length) {
      const e = lineEnd(at);
      const l = md.slice(at, e);
      if (!l.trim() || FENCE.test(l)) break;
      last = e;
      at = e + 1;
    }
    const trimmed = line.trim();
    const type = PAGE_MARKER.test(trimmed) ? 'pageMarker' : BREAK.test(line) ? 'thematicBreak' : classify(line);
    const prev = out[out.length - 1];
    // A loose list's items and a footnote's further paragraphs come as blocks of their own.
    const continues =
      prev && (prev.type === 'list' || prev.type === 'footnoteDefinition') && (type === 'list' || /^[ \t]/.test(line));
    if (continues && prev) prev.end = last;
    else out.push({ type, start, end: last });
    pos = last + 1;
  }
  return out;
}

/**
 * Blocks of a Markdown text, for a `ParseData` without `blocks`. Page markers (`<!-- page N -->`, the
 * `pageMarkers` option) give the blocks their pages; without them there are none.
 */
export function blocksFromMarkdown(md: string): SourceBlock[] {
  const raw = rawBlocks(md);
  const paged = raw.some((b) => b.type === 'pageMarker');
  let page = 1;
  const out: SourceBlock[] = [];
  for (let i = 0; i < raw.length; i++) {
    const r = raw[i] as RawBlock;
    const text = md.slice(r.start, r.end).replace(/\s+$/, '');
    if (r.type === 'pageMarker') {
      page = Number(PAGE_MARKER.exec(text.trim())?.[1] ?? page);
      continue;
    }
    // The `---` before a page marker is the marker's, not the document's.
    if (r.type === 'thematicBreak') continue;
    const b: SourceBlock = {
      type: r.type,
      text,
      start: r.start,
      scope: { kind: paged ? 'page' : 'document', number: 1 },
    };
    if (r.type === 'heading') b.depth = headingDepth(text) ?? 1;
    if (paged) b.page = page;
    out.push(b);
  }
  return out;
}
