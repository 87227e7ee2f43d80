// What the Node and the browser entries both export.

export type { PiiEngineConfig } from './engine.ts';
export { DEFAULT_LABELS, type LabelMap, labelMap, parseLabel } from './labels.ts';
export type { PiiModelOptions } from './model-core.ts';
export { createTokenClassifier, type ModelOptions, type TokenClassifier } from './runner.ts';
export { spawnPiiWorker } from './spawn-browser.ts';
export { mergeWords, splitWords, windows } from './words.ts';
