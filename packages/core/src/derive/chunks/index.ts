import { DocmillError } from '../../errors.ts';
import type { PageBlocks } from '../../render/blocks.ts';
import type { MarkdownOptions } from '../../render/markdown.ts';
import type { ParseData } from '../../result.ts';
import type { Root } from '../../tree/types.ts';
import { once } from '../../util/once.ts';
import type { Chunk, ChunkOptions } from './types.ts';

export { chunkSchema } from './schema.ts';
export type { Chunk, ChunkBox, ChunkOptions, ChunkType, TokenCounter, TokenizerName } from './types.ts';
export { chunkTypes, tokenizerNames } from './types.ts';

/** How a tree's Markdown is rendered for the offsets (as `parse` renders `data.markdown`), and a way to stop. */
export interface ChunkTreeOptions extends ChunkOptions, MarkdownOptions {
  signal?: AbortSignal;
}

/** The engine's own stop check (its deadline), beside the caller's signal. */
export interface Internal {
  check?: () => void;
}

// The chunker loads on first use, like the tokenizer it brings: parses without chunks carry neither.
const load = once(() => import('./run.ts'));

/**
 * Cuts a document into chunks for embedding: the tree from `parseTree` (offsets then point into
 * `render(tree, 'markdown')`), or a `ParseData` (its `blocks` when present, else its `markdown`;
 * offsets point into `data.markdown`). Async because the chunker and its tokenizer load on first use.
 */
export async function chunk(input: Root | ParseData, options: ChunkTreeOptions = {}): Promise<Chunk[]> {
  if (!input || typeof input !== 'object')
    throw new DocmillError(400, 'BAD_REQUEST', 'chunk() needs a block tree or parse data.');
  return (await load()).chunk(input, options);
}

/** Chunks of blocks already laid out (the engine shares its Markdown rendering with `data.markdown`). */
export async function chunkLayout(
  groups: readonly PageBlocks[],
  options: ChunkTreeOptions & Internal,
): Promise<Chunk[]> {
  return (await load()).chunkLayout(groups, options);
}

const LEADING_HEADING = /^#{1,6}[ \t]/;

/**
 * The chunk's text with its heading path in front, for embedding (as docling's `contextualize`):
 * the headings the text does not already start with, one per line, then the text. Chunking keeps
 * room for this path within `maxTokens`.
 */
export function contextualize(c: Chunk): string {
  let shown = 0;
  for (const block of c.text.split('\n\n')) {
    if (!LEADING_HEADING.test(block)) break;
    shown++;
  }
  const path = c.headings.slice(0, Math.max(0, c.headings.length - shown));
  return path.length ? `${path.join('\n')}\n\n${c.text}` : c.text;
}
