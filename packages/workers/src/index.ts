export * from './common.ts';
export { createPool, createPooledEngine, defaultSpawn, PARSE_TASK_URL } from './node.ts';
