export type { PooledEngineConfig, StageModule } from './engine.ts';
export { createPooledEngine, PARSE_TASK_URL } from './engine.ts';
export type { Pool, PoolOptions, PoolStats, RunOptions, TaskResult } from './pool.ts';
export { createPool, defaultPoolSize } from './pool.ts';
export type { Progress, ProgressCallback, TaskContext, TaskModule } from './protocol.ts';
export type { Spawn, SpawnedWorker } from './spawn.ts';
export { defaultSpawn } from './spawn.ts';
