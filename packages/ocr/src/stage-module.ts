import type { Stage } from '@docmill/core';
import { createOcrStage } from './node.ts';
import type { OcrConfig } from './stage.ts';

/**
 * Built by the pooled engine inside each parse worker: OCR runs in that worker's thread (tesseract.js
 * has its own thread under it), since the document already has a worker to itself.
 */
export function createStage(options: Omit<OcrConfig, 'pool' | 'openRenderer'> = {}): Stage {
  return createOcrStage({ ...options, workers: 0 });
}
