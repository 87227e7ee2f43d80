import { makePooledEngine, type PooledEngineConfig } from './engine.ts';
import { makePool, type Pool, type PoolOptions } from './pool.ts';
import { PARSE_TASK_ID } from './register-parse.ts';
import type { Spawn } from './spawn.ts';
import { spawnBrowser } from './spawn-browser.ts';

/**
 * Browser defaults: module Web Workers, and tasks named by the ids their worker entry registers
 * (a bundled app has no task files to import by URL).
 */

export const defaultSpawn: Spawn = spawnBrowser;

/** A worker pool (see `PoolOptions`); this package's Web Worker unless `spawn` says otherwise. */
export function createPool(options: PoolOptions = {}): Pool {
  return makePool(options, spawnBrowser);
}

/** Id of the "parse" task in this package's browser worker (`worker-browser.ts`). */
export const PARSE_TASK_URL = PARSE_TASK_ID;

/** `createPooledEngine` on Web Workers: whole documents parsed in workers, several at once. */
export function createPooledEngine(config: PooledEngineConfig = {}): ReturnType<typeof makePooledEngine> {
  return makePooledEngine(config, { createPool, parseTask: PARSE_TASK_URL });
}
