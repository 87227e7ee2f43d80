// The browser entry (the `browser` export condition): the same API as index.ts, with the model in a
// Web Worker, fetched from a configured URL, and onnxruntime-web's files from the app's own assets;
// no Node built-in reachable.
import type { Engine } from '@docmill/core';
import { piiModel } from './browser.ts';
import { engineFactory, type PiiEngineConfig } from './engine.ts';

export { loadModelRuntime, NER_TASK_URL, PII_STAGE_URL, piiModel } from './browser.ts';
export * from './common.ts';

/** core's `createEngine` with the PII model configured from a URL or options. */
export const createEngine: (config?: PiiEngineConfig) => Engine = engineFactory(piiModel);
