import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createEngine } from '@docmill/core';
import { createApp } from '@docmill/server';
import { startServer } from '@docmill/server/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type JobLog, openParseQueue, queueEngine, startParseWorker } from '../src/index.ts';
import { heldCsv, until } from './held.ts';
import { redisMissing, startRedis, type TestRedis } from './redis.ts';

const pdf = readFileSync(fileURLToPath(new URL('../../../fixtures/pdf/basic.pdf', import.meta.url)));

describe.skipIf(redisMissing)('the HTTP server handing its parses to the queue', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('POST /v2/parse is parsed by a queue worker and answers as the in-process server', async () => {
    const logs: JobLog[] = [];
    const worker = await startParseWorker({
      redis: redis.url,
      name: 'http',
      engine: createEngine(),
      log: (r) => logs.push(r),
    });
    const q = openParseQueue({ redis: redis.url, name: 'http' });
    const server = await startServer(createApp(queueEngine(q), { rateLimit: false }), { host: '127.0.0.1', port: 0 });
    try {
      const send = async (bytes: Uint8Array<ArrayBuffer>, filename: string) => {
        const fd = new FormData();
        fd.append('options', JSON.stringify({ formats: ['markdown'] }));
        fd.append('file', new Blob([bytes]), filename);
        const res = await fetch(`${server.url}/v2/parse`, { method: 'POST', body: fd });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      };
      const ok = await send(pdf, 'basic.pdf');
      expect(ok.status).toBe(200);
      const direct = await createEngine().parse(pdf, { formats: ['markdown'] }, { filename: 'basic.pdf' });
      expect(ok.body).toMatchObject({ success: true, data: { markdown: direct.markdown } });
      // It really went through the worker.
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatchObject({ status: 200, filename: 'basic.pdf', bytes: pdf.byteLength });
      // A document error comes back with the contract's status and body.
      const bad = await send(new TextEncoder().encode('%PDF-1.7\n1 0 obj\n'), 'broken.pdf');
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    } finally {
      await server.close(1000);
      await q.close();
      await worker.close(1000);
    }
  });

  it('a client that goes away cancels its job on the worker', async () => {
    const held = heldCsv();
    const logs: JobLog[] = [];
    const worker = await startParseWorker({
      redis: redis.url,
      name: 'http-cancel',
      engine: createEngine({ adapters: { csv: held.adapter } }),
      log: (r) => logs.push(r),
    });
    const q = openParseQueue({ redis: redis.url, name: 'http-cancel' });
    const server = await startServer(createApp(queueEngine(q), { rateLimit: false }), { host: '127.0.0.1', port: 0 });
    try {
      const fd = new FormData();
      fd.append('file', new Blob(['a,b\n1,2\n']), 'slow.csv');
      const client = new AbortController();
      const request = fetch(`${server.url}/v2/parse`, { method: 'POST', body: fd, signal: client.signal });
      request.catch(() => undefined);
      await until(() => held.state.started === 1);
      client.abort();
      await until(() => logs.length === 1);
      expect(logs[0]).toMatchObject({ status: 499, code: 'CANCELLED', filename: 'slow.csv' });
      // The server's cancel removes the job once its worker let go of it: nothing is left.
      const counts = () => q.queue.getJobCounts('active', 'waiting', 'delayed', 'failed', 'completed');
      await until(async () => Object.values(await counts()).every((n) => n === 0));
      expect(logs).toHaveLength(1);
    } finally {
      await server.close(1000);
      await q.close();
      await worker.close(1000);
    }
  });
});
