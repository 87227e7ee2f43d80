import type { DocumentMetadata } from '../../../tree/types.ts';
import type { TextStart } from '../extract.ts';
import type { CharStarts, LinkBox } from '../links.ts';
import type { Mark, Rect, Segment, TextItem } from '../model.ts';

/**
 * The PDF backend seam. A backend turns bytes into the page model the layout code reads (text runs,
 * rulings, filled rectangles, image boxes, all in PDF points with a top-left origin) and renders
 * pages for OCR. Nothing above this seam knows which PDF library produced the model.
 */
export type PdfBackendName = 'pdfium' | 'pdfjs';

export interface PdfBackend {
  readonly name: PdfBackendName;
  /** Rejects with a 400 DocmillError for encrypted or unreadable files (see `./errors.ts`). */
  open(bytes: Uint8Array, options?: OpenOptions): Promise<PdfSource>;
}

export interface OpenOptions {
  password?: string | undefined;
}

export interface OutlineEntry {
  title: string;
  /** 1-based nesting depth. */
  depth: number;
}

export interface PageRequest {
  /** Link annotations (http, https, mailto, ftp) in page space; costs extra parsing. */
  links?: boolean;
  /**
   * Bold and italic wherever the backend can tell them, even at a cost: pdf.js fetches the
   * drawing instructions of a document's first pages to name their fonts (`FONT_PROBES`).
   */
  styles?: boolean;
}

/** An open document. Every method may be called in any order until `close()`. */
export interface PdfSource {
  readonly backend: PdfBackendName;
  readonly pageCount: number;
  metadata(): Promise<DocumentMetadata>;
  outline(): Promise<OutlineEntry[]>;
  /** 1-based page number. The caller must `close()` the page. */
  page(n: number, request?: PageRequest): Promise<PdfPageContent>;
  /** Renders a 1-based page at `dpi` (72 = one pixel per point), white background, RGBA. */
  render(n: number, dpi: number): Promise<RenderedPage>;
  /** Frees the document; the source is unusable afterwards. Safe to call twice. */
  close(): Promise<void>;
}

export interface PdfPageContent {
  /** Page size in points after /Rotate and after turning sideways text upright. */
  width: number;
  height: number;
  /** Runs in reading-direction space: upright text, top-left origin, y down. */
  items: TextItem[];
  /** Font names (as in `TextItem.fontName`) known to be monospace. */
  monoFonts: string[];
  links?: LinkBox[] | undefined;
  /** Where the characters of runs start, where the backend knows (PDFium, on pages with links). */
  charStarts?: CharStarts | undefined;
  /**
   * Rulings, rectangles and image boxes. May also complete the runs' bold/italic flags (pdf.js only
   * learns font names while drawing). Costs about as much as the text, so callers ask when needed.
   */
  graphics(): Promise<PageGraphics>;
  close(): void;
}

export interface PageGraphics {
  segments: Segment[];
  rects: Rect[];
  images: Rect[];
  /** Small shapes that may be drawn bullets (`Mark`). */
  marks: Mark[];
  /** Share of the page covered by images, 0–1. */
  imageCoverage: number;
  /** Where text objects start, where the backend's runs may span several (pdf.js; see `splitAtTextStarts`). */
  textStarts?: TextStart[] | undefined;
}

export interface RenderedPage {
  width: number;
  height: number;
  /** width × height × 4 bytes, RGBA, rows top to bottom. */
  data: Uint8ClampedArray;
}
