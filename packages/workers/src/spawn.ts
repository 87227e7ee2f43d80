import * as Comlink from 'comlink';
import type { WorkerApi } from './protocol.ts';

/** One live worker as the pool sees it, whatever the platform. */
export interface SpawnedWorker {
  api: Comlink.Remote<WorkerApi>;
  /** Calls back once if the worker dies on its own (crash, out of memory, process.exit in a task); returns an unsubscribe. */
  onCrash(cb: (reason: string) => void): () => void;
  terminate(): Promise<void>;
}

export type Spawn = () => Promise<SpawnedWorker>;

/** The platform-free half of a worker: its comlink proxy, crash subscribers, and an orderly end that is no crash. */
export function wrapWorker(
  endpoint: Comlink.Endpoint,
  stop: () => unknown,
): { spawned: SpawnedWorker; crash(reason: string): void } {
  const api = Comlink.wrap<WorkerApi>(endpoint);
  const subscribers: ((reason: string) => void)[] = [];
  let ending = false;
  let crashed = false;
  return {
    crash(reason) {
      if (ending || crashed) return;
      crashed = true;
      for (const cb of [...subscribers]) cb(reason);
    },
    spawned: {
      api,
      onCrash: (cb) => subscribe(subscribers, cb),
      async terminate() {
        ending = true;
        api[Comlink.releaseProxy]();
        await stop();
      },
    },
  };
}

function subscribe<T>(list: T[], cb: T): () => void {
  list.push(cb);
  return () => {
    const i = list.indexOf(cb);
    if (i >= 0) list.splice(i, 1);
  };
}
