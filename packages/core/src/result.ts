import type { TreeResult } from './engine.ts';
import { renderHtml } from './render/html.ts';
import { collectImages, collectLinks } from './render/links.ts';
import { renderBlocksMarkdown, renderMarkdownWithSpans, type SpanMap } from './render/markdown.ts';
import type { Block, DocumentMetadata, Root, Section } from './tree/types.ts';

export interface PageResult {
  pageNumber: number;
  markdown: string;
}

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

export interface PageBlocks {
  pageNumber: number;
  width: number | null;
  height: number | null;
  status: 'ok' | 'empty';
  items: LayoutItem[];
}

/** The `data` object of the contract (2.7) plus the SDK's per-page extras. */
export interface ParseData {
  markdown?: string;
  html?: string | null;
  rawHtml?: string | null;
  links?: string[];
  images?: string[];
  summary?: string | null;
  json?: Record<string, unknown> | null;
  pages?: PageResult[];
  blocks?: PageBlocks[];
  metadata: DocumentMetadata & { error: string | null };
  warning: string | null;
}

const pageSections = (tree: Root): Section[] =>
  tree.children.filter((b): b is Section => b.type === 'section' && b.kind === 'page');

function layoutLabel(b: Block): string {
  if (b.type === 'heading') return b.depth === 1 ? 'title' : 'section_header';
  if (b.type === 'list') return 'list';
  if (b.type === 'math') return 'formula';
  if (b.type === 'image') return 'picture';
  return b.type === 'paragraph' ? 'text' : b.type;
}

function blocksOf(tree: Root, spans: SpanMap, markdown: string): PageBlocks[] {
  return pageSections(tree).map((page) => {
    const items: LayoutItem[] = [];
    page.children.forEach((b, i) => {
      const span = spans.get(b) ?? null;
      items.push({
        id: `p${page.number}-b${i}`,
        type: b.type,
        label: layoutLabel(b),
        bbox: b.source?.bbox ?? null,
        content: span ? markdown.slice(span[0], span[1]) : '',
        markdownSpan: span,
        readingOrder: i,
        source: b.data?.ocr ? 'ocr' : 'text-layer',
        confidence: { layout: 1, ocr: typeof b.data?.ocrConfidence === 'number' ? b.data.ocrConfidence : null },
      });
    });
    return {
      pageNumber: page.number,
      width: page.width ?? null,
      height: page.height ?? null,
      status: items.length ? 'ok' : 'empty',
      items,
    };
  });
}

export function buildResult(r: TreeResult, sourceURL?: string): ParseData {
  const { tree, options, output } = r;
  const f = options.formats;
  const mdOpts = { removeBase64Images: options.removeBase64Images, pageMarkers: options.pdf.pageMarkers };
  const warnings = [...r.warnings];
  const data: ParseData = { metadata: { ...tree.metadata, error: null }, warning: null };
  const needSpans = f.has('markdown') || options.pdf.blocks;
  const rendered = needSpans ? renderMarkdownWithSpans(tree, mdOpts) : undefined;
  if (f.has('markdown')) data.markdown = rendered?.markdown ?? '';
  // With redaction on, everything comes from the redacted tree: the adapter's own HTML and links
  // were taken from the source and still hold what was redacted.
  const redacted = options.redactPII !== null;
  if (f.has('html')) data.html = (redacted ? undefined : output.html) ?? renderHtml(tree, mdOpts);
  if (f.has('rawHtml')) {
    if (redacted) {
      data.rawHtml = null;
      warnings.push('rawHtml is not returned when redactPII is on: it is the unredacted source.');
    } else data.rawHtml = output.rawHtml ?? renderHtml(tree, mdOpts);
  }
  const base = sourceURL ?? (typeof tree.metadata.url === 'string' ? tree.metadata.url : undefined);
  if (f.has('links')) data.links = (redacted ? undefined : output.links) ?? collectLinks(tree, base);
  if (f.has('images')) data.images = collectImages(tree, { removeBase64Images: options.removeBase64Images, base });
  if (f.has('summary')) data.summary = r.derived?.summary ?? null;
  if (f.has('json')) data.json = r.derived?.json ?? null;
  if (r.derived) warnings.push(...r.derived.warnings);
  if (r.kind === 'pdf' && options.pdf.pages) {
    data.pages = pageSections(tree).map((p) => ({
      pageNumber: p.number,
      markdown: renderBlocksMarkdown(p.children, mdOpts),
    }));
  }
  if (r.kind === 'pdf' && options.pdf.blocks && rendered)
    data.blocks = blocksOf(tree, rendered.spans, rendered.markdown);
  data.warning = warnings.length ? warnings.join(' ') : null;
  return data;
}
