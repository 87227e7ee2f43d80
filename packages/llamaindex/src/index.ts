import { basename } from 'node:path';
import { ACCEPTED_EXTENSIONS } from '@docmill/core';
import { type DocmillRecord, docmillRecords, isDocumentName, type LoadOptions } from '@docmill/loaders';
import { Document, FileReader } from '@llamaindex/core/schema';

export type { LoadOptions as DocmillReaderOptions } from '@docmill/loaders';

/** Metadata an embedding model should not see (the text already starts with its headings). */
const NOT_EMBEDDED = [
  'source',
  'file_path',
  'file_name',
  'contentType',
  'chunkId',
  'chunkIndex',
  'tokens',
  'chunkType',
  'headings',
];
/** Metadata that tells an LLM nothing about the content. */
const NOT_FOR_LLM = ['source', 'file_path', 'contentType', 'chunkId', 'chunkIndex', 'tokens', 'chunkType'];

function toDocument(r: DocmillRecord, path: string | undefined): Document {
  const metadata: Record<string, unknown> = { ...r.metadata };
  // LlamaIndex's own file readers name the file so; SimpleDirectoryReader users filter on them.
  if (path) {
    metadata.file_path = path;
    metadata.file_name = basename(path);
  }
  return new Document({
    id_: r.id,
    text: r.text,
    metadata,
    excludedEmbedMetadataKeys: NOT_EMBEDDED.filter((k) => k in metadata),
    excludedLlmMetadataKeys: NOT_FOR_LLM.filter((k) => k in metadata),
  });
}

/**
 * A LlamaIndex.TS reader over docmill: `loadData(path)` reads a file or every document of a folder;
 * as a FileReader it also takes bytes (`loadDataAsContent`). By default one Document per chunk,
 * with `metadata` = source, title, contentType, chunkId, chunkIndex, tokens, headings, chunkType,
 * pages/sheet/chapter where the format has them, file_path and file_name; `mode: "document"` gives
 * one Document per file with the document's metadata. Parsing is local: nothing is uploaded.
 */
export class DocmillReader extends FileReader<Document> {
  constructor(readonly options: LoadOptions = {}) {
    super();
  }

  /** A file or a folder. Files are opened lazily: one over the size limit is refused unread. */
  override async loadData(path: string): Promise<Document[]> {
    const out: Document[] = [];
    for await (const r of docmillRecords(path, this.options)) out.push(toDocument(r, r.metadata.source as string));
    return out;
  }

  /** A document's bytes; `filename` helps detection and becomes the source. */
  async loadDataAsContent(fileContent: Uint8Array, filename?: string): Promise<Document[]> {
    const out: Document[] = [];
    const opts = filename ? { ...this.options, filename } : this.options;
    for await (const r of docmillRecords(fileContent, opts)) out.push(toDocument(r, undefined));
    return out;
  }

  /**
   * `fileExtToReader` for SimpleDirectoryReader: this reader for every extension docmill reads.
   * Spread it over the default map to keep LlamaIndex's readers for .txt, .md and images.
   */
  fileExtToReader(): Record<string, DocmillReader> {
    return Object.fromEntries(ACCEPTED_EXTENSIONS.map((ext) => [ext.slice(1), this]));
  }
}

/**
 * An observer for `new SimpleDirectoryReader(onlyDocuments)`: it passes over the files docmill does
 * not read (scripts, images, notes) instead of warning about each one.
 */
export const onlyDocuments = (category: 'file' | 'directory', name: string): boolean =>
  category === 'directory' || isDocumentName(name);
