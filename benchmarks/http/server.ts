/**
 * Child process of the HTTP benchmark: the real server on a free loopback port, answering the
 * parent over IPC with its own memory figures (after a forced GC when asked; run with --expose-gc).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine } from '@docmill/core';
import { createApp } from '@docmill/server';
import { startServer } from '@docmill/server/node';

const API_KEY = process.env.BENCH_API_KEY ?? 'bench-key';
const engine = createEngine();
const app = createApp(engine, {
  keys: [{ id: 'bench', key: API_KEY }],
  concurrency: Number(process.env.BENCH_CONCURRENCY ?? 2),
  maxQueue: 256,
  rateLimit: false,
  // The mix sends wrong keys from the same loopback address as every valid request.
  authFailureLimit: false,
});
const server = await startServer(app, { host: '127.0.0.1', port: 0 });

const gc = (globalThis as { gc?: () => void }).gc;
async function settle(): Promise<void> {
  // Several passes with turns of the event loop between them: finalizers and freed arenas need them.
  for (let i = 0; i < 4; i++) {
    gc?.();
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Same documents parsed directly, sequentially, in this process: the no-HTTP reference. */
async function direct(files: string[], rounds: number): Promise<{ docsPerSec: number }> {
  const inputs = files.map((f) => ({ name: f.split('/').pop() as string, bytes: new Uint8Array(readFileSync(f)) }));
  const t0 = performance.now();
  for (let r = 0; r < rounds; r++) {
    for (const i of inputs) await engine.parse(i.bytes, {}, { filename: i.name });
  }
  return { docsPerSec: (rounds * inputs.length * 1000) / (performance.now() - t0) };
}

process.on('message', async (msg: { type: string; files?: string[]; rounds?: number }) => {
  if (msg.type === 'memory') {
    await settle();
    const m = process.memoryUsage();
    process.send?.({ type: 'memory', rss: m.rss, heapUsed: m.heapUsed, external: m.external, gc: Boolean(gc) });
  } else if (msg.type === 'direct') {
    process.send?.({ type: 'direct', ...(await direct(msg.files ?? [], msg.rounds ?? 5)) });
  } else if (msg.type === 'stop') {
    await server.close(10_000);
    await engine.close();
    process.send?.({ type: 'stopped' });
    process.disconnect();
  }
});
process.send?.({ type: 'ready', url: server.url, root: join(import.meta.dirname, '../..') });
