import { badInput, type DocmillError } from '../../../errors.ts';
import type { DocumentMetadata } from '../../../tree/types.ts';
import { apply, type Matrix, multiply, ShapeCollector } from '../extract.ts';
import type { LinkBox } from '../links.ts';
import {
  type FieldWidget,
  MAX_FIELD_CHARS,
  MAX_FORM_OBJECTS,
  MAX_OPTIONS,
  MAX_TEXT_BOXES,
  MAX_WIDGETS,
  objectCount,
  type TextBox,
  textBoxItems,
  ticked,
  UNSEEN_FLAGS,
  widgetBoxes,
} from './annotations.ts';
import { damagedError, pdfPasswordError } from './errors.ts';
import { assembleRuns, type FontFacts, type Frame } from './runs.ts';
import type {
  OpenOptions,
  OutlineEntry,
  PageGraphics,
  PageRequest,
  PdfBackend,
  PdfPageContent,
  PdfSource,
  RenderedPage,
} from './types.ts';
import { loadPdfium, type Pdfium, RECYCLE_BYTES, retirePdfium } from './wasm.ts';

/** `FPDF_GetLastError` codes. */
const ERR_PASSWORD = 4;
const ERR_SECURITY = 5;
const ERROR_NAMES = ['success', 'unknown error', 'file error', 'format error', 'password', 'security', 'page error'];

/** Page object types (fpdf_edit.h). */
const OBJ_PATH = 2;
const OBJ_IMAGE = 3;
const OBJ_FORM = 5;
/** Path segment types. */
const SEG_LINETO = 0;
const SEG_BEZIERTO = 1;
const SEG_MOVETO = 2;

/** Render flags: draw annotations (form field appearances), write RGBA instead of BGRA. */
const FPDF_ANNOT = 0x01;
const FPDF_REVERSE_BYTE_ORDER = 0x10;
const BITMAP_BGRA = 4;
/** A rendered page never exceeds this many pixels (≈ 256 MB of RGBA): huge pages render at a lower dpi. */
const MAX_PIXELS = 64_000_000;
/** Path segments read per page before the rest of its drawing is ignored (maps, charts). */
const MAX_PATH_SEGMENTS = 100_000;
/** Form XObjects nest; deeper nesting than this is damage or a trap. */
const MAX_FORM_DEPTH = 8;
/**
 * How much PDFium's memory may grow while it opens a document or reads one page (its content
 * streams inflated, its fonts loaded), and while it renders one (the bitmap, up to 256 MB at
 * MAX_PIXELS, and the images decoded). A stream that inflates past it fails the document at once:
 * a 2 GB content stream took 27 s and left 2 GB behind before.
 */
export const PAGE_MEMORY_BYTES = 256 * 1024 * 1024;
export const RENDER_MEMORY_BYTES = 512 * 1024 * 1024;

const MB = 1024 * 1024;
const MEMORY_REFUSAL = 'The PDF needs more than';
/** Whether an open failed on the memory budget (pdf.js, which inflates in JS, is not tried then). */
export const isMemoryRefusal = (err: unknown): boolean =>
  err instanceof Error && err.message.startsWith(MEMORY_REFUSAL);
function memoryError(what: string, budget: number): DocmillError {
  const err = badInput(
    `${MEMORY_REFUSAL} ${budget / MB} MB of memory to ${what} (a compressed stream that inflates ` +
      'without bound?): refused.',
  );
  // Formatted now: until then V8 keeps the throwing frames, whose closures hold the dropped
  // instance and its memory, for as long as the caller keeps the error.
  void err.stack;
  return err;
}

/** PDFium in WebAssembly: the default backend, ≈ 3.5× pdf.js on text extraction. */
export const pdfiumBackend: PdfBackend = {
  name: 'pdfium',
  async open(bytes, options) {
    const p = await loadPdfium();
    return openDocument(p, bytes, options);
  },
};

function openDocument(p: Pdfium, bytes: Uint8Array, options: OpenOptions | undefined): PdfSource {
  const { x } = p;
  // PDFium reads the document lazily from this buffer: it lives until the document is closed.
  const buf = x.malloc(Math.max(1, bytes.byteLength));
  if (!buf) throw damagedError('PDFium could not allocate memory for the file');
  p.u8.set(bytes, buf);
  const pwd = options?.password ? p.cstring(options.password) : 0;
  let doc = 0;
  try {
    // Opening reads the cross-reference streams and object streams, which inflate too.
    doc = p.withBudget(PAGE_MEMORY_BYTES, () => x.FPDF_LoadMemDocument(buf, bytes.byteLength, pwd));
  } catch (err) {
    p.broken = true;
    retirePdfium(p);
    if (p.growth.refused) throw memoryError('open it', PAGE_MEMORY_BYTES);
    throw damagedError('PDFium failed while reading the file', err);
  } finally {
    if (pwd && !p.broken) x.free(pwd);
  }
  if (!doc) {
    const code = x.FPDF_GetLastError();
    x.free(buf);
    if (code === ERR_PASSWORD || code === ERR_SECURITY) throw pdfPasswordError(options?.password);
    throw damagedError(`PDFium: ${ERROR_NAMES[code] ?? `error ${code}`}`);
  }
  p.open++;
  const pageCount = Math.max(0, x.FPDF_GetPageCount(doc));
  /**
   * The document's form environment, made the first time a page shows a form field's widget; none
   * for a file of more objects than `MAX_FORM_OBJECTS`.
   */
  let formTried = false;
  let formInfo = 0;
  let formHandle = 0;
  const form = (): number => {
    if (formTried) return formHandle;
    formTried = true;
    if (objectCount(bytes, MAX_FORM_OBJECTS) > MAX_FORM_OBJECTS) return 0;
    formInfo = x.PDFiumExt_OpenFormFillInfo();
    formHandle = formInfo ? x.PDFiumExt_InitFormFillEnvironment(doc, formInfo) : 0;
    return formHandle;
  };
  const fonts = new Map<number, FontFacts>();
  let closed = false;
  const live = new Set<PageHandle>();
  const ensureOpen = (): void => {
    if (closed) throw new Error('The PDF document is closed.');
  };

  const loadPage = (n: number): PageHandle => {
    ensureOpen();
    if (!Number.isInteger(n) || n < 1 || n > pageCount) throw new RangeError(`No page ${n} in this PDF.`);
    const page = x.FPDF_LoadPage(doc, n - 1);
    if (!page) throw new Error(`PDFium could not load page ${n}.`);
    const h: PageHandle = { page, text: 0, frame: pageFrame(p, page) };
    live.add(h);
    return h;
  };
  const closePage = (h: PageHandle): void => {
    if (!live.delete(h)) return;
    if (h.text) x.FPDFText_ClosePage(h.text);
    x.FPDF_ClosePage(h.page);
    h.page = 0;
    h.text = 0;
  };
  /**
   * Runs one step on PDFium within a memory budget. A trap leaves its heap in an unknown state:
   * never touch this instance again. Past the budget the document fails as a whole (400).
   */
  const guard = <T>(fn: () => T, budget = PAGE_MEMORY_BYTES, what = 'read one page'): T => {
    try {
      return p.withBudget(budget, fn);
    } catch (err) {
      if (err instanceof WebAssembly.RuntimeError || p.growth.refused) {
        p.broken = true;
        // Dropped now, not at the next load: its memory goes once this document lets go of it.
        retirePdfium(p);
      }
      if (p.growth.refused) throw memoryError(what, budget);
      throw err;
    }
  };

  return {
    backend: 'pdfium',
    pageCount,
    async metadata() {
      ensureOpen();
      return guard(() => readMetadata(p, doc));
    },
    async outline() {
      ensureOpen();
      return guard(() => readOutline(p, doc));
    },
    async page(n: number, request?: PageRequest): Promise<PdfPageContent> {
      const h = guard(() => loadPage(n));
      try {
        return guard(() => readPage(p, doc, h, fonts, request, form, () => closePage(h)));
      } catch (err) {
        if (!p.broken) closePage(h);
        throw err;
      }
    },
    async render(n: number, dpi: number): Promise<RenderedPage> {
      const h = guard(() => loadPage(n));
      try {
        return guard(() => renderPage(p, h, dpi), RENDER_MEMORY_BYTES, 'render one page');
      } finally {
        if (!p.broken) closePage(h);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      p.open--;
      if (p.broken) return;
      for (const h of [...live]) closePage(h);
      if (formHandle) x.PDFiumExt_ExitFormFillEnvironment(formHandle);
      if (formInfo) x.PDFiumExt_CloseFormFillInfo(formInfo);
      x.FPDF_CloseDocument(doc);
      x.free(buf);
      // Memory a large document made the instance take stays with it: drop an instance that
      // grew past the mark once nothing is open on it, and the next document gets a fresh one.
      if (p.open === 0 && p.memoryBytes > RECYCLE_BYTES) retirePdfium(p);
    },
  };
}

interface PageHandle {
  page: number;
  text: number;
  frame: Frame;
}

function pageFrame(p: Pdfium, page: number): Frame {
  const { x, scratch } = p;
  let l = 0;
  let t = 792;
  let r = 612;
  let b = 0;
  if (x.FPDF_GetPageBoundingBox(page, scratch)) {
    const f = p.f32;
    const o = scratch >> 2;
    l = f[o] as number;
    t = f[o + 1] as number;
    r = f[o + 2] as number;
    b = f[o + 3] as number;
  }
  if (r < l) [l, r] = [r, l];
  if (t < b) [t, b] = [b, t];
  const rotate = ((x.FPDFPage_GetRotation(page) % 4) + 4) % 4;
  const w = r - l;
  const h = t - b;
  // Quarter turns clockwise of the displayed page, as viewers apply /Rotate.
  const m: Matrix =
    rotate === 1
      ? [0, 1, 1, 0, -b, -l]
      : rotate === 2
        ? [-1, 0, 0, 1, r, -b]
        : rotate === 3
          ? [0, -1, -1, 0, t, r]
          : [1, 0, 0, -1, -l, t];
  return { m, width: rotate % 2 ? h : w, height: rotate % 2 ? w : h };
}

function readPage(
  p: Pdfium,
  doc: number,
  h: PageHandle,
  fonts: Map<number, FontFacts>,
  request: PageRequest | undefined,
  form: () => number,
  close: () => void,
): PdfPageContent {
  const { x } = p;
  h.text = x.FPDFText_LoadPage(h.page);
  if (!h.text) throw new Error('PDFium could not read the page text.');
  // Links are read in the frame the runs end up in, which only the runs tell; whether there are
  // any is known before, and only then are the characters' starts kept.
  const linked = request?.links === true && hasLinks(p, h.page);
  const { items, turn, width, height, mono, starts } = assembleRuns(p, h.text, h.frame, fonts, linked);
  const frame = turn ? multiply(turn, h.frame.m) : h.frame.m;
  const boxes = readTextBoxes(p, h.page, form);
  if (boxes.length) items.push(...textBoxItems(boxes, frame));
  let graphics: PageGraphics | undefined;
  return {
    width,
    height,
    items,
    monoFonts: mono,
    links: request?.links ? readLinks(p, doc, h.page, frame) : undefined,
    charStarts: starts ?? undefined,
    async graphics() {
      if (!isOpen(h)) throw new Error('The PDF page is closed.');
      graphics ??= readGraphics(p, h.page, frame, width, height);
      return graphics;
    },
    close,
  };
}

const isOpen = (h: PageHandle): boolean => h.page !== 0 && h.text !== 0;

/** Walks page objects (into form XObjects) for rulings, boxes, images and marks, like the pdf.js operator walk. */
function readGraphics(p: Pdfium, page: number, frame: Matrix, width: number, height: number): PageGraphics {
  const walk: GraphicsWalk = { p, page, shapes: new ShapeCollector(width, height), budget: MAX_PATH_SEGMENTS };
  walkObjects(walk, 0, frame, 0);
  return walk.shapes.result();
}

/** What the object walk of one page carries: the shapes found and the path segments still allowed. */
interface GraphicsWalk {
  p: Pdfium;
  page: number;
  shapes: ShapeCollector;
  budget: number;
}

/**
 * The objects of the page (`form` 0) or of a form XObject on it, into nested forms. Functions of
 * the module, not closures made per page: a closure's optimized code goes when earlier pages'
 * closures are collected, and would be compiled again page after page.
 */
function walkObjects(walk: GraphicsWalk, form: number, ctm: Matrix, depth: number): void {
  const { p, page, shapes } = walk;
  const { x } = p;
  const count = form ? x.FPDFFormObj_CountObjects(form) : x.FPDFPage_CountObjects(page);
  for (let i = 0; i < count && walk.budget > 0; i++) {
    const obj = form ? x.FPDFFormObj_GetObject(form, i) : x.FPDFPage_GetObject(page, i);
    if (!obj) continue;
    const type = x.FPDFPageObj_GetType(obj);
    if (type === OBJ_PATH) walk.budget -= readPath(p, obj, ctm, shapes);
    else if (type === OBJ_IMAGE) {
      const m = objectMatrix(p, obj);
      if (m) shapes.image(multiply(ctm, m));
    } else if (type === OBJ_FORM && depth < MAX_FORM_DEPTH) {
      const m = objectMatrix(p, obj);
      if (!m) continue;
      walkObjects(walk, obj, multiply(ctm, m), depth + 1);
    }
  }
}

function objectMatrix(p: Pdfium, obj: number): Matrix | null {
  const { x, scratch } = p;
  if (!x.FPDFPageObj_GetMatrix(obj, scratch)) return null;
  const f = p.f32;
  const o = scratch >> 2;
  return [f[o] ?? 1, f[o + 1] ?? 0, f[o + 2] ?? 0, f[o + 3] ?? 1, f[o + 4] ?? 0, f[o + 5] ?? 0];
}

/**
 * Re-encodes a path object in pdf.js's flattened form so one shape reader serves both backends.
 * Returns the path's segment count, what it spends of the page's budget (0 for a path not drawn).
 */
function readPath(p: Pdfium, obj: number, ctm: Matrix, shapes: ShapeCollector): number {
  const { x, scratch } = p;
  if (!x.FPDFPath_GetDrawMode(obj, scratch, scratch + 4)) return 0;
  const fill = (p.i32[scratch >> 2] as number) !== 0;
  const stroke = (p.i32[(scratch >> 2) + 1] as number) !== 0;
  if (!fill && !stroke) return 0;
  const n = x.FPDFPath_CountSegments(obj);
  if (n <= 0) return 0;
  if (!x.FPDFPageObj_GetMatrix(obj, scratch)) return n;
  let f = p.f32;
  let o = scratch >> 2;
  const m = multiply(ctm, [f[o] ?? 1, f[o + 1] ?? 0, f[o + 2] ?? 0, f[o + 3] ?? 1, f[o + 4] ?? 0, f[o + 5] ?? 0]);
  const d: number[] = [];
  let bezier = 0;
  for (let i = 0; i < n; i++) {
    const seg = x.FPDFPath_GetPathSegment(obj, i);
    if (!seg || !x.FPDFPathSegment_GetPoint(seg, scratch, scratch + 4)) continue;
    f = p.f32;
    o = scratch >> 2;
    const px = f[o] as number;
    const py = f[o + 1] as number;
    const type = x.FPDFPathSegment_GetType(seg);
    if (type === SEG_MOVETO) d.push(0, px, py);
    else if (type === SEG_LINETO) d.push(1, px, py);
    else if (type === SEG_BEZIERTO) {
      // PDFium lists a curve as three points; the shape reader only needs to know it was curved.
      if (++bezier % 3 === 0) d.push(2, 0, 0, 0, 0, px, py);
      continue;
    }
    if (x.FPDFPathSegment_GetClose(seg)) d.push(4);
  }
  shapes.path(d, stroke && !fill, m);
  return n;
}

/** FPDF_ANNOT_FREETEXT, FPDF_ANNOT_WIDGET. */
const ANNOT_FREETEXT = 3;
const ANNOT_WIDGET = 20;
/** FPDF_FORMFIELD_*: the kinds of field whose widgets show a value. */
const FIELD_CHECKBOX = 2;
const FIELD_RADIO = 3;
const FIELD_COMBO = 4;
const FIELD_LIST = 5;
const FIELD_TEXT = 6;
/** Text field flags (PDF 32000 table 228): several lines, a password (masked). */
const FF_MULTILINE = 1 << 12;
const FF_PASSWORD = 1 << 13;
/** Bytes of a field value read at most: UTF-16 and its terminator (`MAX_FIELD_CHARS`). */
const FIELD_BYTES = 2 * (MAX_FIELD_CHARS + 1);

/**
 * The page's text boxes (`TextBox`): FreeText annotations a viewer shows, and the values of its
 * form fields' widgets (`FieldWidget`), read through the document's form (`form`), which knows a
 * widget's field, its value and flags wherever in the field tree they are written.
 */
function readTextBoxes(p: Pdfium, page: number, form: () => number): TextBox[] {
  const { x } = p;
  const n = x.FPDFPage_GetAnnotCount(page);
  if (n <= 0) return [];
  const out: TextBox[] = [];
  const widgets: FieldWidget[] = [];
  const contents = p.cstring('Contents');
  const da = p.cstring('DA');
  const as = p.cstring('AS');
  try {
    // Bounded: a page of thousands of link annotations costs one subtype check each.
    for (let i = 0; i < n && i < 20_000 && out.length < MAX_TEXT_BOXES; i++) {
      const a = x.FPDFPage_GetAnnot(page, i);
      if (!a) continue;
      try {
        const subtype = x.FPDFAnnot_GetSubtype(a);
        if ((subtype !== ANNOT_FREETEXT && subtype !== ANNOT_WIDGET) || x.FPDFAnnot_GetFlags(a) & UNSEEN_FLAGS)
          continue;
        if (subtype === ANNOT_WIDGET && widgets.length >= MAX_WIDGETS) continue;
        if (!x.FPDFAnnot_GetRect(a, p.scratch)) continue;
        const f = p.f32;
        const o = p.scratch >> 2;
        // FS_RECTF: left, top, right, bottom.
        const rect = [f[o], f[o + 1], f[o + 2], f[o + 3]] as [number, number, number, number];
        if (subtype === ANNOT_WIDGET) {
          const handle = form();
          const w = handle ? readWidget(p, handle, a, rect, as) : undefined;
          if (w) widgets.push(w);
          continue;
        }
        const text = p.utf16((b, l) => x.FPDFAnnot_GetStringValue(a, contents, b, l));
        if (!text.trim()) continue;
        out.push({ rect, contents: text, da: p.utf16((b, l) => x.FPDFAnnot_GetStringValue(a, da, b, l), 1024) });
      } finally {
        x.FPDFPage_CloseAnnot(a);
      }
    }
  } finally {
    x.free(contents);
    x.free(da);
    x.free(as);
  }
  if (widgets.length) out.push(...widgetBoxes(widgets));
  return out;
}

/**
 * A widget's field as a filled form shows it; undefined for one that shows no value (`FieldWidget`).
 * Read from the field (its value, kind and flags, wherever in the field tree they are written) and
 * the widget's own state, never through PDFium's view of the page: loading a page into the form
 * builds every widget's appearance, which grows faster than the square of a list box's options
 * (1,000 selected: a minute) and of a page's widgets.
 */
function readWidget(
  p: Pdfium,
  form: number,
  a: number,
  rect: readonly [number, number, number, number],
  as: number,
): FieldWidget | undefined {
  const { x } = p;
  const type = x.FPDFAnnot_GetFormFieldType(form, a);
  const flags = x.FPDFAnnot_GetFormFieldFlags(form, a);
  const fieldValue = (): string => p.utf16((b, l) => x.FPDFAnnot_GetFormFieldValue(form, a, b, l), FIELD_BYTES);
  let value: string | boolean;
  if (type === FIELD_CHECKBOX || type === FIELD_RADIO) {
    // On where the widget's state is the field's value, as a viewer draws it (`ticked`).
    value = ticked(
      type === FIELD_RADIO,
      fieldValue(),
      p.utf16((b, l) => x.FPDFAnnot_GetStringValue(a, as, b, l), 1024),
    );
  } else if (type === FIELD_TEXT && !(flags & FF_PASSWORD)) value = fieldValue();
  else if (type === FIELD_COMBO || type === FIELD_LIST) value = chosen(p, form, a);
  else return undefined;
  return { rect, value, multiline: type === FIELD_TEXT && (flags & FF_MULTILINE) !== 0 };
}

/** A choice field's chosen options as shown (their labels, not export values), else its value as typed. */
function chosen(p: Pdfium, form: number, a: number): string {
  const { x } = p;
  const labels: string[] = [];
  const count = Math.min(MAX_OPTIONS, x.FPDFAnnot_GetOptionCount(form, a));
  for (let i = 0; i < count; i++)
    if (x.FPDFAnnot_IsOptionSelected(form, a, i))
      labels.push(p.utf16((b, l) => x.FPDFAnnot_GetOptionLabel(form, a, i, b, l)));
  return labels.length
    ? labels.join(', ')
    : p.utf16((b, l) => x.FPDFAnnot_GetFormFieldValue(form, a, b, l), FIELD_BYTES);
}

/** Whether the page has a link annotation of any kind: one step of PDFium's link walk. */
function hasLinks(p: Pdfium, page: number): boolean {
  const { x } = p;
  const mem = x.malloc(8);
  try {
    p.i32[mem >> 2] = 0;
    return x.FPDFLink_Enumerate(page, mem, mem + 4) !== 0;
  } finally {
    x.free(mem);
  }
}

/** Link annotations with web or mail targets, in the page's text space. */
function readLinks(p: Pdfium, doc: number, page: number, frame: Matrix): LinkBox[] | undefined {
  const { x } = p;
  const out: LinkBox[] = [];
  const mem = x.malloc(8 + 16);
  try {
    p.i32[mem >> 2] = 0;
    for (let guard = 0; guard < 5000 && x.FPDFLink_Enumerate(page, mem, mem + 4); guard++) {
      const link = p.i32[(mem >> 2) + 1] as number;
      const action = x.FPDFLink_GetAction(link);
      // PDFACTION_URI
      if (!action || x.FPDFAction_GetType(action) !== 3) continue;
      const href = p.bytes((b, l) => x.FPDFAction_GetURIPath(doc, action, b, l), 8192);
      if (!/^(https?:|mailto:|ftp:)/i.test(href)) continue;
      if (!x.FPDFLink_GetAnnotRect(link, mem + 8)) continue;
      const f = p.f32;
      const o = (mem + 8) >> 2;
      const a = apply(frame, f[o] as number, f[o + 1] as number);
      const c = apply(frame, f[o + 2] as number, f[o + 3] as number);
      out.push({
        x0: Math.min(a[0], c[0]),
        y0: Math.min(a[1], c[1]),
        x1: Math.max(a[0], c[0]),
        y1: Math.max(a[1], c[1]),
        href,
      });
    }
  } finally {
    x.free(mem);
  }
  return out.length ? out : undefined;
}

function renderPage(p: Pdfium, h: PageHandle, dpi: number): RenderedPage {
  const { x } = p;
  let scale = (Number.isFinite(dpi) && dpi > 0 ? dpi : 72) / 72;
  const { width: pw, height: ph } = h.frame;
  if (pw * ph * scale * scale > MAX_PIXELS) scale = Math.sqrt(MAX_PIXELS / (pw * ph));
  const width = Math.max(1, Math.round(pw * scale));
  const height = Math.max(1, Math.round(ph * scale));
  const bitmap = x.FPDFBitmap_CreateEx(width, height, BITMAP_BGRA, 0, 0);
  if (!bitmap) throw new Error(`PDFium could not allocate a ${width}×${height} bitmap.`);
  try {
    x.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, 0xffffffff);
    // /Rotate is applied by PDFium itself; the extra rotation argument stays 0.
    x.FPDF_RenderPageBitmap(bitmap, h.page, 0, 0, width, height, 0, FPDF_ANNOT | FPDF_REVERSE_BYTE_ORDER);
    const ptr = x.FPDFBitmap_GetBuffer(bitmap);
    const stride = x.FPDFBitmap_GetStride(bitmap);
    const data = new Uint8ClampedArray(width * height * 4);
    const u8 = p.u8;
    if (stride === width * 4) data.set(u8.subarray(ptr, ptr + data.length));
    else
      for (let row = 0; row < height; row++)
        data.set(u8.subarray(ptr + row * stride, ptr + row * stride + width * 4), row * width * 4);
    return { width, height, data };
  } finally {
    x.FPDFBitmap_Destroy(bitmap);
  }
}

function readMetadata(p: Pdfium, doc: number): DocumentMetadata {
  const { x } = p;
  const md: DocumentMetadata = {};
  const meta = (tag: string): string | undefined => {
    const t = p.cstring(tag);
    try {
      const v = p.utf16((b, l) => x.FPDF_GetMetaText(doc, t, b, l), 1 << 16);
      const s = v.replace(/\s+/g, ' ').trim();
      return s || undefined;
    } finally {
      x.free(t);
    }
  };
  const title = meta('Title');
  if (title) md.title = title;
  const author = meta('Author');
  if (author) md.author = author;
  const subject = meta('Subject');
  if (subject) md.description = subject;
  const keywords = meta('Keywords');
  if (keywords) md.keywords = keywords;
  const getLanguage = x.FPDFCatalog_GetLanguage;
  if (getLanguage) {
    const lang = p
      .utf16((b, l) => getLanguage(doc, b, l), 256)
      .replace(/\s+/g, ' ')
      .trim();
    if (lang) md.language = lang;
  }
  return md;
}

/** Bookmark titles with depth; damaged outlines can loop, so visited items and the total are bounded. */
function readOutline(p: Pdfium, doc: number): OutlineEntry[] {
  const { x } = p;
  const out: OutlineEntry[] = [];
  const seen = new Set<number>();
  const walk = (first: number, depth: number): void => {
    for (let bm = first; bm && out.length < 5000 && !seen.has(bm); bm = x.FPDFBookmark_GetNextSibling(doc, bm)) {
      seen.add(bm);
      out.push({ title: p.utf16((b, l) => x.FPDFBookmark_GetTitle(bm, b, l), 8192), depth });
      if (depth < 6) walk(x.FPDFBookmark_GetFirstChild(doc, bm), depth + 1);
    }
  };
  walk(x.FPDFBookmark_GetFirstChild(doc, 0), 1);
  return out;
}
