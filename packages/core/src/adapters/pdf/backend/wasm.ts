import { readPackageAsset } from '../../../platform/assets.ts';

/**
 * The raw PDFium exports we call. The package's `cwrap` helpers check every argument and cost half
 * the throughput on text extraction, so calls go straight to the wasm exports. Pointers and handles
 * are plain numbers; `FPDF_BOOL` is a number too.
 */
export interface PdfiumExports {
  memory: WebAssembly.Memory;
  malloc(size: number): number;
  free(ptr: number): void;
  PDFiumExt_Init(): void;
  FPDF_LoadMemDocument(buf: number, size: number, password: number): number;
  FPDF_GetLastError(): number;
  FPDF_CloseDocument(doc: number): void;
  FPDF_GetPageCount(doc: number): number;
  FPDF_LoadPage(doc: number, index: number): number;
  FPDF_ClosePage(page: number): void;
  FPDF_GetPageBoundingBox(page: number, rect: number): number;
  FPDFPage_GetRotation(page: number): number;
  FPDF_RenderPageBitmap(
    bitmap: number,
    page: number,
    x: number,
    y: number,
    w: number,
    h: number,
    rotate: number,
    flags: number,
  ): void;
  FPDFBitmap_CreateEx(w: number, h: number, format: number, scan0: number, stride: number): number;
  FPDFBitmap_FillRect(bitmap: number, left: number, top: number, w: number, h: number, color: number): number;
  FPDFBitmap_GetBuffer(bitmap: number): number;
  FPDFBitmap_GetStride(bitmap: number): number;
  FPDFBitmap_Destroy(bitmap: number): void;
  FPDF_GetMetaText(doc: number, tag: number, buf: number, len: number): number;
  FPDFCatalog_GetLanguage?(doc: number, buf: number, len: number): number;
  FPDFBookmark_GetFirstChild(doc: number, bookmark: number): number;
  FPDFBookmark_GetNextSibling(doc: number, bookmark: number): number;
  FPDFBookmark_GetTitle(bookmark: number, buf: number, len: number): number;
  FPDFText_LoadPage(page: number): number;
  FPDFText_ClosePage(textPage: number): void;
  FPDFText_CountChars(textPage: number): number;
  FPDFText_GetUnicode(textPage: number, i: number): number;
  FPDFText_IsGenerated(textPage: number, i: number): number;
  FPDFText_GetLooseCharBox(textPage: number, i: number, rect: number): number;
  FPDFText_GetCharOrigin(textPage: number, i: number, x: number, y: number): number;
  FPDFText_GetFontSize(textPage: number, i: number): number;
  FPDFText_GetMatrix(textPage: number, i: number, matrix: number): number;
  FPDFText_GetCharAngle(textPage: number, i: number): number;
  FPDFText_GetTextObject(textPage: number, i: number): number;
  FPDFTextObj_GetFont(textObject: number): number;
  FPDFFont_GetBaseFontName(font: number, buf: number, len: number): number;
  FPDFFont_GetWeight(font: number): number;
  FPDFFont_GetFlags(font: number): number;
  FPDFPage_CountObjects(page: number): number;
  FPDFPage_GetObject(page: number, i: number): number;
  FPDFFormObj_CountObjects(form: number): number;
  FPDFFormObj_GetObject(form: number, i: number): number;
  FPDFPageObj_GetType(obj: number): number;
  FPDFPageObj_GetMatrix(obj: number, matrix: number): number;
  FPDFPageObj_GetBounds(obj: number, left: number, bottom: number, right: number, top: number): number;
  FPDFPath_GetDrawMode(path: number, fillMode: number, stroke: number): number;
  FPDFPath_CountSegments(path: number): number;
  FPDFPath_GetPathSegment(path: number, i: number): number;
  FPDFPathSegment_GetPoint(segment: number, x: number, y: number): number;
  FPDFPathSegment_GetType(segment: number): number;
  FPDFPathSegment_GetClose(segment: number): number;
  FPDFLink_Enumerate(page: number, startPos: number, link: number): number;
  FPDFLink_GetAction(link: number): number;
  FPDFLink_GetAnnotRect(link: number, rect: number): number;
  FPDFAction_GetType(action: number): number;
  FPDFAction_GetURIPath(doc: number, action: number, buf: number, len: number): number;
  FPDFPage_GetAnnotCount(page: number): number;
  FPDFPage_GetAnnot(page: number, i: number): number;
  FPDFPage_CloseAnnot(annot: number): void;
  FPDFAnnot_GetSubtype(annot: number): number;
  FPDFAnnot_GetFlags(annot: number): number;
  FPDFAnnot_GetRect(annot: number, rect: number): number;
  FPDFAnnot_GetStringValue(annot: number, key: number, buf: number, len: number): number;
  PDFiumExt_OpenFormFillInfo(): number;
  PDFiumExt_CloseFormFillInfo(info: number): void;
  PDFiumExt_InitFormFillEnvironment(doc: number, info: number): number;
  PDFiumExt_ExitFormFillEnvironment(form: number): void;
  FPDFAnnot_GetFormFieldType(form: number, annot: number): number;
  FPDFAnnot_GetFormFieldFlags(form: number, annot: number): number;
  FPDFAnnot_GetFormFieldValue(form: number, annot: number, buf: number, len: number): number;
  FPDFAnnot_GetOptionCount(form: number, annot: number): number;
  FPDFAnnot_GetOptionLabel(form: number, annot: number, index: number, buf: number, len: number): number;
  FPDFAnnot_IsOptionSelected(form: number, annot: number, index: number): number;
}

/**
 * How far PDFium's memory may grow: the instance asks before each growth, and is refused past
 * `limit` (bytes of wasm memory). PDFium gets a failed allocation and stops (it aborts, a trap);
 * `refused` tells the caller that the budget, not damage, was why.
 */
export interface GrowthBudget {
  limit: number;
  refused: boolean;
}

/** One PDFium instance and its memory views, re-created whenever the wasm memory grows. */
export class Pdfium {
  readonly x: PdfiumExports;
  /** Unbounded unless a caller sets it (see `withBudget`); only where the wasm was instantiated here. */
  readonly growth: GrowthBudget;
  /** Documents open on this instance. */
  open = 0;
  private buffer: ArrayBufferLike | null = null;
  private shared = false;
  private u8v = new Uint8Array(0);
  private f32v = new Float32Array(0);
  private f64v = new Float64Array(0);
  private i32v = new Int32Array(0);
  /** Scratch memory for out-parameters (boxes, matrices, counters): 64 bytes, 8-aligned. */
  readonly scratch: number;
  /** Set once a call trapped: the instance's state is unknown and it must not be used again. */
  broken = false;

  constructor(x: PdfiumExports, growth: GrowthBudget = { limit: Number.POSITIVE_INFINITY, refused: false }) {
    this.x = x;
    this.growth = growth;
    this.scratch = x.malloc(64);
  }

  /** Bytes of wasm memory the instance holds (it never shrinks). */
  get memoryBytes(): number {
    return this.x.memory.buffer.byteLength;
  }

  /**
   * Runs `fn` allowing the memory to grow by at most `bytes`; `refused` says afterwards whether
   * a growth was turned down. Budgets do not nest: the outermost call sets the limit.
   */
  withBudget<T>(bytes: number, fn: () => T): T {
    if (Number.isFinite(this.growth.limit)) return fn();
    this.growth.limit = this.memoryBytes + bytes;
    this.growth.refused = false;
    try {
      return fn();
    } finally {
      this.growth.limit = Number.POSITIVE_INFINITY;
    }
  }

  private sync(): void {
    // Growing a non-shared wasm memory detaches its old buffer, which empties every view on it: a
    // non-empty view is current. This check runs per character in text extraction, where reading
    // `memory.buffer` (a call into the engine) each time cost about 1% of a fast-mode parse.
    if (this.u8v.byteLength !== 0 && !this.shared) return;
    const b = this.x.memory.buffer;
    if (b === this.buffer) return;
    this.buffer = b;
    // A shared memory never detaches on growth: its views must be compared with the buffer each time.
    this.shared = typeof SharedArrayBuffer !== 'undefined' && b instanceof SharedArrayBuffer;
    this.u8v = new Uint8Array(b);
    this.f32v = new Float32Array(b);
    this.f64v = new Float64Array(b);
    this.i32v = new Int32Array(b);
  }
  get u8(): Uint8Array {
    this.sync();
    return this.u8v;
  }
  get f32(): Float32Array {
    this.sync();
    return this.f32v;
  }
  get f64(): Float64Array {
    this.sync();
    return this.f64v;
  }
  get i32(): Int32Array {
    this.sync();
    return this.i32v;
  }

  /** Calls a PDFium "fill this buffer, return the needed byte length" getter and decodes UTF-16LE. */
  utf16(read: (buf: number, len: number) => number, limit = 1 << 16): string {
    const need = read(0, 0);
    if (need <= 2 || need > limit) return '';
    const buf = this.x.malloc(need);
    try {
      read(buf, need);
      const u16 = new Uint16Array(this.x.memory.buffer, buf, (need >> 1) - 1);
      let s = '';
      for (let i = 0; i < u16.length; i += 4096) s += String.fromCharCode(...u16.subarray(i, i + 4096));
      return s;
    } finally {
      this.x.free(buf);
    }
  }

  /** Same for byte strings (Latin-1 font names, 7-bit URIs). */
  bytes(read: (buf: number, len: number) => number, limit = 1 << 16): string {
    const need = read(0, 0);
    if (need <= 1 || need > limit) return '';
    const buf = this.x.malloc(need);
    try {
      read(buf, need);
      let s = '';
      const u8 = this.u8;
      for (let i = 0; i < need - 1; i++) s += String.fromCharCode(u8[buf + i] as number);
      return s;
    } finally {
      this.x.free(buf);
    }
  }

  /** Copies a NUL-terminated ASCII string into wasm memory; the caller frees it. */
  cstring(s: string): number {
    const p = this.x.malloc(s.length + 1);
    const u8 = this.u8;
    for (let i = 0; i < s.length; i++) u8[p + i] = s.charCodeAt(i) & 0x7f;
    u8[p + s.length] = 0;
    return p;
  }
}

let loading: Promise<Pdfium> | undefined;
let current: Pdfium | undefined;
let compiled: Promise<WebAssembly.Module> | undefined;

/**
 * Instances whose memory grew past this are dropped once their last document closes, so the
 * memory one large or hostile document made PDFium take is given back (wasm memory never shrinks).
 */
export const RECYCLE_BYTES = 256 * 1024 * 1024;

/** What the Emscripten glue hands its `instantiateWasm` hook. */
type Imports = { env: Record<string, unknown> };
type Receive = (instance: WebAssembly.Instance) => WebAssembly.Exports;

/**
 * Instantiates the module here rather than in the glue, with the glue's heap-growth import wrapped
 * so that a budget can refuse growth. Synchronous, so a failure rejects the glue's own promise.
 */
function budgetedInstantiation(module: WebAssembly.Module, growth: GrowthBudget) {
  return (imports: Imports, receive: Receive): WebAssembly.Exports => {
    const grow = imports.env.emscripten_resize_heap as (requested: number) => number;
    imports.env.emscripten_resize_heap = (requested: number) => {
      if (requested >>> 0 > growth.limit) {
        growth.refused = true;
        return 0;
      }
      return grow(requested);
    };
    return receive(new WebAssembly.Instance(module, imports as unknown as WebAssembly.Imports));
  };
}

/**
 * The process-wide PDFium instance, created on first use (≈ 70 ms) and reused by every document.
 * In Node the wasm is read from the installed package; in browsers the package fetches its own
 * `pdfium.wasm` through a bundler-visible `new URL(…, import.meta.url)`. Nothing is downloaded.
 * Memory budgets (`Pdfium.withBudget`) hold where the wasm bytes are at hand (Node).
 */
export function loadPdfium(): Promise<Pdfium> {
  if (current?.broken) retirePdfium(current);
  loading ??= (async () => {
    const { init } = await import('@embedpdf/pdfium');
    const wasmBinary = await readPackageAsset('@embedpdf/pdfium/pdfium.wasm');
    // Emscripten's default print hooks write to the console; a library call must not.
    const quiet = { print: () => undefined, printErr: () => undefined };
    const growth: GrowthBudget = { limit: Number.POSITIVE_INFINITY, refused: false };
    // Compiled once: an instance dropped after a trap or for its size is replaced without
    // compiling 4.6 MB of wasm again.
    if (wasmBinary && !compiled) {
      compiled = WebAssembly.compile(wasmBinary as Uint8Array<ArrayBuffer>);
      compiled.catch(() => {
        compiled = undefined;
      });
    }
    const module = await compiled;
    const globals = new Set(Object.getOwnPropertyNames(globalThis));
    const mod = await init(
      module ? { ...quiet, instantiateWasm: budgetedInstantiation(module, growth) as never } : quiet,
    );
    forgetGlueGlobals(globals);
    const x = mod.pdfium.wasmExports as unknown as PdfiumExports;
    x.PDFiumExt_Init();
    current = new Pdfium(x, growth);
    return current;
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

/**
 * The package's Emscripten glue (built with assertions) defines warning getters on `globalThis`
 * for symbols it lacks (`buffer`, `asm`, …) once, on the first instance; they close over that
 * instance, which could then never be collected, its memory with it. They are removed again.
 */
function forgetGlueGlobals(before: Set<string>): void {
  for (const name of Object.getOwnPropertyNames(globalThis)) {
    if (before.has(name)) continue;
    const d = Object.getOwnPropertyDescriptor(globalThis, name);
    if (d?.configurable && d.get && !d.set) delete (globalThis as Record<string, unknown>)[name];
  }
}

/** The next `loadPdfium` makes a new instance; documents open on this one keep it until closed. */
export function retirePdfium(p: Pdfium): void {
  if (current !== p) return;
  current = undefined;
  loading = undefined;
}
