import { isNode } from '../../../platform/index.ts';
import type { DocumentMetadata } from '../../../tree/types.ts';
import {
  apply,
  extractGraphics,
  extractItems,
  type FontFacts,
  type FontStyles,
  type Matrix,
  multiply,
  type OpCodes,
} from '../extract.ts';
import type { LinkBox } from '../links.ts';
import {
  type FieldWidget,
  MAX_FORM_OBJECTS,
  MAX_OPTIONS,
  MAX_TEXT_BOXES,
  MAX_WIDGETS,
  objectCount,
  type TextBox,
  textBoxItems,
  UNSEEN_FLAGS,
  widgetBoxes,
} from './annotations.ts';
import { type Described, fontDescriptors } from './descriptors.ts';
import { dingbatsText, isZapfDingbats, mentions, mentionsDingbats } from './dingbats.ts';
import { damagedError, pdfPasswordError } from './errors.ts';
import { baseFontName, boldByFacts, boldByName, italicByFacts, italicByName, weightOfStem } from './font-names.ts';
import { PackageDataFactory } from './pdfjs-data.ts';
import { needsGlyphs, restoreGlyphs } from './pdfjs-glyphs.ts';
import type { OutlineEntry, PageGraphics, PdfBackend, PdfPageContent, PdfSource, RenderedPage } from './types.ts';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;
type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;

let loading: Promise<PdfJs> | undefined;

/**
 * pdf.js is imported on first use only. In Node it runs its worker code on the main thread (its
 * "fake worker", loaded by pdf.js itself from the module beside pdf.mjs), which is what we want:
 * one parse is one task, and no worker thread outlives it. Browsers get the same: pdf.js would
 * otherwise want a worker script URL (a CDN in most setups); its worker code is imported here as
 * a lazy chunk of the app's own bundle and handed over as `globalThis.pdfjsWorker`, which pdf.js
 * runs in the calling thread (itself a pool worker when parses run in one).
 */
function loadPdfJs(): Promise<PdfJs> {
  loading ??= (async () => {
    if (!isNode) {
      const worker = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
      const scope = globalThis as { pdfjsWorker?: unknown };
      scope.pdfjsWorker ??= worker;
    }
    return import('pdfjs-dist/legacy/build/pdf.mjs');
  })();
  return loading;
}

/** pdf.js: the fallback backend, and the one chosen with `createEngine({ pdf: { backend: 'pdfjs' } })`. */
export const pdfjsBackend: PdfBackend = {
  name: 'pdfjs',
  async open(bytes, options) {
    const pdfjs = await loadPdfJs();
    // pdf.js transfers (detaches) the buffer it is given; the caller's bytes must stay usable.
    const task = pdfjs.getDocument({
      data: bytes.slice(),
      password: options?.password,
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      stopAtErrors: false,
      verbosity: 0,
      BinaryDataFactory: PackageDataFactory,
    });
    let doc: PdfDocument;
    try {
      doc = await task.promise;
    } catch (err) {
      await task.destroy().catch(() => undefined);
      if ((err as { name?: string })?.name === 'PasswordException') throw pdfPasswordError(options?.password, err);
      throw damagedError(err instanceof Error ? err.message : String(err), err);
    }
    return source(doc, pdfjs.OPS as unknown as OpCodes, mentionsDingbats(bytes), mentions(bytes, '/FreeText'), bytes);
  },
};

/**
 * Pages of a document whose drawing instructions are fetched only to learn fonts not met before,
 * where pdf.js runs unpatched (a package installed from npm): this workspace's patch of pdf.js
 * names each font in the text content's styles (`PatchedStyle`), and a probe is then taken only
 * for a font pdf.js failed to load. Unpatched, pdf.js names a font (and so says whether it is bold
 * or italic) only once an operator list of a page using it has loaded it, and fonts are the
 * document's: the first pages of a document teach the fonts of most of the rest. Without them,
 * pdf.js lost the bold and italic of every page read from its text alone, and headings and labels
 * told by weight with them (without probes, 37 of the 99 corpus PDFs read differently).
 *
 * A probe costs a whole operator list, images decoded (pdfbench in auto mode: 17% more CPU than
 * without probes), and pdf.js 5.6 offers nothing cheaper. Its text content parses each font
 * in the worker but sends it here only from an operator list's setFont, and its `styles` name a
 * generic family (`fontExtraProperties` adds the family only of a system font standing in for a
 * font not embedded, with `useSystemFonts`). An operator list decodes every image it paints: no
 * intent or option skips that but `maxImageSize`, which is the whole document's and removes the
 * images' paint operators too (the page's drawing needs their place). A second document opened
 * with `maxImageSize: 0` for the probes alone, its fonts matched to this one's by the probed
 * page's text items, saved on photo pages (a1977-backus 219 -> 124 ms) and lost more on the
 * others, which parse their fonts twice (failure-after-repair 519 -> 908 ms, normal_4pages
 * 466 -> 890 ms).
 */
const FONT_PROBES = 12;

/** Font probes left to a document, and the fonts a probe has already looked for. */
interface FontProbes {
  left: number;
  /** Fonts a probe met, named or not: one pdf.js cannot name is not looked for again. */
  tried: Set<string>;
}

function source(doc: PdfDocument, OPS: OpCodes, dingbats: boolean, textBoxes: boolean, bytes: Uint8Array): PdfSource {
  // Patched pdf.js names fonts in the text content's styles; unpatched, only once an operator list
  // has loaded them, and their descriptors are then read from the bytes the first time a font is
  // named that way (never in fast mode).
  const fonts: FontStyles = new Map();
  let described: Map<string, Described> | undefined;
  const descriptors = (): Map<string, Described> => {
    described ??= fontDescriptors(bytes);
    return described;
  };
  const probes: FontProbes = { left: FONT_PROBES, tried: new Set() };
  // Whether the document has form fields, whose widgets' values are page text: asked once, as
  // the form (in the catalog) may sit in a compressed object stream no byte scan reads. A file too
  // large for PDFium's form reader has none read here either (`MAX_FORM_OBJECTS`): counted only
  // where there are fields, not for every document.
  let forms: Promise<boolean> | undefined;
  const hasForms = (): Promise<boolean> => {
    forms ??= doc.getFieldObjects().then(
      (fields) =>
        fields !== null && Object.keys(fields).length > 0 && objectCount(bytes, MAX_FORM_OBJECTS) <= MAX_FORM_OBJECTS,
      () => false,
    );
    return forms;
  };
  // pdf.js answers through message round trips: the next page is requested while the current one
  // is read, which hides their latency on a front-to-back walk.
  let prefetch: { n: number; page: Promise<PdfPage> } | null = null;
  const getPage = (n: number): Promise<PdfPage> => {
    const hit = prefetch?.n === n ? prefetch.page : doc.getPage(n);
    prefetch = null;
    if (n < doc.numPages) {
      prefetch = { n: n + 1, page: doc.getPage(n + 1) };
      prefetch.page.catch(() => undefined);
    }
    return hit;
  };
  return {
    backend: 'pdfjs',
    pageCount: doc.numPages,
    metadata: () => documentInfo(doc),
    outline: () => outlineEntries(doc),
    async page(n, request) {
      const page = await getPage(n);
      try {
        const links = request?.links === true;
        const annotations = links || textBoxes || (await hasForms());
        return await readPage(
          page,
          OPS,
          fonts,
          descriptors,
          request?.styles ? probes : null,
          links,
          annotations,
          dingbats,
        );
      } catch (err) {
        page.cleanup();
        throw err;
      }
    },
    async render(n, dpi) {
      const page = await doc.getPage(n);
      try {
        return await renderPage(doc, page, dpi);
      } finally {
        page.cleanup();
      }
    },
    async close() {
      prefetch = null;
      await doc.destroy().catch(() => undefined);
    },
  };
}

async function readPage(
  page: PdfPage,
  OPS: OpCodes,
  fonts: FontStyles,
  descriptors: () => Map<string, Described>,
  probes: FontProbes | null,
  links: boolean,
  annotated: boolean,
  dingbats: boolean,
): Promise<PdfPageContent> {
  const viewport = page.getViewport({ scale: 1 });
  const vt = viewport.transform as Matrix;
  // Annotation parsing costs up to a fifth of text extraction on annotation-heavy files; it is
  // requested alongside the text to overlap the two. Text boxes are page text, read in every mode
  // where the file shows one uncompressed (`TextBox`); fast mode without links reads no others.
  const annotations = annotated
    ? (page.getAnnotations({ intent: 'display' }).catch(() => []) as Promise<RawAnnotation[]>)
    : null;
  const tc = await page.getTextContent();
  let opList: ReturnType<PdfPage['getOperatorList']> | undefined;
  const operators = () => {
    opList ??= page.getOperatorList();
    return opList;
  };
  const names = Object.keys(tc.styles);
  fontsOfStyles(tc.styles as Record<string, PatchedStyle>, fonts);
  const unnamed = names.some((n) => !fonts.has(n));
  // Fonts the styles leave unnamed (pdf.js unpatched, or a font it failed to load) are named from
  // the drawing instructions: in a file that names a Dingbats font before its text is read, as the
  // codes of ZapfDingbats are pictures, not the letters pdf.js's text layer gives; in other files
  // where styles are asked for (not in fast mode), while font probes are left (`FONT_PROBES`) and
  // the page uses a font not yet named.
  const probe =
    !dingbats && probes !== null && probes.left > 0 && names.some((n) => !fonts.has(n) && !probes.tried.has(n));
  if (probe && probes) {
    probes.left--;
    for (const n of names) probes.tried.add(n);
  }
  if ((dingbats && unnamed) || probe) {
    await operators();
    learnFonts(page, names, fonts, descriptors);
  }
  // Right-to-left runs may hold glyphs of several letters turned round; only the drawing
  // instructions say where glyphs begin (`restoreGlyphs`), fetched for such pages in every mode.
  if (needsGlyphs(tc.items)) restoreGlyphs(tc.items, await operators(), OPS);
  const { items, width, height, turn } = extractItems(tc, vt, viewport.width, viewport.height, fonts);
  const frame = turn ? multiply(turn, vt) : vt;
  if (dingbats) {
    for (const it of items) {
      const f = fonts.get(it.fontName);
      if (f?.dingbats) {
        it.str = dingbatsText(it.str);
        it.fontName = f.name;
      }
    }
  }
  // Runs carry their font's own name where it is known, as PDFium's do: pdf.js names each font
  // dictionary apart (g_d0_f4, g_d0_f6), and two dictionaries of one face read as two fonts, the
  // rarer taken for a heading's (pdf-bad-color-space). A font named later, by `graphics`, keeps
  // pdf.js's name on this page, and so does the page's list of monospaced fonts.
  const own = new Map<string, string>();
  for (const name of names) {
    const f = fonts.get(name);
    own.set(name, f?.name ? baseFontName(f.name) : name);
  }
  for (const it of items) {
    const f = fonts.get(it.fontName);
    if (!f) continue;
    // Turned runs too, which `extractItems` leaves upright-styled: `graphics` finds fonts by
    // pdf.js's name, which these runs no longer carry.
    it.bold = f.bold;
    it.italic = f.italic;
    if (f.name) it.fontId = f.name;
    it.fontName = own.get(it.fontName) ?? it.fontName;
  }
  const monoFonts: string[] = [];
  for (const [name, st] of Object.entries(tc.styles))
    if (st.fontFamily === 'monospace') monoFonts.push(own.get(name) ?? name);
  const annots = (await annotations) ?? [];
  const boxes = textBoxes(annots);
  const widgets = fieldWidgets(annots);
  if (widgets.length) boxes.push(...widgetBoxes(widgets));
  if (boxes.length) items.push(...textBoxItems(boxes, frame));
  let graphics: Promise<PageGraphics> | undefined;
  return {
    width,
    height,
    items,
    monoFonts,
    links: links ? pageLinks(annots, frame) : undefined,
    graphics() {
      graphics ??= (async () => {
        const ops = await operators();
        const g = extractGraphics(ops, OPS, frame, width, height);
        learnFonts(page, names, fonts, descriptors);
        for (const it of items) {
          const f = fonts.get(it.fontName);
          if (f) {
            it.bold = f.bold;
            it.italic = f.italic;
          }
        }
        return g;
      })();
      return graphics;
    },
    close() {
      page.cleanup();
    },
  };
}

/** What pdf.js says of a font's face: by name, and `black` for Arial Black and the like. */
interface PdfJsFace {
  name?: string;
  bold?: boolean;
  italic?: boolean;
  black?: boolean;
}

/**
 * A text content style as this workspace's patch of pdf.js gives it: the font's own name and face,
 * and where the font has a descriptor its flags and stem width (`null` without one). pdf.js
 * unpatched gives none of these.
 */
interface PatchedStyle extends PdfJsFace {
  descriptorFlags?: number;
  stemV?: number | null;
}

/**
 * A font's facts as PDFium reads them. With its descriptor's facts, bold and italic by the
 * force-bold and italic flags, and by weight where the name leaves it open (`boldByFacts`).
 */
function fontFacts(f: PdfJsFace | null, d: Described | undefined): FontFacts {
  const fontName = f?.name ?? '';
  const base = baseFontName(fontName);
  return {
    name: fontName,
    bold: Boolean(f?.bold || f?.black) || (d ? boldByFacts(base, d.flags, d.weight) : boldByName(fontName)),
    italic: Boolean(f?.italic) || (d ? italicByFacts(base, d.flags) : italicByName(fontName)),
    dingbats: isZapfDingbats(fontName),
  };
}

/** Fonts named by the patched text content's styles: every font pdf.js loaded, at no cost. */
function fontsOfStyles(styles: Record<string, PatchedStyle>, fonts: FontStyles): void {
  for (const [name, st] of Object.entries(styles)) {
    if (fonts.has(name) || typeof st.name !== 'string') continue;
    const d =
      typeof st.descriptorFlags === 'number'
        ? { flags: st.descriptorFlags, weight: weightOfStem(st.stemV) }
        : undefined;
    fonts.set(name, fontFacts(st, d));
  }
}

/**
 * Unpatched, pdf.js hands font names (and so bold/italic) to the main thread only with an operator
 * list; their descriptors are read from the file's bytes (`fontDescriptors`).
 */
function learnFonts(
  page: PdfPage,
  names: string[],
  fonts: FontStyles,
  descriptors: () => Map<string, Described>,
): void {
  for (const name of names) {
    if (fonts.has(name) || !page.commonObjs.has(name)) continue;
    const f = page.commonObjs.get(name) as PdfJsFace | null;
    const fontName = f?.name ?? '';
    fonts.set(name, fontFacts(f, fontName ? descriptors().get(fontName) : undefined));
  }
}

interface RawAnnotation {
  subtype?: string;
  url?: string;
  unsafeUrl?: string;
  rect?: number[];
  annotationFlags?: number;
  contentsObj?: { str?: string };
  defaultAppearanceData?: { fontName?: string; fontSize?: number };
  /** A widget's field: its kind ('Tx', 'Btn', 'Ch', 'Sig'), value and options, as pdf.js reads them. */
  fieldType?: string;
  fieldValue?: string | string[];
  checkBox?: boolean;
  radioButton?: boolean;
  /** A check box's on state, and a radio button's. */
  exportValue?: string;
  buttonValue?: string;
  password?: boolean;
  multiLine?: boolean;
  hidden?: boolean;
  options?: { exportValue?: string; displayValue?: string }[];
}

/** The page's form widgets that show a value (`FieldWidget`), as PDFium's reading gives them. */
function fieldWidgets(annots: RawAnnotation[]): FieldWidget[] {
  const out: FieldWidget[] = [];
  for (const a of annots) {
    if (out.length >= MAX_WIDGETS) break;
    if (a.subtype !== 'Widget' || !a.rect || a.rect.length < 4) continue;
    if ((a.annotationFlags ?? 0) & UNSEEN_FLAGS || a.hidden) continue;
    let value: string | boolean;
    if (a.fieldType === 'Btn' && (a.checkBox || a.radioButton))
      value = a.fieldValue !== undefined && a.fieldValue === (a.checkBox ? a.exportValue : a.buttonValue);
    else if (a.fieldType === 'Tx' && !a.password) value = typeof a.fieldValue === 'string' ? a.fieldValue : '';
    else if (a.fieldType === 'Ch') {
      const chosen = Array.isArray(a.fieldValue) ? a.fieldValue : a.fieldValue ? [a.fieldValue] : [];
      // Shown by their labels in the options' order, as PDFium reads them (the export values behind
      // them may be codes): those of the first options; a value none of them has, as it is.
      const options = new Map<string, { label: string; at: number }>();
      for (const [at, o] of (a.options ?? []).slice(0, MAX_OPTIONS).entries())
        if (o.exportValue !== undefined && !options.has(o.exportValue))
          options.set(o.exportValue, { label: o.displayValue ?? o.exportValue, at });
      const known = chosen.filter((v) => options.has(v)).map((v) => options.get(v) as { label: string; at: number });
      value = known.length
        ? known
            .sort((x, y) => x.at - y.at)
            .map((o) => o.label)
            .join(', ')
        : chosen.join(', ');
    } else continue;
    const rect = a.rect.slice(0, 4) as [number, number, number, number];
    out.push({ rect, value, multiline: a.fieldType === 'Tx' && !!a.multiLine });
  }
  return out;
}

/** The page's text boxes (`TextBox`): FreeText annotations a viewer shows. */
function textBoxes(annots: RawAnnotation[]): TextBox[] {
  const out: TextBox[] = [];
  for (const a of annots) {
    if (out.length >= MAX_TEXT_BOXES) break;
    const contents = a.contentsObj?.str;
    if (a.subtype !== 'FreeText' || !contents?.trim() || !a.rect || a.rect.length < 4) continue;
    if ((a.annotationFlags ?? 0) & UNSEEN_FLAGS) continue;
    // pdf.js parses /DA; written back as PDFium gives it, one reading serves both.
    const d = a.defaultAppearanceData;
    const da = d?.fontSize ? `/${d.fontName || 'Helvetica'} ${d.fontSize} Tf` : '';
    out.push({ rect: a.rect.slice(0, 4) as [number, number, number, number], contents, da });
  }
  return out;
}

const web = /^(https?:|mailto:|ftp:)/i;

function pageLinks(annots: RawAnnotation[], frame: Matrix): LinkBox[] | undefined {
  const out: LinkBox[] = [];
  for (const a of annots) {
    // The URI as the file writes it, as PDFium gives it: pdf.js's `url` is rebuilt by the URL
    // parser (a slash added after a bare host, characters escaped). Its `url` still serves where
    // the file's own lacks a scheme, which pdf.js supplies.
    const href = a.unsafeUrl && web.test(a.unsafeUrl) ? a.unsafeUrl : a.url;
    if (a.subtype !== 'Link' || !href || !a.rect || a.rect.length < 4) continue;
    if (!web.test(href)) continue;
    const [ax, ay, bx, by] = a.rect as [number, number, number, number];
    const [px, py] = apply(frame, ax, ay);
    const [qx, qy] = apply(frame, bx, by);
    out.push({ x0: Math.min(px, qx), y0: Math.min(py, qy), x1: Math.max(px, qx), y1: Math.max(py, qy), href });
  }
  return out.length ? out : undefined;
}

interface OutlineNode {
  title: string;
  items: OutlineNode[];
}

async function outlineEntries(doc: PdfDocument): Promise<OutlineEntry[]> {
  const out: OutlineEntry[] = [];
  let nodes: OutlineNode[] | null = null;
  try {
    nodes = (await doc.getOutline()) as OutlineNode[] | null;
  } catch {
    return out;
  }
  const walk = (list: OutlineNode[], depth: number): void => {
    for (const n of list) {
      if (out.length >= 5000) return;
      out.push({ title: n.title ?? '', depth });
      if (n.items?.length && depth < 6) walk(n.items, depth + 1);
    }
  };
  if (nodes) walk(nodes, 1);
  return out;
}

/** Title, author, subject, keywords and language from the info dictionary, then XMP. */
async function documentInfo(doc: PdfDocument): Promise<DocumentMetadata> {
  const md: DocumentMetadata = {};
  try {
    const m = await doc.getMetadata();
    const info = (m.info ?? {}) as Record<string, unknown>;
    const xmp = m.metadata as { get(name: string): unknown } | null;
    const pick = (...vals: unknown[]): string | undefined => {
      for (const v of vals) if (typeof v === 'string' && v.trim()) return v.replace(/\s+/g, ' ').trim();
      return undefined;
    };
    const title = pick(info.Title, xmp?.get('dc:title'));
    if (title) md.title = title;
    const author = pick(info.Author, xmp?.get('dc:creator'));
    if (author) md.author = author;
    const subject = pick(info.Subject, xmp?.get('dc:description'));
    if (subject) md.description = subject;
    const keywords = pick(info.Keywords, xmp?.get('pdf:keywords'));
    if (keywords) md.keywords = keywords;
    const lang = pick(info.Language, xmp?.get('dc:language'));
    if (lang) md.language = lang;
  } catch {
    // Broken metadata must not cost the document's text.
  }
  return md;
}

/**
 * Renders through pdf.js's own canvas factory (in Node it loads the `@napi-rs/canvas` version pdf.js
 * pins; a second copy of that library in the process crashes it).
 */
async function renderPage(doc: PdfDocument, page: PdfPage, dpi: number): Promise<RenderedPage> {
  const scale = (Number.isFinite(dpi) && dpi > 0 ? dpi : 72) / 72;
  const viewport = page.getViewport({ scale });
  const width = Math.max(1, Math.round(viewport.width));
  const height = Math.max(1, Math.round(viewport.height));
  const factory = (doc as unknown as { canvasFactory: CanvasFactory }).canvasFactory;
  const target = factory.create(width, height);
  try {
    target.context.fillStyle = '#ffffff';
    target.context.fillRect(0, 0, width, height);
    await page.render({ canvasContext: target.context as never, canvas: target.canvas as never, viewport }).promise;
    const img = target.context.getImageData(0, 0, width, height);
    return { width, height, data: new Uint8ClampedArray(img.data) };
  } finally {
    factory.destroy(target);
  }
}

interface CanvasFactory {
  create(
    w: number,
    h: number,
  ): {
    canvas: unknown;
    context: {
      fillStyle: string;
      fillRect(x: number, y: number, w: number, h: number): void;
      getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> };
    };
  };
  destroy(target: unknown): void;
}
