import { DocmillError, throwIfAborted } from '../../errors.ts';
import { layoutBlocks, type PageBlocks } from '../../render/blocks.ts';
import { renderMarkdownWithSpans } from '../../render/markdown.ts';
import type { ParseData } from '../../result.ts';
import type { Root } from '../../tree/types.ts';
import type { ChunkTreeOptions, Internal } from './index.ts';
import { DEFAULT_CHUNK_TOKENS, MAX_CHUNK_TOKENS, MIN_CHUNK_TOKENS } from './limits.ts';
import { packChunks } from './pack.ts';
import { blocksFromLayout, blocksFromMarkdown, type SourceBlock } from './source.ts';
import { TokenizerError } from './split.ts';
import { tokenCounter } from './tokenizer.ts';
import type { Chunk } from './types.ts';

function checkBudget(maxTokens: number, overlapTokens: number): void {
  if (!Number.isInteger(maxTokens) || maxTokens < MIN_CHUNK_TOKENS || maxTokens > MAX_CHUNK_TOKENS)
    throw new DocmillError(
      400,
      'BAD_REQUEST',
      `maxTokens must be a whole number from ${MIN_CHUNK_TOKENS} to ${MAX_CHUNK_TOKENS}; got ${maxTokens}.`,
    );
  if (!Number.isInteger(overlapTokens) || overlapTokens < 0 || overlapTokens > maxTokens / 2)
    throw new DocmillError(
      400,
      'BAD_REQUEST',
      `overlapTokens must be a whole number from 0 to half of maxTokens; got ${overlapTokens}.`,
    );
}

function sourceBlocks(input: Root | ParseData, opts: ChunkTreeOptions): SourceBlock[] {
  if ('type' in input && input.type === 'root') {
    const rendered = renderMarkdownWithSpans(input, opts);
    return blocksFromLayout(layoutBlocks(input, rendered.spans, rendered.markdown));
  }
  const data = input as ParseData;
  if (data.blocks) return blocksFromLayout(data.blocks);
  if (typeof data.markdown === 'string') return blocksFromMarkdown(data.markdown);
  throw new DocmillError(
    400,
    'BAD_REQUEST',
    'chunk() needs a block tree, or parse data with `markdown` or `blocks` (ask for the markdown format).',
  );
}

/** Chunks of blocks already laid out. */
export async function chunkLayout(
  groups: readonly PageBlocks[],
  options: ChunkTreeOptions & Internal,
): Promise<Chunk[]> {
  return chunkSource(() => blocksFromLayout(groups), options);
}

async function chunkSource(source: () => SourceBlock[], options: ChunkTreeOptions & Internal): Promise<Chunk[]> {
  const maxTokens = options.maxTokens ?? DEFAULT_CHUNK_TOKENS;
  const overlapTokens = options.overlapTokens ?? 0;
  checkBudget(maxTokens, overlapTokens);
  const counter = await tokenCounter(options.tokenizer);
  const blocks = source();
  const { signal, check } = options;
  try {
    return await packChunks(blocks, {
      maxTokens,
      overlapTokens,
      counter,
      check: () => {
        throwIfAborted(signal);
        check?.();
      },
    });
  } catch (err) {
    if (err instanceof TokenizerError) throw new DocmillError(400, 'BAD_REQUEST', err.message);
    throw err;
  }
}

/** The chunker behind index.ts's `chunk` (which checks the input). */
export function chunk(input: Root | ParseData, options: ChunkTreeOptions = {}): Promise<Chunk[]> {
  return chunkSource(() => sourceBlocks(input, options), options);
}
