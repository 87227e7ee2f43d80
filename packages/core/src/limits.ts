/**
 * Resource limits. Every adapter reads them from its context, so a host can tighten them per engine.
 * Defaults are documented in the README ("Limits"); change both together.
 */
export interface Limits {
  /** Largest input accepted, bytes (contract: 50 MB). */
  maxInputBytes: number;
  /** Total uncompressed bytes a zip container may inflate to. */
  maxUnzippedBytes: number;
  /** Entries a zip container may hold. */
  maxZipEntries: number;
  /** Largest uncompressed/compressed ratio accepted for one zip entry (zip-bomb guard). */
  maxCompressionRatio: number;
  /** Largest single XML part parsed, bytes. */
  maxXmlBytes: number;
  /** Deepest XML element nesting accepted. */
  maxXmlDepth: number;
  /** Cells rendered per spreadsheet sheet; the rest is dropped with a warning. */
  maxCellsPerSheet: number;
  /**
   * Table cells one ODF text or presentation part may make, row/column repeats, nested tables and
   * spanned positions counted; the rest is dropped with a warning (a repeated row holding a table of
   * repeated rows multiplies).
   */
  maxTableCells: number;
  /**
   * Elements parsed per HTML page or EPUB chapter (start tags counted on the raw markup, outside
   * comments, scripts and style sheets); the markup
   * past them is dropped with a warning. The DOM, not the input size, is what fills the heap.
   */
  maxHtmlElements: number;
  /** Table rows kept per CSV file; the rest is dropped with a warning. */
  maxCsvRows: number;
  /**
   * Output guard: rendered characters allowed per input byte. Real documents stay far below it
   * (Markdown is smaller than the XML or binary records it comes from, even after decompression);
   * past it the output is cut, in document order, with a warning.
   */
  maxOutputRatio: number;
  /** Output guard floor: characters always allowed, however small the input. */
  minOutputChars: number;
  /**
   * Containers inside containers (an archive in an archive, a message attached to a message): the
   * documents of deeper ones are listed as skipped in a warning.
   */
  maxNestingDepth: number;
  /**
   * Documents read out of containers per upload (archive members, mail attachments, at every
   * level); the rest are listed as skipped. Their bytes count, all levels together, against
   * `maxUnzippedBytes`.
   */
  maxEmbeddedDocuments: number;
  /** MIME parts read per e-mail message, nested multiparts included; the rest are dropped with a warning. */
  maxMailParts: number;
  /** Messages read per mbox file, and items per RSS/Atom feed; the rest are dropped with a warning. */
  maxMessages: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  maxInputBytes: 50 * 1024 * 1024,
  maxUnzippedBytes: 512 * 1024 * 1024,
  maxZipEntries: 10_000,
  maxCompressionRatio: 200,
  maxXmlBytes: 128 * 1024 * 1024,
  maxXmlDepth: 256,
  maxCellsPerSheet: 200_000,
  maxTableCells: 1_000_000,
  maxHtmlElements: 500_000,
  maxCsvRows: 1_000_000,
  maxOutputRatio: 64,
  minOutputChars: 2_000_000,
  maxNestingDepth: 5,
  maxEmbeddedDocuments: 1_000,
  maxMailParts: 1_000,
  maxMessages: 10_000,
});
