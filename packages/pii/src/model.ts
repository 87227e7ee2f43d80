import type { PiiModel, PiiSpan } from '@docmill/core';
import { createPool, type Pool } from '@docmill/workers';
import { createTokenClassifier, type ModelOptions, type TokenClassifier } from './runner.ts';

/** The `pii-ner` task module, beside this file (.ts from source, .js once built). */
export const NER_TASK_URL: string = new URL(`./task${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url)
  .href;

/** The stage module that builds the PII stage inside `createPooledEngine` workers. */
export const PII_STAGE_URL: string = new URL(
  `./stage-module${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
  import.meta.url,
).href;

/**
 * Loads onnxruntime in this thread. Call it before starting a pool whose workers load the model:
 * onnxruntime-node's native binding must register in the main thread first.
 */
export async function loadModelRuntime(): Promise<void> {
  await import('@huggingface/transformers');
}

export interface PiiModelOptions extends ModelOptions {
  /**
   * Where the model runs. Default: a pool worker of its own (`true`), so inference never blocks the
   * thread that parses; a `Pool` from `@docmill/workers` shares one; `false` runs in this thread.
   */
  worker?: boolean | Pool;
}

const TASK = 'pii-ner';

/**
 * A token-classification model as core's `PiiModel`. It loads lazily on the first request that
 * needs it; a model that cannot load fails that request (and core returns nothing unredacted).
 */
export function piiModel(options: PiiModelOptions): PiiModel {
  const { worker = true, ...modelOptions } = options;
  let pool: Pool | undefined;
  let ownPool = false;
  let inThread: Promise<TokenClassifier> | undefined;

  async function poolFor(): Promise<Pool> {
    if (pool) return pool;
    if (typeof worker === 'object') {
      worker.register(TASK, NER_TASK_URL);
      pool = worker;
      return pool;
    }
    await loadModelRuntime();
    pool = createPool({ size: 1, tasks: { [TASK]: NER_TASK_URL }, preload: [NER_TASK_URL] });
    ownPool = true;
    return pool;
  }

  return {
    async detect(texts: readonly string[], signal?: AbortSignal): Promise<PiiSpan[][]> {
      if (texts.length === 0) return [];
      if (worker === false) {
        inThread ??= createTokenClassifier(modelOptions);
        inThread.catch(() => {
          inThread = undefined;
        });
        return (await inThread).classify(texts);
      }
      const p = await poolFor();
      const { value } = await p.run<PiiSpan[][]>(TASK, { options: modelOptions, texts: [...texts] }, { signal });
      return value;
    },
    async close() {
      if (ownPool) await pool?.close();
      pool = undefined;
      inThread = undefined;
    },
  };
}
