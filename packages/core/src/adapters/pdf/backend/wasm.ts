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
}

/** One PDFium instance and its memory views, re-created whenever the wasm memory grows. */
export class Pdfium {
  readonly x: PdfiumExports;
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

  constructor(x: PdfiumExports) {
    this.x = x;
    this.scratch = x.malloc(64);
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

/**
 * The process-wide PDFium instance, created on first use (≈ 70 ms) and reused by every document.
 * In Node the wasm is read from the installed package; in browsers the package fetches its own
 * `pdfium.wasm` through a bundler-visible `new URL(…, import.meta.url)`. Nothing is downloaded.
 */
export function loadPdfium(): Promise<Pdfium> {
  if (current?.broken) {
    current = undefined;
    loading = undefined;
  }
  loading ??= (async () => {
    const { init } = await import('@embedpdf/pdfium');
    const wasmBinary = await readPackageAsset('@embedpdf/pdfium/pdfium.wasm');
    // Emscripten's default print hooks write to the console; a library call must not.
    const quiet = { print: () => undefined, printErr: () => undefined };
    const mod = await init(wasmBinary ? { ...quiet, wasmBinary: wasmBinary as unknown as ArrayBuffer } : quiet);
    const x = mod.pdfium.wasmExports as unknown as PdfiumExports;
    x.PDFiumExt_Init();
    current = new Pdfium(x);
    return current;
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}
