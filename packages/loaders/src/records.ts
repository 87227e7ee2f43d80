import { type Chunk, contextualize, type ParseData, type TokenizerName } from '@docmill/core';

/** Metadata values as vector stores take them: scalars and lists of scalars. */
export type MetadataValue = string | number | boolean | string[] | number[];

/** One Document for a framework: its text, its metadata and a stable id. */
export interface DocmillRecord {
  id: string;
  text: string;
  metadata: Record<string, MetadataValue>;
}

export interface RecordOptions {
  /** `chunks` (default): one record per chunk; `document`: one per file, its Markdown. */
  mode?: 'chunks' | 'document';
  /** Chunk size in tokens (default 512), overlap (default 0) and encoding (default o200k_base). */
  maxTokens?: number;
  overlapTokens?: number;
  tokenizer?: TokenizerName;
  /**
   * A chunk's text with its heading path in front (core's `contextualize`), as embedding wants it
   * (default true); false keeps the chunk's own text.
   */
  contextualize?: boolean;
}

/** The document's own metadata, without empty values and the response-only `error`. */
function documentMetadata(data: ParseData): Record<string, MetadataValue> {
  const out: Record<string, MetadataValue> = {};
  for (const [k, v] of Object.entries(data.metadata)) {
    if (k === 'error' || v === null || v === undefined || v === '') continue;
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[k] = v;
    else if (Array.isArray(v) && v.every((x) => typeof x === 'string')) out[k] = v as string[];
  }
  return out;
}

/** A chunk's provenance: where it is in the document, how big it is. */
function chunkMetadata(c: Chunk, index: number): Record<string, MetadataValue> {
  const out: Record<string, MetadataValue> = {
    chunkId: c.id,
    chunkIndex: index,
    tokens: c.tokens,
    headings: c.headings,
    chunkType: c.type,
  };
  if (c.pages?.length) out.pages = c.pages;
  if (c.sheet !== undefined) out.sheet = c.sheet;
  if (c.chapter !== undefined) out.chapter = c.chapter;
  if (c.chapterTitle !== undefined) out.chapterTitle = c.chapterTitle;
  return out;
}

/**
 * A parsed document as records. Chunk records carry `source`, the document's title and content
 * type, then the chunk's own fields; the document record carries `source` and all of
 * `data.metadata` (title, author, numPages, …).
 */
export function recordsOf(data: ParseData, source: string, opts: RecordOptions = {}): DocmillRecord[] {
  const doc = documentMetadata(data);
  if ((opts.mode ?? 'chunks') === 'document') {
    return [{ id: source, text: data.markdown ?? '', metadata: { source, ...doc } }];
  }
  const shared: Record<string, MetadataValue> = { source };
  for (const k of ['title', 'contentType'] as const) if (doc[k] !== undefined) shared[k] = doc[k];
  return (data.chunks ?? []).map((c, i) => ({
    id: `${source}#${c.id}`,
    text: opts.contextualize === false ? c.text : contextualize(c),
    metadata: { ...shared, ...chunkMetadata(c, i) },
  }));
}

/** The formats a mode needs: the chunks, or the Markdown. */
export function formatsFor(opts: RecordOptions) {
  if ((opts.mode ?? 'chunks') === 'document') return ['markdown' as const];
  const spec: { type: 'chunks'; maxTokens?: number; overlapTokens?: number; tokenizer?: TokenizerName } = {
    type: 'chunks',
  };
  if (opts.maxTokens !== undefined) spec.maxTokens = opts.maxTokens;
  if (opts.overlapTokens !== undefined) spec.overlapTokens = opts.overlapTokens;
  if (opts.tokenizer !== undefined) spec.tokenizer = opts.tokenizer;
  return [spec];
}
