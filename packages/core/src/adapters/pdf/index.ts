import { badInput, DocmillError, throwIfAborted } from '../../errors.ts';
import { root, section } from '../../tree/build.ts';
import type { Block, Inline } from '../../tree/types.ts';
import type { Adapter, AdapterContext, AdapterOutput, PageClass } from '../types.ts';
import { buildBlocks, docStats, type LaidOutPage } from './blocks.ts';
import { classifyPage } from './classify.ts';
import { joinContinuedTables } from './continued.ts';
import { extractGraphics, extractItems, type FontStyles, type Matrix, multiply, type OpCodes } from './extract.ts';
import { findFurniture } from './furniture.ts';
import { buildLines, type LinkBox } from './lines.ts';
import { documentInfo, outlineTitles } from './meta.ts';
import type { PageModel, Rect, TableRegion } from './model.ts';
import { readingOrder } from './order.ts';
import { loadPdfJs, openDocument, type PdfPage } from './pdfjs.ts';
import { findTables, wantsRulings } from './tables/index.ts';

export const adapter: Adapter = {
  name: 'pdf',
  kinds: ['pdf'],
  async parse(bytes, ctx) {
    const pdfjs = await loadPdfJs();
    throwIfAborted(ctx.signal);
    const doc = await openDocument(pdfjs, bytes);
    try {
      return await readDocument(doc, pdfjs.OPS as unknown as OpCodes, ctx);
    } finally {
      await doc.destroy().catch(() => undefined);
    }
  },
};

async function readDocument(
  doc: Awaited<ReturnType<typeof openDocument>>,
  OPS: OpCodes,
  ctx: AdapterContext,
): Promise<AdapterOutput> {
  const total = doc.numPages;
  const max = ctx.options.pdf.maxPages;
  const count = max !== undefined ? Math.min(total, max) : total;
  if (count < total) ctx.warn(`Only the first ${count} of ${total} PDF pages were parsed (maxPages).`);
  const mode = ctx.options.pdf.mode;
  const fonts: FontStyles = new Map();
  const mono = new Set<string>();
  const pages: LaidOutPage[] = [];
  const pageInfo: Record<number, PageClass> = {};
  const rulings: RulingBudget = { fetched: 0, found: 0 };
  let failed = 0;
  let firstError: unknown;
  // The next page is requested while the current one is laid out: pdf.js answers through message
  // round trips, and keeping one request in flight hides their latency.
  let pending: Promise<PdfPage> | null = count ? doc.getPage(1) : null;
  for (let n = 1; n <= count; n++) {
    throwIfAborted(ctx.signal);
    let page: PdfPage | undefined;
    try {
      const current = pending as Promise<PdfPage>;
      pending = n < count ? doc.getPage(n + 1) : null;
      pending?.catch(() => undefined);
      page = await current;
      const laid = await readPage(page, n, OPS, mode, fonts, mono, pageInfo, rulings);
      pages.push(laid);
    } catch (err) {
      if (err instanceof DocmillError) throw err;
      failed++;
      firstError ??= err;
      pages.push({ number: n, width: 0, height: 0, lines: [], tables: [], images: [] });
    } finally {
      page?.cleanup();
    }
    ctx.progress?.(n, count, 'pages');
  }
  if (failed && failed === count) {
    const detail = firstError instanceof Error ? firstError.message : String(firstError);
    throw badInput(`The PDF is damaged: none of its pages could be read (${detail}).`, firstError);
  }
  if (failed) ctx.warn(`${failed} damaged PDF page(s) could not be read and were left empty.`);
  throwIfAborted(ctx.signal);

  const furniture = findFurniture(pages);
  if (furniture.size) for (const p of pages) p.lines = p.lines.filter((l) => !furniture.has(l));
  const outline = await outlineTitles(doc);
  const stats = docStats(pages, mono, outline);
  const children: Block[] = pages.map((p) => {
    const extra: { width?: number; height?: number } = {};
    if (p.width) extra.width = round2(p.width);
    if (p.height) extra.height = round2(p.height);
    return section('page', p.number, buildBlocks(p, stats), extra);
  });
  joinContinuedTables(children);
  const metadata = await documentInfo(doc);
  if (!metadata.title) {
    const h = firstHeading(children);
    if (h) metadata.title = h;
  }
  metadata.numPages = count;
  metadata.totalPages = total;
  const out: AdapterOutput = { tree: root(children, metadata) };
  if (mode !== 'fast') out.pageInfo = pageInfo;
  return out;
}

const round2 = (v: number): number => Math.round(v * 100) / 100;

/**
 * Operator lists cost about as much as the text itself. A document's tables share one style, so
 * once this many table-like pages have shown no ruled table, the rest are read from text alone
 * (borderless detection). Measured on pdfbench: 333 of 1,210 pages looked tabular, 295 of them
 * in one 400-page manual whose tables have no rulings at all.
 */
const RULING_PROBES = 6;

interface RulingBudget {
  fetched: number;
  found: number;
}

async function readPage(
  page: PdfPage,
  n: number,
  OPS: OpCodes,
  mode: string,
  fonts: FontStyles,
  mono: Set<string>,
  pageInfo: Record<number, PageClass>,
  rulings: RulingBudget,
): Promise<LaidOutPage> {
  const viewport = page.getViewport({ scale: 1 });
  const vt = viewport.transform as Matrix;
  // Annotation parsing costs up to a fifth of text extraction on annotation-heavy files, so the
  // text-only fast mode goes without links; it is requested alongside the text to overlap the two.
  const annotations = mode === 'fast' ? null : page.getAnnotations({ intent: 'display' }).catch(() => []);
  const tc = await page.getTextContent();
  for (const [name, st] of Object.entries(tc.styles)) if (st.fontFamily === 'monospace') mono.add(name);
  const { items, width, height, turn } = extractItems(tc, vt, viewport.width, viewport.height, fonts);
  const frame = turn ? multiply(turn, vt) : vt;
  const model: PageModel = { number: n, width, height, items, segments: null, rects: null };
  const noText = !items.some((it) => !it.rotated && it.str.trim());
  let images: Rect[] = [];
  let coverage = 0;
  // Fast mode reads the text layer only: its tables come from text alignment alone.
  const forTables = mode !== 'fast' && wantsRulings(model) && (rulings.found > 0 || rulings.fetched < RULING_PROBES);
  if (forTables) rulings.fetched++;
  if (forTables || (mode !== 'fast' && noText)) {
    const ops = await page.getOperatorList();
    const g = extractGraphics(ops, OPS, frame, width, height);
    model.segments = g.segments;
    model.rects = g.rects;
    images = g.images;
    coverage = g.imageCoverage;
    learnFonts(page, Object.keys(tc.styles), fonts);
    for (const it of items) {
      const f = fonts.get(it.fontName);
      if (f) {
        it.bold = f.bold;
        it.italic = f.italic;
      }
    }
  }
  if (mode !== 'fast')
    pageInfo[n] = classifyPage(
      items.filter((it) => !it.rotated),
      coverage,
    );
  const links = annotations ? pageLinks((await annotations) as RawAnnotation[], frame) : undefined;
  let tables: TableRegion[] = [];
  try {
    tables = items.length ? findTables(model) : [];
    if (tables.some((t) => t.ruled)) rulings.found++;
  } catch {
    // Table detection is best effort: its text still flows as paragraphs.
    tables = [];
  }
  const skip = new Set<number>();
  for (const t of tables) for (const i of t.itemIndices) skip.add(i);
  for (const [i, it] of items.entries()) if (it.rotated) skip.add(i);
  const lines = readingOrder(buildLines(items, skip.size ? skip : undefined, links), width);
  return { number: n, width, height, lines, tables, images };
}

/** pdf.js hands font names (and so bold/italic) to the main thread only with an operator list. */
function learnFonts(page: PdfPage, names: string[], fonts: FontStyles): void {
  for (const name of names) {
    if (fonts.has(name) || !page.commonObjs.has(name)) continue;
    const f = page.commonObjs.get(name) as { name?: string; bold?: boolean; italic?: boolean; black?: boolean } | null;
    const fontName = f?.name ?? '';
    fonts.set(name, {
      bold: Boolean(f?.bold || f?.black) || /bold|black|heavy|semibold|demi/i.test(fontName),
      italic: Boolean(f?.italic) || /italic|oblique/i.test(fontName),
    });
  }
}

interface RawAnnotation {
  subtype?: string;
  url?: string;
  unsafeUrl?: string;
  rect?: number[];
}

function pageLinks(annots: RawAnnotation[], frame: Matrix): LinkBox[] | undefined {
  const out: LinkBox[] = [];
  for (const a of annots) {
    const href = a.url ?? a.unsafeUrl;
    if (a.subtype !== 'Link' || !href || !a.rect || a.rect.length < 4) continue;
    if (!/^(https?:|mailto:|ftp:)/i.test(href)) continue;
    const [ax, ay, bx, by] = a.rect as [number, number, number, number];
    const p = [frame[0] * ax + frame[2] * ay + frame[4], frame[1] * ax + frame[3] * ay + frame[5]];
    const q = [frame[0] * bx + frame[2] * by + frame[4], frame[1] * bx + frame[3] * by + frame[5]];
    out.push({
      x0: Math.min(p[0] as number, q[0] as number),
      y0: Math.min(p[1] as number, q[1] as number),
      x1: Math.max(p[0] as number, q[0] as number),
      y1: Math.max(p[1] as number, q[1] as number),
      href,
    });
  }
  return out.length ? out : undefined;
}

function firstHeading(blocks: Block[]): string | undefined {
  for (const b of blocks) {
    if (b.type === 'section') {
      const h = firstHeading(b.children);
      if (h) return h;
    } else if (b.type === 'heading') {
      const t = plain(b.children).trim();
      if (t) return t;
    }
  }
  return undefined;
}

function plain(nodes: Inline[]): string {
  let s = '';
  for (const n of nodes) {
    if (n.type === 'text' || n.type === 'inlineCode' || n.type === 'inlineMath') s += n.value;
    else if ('children' in n) s += plain(n.children as Inline[]);
  }
  return s;
}
