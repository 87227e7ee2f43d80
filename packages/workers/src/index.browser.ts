// The browser entry (the `browser` export condition): the same API as index.ts on Web Workers,
// with no Node built-in reachable.
export { createPool, createPooledEngine, defaultSpawn, PARSE_TASK_URL } from './browser.ts';
export * from './common.ts';
