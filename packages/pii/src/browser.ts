import type { PiiModel } from '@docmill/core';
import { createPool } from '@docmill/workers';
import { makePiiModel, type PiiModelOptions } from './model-core.ts';
import type { ModelOptions } from './runner.ts';
import { spawnPiiWorker } from './spawn-browser.ts';
import { NER_TASK_ID, PII_STAGE_ID } from './task-ids.ts';

/** Id of the "pii-ner" task in this package's browser worker (`worker-browser.ts`). */
export const NER_TASK_URL = NER_TASK_ID;

/**
 * Id of the PII stage module in that worker, for a pooled engine on it:
 * `createPooledEngine({ pool: createPool({ spawn: spawnPiiWorker }), stages: [{ url: PII_STAGE_URL, options: { model, assets } }] })`
 * with absolute URLs.
 */
export const PII_STAGE_URL = PII_STAGE_ID;

/**
 * Nothing to do in a browser: onnxruntime-web loads inside the worker that runs the model. Kept so
 * code written against the Node entry runs unchanged.
 */
export async function loadModelRuntime(): Promise<void> {}

const page = () => (globalThis as { location?: { href: string } }).location?.href;

/**
 * The model folder and onnxruntime-web's folder as absolute URLs, resolved against the page: the
 * worker that loads them resolves against its own script. `assets` defaults to `./onnx/` of the
 * page (where the playground's build copies `piiAssetFiles()`).
 */
export function resolveBrowserModel(options: ModelOptions): ModelOptions {
  const base = page();
  const abs = (u: string) => new URL(u, base).href;
  const isUrlLike = /^(?:[a-z][\w+.-]*:|\.{0,2}\/)/i.test(options.model);
  return {
    ...options,
    // A bare hub id stays as it is (and needs allowRemoteModels); anything path-like is a URL.
    model: isUrlLike ? abs(options.model) : options.model,
    assets: abs(options.assets ?? './onnx/'),
  };
}

/**
 * A token-classification model as core's `PiiModel` in a browser: by default in a Web Worker of its
 * own, the model fetched from `model` (a folder URL), onnxruntime-web from `assets`; nothing comes
 * from a CDN or the hub unless `allowRemoteModels` says so.
 */
export function piiModel(options: PiiModelOptions): PiiModel {
  return makePiiModel(options, {
    task: NER_TASK_ID,
    ownPool: async () => createPool({ size: 1, spawn: spawnPiiWorker }),
    resolve: resolveBrowserModel,
  });
}
