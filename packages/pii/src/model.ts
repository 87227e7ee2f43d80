import type { PiiModel } from '@docmill/core';
import { createPool } from '@docmill/workers';
import { makePiiModel, type PiiModelOptions } from './model-core.ts';
import { importTransformers } from './transformers.ts';

export type { PiiModelOptions } from './model-core.ts';

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
  await importTransformers();
}

/**
 * A token-classification model as core's `PiiModel`, in a worker_threads pool worker by default.
 * It loads lazily on the first request that needs it; a model that cannot load fails that request.
 */
export function piiModel(options: PiiModelOptions): PiiModel {
  return makePiiModel(options, {
    task: NER_TASK_URL,
    async ownPool() {
      await loadModelRuntime();
      return createPool({ size: 1, preload: [NER_TASK_URL] });
    },
    resolve: (o) => o,
  });
}
