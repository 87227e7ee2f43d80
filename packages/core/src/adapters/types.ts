import type { FileKind } from '../detect.ts';
import type { Limits } from '../limits.ts';
import type { ResolvedOptions } from '../options/normalize.ts';
import type { Root } from '../tree/types.ts';
import type { ZipListing } from '../util/zip-directory.ts';
import type { PdfEngineConfig } from './pdf/backend/index.ts';
import type { PlacedWord } from './pdf/words.ts';

/** What an adapter gets besides the bytes. Adapters talk to nothing else. */
export interface AdapterContext {
  kind: FileKind;
  filename?: string | undefined;
  /** Where the bytes came from, when the caller knows: the base for relative links. */
  sourceURL?: string | undefined;
  /** MIME of the detected input (image adapters need it). */
  mime?: string | undefined;
  options: ResolvedOptions;
  limits: Limits;
  /** Fires on timeout or caller abort; check it between pages/parts and pass it to async work. */
  signal: AbortSignal;
  /** Adds a line to `data.warning` (truncation, skipped parts, recovered damage). */
  warn(message: string): void;
  /**
   * A stylesheet the document links (`<link rel="stylesheet" href>`), when the caller holds it:
   * EPUB serves its chapters' CSS from the archive. Web pages' remote sheets are never fetched.
   */
  stylesheet?(href: string): Promise<string | undefined>;
  /** The caller's password for an encrypted document (ParseHints.password), if any. */
  password?: string | undefined;
  /**
   * Reports `done` of `total` units finished (pages, slides, sheets, parts), as the caller's
   * `onProgress` hint sees it. Never throws; absent when an adapter is run outside the engine.
   */
  progress?(done: number, total: number, unit: ProgressUnit): void;
  /** Engine-level PDF settings (backend choice). */
  pdf?: PdfEngineConfig | undefined;
  /**
   * Parses a document this one holds (an attachment, an archive member, a feed item's HTML) as the
   * engine parses an upload: detection, its adapter, OCR, its own output budget. Throws a
   * DocmillError for what cannot be read (unsupported type, nesting too deep, damage), which the
   * caller lists in a warning. Absent when an adapter runs outside the engine.
   */
  embed?(bytes: Uint8Array, name: string, hints?: EmbedHints): Promise<Embedded>;
  /** The zip directory detection read, handed to `openZip` so it is not read again. */
  zipListing?: ZipListing | undefined;
}

export interface EmbedHints {
  contentType?: string | undefined;
}

/** An embedded document's tree and what it was read as. */
export interface Embedded {
  tree: Root;
  kind: FileKind;
}

export type ProgressUnit = 'pages' | 'slides' | 'sheets' | 'parts';

/** One progress report of a parse (`ParseHints.onProgress`). */
export interface ParseProgress {
  /** 'parse' while the format adapter reads the document; later stages report under their own name. */
  stage: string;
  done: number;
  total: number;
  unit: ProgressUnit;
}

export interface AdapterOutput {
  tree: Root;
  /** HTML inputs only: the cleaned page served as `data.html` (other formats render the tree). */
  html?: string;
  /** HTML inputs only: the input exactly as given, served as `data.rawHtml`. */
  rawHtml?: string;
  /** HTML inputs only: every link of the page (the tree holds only the main content's). */
  links?: string[];
  /**
   * PDF only: per-page facts for the OCR stage (which pages have a usable text layer).
   * Keyed by 1-based page number.
   */
  pageInfo?: Record<number, PageClass>;
}

export interface PageClass {
  /** 'text': usable text layer; 'garbled': text present but unreadable; 'none': no text (scan). */
  text: 'text' | 'garbled' | 'none';
  /** Share of the page area covered by images, 0–1. */
  imageCoverage: number;
  /**
   * The values of the page's form fields, which no render of the page shows (a viewer draws them
   * over it): laid out with the words OCR reads from the render, where OCR reads the page. Only
   * where OCR may read the page (not in fast mode).
   */
  fields?: PlacedWord[];
}

/** One format family. Heavy libraries are imported lazily inside `parse`. */
export interface Adapter {
  readonly name: string;
  readonly kinds: readonly FileKind[];
  parse(bytes: Uint8Array, ctx: AdapterContext): Promise<AdapterOutput>;
}
