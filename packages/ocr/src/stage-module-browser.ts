import type { Stage } from '@docmill/core';
import { createPool } from '@docmill/workers';
import { browserAssets } from './assets-browser.ts';
import { makeOcrStage, type OcrConfig } from './stage.ts';
import { OCR_TASK_ID } from './task-ids.ts';

/**
 * The OCR stage as a pooled engine builds it inside a browser parse worker: OCR runs in that
 * worker (tesseract.js starts its own worker under it), so the stage's pool is in-thread and no
 * worker of this package is started from inside one. `assets` must be an absolute URL here: a
 * worker's own location is its script's, not the page's.
 */
export function createStage(options: Omit<OcrConfig, 'pool' | 'openRenderer'> = {}): Stage {
  return makeOcrStage(
    { ...options, workers: 0 },
    { taskUrl: OCR_TASK_ID, createPool, assets: (c) => browserAssets(c.assets, c.langPath) },
  );
}
