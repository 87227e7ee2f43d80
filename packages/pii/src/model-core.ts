import type { PiiModel, PiiSpan } from '@docmill/core';
import type { Pool } from '@docmill/workers';
import { createTokenClassifier, type ModelOptions, type TokenClassifier } from './runner.ts';

export interface PiiModelOptions extends ModelOptions {
  /**
   * Where the model runs. Default: a pool worker of its own (`true`), so inference never blocks the
   * thread that parses; a `Pool` from `@docmill/workers` shares one; `false` runs in this thread.
   */
  worker?: boolean | Pool;
}

/** What differs between Node and browsers: the task's name in a worker and how a pool starts. */
export interface ModelHost {
  task: string;
  /** A one-worker pool of this platform that can run `task`. */
  ownPool(): Promise<Pool>;
  /** Options as they must reach a worker (browsers: URLs made absolute against the page). */
  resolve(options: ModelOptions): ModelOptions;
}

const TASK = 'pii-ner';

/** The model in this thread, loaded on first use; a load that failed is retried next time. */
export function inThreadModel(options: ModelOptions): PiiModel {
  let loaded: Promise<TokenClassifier> | undefined;
  return {
    async detect(texts: readonly string[]): Promise<PiiSpan[][]> {
      if (texts.length === 0) return [];
      loaded ??= createTokenClassifier(options);
      loaded.catch(() => {
        loaded = undefined;
      });
      return (await loaded).classify(texts);
    },
    async close() {
      loaded = undefined;
    },
  };
}

/**
 * A token-classification model as core's `PiiModel`. It loads lazily on the first request that
 * needs it; a model that cannot load fails that request (and core returns nothing unredacted).
 */
export function makePiiModel(options: PiiModelOptions, host: ModelHost): PiiModel {
  const { worker = true, ...rest } = options;
  const modelOptions = host.resolve(rest);
  if (worker === false) return inThreadModel(modelOptions);
  let pool: Pool | undefined;
  let ownPool = false;

  async function poolFor(): Promise<Pool> {
    if (pool) return pool;
    if (typeof worker === 'object') {
      worker.register(TASK, host.task);
      pool = worker;
      return pool;
    }
    pool = await host.ownPool();
    pool.register(TASK, host.task);
    ownPool = true;
    return pool;
  }

  return {
    async detect(texts: readonly string[], signal?: AbortSignal): Promise<PiiSpan[][]> {
      if (texts.length === 0) return [];
      const p = await poolFor();
      const { value } = await p.run<PiiSpan[][]>(TASK, { options: modelOptions, texts: [...texts] }, { signal });
      return value;
    },
    async close() {
      if (ownPool) await pool?.close();
      pool = undefined;
    },
  };
}
