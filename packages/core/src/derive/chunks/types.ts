import type { BBox } from '../../tree/types.ts';

/** Encodings whose BPE ranks ship inside the npm package (no download, works offline and in browsers). */
export const tokenizerNames = ['o200k_base', 'cl100k_base'] as const;
export type TokenizerName = (typeof tokenizerNames)[number];

/** Counts the tokens of a text. Must be deterministic; called on chunk texts and on their pieces. */
export type TokenCounter = (text: string) => number;

export interface ChunkOptions {
  /** Most tokens a chunk may hold, counted with `tokenizer` on the chunk's `text` (default 512). */
  maxTokens?: number;
  /**
   * Tokens of the previous chunk's end repeated at the start of the next one when that one continues
   * the same section (default 0). Counted inside `maxTokens`.
   */
  overlapTokens?: number;
  /** A BPE encoding by name (default `o200k_base`) or your own counter. */
  tokenizer?: TokenizerName | TokenCounter;
}

export const chunkTypes = ['text', 'table', 'list', 'code', 'image', 'mixed'] as const;
/** What a chunk holds: one kind of block, or several (`mixed`). Headings do not count. */
export type ChunkType = (typeof chunkTypes)[number];

/** The area a chunk covers on one page (PDF points, origin top-left; the union of its blocks' boxes). */
export interface ChunkBox {
  page: number;
  bbox: BBox;
}

/**
 * A piece of a document sized for embedding. `text` is the chunk's own Markdown (a table part starts
 * with the table's header row); the provenance fields are present where the format has them.
 */
export interface Chunk {
  /** `c1`, `c2`, … in reading order: unique within one document. */
  id: string;
  text: string;
  /** Tokens of `text` by the chunker's tokenizer; never above `maxTokens`. */
  tokens: number;
  /** Heading path where the chunk starts, outermost first (the headings it starts with included). */
  headings: string[];
  type: ChunkType;
  /** 1-based pages (PDF, images, DOCX with rendered page breaks) or slide numbers (PPTX/PPTM/ODP/PPT). */
  pages?: number[];
  /** Sheet name (spreadsheets; the file name's stem for CSV). */
  sheet?: string;
  /** 1-based chapter in the EPUB's reading order. */
  chapter?: number;
  /** The chapter's title from the book's table of contents, when it has one. */
  chapterTitle?: string;
  /**
   * Documents inside documents: the messages, attachments, archive members and feed items the chunk
   * lies in, outermost first (`["archive/inner.zip", "notes/readme.md"]`). A chunk never spans two.
   */
  within?: string[];
  /** Per page, the union of the chunk's block boxes (PDFs and OCR'd images). */
  bbox?: ChunkBox[];
  /**
   * The range of `data.markdown` this chunk's content comes from (UTF-16 offsets, end exclusive);
   * present when the chunks were made with the Markdown they point into. A table part's range covers
   * its own rows (the repeated header row is outside it); an overlap prefix is outside it too.
   */
  startOffset?: number;
  endOffset?: number;
  /** Ids of the `data.blocks` items the chunk draws on (`p1-b3`), for highlighting. */
  blocks?: string[];
}
