import { piiStage, type Stage } from '@docmill/core';
import { inThreadModel } from './model-core.ts';
import type { ModelOptions } from './runner.ts';

/**
 * Stage module for `createPooledEngine({ stages: [{ url: PII_STAGE_URL, options }] })`: each pool
 * worker builds the PII stage with the model loaded in that worker (it is already off the main
 * thread, so the model runs in-thread there). In browsers `model` and `assets` must be absolute
 * URLs: inside a worker a relative one would resolve against the worker's script.
 */
export function createStage(options: ModelOptions): Stage {
  return piiStage({ model: inThreadModel(options) });
}
