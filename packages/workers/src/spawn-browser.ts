import { type Spawn, type SpawnedWorker, wrapWorker } from './spawn.ts';

/**
 * Pool workers as module Web Workers. `create` must build the Worker itself, a `new Worker` of a
 * `new URL` of a literal relative path and `import.meta.url`, with `{ type: 'module' }`: that shape is
 * what bundlers (Vite, webpack, Parcel) recognise to emit the entry and everything it imports as
 * a chunk of their own, so each package that needs its tasks in a worker writes one such line.
 */
export function webWorkerSpawn(create: () => Worker): Spawn {
  return async (): Promise<SpawnedWorker> => {
    const worker = create();
    const w = wrapWorker(worker, () => worker.terminate());
    worker.addEventListener('error', (ev) => {
      ev.preventDefault();
      w.crash(ev.message || 'the worker failed');
    });
    return w.spawned;
  };
}

/** This package's own worker: runs the "parse" task (whole documents). */
export const spawnBrowser: Spawn = webWorkerSpawn(
  () => new Worker(new URL('./worker-browser.js', import.meta.url), { type: 'module' }),
);
