import * as Comlink from 'comlink';
import {
  type Lender,
  loadTask,
  offloadVia,
  type Progress,
  type ProgressCallback,
  runTask,
  threadMemory,
  type WorkerApi,
} from './protocol.ts';

/** Worker side of the seam: exposes the task runner on whatever endpoint the platform gives. */
export function serve(endpoint: Comlink.Endpoint): void {
  const api: WorkerApi = {
    async run(url, input, onProgress?: ProgressCallback, lender?: Lender) {
      // Progress travels on the proxy's own channel; the result must not overtake it.
      const sent: Promise<unknown>[] = [];
      const forward = onProgress
        ? (p: Progress) => {
            sent.push(Promise.resolve(onProgress(p)).catch(() => undefined));
          }
        : undefined;
      try {
        const out = await runTask(url, input, forward, lender ? offloadVia(lender) : undefined);
        await Promise.all(sent);
        // The pool retires a worker whose memory a task left above its high-water mark.
        return { ...out, memory: threadMemory() };
      } finally {
        // The pool keeps the lender's channel open until told; one per task would pile up.
        (lender as Comlink.Remote<Lender> | undefined)?.[Comlink.releaseProxy]();
      }
    },
    async preload(url) {
      await loadTask(url);
    },
  };
  Comlink.expose(api, endpoint);
}
