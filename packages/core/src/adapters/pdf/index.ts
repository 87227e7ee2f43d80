import { badInput, DocmillError, throwIfAborted } from '../../errors.ts';
import { root, section } from '../../tree/build.ts';
import type { Block, DocumentMetadata, Inline, TableCell } from '../../tree/types.ts';
import { blockText } from '../../tree/walk.ts';
import { firstPlace } from '../../util/arrays.ts';
import { monospacedByName } from '../../util/fonts.ts';
import { nextTask } from '../../util/task.ts';
import type { Adapter, AdapterContext, AdapterOutput, PageClass } from '../types.ts';
import { attachAccents } from './accents.ts';
import { openPdf, type PdfPageContent, type PdfSource } from './backend/index.ts';
import { buildBlocks, docStats, type LaidOutPage } from './blocks.ts';
import { countChars, pageClass } from './classify.ts';
import { codeTable } from './code.ts';
import {
  joinContinuedCode,
  joinContinuedLists,
  joinContinuedParagraphs,
  joinContinuedQuotes,
  joinContinuedTables,
  joinSetInParagraphs,
  textFrame,
} from './continued.ts';
import { drawnBullets } from './drawn-bullets.ts';
import { lowerDropCaps } from './dropcaps.ts';
import { dropFurnitureRows, findFurniture, findStamps, pageBodies } from './furniture.ts';
import { buildLines, lineSketches, sketchedLines } from './lines.ts';
import { attachLinks } from './links.ts';
import { outlineTitles } from './meta.ts';
import {
  isFieldFont,
  isTextBoxFont,
  type PageModel,
  type Rect,
  round2,
  type TableRegion,
  type TextItem,
} from './model.ts';
import { readingOrder, sideHeadRuns, sideHeadsPossible } from './order.ts';
import { dropOverprints } from './overprint.ts';
import { PitchTally } from './pitch.ts';
import { markQuotesOverBreaks } from './quotes.ts';
import { findTables, rulingNeeds } from './tables/index.ts';
import { wordCount } from './tables/words.ts';
import { splitAtTextStarts } from './text-objects.ts';
import { type Turned, withTurnedPassages } from './turned.ts';
import type { PlacedWord } from './words.ts';

export const adapter: Adapter = {
  name: 'pdf',
  kinds: ['pdf'],
  async parse(bytes, ctx) {
    throwIfAborted(ctx.signal);
    const src = await openPdf(bytes, { backend: ctx.pdf?.backend, password: ctx.password });
    try {
      return await readDocument(src, ctx);
    } finally {
      await src.close().catch(() => undefined);
    }
  },
};

async function readDocument(src: PdfSource, ctx: AdapterContext): Promise<AdapterOutput> {
  let total = src.pageCount;
  const max = ctx.options.pdf.maxPages;
  let count = max !== undefined ? Math.min(total, max) : total;
  if (count < total) ctx.warn(`Only the first ${count} of ${total} PDF pages were parsed (maxPages).`);
  const mode = ctx.options.pdf.mode;
  const mono = new Set<string>();
  const pitch = new PitchTally();
  const pages: LaidOutPage[] = [];
  // Each page's turned runs that no table took, read into its lines once every page is read (a
  // stamp tilted on every page is known only then).
  const turnedOf: Turned[] = [];
  const pageInfo: Record<number, PageClass> = {};
  const probes: Probes = { rulings: { fetched: 0, found: 0 }, bullets: { fetched: 0, found: 0 }, bulletHeights: [] };
  // PDFium's page objects cost about 3% of its text extraction (measured on pdfbench, all 1,210
  // pages); pdf.js's operator lists cost about as much as its text.
  const cheapGraphics = src.backend === 'pdfium';
  let failed = 0;
  let missingRun = 0;
  let tailProbed = false;
  let firstError: unknown;
  let lastTurn = performance.now();
  for (let n = 1; n <= count; n++) {
    // PDFium answers synchronously: without a task turn now and then, the engine's timeout timer
    // could not fire until the whole document was read.
    if (performance.now() - lastTurn > TURN_MS) {
      await nextTask();
      lastTurn = performance.now();
    }
    throwIfAborted(ctx.signal);
    let page: PdfPageContent | undefined;
    try {
      // Annotation parsing costs up to a fifth of text extraction on annotation-heavy pdf.js files,
      // so the text-only fast mode goes without links.
      page = await src.page(n, { links: mode !== 'fast', styles: mode !== 'fast' });
      const read = await readPage(page, n, mode, cheapGraphics, mono, pitch, pageInfo, probes);
      pages.push(read.page);
      turnedOf.push(read.turned);
      missingRun = 0;
    } catch (err) {
      if (err instanceof DocmillError) throw err;
      failed++;
      missingRun++;
      firstError ??= err;
      pages.push({ number: n, width: 0, height: 0, lines: [], tables: [], images: [] });
      turnedOf.push({ up: [], down: [], askew: [] });
    } finally {
      page?.close();
    }
    ctx.progress?.(n, count, 'pages');
    // The last page decides between a tree that claims too much and one damaged in the middle: when
    // it loads, the pages after the run may too, and they are read.
    if (missingRun >= MISSING_RUN && n < count && !tailProbed) {
      tailProbed = true;
      if (await loads(src, count)) continue;
      // With nothing read before the run, the document fails below as unreadable.
      if (missingRun < n) {
        ctx.warn(
          `The PDF claims ${total} pages, but none from page ${n - missingRun + 1} on could be read; they were skipped.`,
        );
        pages.splice(pages.length - missingRun);
        turnedOf.splice(turnedOf.length - missingRun);
        failed -= missingRun;
      }
      count = pages.length;
      total = count;
      break;
    }
  }
  if (failed && failed === count) {
    const detail = firstError instanceof Error ? firstError.message : String(firstError);
    throw badInput(`The PDF is damaged: none of its pages could be read (${detail}).`, firstError);
  }
  if (failed) ctx.warn(`${failed} damaged PDF page(s) could not be read and were left empty.`);
  throwIfAborted(ctx.signal);

  // Turned text left by the tables, read in its upright frame, stands where it is on the page; text
  // tilted the same way at the same place on half the pages is a stamp, left out as furniture. Pages
  // of one text (a page printed twice) count once, for stamps and running heads alike.
  const bodies = pageBodies(pages);
  const stamps = findStamps(
    turnedOf.map((t) => t.askew),
    bodies,
  );
  for (const [i, p] of pages.entries()) {
    const turned = turnedOf[i] as Turned;
    if (stamps.size) turned.askew = turned.askew.filter((it) => !stamps.has(it));
    p.lines = withTurnedPassages(p.lines, turned, p.width, p.height);
  }
  const furniture = findFurniture(pages, bodies);
  if (furniture.lines.size) for (const p of pages) p.lines = p.lines.filter((l) => !furniture.lines.has(l));
  for (const p of pages) {
    if (furniture.heads.size) p.tables = p.tables.filter((t) => !furniture.heads.has(t));
    for (const t of p.tables) dropFurnitureRows(t, p.height, furniture.recurring);
  }
  // Where the document's pages begin and end their text, for blocks a page break cuts.
  const frame = textFrame(pages);
  markQuotesOverBreaks(pages, frame);
  const outline = outlineTitles(await src.outline().catch(() => []));
  // pdf.js calls a font monospaced by its embedded widths alone, a subset's too (`DocStats.codeFont`);
  // PDFium by its descriptor's flag.
  const stats = docStats(pages, mono, outline, pitch.codeFonts(src.backend === 'pdfium' ? mono : undefined));
  const children: Block[] = pages.map((p) => {
    const extra: { width?: number; height?: number } = {};
    if (p.width) extra.width = round2(p.width);
    if (p.height) extra.height = round2(p.height);
    return section('page', p.number, buildBlocks(p, stats), extra);
  });
  joinContinuedTables(children);
  // Page markers and per-page Markdown ask for text where it was printed. A page OCR may read
  // again (any in `ocr` mode, one without a usable text layer in `auto`) has its blocks replaced:
  // a part moved onto or off it would be read twice or lost.
  const { pageMarkers, pages: perPage } = ctx.options.pdf;
  if (!pageMarkers && !perPage && mode !== 'ocr') {
    const text = pages.map((p) => ({
      lines: p.lines,
      settled: mode === 'fast' || pageInfo[p.number]?.text === 'text',
      quoteGoesOn: p.quoteOver?.after !== undefined,
    }));
    joinContinuedQuotes(children, text, stats.vocab);
    joinContinuedLists(children, text, frame, stats.vocab);
    joinContinuedParagraphs(children, text, stats.vocab);
    joinSetInParagraphs(children, text, stats.vocab, outline);
    joinContinuedCode(children, text, frame);
  }
  const metadata = await src.metadata().catch(() => ({}) as DocumentMetadata);
  if (!metadata.title) {
    const h = firstHeading(children);
    if (h) metadata.title = h;
  }
  metadata.numPages = count;
  metadata.totalPages = total;
  const out: AdapterOutput = { tree: root(children, metadata) };
  out.pageInfo = pageInfo;
  return out;
}

/**
 * Pages in a row that fail to load after which the rest of the page tree is taken as missing, unless
 * the last page loads. The page count is the file's own claim (/Count): a damaged one gave a one-page
 * file a million pages, each loaded in turn (and left empty) until the timeout.
 */
const MISSING_RUN = 256;

/** Whether page `n` loads at all (the page is closed again unread). */
async function loads(src: PdfSource, n: number): Promise<boolean> {
  let page: PdfPageContent | undefined;
  try {
    page = await src.page(n, { links: false });
    return true;
  } catch (err) {
    if (err instanceof DocmillError) throw err;
    return false;
  } finally {
    page?.close();
  }
}

/** Longest stretch of page reading without letting timers (the timeout) run. */
const TURN_MS = 25;

/**
 * Drawing instructions cost pdf.js about as much as the text itself. A document's tables share one
 * style, so once this many table-like pages have shown no ruled table, the rest are read from text
 * alone (borderless detection). Measured on pdfbench: 333 of 1,210 pages looked tabular, 295 of them
 * in one 400-page manual whose tables have no rulings at all.
 */
const RULING_PROBES = 6;
/**
 * In fast mode a page's drawing is read for its drawn bullets alone (`drawnBullets`) on a document's
 * first pages, then only once one was found: a document draws its bullets one way throughout. Read
 * on every page, they cost 1.6% of pdfbench's instructions (4% of the 400-page manual's, none of
 * whose pages draws one).
 */
const BULLET_PROBES = 8;

/** Pages whose drawing was read for something, and how many of them had it. */
interface Budget {
  fetched: number;
  found: number;
}

interface Probes {
  /** Ruled tables (pdf.js). */
  rulings: Budget;
  /** Drawn bullets, on pages read for them alone (PDFium, fast mode). */
  bullets: Budget;
  /** The heights of the drawn bullets read so far (`drawnBullets`). */
  bulletHeights: number[];
}

async function readPage(
  page: PdfPageContent,
  n: number,
  mode: string,
  cheapGraphics: boolean,
  mono: Set<string>,
  pitch: PitchTally,
  pageInfo: Record<number, PageClass>,
  probes: Probes,
): Promise<{ page: LaidOutPage; turned: Turned }> {
  const { width, height } = page;
  let items = lowerDropCaps(dropOverprints(attachAccents(page.items)));
  attachLinks(items, page.links, page.monoFonts, page.charStarts);
  for (const name of page.monoFonts) mono.add(name);
  const model: PageModel = { number: n, width, height, items, segments: null, rects: null };
  // A text box's note (`TextBox`) is written over the page, not its text layer: a scan with a note
  // typed on it is still a scan, for its images and for OCR (whose render shows the note too).
  const layer = items.filter((it) => !it.rotated && !isTextBoxFont(it.fontName));
  const noText = !layer.some((it) => it.str.trim());
  pitch.add(layer);
  let images: Rect[] = [];
  let coverage = 0;
  // With pdf.js, fast mode reads the text layer only (its tables come from text alignment alone)
  // and auto mode stops asking after RULING_PROBES pages without rulings. PDFium's page objects are
  // cheap: every table-like page gets its rulings in every mode, and in auto mode every page's
  // image coverage is measured for the OCR stage (images still become blocks only where they did).
  const textOnly = mode === 'fast' && !cheapGraphics;
  const need = textOnly ? null : rulingNeeds(model);
  const { rulings, bullets } = probes;
  const forTables = need?.table === true && (cheapGraphics || rulings.found > 0 || rulings.fetched < RULING_PROBES);
  if (forTables) rulings.fetched++;
  // Lines of two runs call for rulings only where they cost little, and only a plain ruled grid
  // found that way is taken (see `plainGrid`): two-column text has such lines on every page.
  // pdf.js decodes a page's images to list its drawing: asking on these pages too (with a probe
  // budget of their own) read two more ruled grids in the corpus and the bold and italic of 15
  // documents, for 12% more CPU over pdfbench in auto mode; in fast mode, asking on table-like pages
  // of either kind cost 82% (measured for issue 29).
  const pairedOnly = !forTables && cheapGraphics && need !== null && (need.table || need.paired);
  const layoutGraphics = forTables || (mode !== 'fast' && noText);
  // Fast mode never OCRs, but names scanned pages: only pages whose text layer is unusable pay for
  // measuring their images.
  const counts = countChars(layer);
  const unusable = mode === 'fast' && pageClass(counts, 0).text !== 'text';
  const measured = layoutGraphics || pairedOnly || (mode !== 'fast' && cheapGraphics) || unusable;
  // Where the drawing is cheap, pages are read for bullets drawn as shapes too (`BULLET_PROBES`); a
  // page's image coverage stays what fast mode measured before.
  const forBullets = !measured && cheapGraphics && (bullets.found > 0 || bullets.fetched < BULLET_PROBES);
  if (measured || forBullets) {
    const g = await page.graphics();
    if (g.textStarts?.length) items = splitAtTextStarts(items, g.textStarts);
    const runs = items.length;
    items = drawnBullets(items, g.marks, probes.bulletHeights);
    if (forBullets) bullets.fetched++;
    if (items.length > runs) bullets.found++;
    model.items = items;
    if (measured) coverage = g.imageCoverage;
    if (layoutGraphics || pairedOnly) {
      model.segments = g.segments;
      model.rects = g.rects;
    }
    if (layoutGraphics) images = g.images;
  }
  pageInfo[n] = pageClass(counts, coverage);
  if (mode !== 'fast') {
    const fields = fieldWords(items);
    if (fields.length) (pageInfo[n] as PageClass).fields = fields;
  }
  let tables: TableRegion[] = [];
  try {
    const accept = pairedOnly ? (t: TableRegion) => plainGrid(t, items) : undefined;
    tables = items.length ? findTables(model, accept) : [];
    // A table read across a margin column of side heads (a manual's section number, date and title
    // beside its first paragraph) took the heads as its first column: the tables are found again
    // without the column's runs. Only pages with tables pay for the lines this reads. A table that
    // is no table without the heads stays as it was unless it is a few rows, which read in order as
    // lines; a longer one would be read as text column by column. Most such pages have no column
    // of heads, which the lines' boxes show without their text.
    const sketches = tables.length ? lineSketches(items, rotatedRuns(items)) : null;
    const heads = sketches && sideHeadsPossible(sketches, items) ? sideHeadRuns(sketchedLines(items, sketches)) : [];
    if (heads.length) {
      const column = new Set(heads);
      const across = tables.filter((t) => t.itemIndices.some((i) => column.has(i)));
      const own = across.some((t) => ownColumn(t, column, items));
      const again = across.length && !own ? findTables(model, accept, column) : tables;
      if (again.length >= tables.length || across.every((t) => t.table.children.length <= FEW_ROWS)) tables = again;
    }
    // Where no rulings were read (pdf.js in fast mode), a ruled table passes for one found by
    // alignment: `codeTable` asks for code's signs, which a table of data lacks.
    if (tables.some((t) => !t.ruled)) {
      // At this point a code face is known by its name, or PDFium's reading of its descriptor;
      // one measured even (`PitchTally`) only once every page is read.
      const codeFont = (f: string): boolean => monospacedByName(f) || (cheapGraphics && page.monoFonts.includes(f));
      tables = tables.filter((t) => !codeTable(t, items, codeFont));
    }
    if (tables.some((t) => t.ruled)) rulings.found++;
  } catch {
    // Table detection is best effort: its text still flows as paragraphs.
    tables = [];
  }
  const skip = new Set<number>();
  for (const t of tables) for (const i of t.itemIndices) skip.add(i);
  const turned: Turned = { up: [], down: [], askew: [] };
  for (const [i, it] of items.entries()) {
    if (!it.rotated) continue;
    if (it.rotated !== 'over' && !skip.has(i) && it.str.trim()) turned[it.rotated].push(it);
    skip.add(i);
  }
  const lines = readingOrder(buildLines(items, skip.size ? skip : undefined), width);
  return { page: { number: n, width, height, lines, tables, images }, turned };
}

/** Rows of a table that, lost as a table, still read in order as lines of text. */
const FEW_ROWS = 4;

/**
 * Whether the side-head column's runs inside `t` stand on most of its rows: a head opens a section
 * beside a paragraph, so it meets a table over a few rows; a column of heads' shape on most rows
 * (a code over a bold name in each) is the table's own first column and stays in it.
 */
function ownColumn(t: TableRegion, column: ReadonlySet<number>, items: readonly TextItem[]): boolean {
  const rows = t.ys.length - 1;
  if (rows <= FEW_ROWS) return false;
  const held = new Set<number>();
  for (const i of t.itemIndices) {
    if (!column.has(i)) continue;
    const it = items[i] as TextItem;
    const mid = it.y + it.h / 2;
    // The boundaries run down the page: the row is the last one starting above the run's middle.
    held.add(firstPlace(t.ys, (y) => y <= mid));
  }
  return held.size * 2 > rows;
}

/** The indices of the runs set at a turn, which lines upright leave out; undefined where there are none. */
function rotatedRuns(items: readonly TextItem[]): Set<number> | undefined {
  const out = new Set<number>();
  for (const [i, it] of items.entries()) if (it.rotated) out.add(i);
  // None on most pages: the line code then asks no set about each run.
  return out.size ? out : undefined;
}

/**
 * A ruled table of two columns or more in which every cell is one column wide and holds text, its
 * first row a full row of headings: what a table ruled as a full grid gives (a cell may run down
 * over several rows, as one answer for two rows does), and what a figure's boxes and arrows do not.
 * Its lines need not break into three runs: cells wrapped over several lines and set in the middle
 * of their rows meet no line of the next cell, and a table of two rows has one or two such lines (a
 * browser's print of a bordered HTML table, a word processor's short table). `rulingNeeds` counts
 * left-to-right runs only, so right-to-left text asks by its figures alone: a grid holding any
 * right-to-left run is left to the rest (right_to_left_03's form, its labels' shading splitting
 * their rows, reads row by row, label before value).
 */
function plainGrid(t: TableRegion, items: readonly TextItem[]): boolean {
  const rows = t.table.children;
  const cols = rows[0]?.children.length ?? 0;
  if (rows.length < 2 || cols < 2) return false;
  if (t.itemIndices.some((i) => items[i]?.dir === 'rtl')) return false;
  const head = rows[0]?.children ?? [];
  if (!head.every((c) => (c.rowSpan ?? 1) === 1 && oneColumnFilled(c))) return false;
  if (rows.every((r) => r.children.every(oneColumnFilled))) return true;
  // Under a head of three headings or more, empty cells and short merged ones: a slide's table as a
  // presentation program draws it, its cells filled edge to edge. A box across the whole grid (a
  // panel under three tabs, a title block's frame) or a merged one holding prose makes none.
  return cols >= WIDE_HEAD && rows.every((r) => r.children.every((c) => slideCell(c, cols)));
}

/** A cell one column wide holding text: every cell of a plain grid (`plainGrid`). */
const oneColumnFilled = (c: TableCell): boolean => (c.colSpan ?? 1) === 1 && c.children.length > 0;

/** Fewest headings over a grid whose body may hold empty and merged cells (`plainGrid`). */
const WIDE_HEAD = 3;
/** Most words of a merged cell in such a grid. */
const MERGED_WORDS = 12;

function slideCell(c: TableCell, cols: number): boolean {
  const across = c.colSpan ?? 1;
  if (across >= cols) return false;
  if (across === 1 && (c.rowSpan ?? 1) === 1) return true;
  return wordCount(blockText(c)) <= MERGED_WORDS;
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

/** A page's form field values as placed words (`PageClass.fields`): each run, whole, at its box. */
function fieldWords(items: readonly TextItem[]): PlacedWord[] {
  const out: PlacedWord[] = [];
  for (const it of items)
    if (isFieldFont(it.fontName) && it.str.trim())
      out.push({ text: it.str.trim(), x0: it.x, x1: it.x + it.w, base: it.y + it.h, size: it.h });
  return out;
}
