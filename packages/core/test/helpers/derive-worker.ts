/**
 * Test worker: runs the built-in derivations behind postMessage, as a worker runtime would. The
 * request and the result cross a real structured clone; an 'abort' message aborts the run.
 */
import { parentPort } from 'node:worker_threads';
import { createDeriver } from '../../src/derive/index.ts';
import type { DeriveRequest } from '../../src/index.ts';

const derive = createDeriver();
const running = new Map<number, AbortController>();

parentPort?.on('message', async (msg: { id: number; type: 'derive' | 'abort'; request?: DeriveRequest }) => {
  if (msg.type === 'abort') {
    running.get(msg.id)?.abort();
    return;
  }
  const controller = new AbortController();
  running.set(msg.id, controller);
  try {
    const result = await derive(msg.request as DeriveRequest, controller.signal);
    parentPort?.postMessage({ id: msg.id, result });
  } catch (err) {
    parentPort?.postMessage({ id: msg.id, error: (err as Error).message });
  } finally {
    running.delete(msg.id);
  }
});
