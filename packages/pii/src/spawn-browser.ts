import { webWorkerSpawn } from '@docmill/workers';

/**
 * Web Workers running this package's browser worker entry, which carries the "pii-ner" task, the
 * PII stage module and "parse" (for `createPooledEngine({ pool: createPool({ spawn: spawnPiiWorker }) })`).
 */
export const spawnPiiWorker = webWorkerSpawn(
  () => new Worker(new URL('./worker-browser.js', import.meta.url), { type: 'module' }),
);
