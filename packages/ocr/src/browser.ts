import type { Stage } from '@docmill/core';
import { createPool, webWorkerSpawn } from '@docmill/workers';
import { browserAssets } from './assets-browser.ts';
import { makeOcrStage, type OcrConfig } from './stage.ts';

/** Id of the "ocr" task in this package's browser worker (`worker-browser.ts`). */
export const OCR_TASK_URL = 'docmill:ocr';

/** Id of the OCR stage module, for a pooled engine whose worker entry registers it. */
export const OCR_STAGE_URL = 'docmill:ocr-stage';

/** Web Workers running this package's worker entry, which carries the "ocr" task. */
export const spawnOcrWorker = webWorkerSpawn(
  () => new Worker(new URL('./worker-browser.js', import.meta.url), { type: 'module' }),
);

/**
 * The OCR stage in a browser: pages are rendered in the calling thread by core's PDF backend and
 * read in a pool of Web Workers, each running tesseract.js from the app's own files (`assets`).
 */
export function createOcrStage(config: OcrConfig = {}): Stage & { close(): Promise<void> } {
  return makeOcrStage(config, {
    taskUrl: OCR_TASK_URL,
    createPool: (options) => createPool({ spawn: spawnOcrWorker, ...options }),
    assets: (c) => browserAssets(c.assets, c.langPath),
  });
}
