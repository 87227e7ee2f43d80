import { type AddressInfo, createServer, type Socket } from 'node:net';
import { DocmillError } from '@docmill/core';
import { describe, expect, it } from 'vitest';
import { enqueueParse, openParseQueue, queueEngine, waitForResult } from '../src/index.ts';
import { within } from './held.ts';
import { freePort } from './redis.ts';

/**
 * Redis down: a loopback port nobody listens on (refused at once), or a server that accepts and
 * never answers (the event subscription never becomes ready and commands wait for a connection).
 * The caller's signal and timeout must still answer, and close() must return; a hang here fails by
 * the test's own timeout.
 */
describe('a queue client while Redis is unreachable', () => {
  it('a refused connection is a 503 at once, naming no password', async () => {
    const q = openParseQueue({ redis: `redis://:s3cret-pw@127.0.0.1:${await freePort()}`, name: 'down' });
    try {
      // Nothing listens: that is known at once, not after connectTimeoutMs (10 s).
      const err = await within(
        enqueueParse(q, new TextEncoder().encode('a,b\n1,2\n')).catch((e: unknown) => e),
        8_000,
      );
      expect(err).toBeInstanceOf(DocmillError);
      expect(err).toMatchObject({ status: 503, code: 'UNKNOWN_ERROR' });
      expect((err as Error).message).toMatch(/^Cannot reach Redis \(connect ECONNREFUSED 127\.0\.0\.1:\d+\)\.$/);
      expect((err as Error).message).not.toContain('s3cret');
      // Waits and the event subscription fail the same way rather than wait.
      await expect(waitForResult(q, '1', 600_000)).rejects.toMatchObject({ status: 503 });
      await expect(q.listen()).rejects.toMatchObject({ status: 503 });
    } finally {
      await q.close();
    }
  }, 20_000);

  it('a Redis that accepts but never answers is a 503 after connectTimeoutMs', async () => {
    const silent = await silentServer();
    const q = openParseQueue({ redis: `redis://127.0.0.1:${silent.port}`, name: 'down', connectTimeoutMs: 300 });
    try {
      const err = await enqueueParse(q, new TextEncoder().encode('a,b\n1,2\n')).catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 503, code: 'UNKNOWN_ERROR' });
      expect((err as Error).message).toMatch(/^Redis did not answer within 300 ms/);
    } finally {
      await q.close();
      await silent.close();
    }
  }, 20_000);

  it('an aborted signal and an elapsed timeout settle waitForResult, and close() returns', async () => {
    const silent = await silentServer();
    const q = openParseQueue({ redis: `redis://127.0.0.1:${silent.port}`, name: 'down' });
    try {
      const controller = new AbortController();
      const aborted = waitForResult(q, '1', 600_000, { signal: controller.signal });
      const timedOut = waitForResult(q, '2', 200);
      const kept = waitForResult(q, '3', 600_000).catch((e: unknown) => e);
      controller.abort(new Error('client went away'));
      await expect(aborted).rejects.toThrow('client went away');
      await expect(timedOut).rejects.toMatchObject({ code: 'SCRAPE_TIMEOUT', status: 408 });
      await q.close();
      // A wait still held up by the subscription is settled by close() rather than left hanging.
      expect(String(await kept)).toContain('Queue closed while waiting for 3');
    } finally {
      await q.close();
      await silent.close();
    }
  }, 10_000);

  it('queueEngine answers its caller’s abort while it subscribes and while it adds the job', async () => {
    const silent = await silentServer();
    const q = openParseQueue({ redis: `redis://127.0.0.1:${silent.port}`, name: 'down' });
    try {
      const engine = queueEngine(q);
      const doc = new TextEncoder().encode('a,b\n1,2\n');
      for (const onProgress of [() => undefined, undefined]) {
        const controller = new AbortController();
        const parsing = engine.parse(doc, {}, { signal: controller.signal, ...(onProgress ? { onProgress } : {}) });
        setTimeout(() => controller.abort(new DocmillError(408, 'SCRAPE_TIMEOUT', 'request deadline')), 100);
        await expect(parsing).rejects.toThrow('request deadline');
      }
    } finally {
      await q.close();
      await silent.close();
    }
  }, 10_000);
});

/** A TCP server that accepts connections and never says a word: a Redis that does not answer. */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
