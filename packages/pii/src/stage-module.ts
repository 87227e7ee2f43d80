import { piiStage, type Stage } from '@docmill/core';
import { piiModel } from './model.ts';
import type { ModelOptions } from './runner.ts';

/**
 * Stage module for `createPooledEngine({ stages: [{ url: PII_STAGE_URL, options }] })`: each pool
 * worker builds the PII stage with the model loaded in that worker (it is already off the main
 * thread, so the model runs in-thread there).
 */
export function createStage(options: ModelOptions): Stage {
  return piiStage({ model: piiModel({ ...options, worker: false }) });
}
