import { webWorkerSpawn } from '@docmill/workers';

/**
 * Web Workers running this package's browser worker entry, which carries the "ocr" task, the OCR
 * stage module and "parse" (for `createPooledEngine({ pool: createPool({ spawn: spawnOcrWorker }) })`).
 */
export const spawnOcrWorker = webWorkerSpawn(
  () => new Worker(new URL('./worker-browser.js', import.meta.url), { type: 'module' }),
);
