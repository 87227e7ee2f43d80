// What the Node and the browser entries both export.
export type { PooledEngineConfig, StageModule } from './engine.ts';
export type { Pool, PoolOptions, PoolStats, RunOptions, TaskResult } from './pool.ts';
export { DEFAULT_MAX_WORKER_MEMORY_BYTES, defaultPoolSize } from './pool.ts';
export type { Progress, ProgressCallback, TaskContext, TaskModule } from './protocol.ts';
export { registerModules } from './protocol.ts';
export { registerParseTask } from './register-parse.ts';
export { serve } from './serve.ts';
export type { Spawn, SpawnedWorker } from './spawn.ts';
export { webWorkerSpawn } from './spawn-browser.ts';
