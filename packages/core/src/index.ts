export type {
  PdfBackendName,
  PdfEngineConfig,
  PdfPageContent,
  PdfSource,
  RenderedPage,
} from './adapters/pdf/backend/index.ts';
export { openPdf } from './adapters/pdf/open.ts';
export type { PlacedWord, WordPage } from './adapters/pdf/words.ts';
export { layoutWordPages } from './adapters/pdf/words.ts';
export type {
  Adapter,
  AdapterContext,
  AdapterOutput,
  PageClass,
  ParseProgress,
  ProgressUnit,
} from './adapters/types.ts';
export type {
  Chunk,
  ChunkBox,
  ChunkOptions,
  ChunkTreeOptions,
  ChunkType,
  TokenCounter,
  TokenizerName,
} from './derive/chunks/index.ts';
export { chunk, chunkSchema, chunkTypes, contextualize, tokenizerNames } from './derive/chunks/index.ts';
export { llmConfigFromEnv } from './derive/env.ts';
export type { DeriveRequest, DeriveResult, Deriver, LlmConfig } from './derive/types.ts';
export type { Detected, FileKind } from './detect.ts';
export {
  ACCEPTED_EXTENSIONS,
  CONTRACT_EXTENSIONS,
  DOCMILL_EXTENSIONS,
  detect,
  extensionOf,
  IMAGE_EXTENSIONS,
  MIME_TYPES,
} from './detect.ts';
export type { Engine, EngineConfig, ParseHints, TreeResult } from './engine.ts';
export { createEngine, parse, parseTree } from './engine.ts';
export type { DocmillErrorOptions, ErrorBody, ErrorCode, PasswordProblem } from './errors.ts';
export { DocmillError, timeoutError, toDocmillError, withPasswordHint } from './errors.ts';
export type { ParseInput } from './input.ts';
export { readInput } from './input.ts';
export type { Limits } from './limits.ts';
export { DEFAULT_LIMITS } from './limits.ts';
export type {
  ChunksSpec,
  ParseOptions,
  PdfOptions,
  RedactPIIOptions,
  ResolvedOptions,
} from './options/index.ts';
export { normalizeOptions, parseOptionsSchema, piiEntities } from './options/index.ts';
export { collectImages, collectLinks, renderHtml, renderMarkdown } from './render/index.ts';
export type { BlockGroupKind, LayoutItem, PageBlocks, PageResult, ParseData, TablePagePart } from './result.ts';
export type { PiiConfig, PiiEntity, PiiModel, PiiSpan, ReplaceStyle, SpanFinder } from './stages/pii/index.ts';
export { findPii, MODEL_MISSING, piiStage, redactTree, resolveSpans, spanFinder } from './stages/pii/index.ts';
export type { Offload, Stage, StageContext } from './stages/types.ts';
export * as tree from './tree/index.ts';
export type * from './tree/types.ts';
export type { ProgressThrottle } from './util/progress.ts';
export { throttleProgress } from './util/progress.ts';

import { renderHtml } from './render/html.ts';
import { collectImages, collectLinks } from './render/links.ts';
import { renderMarkdown } from './render/markdown.ts';
import type { Root } from './tree/types.ts';

/** Renders a tree into one output format. */
export function render(root: Root, format: 'markdown' | 'html'): string;
export function render(root: Root, format: 'links' | 'images'): string[];
export function render(root: Root, format: 'markdown' | 'html' | 'links' | 'images'): string | string[];
export function render(root: Root, format: 'markdown' | 'html' | 'links' | 'images'): string | string[] {
  switch (format) {
    case 'markdown':
      return renderMarkdown(root);
    case 'html':
      return renderHtml(root);
    case 'links':
      return collectLinks(root);
    case 'images':
      return collectImages(root, { removeBase64Images: true });
  }
}
