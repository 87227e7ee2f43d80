import { createEngine as createCoreEngine, type Engine, type EngineConfig, type PiiModel } from '@docmill/core';
import { type PiiModelOptions, piiModel } from './model.ts';

export { DEFAULT_LABELS, type LabelMap, labelMap, parseLabel } from './labels.ts';
export { loadModelRuntime, NER_TASK_URL, PII_STAGE_URL, type PiiModelOptions, piiModel } from './model.ts';
export { createTokenClassifier, type ModelOptions, type TokenClassifier } from './runner.ts';
export { mergeWords, splitWords, windows } from './words.ts';

export interface PiiEngineConfig extends Omit<EngineConfig, 'pii'> {
  /**
   * `model`: a local model directory or (with `allowRemoteModels`) a hub id, full model options, or
   * a ready `PiiModel`. Without a model only `redactPII: { mode: "fast" }` works.
   */
  pii?: false | { model?: string | PiiModelOptions | PiiModel };
}

const isModel = (m: unknown): m is PiiModel => typeof (m as PiiModel).detect === 'function';

/** core's `createEngine` with the PII model configured from a path, a hub id or options. */
export function createEngine(config: PiiEngineConfig = {}): Engine {
  const { pii, ...rest } = config;
  if (pii === false) return createCoreEngine({ ...rest, pii: false });
  const m = pii?.model;
  const model =
    m === undefined ? undefined : typeof m === 'string' ? piiModel({ model: m }) : isModel(m) ? m : piiModel(m);
  return createCoreEngine({ ...rest, pii: model ? { model } : {} });
}
