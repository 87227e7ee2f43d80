import type { Stage } from '@docmill/core';
import { createPool } from '@docmill/workers';
import { browserAssets } from './assets-browser.ts';
import { spawnOcrWorker } from './spawn-browser.ts';
import { makeOcrStage, type OcrConfig } from './stage.ts';
import { OCR_STAGE_ID, OCR_TASK_ID } from './task-ids.ts';

/** Id of the "ocr" task in this package's browser worker (`worker-browser.ts`). */
export const OCR_TASK_URL = OCR_TASK_ID;

/**
 * Id of the OCR stage module in that worker, for a pooled engine on it:
 * `createPooledEngine({ pool: createPool({ spawn: spawnOcrWorker }), stages: [{ url: OCR_STAGE_URL, options: { assets } }] })`.
 */
export const OCR_STAGE_URL = OCR_STAGE_ID;

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
