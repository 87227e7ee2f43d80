import type { Chunk } from './derive/chunks/types.ts';
import type { TreeResult } from './engine.ts';
import type { ResolvedOptions } from './options/normalize.ts';
import { layoutBlocks, type PageBlocks } from './render/blocks.ts';
import { renderHtml } from './render/html.ts';
import { collectImages, collectLinks } from './render/links.ts';
import {
  type MarkdownOptions,
  renderBlocksMarkdown,
  renderMarkdownWithSpans,
  type SpanMap,
} from './render/markdown.ts';
import type { DocumentMetadata, Root, Section } from './tree/types.ts';

export type { BlockGroupKind, LayoutItem, PageBlocks, TablePagePart } from './render/blocks.ts';

export interface PageResult {
  pageNumber: number;
  markdown: string;
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
  /** Typed blocks per page, slide, sheet or chapter (`parsers: [{type: "pdf", blocks: true}]`, every format). */
  blocks?: PageBlocks[];
  /** docmill extension (`formats: [{type: "chunks"}]`): the document cut for embedding. */
  chunks?: Chunk[];
  metadata: DocumentMetadata & { error: string | null };
  warning: string | null;
}

const pageSections = (tree: Root): Section[] =>
  tree.children.filter((b): b is Section => b.type === 'section' && b.kind === 'page');

/** How `data.markdown` is rendered for these options. */
export const markdownOptions = (options: ResolvedOptions): MarkdownOptions => ({
  removeBase64Images: options.removeBase64Images,
  pageMarkers: options.pdf.pageMarkers,
});

/** The Markdown with its block spans and layout, when made once for several outputs (chunks). */
export interface Rendered {
  markdown: string;
  spans: SpanMap;
  layout: PageBlocks[];
}

export function buildResult(r: TreeResult, sourceURL?: string, shared?: Rendered): ParseData {
  const { tree, options, output } = r;
  const f = options.formats;
  const mdOpts = markdownOptions(options);
  const warnings = [...r.warnings];
  const data: ParseData = { metadata: { ...tree.metadata, error: null }, warning: null };
  const needSpans = f.has('markdown') || options.pdf.blocks;
  const rendered = shared ?? (needSpans ? renderMarkdownWithSpans(tree, mdOpts) : undefined);
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
  // The PDF parser entry's `blocks` asks for the structure of every format, not only of PDFs.
  if (options.pdf.blocks && rendered)
    data.blocks = shared?.layout ?? layoutBlocks(tree, rendered.spans, rendered.markdown);
  if (r.chunks) data.chunks = r.chunks;
  data.warning = warnings.length ? warnings.join(' ') : null;
  return data;
}
