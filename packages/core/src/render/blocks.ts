import type { Block, Root, SectionKind } from '../tree/types.ts';
import type { SpanMap } from './markdown.ts';

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
  status: 'ok' | 'empty';
  items: LayoutItem[];
  /** docmill extension: what `pageNumber` counts. */
  kind: BlockGroupKind;
  /** docmill extension: the sheet's name or the chapter's title, when there is one. */
  name?: string;
}

function layoutLabel(b: Block): string {
  if (b.type === 'heading') return b.depth === 1 ? 'title' : 'section_header';
  if (b.type === 'list') return 'list';
  if (b.type === 'math') return 'formula';
  if (b.type === 'image') return 'picture';
  return b.type === 'paragraph' ? 'text' : b.type;
}

const idPrefix: Record<BlockGroupKind, string> = { page: 'p', slide: 's', sheet: 'sh', chapter: 'ch', document: 'd' };

/**
 * The document's blocks grouped by page, slide, sheet or chapter, in reading order. Top-level blocks
 * outside sections are grouped by their `source.page` when the adapter knows it (Word's rendered page
 * breaks), otherwise into one `document` group. Ids (`p3-b0`, `s2-b1`, `d1-b7`) are stable for the
 * same bytes and options.
 */
export function layoutBlocks(tree: Root, spans: SpanMap, markdown: string): PageBlocks[] {
  const groups: PageBlocks[] = [];
  const counters = new Map<string, number>();
  let open: PageBlocks | undefined;
  const groupFor = (kind: BlockGroupKind, number: number, extra: Partial<PageBlocks>): PageBlocks => {
    if (open && open.kind === kind && open.pageNumber === number && !extra.name) return open;
    open = { pageNumber: number, width: null, height: null, status: 'empty', items: [], kind, ...extra };
    groups.push(open);
    return open;
  };
  const add = (group: PageBlocks, b: Block, index?: number) => {
    const key = `${idPrefix[group.kind]}${group.pageNumber}`;
    const i = index ?? counters.get(key) ?? 0;
    counters.set(key, i + 1);
    const span = spans.get(b) ?? null;
    group.items.push({
      id: `${key}-b${i}`,
      type: b.type,
      label: layoutLabel(b),
      bbox: b.source?.bbox ?? null,
      content: span ? markdown.slice(span[0], span[1]) : '',
      markdownSpan: span,
      readingOrder: group.items.length,
      source: b.data?.ocr ? 'ocr' : 'text-layer',
      confidence: { layout: 1, ocr: typeof b.data?.ocrConfidence === 'number' ? b.data.ocrConfidence : null },
    });
    group.status = 'ok';
  };
  for (const b of tree.children) {
    if (b.type === 'section') {
      const extra: Partial<PageBlocks> = { width: b.width ?? null, height: b.height ?? null };
      if (b.name) extra.name = b.name;
      open = undefined;
      const group = groupFor(b.kind, b.number, extra);
      // Index within the section's children (empty blocks included), as PDF block ids always were.
      b.children.forEach((c, i) => {
        add(group, c, i);
      });
      open = undefined;
    } else {
      const page = b.source?.page;
      add(page === undefined ? groupFor('document', 1, {}) : groupFor('page', page, {}), b);
    }
  }
  return groups;
}
