import { makePooledEngine, type PooledEngineConfig } from './engine.ts';
import { makePool, type Pool, type PoolOptions } from './pool.ts';
import type { Spawn } from './spawn.ts';
import { spawnNode } from './spawn-node.ts';

/** Node's defaults: worker_threads, and tasks named by file URL. */

export const defaultSpawn: Spawn = spawnNode;

/** A worker pool (see `PoolOptions`); worker_threads unless `spawn` says otherwise. */
export function createPool(options: PoolOptions = {}): Pool {
  return makePool(options, spawnNode);
}

export const PARSE_TASK_URL: string = new URL(
  `./parse-task${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
  import.meta.url,
).href;

/**
 * The engine interface with every document parsed in a pool worker, so several documents parse at
 * once. Requests over capacity wait in the pool's bounded queue; those that waited say so in
 * `metadata.concurrencyLimited` / `concurrencyQueueDurationMs`. The request's `timeout` (and the
 * caller's signal) end the worker running it.
 */
export function createPooledEngine(config: PooledEngineConfig = {}): ReturnType<typeof makePooledEngine> {
  return makePooledEngine(config, { createPool, parseTask: PARSE_TASK_URL });
}
