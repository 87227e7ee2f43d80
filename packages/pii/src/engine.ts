import { createEngine as createCoreEngine, type Engine, type EngineConfig, type PiiModel } from '@docmill/core';
import type { PiiModelOptions } from './model-core.ts';

export interface PiiEngineConfig extends Omit<EngineConfig, 'pii'> {
  /**
   * `model`: a local model directory (Node), the model folder's URL on the page's origin
   * (browsers), or (with `allowRemoteModels`) a hub id; full model options; or a ready `PiiModel`. Without a model only `redactPII: { mode: "fast" }` works.
   */
  pii?: false | { model?: string | PiiModelOptions | PiiModel };
}

const isModel = (m: unknown): m is PiiModel => typeof (m as PiiModel).detect === 'function';

/** core's `createEngine` with the PII model built by this platform's `piiModel`. */
export function engineFactory(piiModel: (options: PiiModelOptions) => PiiModel): (config?: PiiEngineConfig) => Engine {
  return (config = {}) => {
    const { pii, ...rest } = config;
    if (pii === false) return createCoreEngine({ ...rest, pii: false });
    const m = pii?.model;
    const model =
      m === undefined ? undefined : typeof m === 'string' ? piiModel({ model: m }) : isModel(m) ? m : piiModel(m);
    return createCoreEngine({ ...rest, pii: model ? { model } : {} });
  };
}
