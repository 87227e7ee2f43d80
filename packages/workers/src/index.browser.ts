// The browser entry (the `browser` export condition): the same API as index.ts on Web Workers,
// with no Node built-in reachable.
export { createPool, createPooledEngine, defaultSpawn, PARSE_TASK_URL } from './browser.ts';
export type { PooledEngineConfig, StageModule } from './engine.ts';
export type { Pool, PoolOptions, PoolStats, RunOptions, TaskResult } from './pool.ts';
export { defaultPoolSize } from './pool.ts';
export type { Progress, ProgressCallback, TaskContext, TaskModule } from './protocol.ts';
export { registerModules } from './protocol.ts';
export { serve } from './serve.ts';
export type { Spawn, SpawnedWorker } from './spawn.ts';
export { webWorkerSpawn } from './spawn-browser.ts';
