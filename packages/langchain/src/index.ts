import { ACCEPTED_EXTENSIONS } from '@docmill/core';
import { type DocmillInput, type DocmillRecord, docmillRecords, type LoadOptions } from '@docmill/loaders';
import { BaseDocumentLoader } from '@langchain/core/document_loaders/base';
import { Document } from '@langchain/core/documents';

export type { DocmillInput, LoadOptions as DocmillLoaderOptions } from '@docmill/loaders';

const toDocument = (r: DocmillRecord) => new Document({ id: r.id, pageContent: r.text, metadata: r.metadata });

/**
 * A LangChain document loader over docmill: a file path, a folder (every document in it) or bytes
 * (`Blob`, `Buffer`, `ArrayBuffer`, with `filename`). By default one Document per chunk
 * (`mode: "chunks"`), with `metadata` = source, title, contentType, chunkId, chunkIndex, tokens,
 * headings, chunkType and pages/sheet/chapter where the format has them; `mode: "document"` gives
 * one Document per file with the document's metadata. Parsing is local: nothing is uploaded.
 */
export class DocmillLoader extends BaseDocumentLoader {
  constructor(
    readonly input: DocmillInput,
    readonly options: LoadOptions = {},
  ) {
    super();
  }

  /** Every Document at once. */
  async load(): Promise<Document[]> {
    const out: Document[] = [];
    for await (const d of this.lazyLoad()) out.push(d);
    return out;
  }

  /** The Documents as they are made, file by file: a large folder never sits in memory whole. */
  async *lazyLoad(): AsyncGenerator<Document> {
    for await (const r of docmillRecords(this.input, this.options)) yield toDocument(r);
  }
}

/**
 * The loaders mapping of LangChain's `DirectoryLoader` for every extension docmill reads (in lower
 * and upper case, as DirectoryLoader matches extensions exactly), each file read by a DocmillLoader
 * with `options`.
 */
export function docmillLoaders(options: LoadOptions = {}): Record<string, (path: string) => DocmillLoader> {
  const make = (path: string) => new DocmillLoader(path, options);
  const map: Record<string, (path: string) => DocmillLoader> = {};
  for (const ext of ACCEPTED_EXTENSIONS) {
    map[ext] = make;
    map[ext.toUpperCase()] = make;
  }
  return map;
}
