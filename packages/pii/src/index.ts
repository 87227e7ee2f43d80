import type { Engine } from '@docmill/core';
import { engineFactory, type PiiEngineConfig } from './engine.ts';
import { piiModel } from './model.ts';

export * from './common.ts';
export { loadModelRuntime, NER_TASK_URL, PII_STAGE_URL, piiModel } from './model.ts';

/** core's `createEngine` with the PII model configured from a path, a hub id or options. */
export const createEngine: (config?: PiiEngineConfig) => Engine = engineFactory(piiModel);
