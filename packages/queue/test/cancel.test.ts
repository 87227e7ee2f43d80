import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createEngine } from '@docmill/core';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cancelParse,
  enqueueParse,
  type JobLog,
  openParseQueue,
  queueEngine,
  startParseWorker,
  waitForResult,
} from '../src/index.ts';
import { heldCsv, until } from './held.ts';
import { dumpRedis, redisMissing, startRedis, type TestRedis } from './redis.ts';

const comma = new Uint8Array(readFileSync(fileURLToPath(new URL('../../../fixtures/csv/comma.csv', import.meta.url))));

if (redisMissing) console.warn(redisMissing);

describe.skipIf(redisMissing)('cancelling parse jobs across the queue', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  /** Every key and value in Redis as one text, to search for a document's bytes. */
  const redisText = async () => {
    const dump = await dumpRedis(redis.url);
    return [...dump.keys(), ...dump.values()].join('\n');
  };

  it('a waiting job is removed with its bytes, and no worker ever runs it', async () => {
    const q = openParseQueue({ redis: redis.url, name: 'cancel-waiting' });
    const doc = new TextEncoder().encode('a,b\nWAITINGMARKER51,2\n');
    const b64 = Buffer.from(doc).toString('base64');
    try {
      const id = await enqueueParse(q, doc, {}, { filename: 'w.csv' });
      expect(await redisText()).toContain(b64);
      expect(await cancelParse(q, id)).toBe('removed');
      expect(await q.queue.getJobState(id)).toBe('unknown');
      expect(await redisText()).not.toContain(b64);
      // A worker that starts afterwards finds nothing to do.
      const logs: JobLog[] = [];
      const worker = await startParseWorker({
        redis: redis.url,
        name: 'cancel-waiting',
        engine: createEngine(),
        log: (r) => logs.push(r),
      });
      try {
        const next = await enqueueParse(q, comma, {}, { filename: 'comma.csv' });
        const r = await waitForResult(q, next, 20_000);
        expect(r.success && r.data.markdown).toContain('|');
        expect(logs.map((l) => l.jobId)).toEqual([next]);
      } finally {
        await worker.close(1000);
      }
    } finally {
      await q.close();
    }
  });

  it('an active job is aborted by its worker, not retried, leaves no bytes, and the worker takes the next job', async () => {
    // The CSV adapter holds documents that say SLOW until their signal aborts.
    const held = heldCsv((text) => text.includes('SLOW'));
    const logs: JobLog[] = [];
    const worker = await startParseWorker({
      redis: redis.url,
      name: 'cancel-active',
      engine: createEngine({ adapters: { csv: held.adapter } }),
      concurrency: 1,
      log: (r) => logs.push(r),
    });
    // Three attempts allowed: a cancelled job must still run only once.
    const q = openParseQueue({ redis: redis.url, name: 'cancel-active', attempts: 3 });
    const doc = new TextEncoder().encode('a,b\nSLOW,ACTIVEMARKER77\n');
    const b64 = Buffer.from(doc).toString('base64');
    try {
      // The HTTP server's path: queueEngine with the request's signal.
      const controller = new AbortController();
      const parsing = queueEngine(q).parse(doc, {}, { filename: 'slow.csv', signal: controller.signal });
      parsing.catch(() => undefined);
      await until(() => held.state.started === 1);
      const [active] = await q.queue.getJobs(['active']);
      expect(active?.data.bytes).toBe(b64);
      controller.abort(new Error('client went away'));
      await expect(parsing).rejects.toThrow('client went away');
      // The worker aborted the engine's parse (whose adapter sees the engine's own abort error)
      // and logged the job as cancelled.
      await until(() => logs.length === 1);
      expect(held.state.aborts).toEqual([expect.objectContaining({ message: 'Parsing was aborted by the caller.' })]);
      expect(logs[0]).toMatchObject({ jobId: active?.id, status: 499, code: 'CANCELLED', filename: 'slow.csv' });
      // queueEngine's cancel removes the failed job in the background: then no byte of it is left,
      // only the cancel mark ("1"), which expires with the result TTL.
      await until(async () => (await q.queue.getJobState(active?.id as string)) === 'unknown');
      expect(await redisText()).not.toContain(b64);
      const mark = `bull:cancel-active:docmill-cancel:${active?.id}`;
      expect(await q.redis.get(mark)).toBe('1');
      expect(await q.redis.ttl(mark)).toBeGreaterThan(0);

      // The same worker (concurrency 1) takes the next job and succeeds.
      const next = await enqueueParse(q, comma, {}, { filename: 'comma.csv' });
      const r = await waitForResult(q, next, 20_000);
      expect(r.success && r.data.markdown).toContain('|');
      // Not retried: one attempt of the cancelled job, one of the next.
      expect(logs.map((l) => [l.jobId, l.status])).toEqual([
        [active?.id, 499],
        [next, 200],
      ]);
      expect(held.state.started).toBe(1);
    } finally {
      await q.close();
      await worker.close(1000);
    }
  });

  it('cancelParse on a running job answers once its worker has stopped it', async () => {
    const held = heldCsv();
    const logs: JobLog[] = [];
    const worker = await startParseWorker({
      redis: redis.url,
      name: 'cancel-direct',
      engine: createEngine({ adapters: { csv: held.adapter } }),
      log: (r) => logs.push(r),
    });
    const q = openParseQueue({ redis: redis.url, name: 'cancel-direct' });
    try {
      const id = await enqueueParse(q, comma, { zeroDataRetention: true }, { filename: 'z.csv' });
      // A second party waits for the job: it must learn the job was cancelled, not that it vanished.
      const waiting = waitForResult(q, id, 20_000);
      await until(() => held.state.started === 1);
      expect(await cancelParse(q, id)).toBe('stopped');
      expect(logs).toEqual([expect.objectContaining({ jobId: id, status: 499, code: 'CANCELLED' })]);
      expect(JSON.stringify(logs)).not.toContain('z.csv');
      expect(await waiting).toEqual({
        success: false,
        code: 'UNKNOWN_ERROR',
        error: 'The parse job was cancelled by its client.',
      });
      expect(await q.queue.getJobState(id)).toBe('unknown');
      // Nothing of the job is left but its cancel mark, which holds no content.
      const dump = await dumpRedis(redis.url);
      const keys = [...dump.keys()].filter((k) => k.startsWith('bull:cancel-direct:'));
      expect(keys.filter((k) => k.endsWith(`:${id}`) || k.includes(`:${id}:`))).toEqual([
        `bull:cancel-direct:docmill-cancel:${id}`,
      ]);
      expect(dump.get(`bull:cancel-direct:docmill-cancel:${id}`)).toBe('"1"');
    } finally {
      await q.close();
      await worker.close(1000);
    }
  });

  it('a zero-data-retention job cancelled before a worker took it: its waiter gets the cancelled body', async () => {
    const q = openParseQueue({ redis: redis.url, name: 'cancel-early' });
    let parsed = 0;
    const engine = createEngine();
    const logs: JobLog[] = [];
    try {
      const id = await enqueueParse(q, comma, { zeroDataRetention: true }, { filename: 'e.csv' });
      // The cancel mark is there when a worker takes the job (a cancel that raced its start).
      await q.redis.set(`bull:cancel-early:docmill-cancel:${id}`, '1', 'EX', 60);
      const worker = await startParseWorker({
        redis: redis.url,
        name: 'cancel-early',
        engine: {
          parse: (...args) => {
            parsed++;
            return engine.parse(...args);
          },
        },
        log: (r) => logs.push(r),
      });
      try {
        expect(await waitForResult(q, id, 20_000)).toMatchObject({
          success: false,
          error: expect.stringContaining('cancelled'),
        });
        expect(parsed).toBe(0);
        expect(logs).toEqual([expect.objectContaining({ jobId: id, status: 499, code: 'CANCELLED' })]);
      } finally {
        await worker.close(1000);
      }
    } finally {
      await q.close();
    }
  });

  it('a cancel the worker did not hear still drops the result: nothing stored, the waiter gets the cancelled body', async () => {
    // An engine that sees the cancel land in Redis while it parses, as a worker whose cancel
    // subscription was reconnecting would, and finishes anyway.
    const engine = createEngine();
    let marked = 0;
    const logs: JobLog[] = [];
    const worker = await startParseWorker({
      redis: redis.url,
      name: 'cancel-unheard',
      engine: {
        async parse(input, options, hints) {
          const [job] = await q.queue.getJobs(['active']);
          await q.redis.set(`bull:cancel-unheard:docmill-cancel:${job?.id}`, '1', 'EX', 60);
          marked++;
          return engine.parse(input, options, hints);
        },
      },
      log: (r) => logs.push(r),
    });
    const q = openParseQueue({ redis: redis.url, name: 'cancel-unheard' });
    try {
      for (const zeroDataRetention of [true, false]) {
        const doc = new TextEncoder().encode(`a,b\nUNHEARD${zeroDataRetention},1\n`);
        const id = await enqueueParse(q, doc, { zeroDataRetention }, { filename: 'u.csv' });
        expect(await waitForResult(q, id, 20_000)).toMatchObject({
          success: false,
          error: 'The parse job was cancelled by its client.',
        });
        expect(logs.at(-1)).toMatchObject({ jobId: id, status: 499, code: 'CANCELLED' });
        // The parsed content never reached Redis.
        expect(await redisText()).not.toContain(`UNHEARD${zeroDataRetention}`);
      }
      expect(marked).toBe(2);
    } finally {
      await q.close();
      await worker.close(1000);
    }
  });

  it('cancelParse tells the workers even when it removed the job (a worker that lost its lock may run it)', async () => {
    const q = openParseQueue({ redis: redis.url, name: 'cancel-told' });
    const sub = new Redis(redis.url);
    const heard: string[] = [];
    try {
      sub.on('message', (_ch: string, id: string) => heard.push(id));
      await sub.subscribe('bull:cancel-told:docmill-cancel');
      const id = await enqueueParse(q, comma, {}, { filename: 'c.csv' });
      expect(await cancelParse(q, id)).toBe('removed');
      await until(() => heard.length === 1);
      expect(heard).toEqual([id]);
    } finally {
      sub.disconnect();
      await q.close();
    }
  });

  it('cancelParse reports a Redis error instead of waiting for a "busy" job', async () => {
    const q = openParseQueue({ redis: redis.url, name: 'cancel-err' });
    try {
      // A job key of the wrong type: BullMQ's removal script fails with WRONGTYPE, a real Redis
      // error that used to be read as "a worker holds the job" and waited out for 10 s.
      await q.redis.set('bull:cancel-err:42', 'not a job hash');
      await expect(cancelParse(q, '42', 600_000)).rejects.toThrow('WRONGTYPE');
    } finally {
      await q.close();
    }
  });
});
