import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createEngine, DocmillError } from '@docmill/core';
import { describe, expect, it } from 'vitest';
import { enqueueParse, openParseQueue, startParseWorker, waitForResult } from '../src/index.ts';
import { gatedCsv, until, within } from './held.ts';
import { redisMissing, startRedis } from './redis.ts';

const csvDoc = (n: number) => new TextEncoder().encode(`name,n\nrow,${n}\n`);

if (redisMissing) console.warn(redisMissing);

/**
 * Redis goes away under running clients and workers (a real redis-server, stopped as a restart
 * stops it). Clients ride the outage out up to `outageTimeoutMs`, then answer 503; workers stop
 * within their grace whatever Redis does. A hang fails by the test's own (generous) timeout.
 */
describe.skipIf(redisMissing)('a Redis outage', () => {
  it('waits and submissions ride out a restart and get the results finished meanwhile', async () => {
    const redis = await startRedis();
    const gated = gatedCsv();
    const worker = await startParseWorker({
      redis: redis.url,
      name: 'outage',
      engine: createEngine({ adapters: { csv: gated.adapter } }),
      concurrency: 4,
    });
    const q = openParseQueue({ redis: redis.url, name: 'outage' });
    try {
      const ids = await Promise.all([1, 2, 3].map((n) => enqueueParse(q, csvDoc(n))));
      const waits = ids.map((id) => waitForResult(q, id, 120_000).catch((e: unknown) => e));
      await until(() => gated.state.started === 3, 30_000);
      await redis.shutdown();
      // Before the fix every wait failed here, with ioredis's "max retries per request".
      await new Promise((r) => setTimeout(r, 1500));
      // Submitted while Redis is away: it goes in once Redis is back.
      const late = enqueueParse(q, csvDoc(4)).then((id) => waitForResult(q, id, 120_000));
      // The parses end while Redis is away: their results reach Redis after it.
      gated.release();
      await until(() => gated.state.finished === 3, 30_000);
      await new Promise((r) => setTimeout(r, 500));
      await redis.start();
      const results = [...(await Promise.all(waits)), await late];
      results.forEach((r, i) => {
        expect(r).toMatchObject({ success: true, data: { markdown: expect.stringContaining(`| row | ${i + 1} |`) } });
      });
    } finally {
      await q.close();
      await worker.close(1000);
      await redis.stop();
    }
  }, 120_000);

  it('past outageTimeoutMs waits and submissions get a 503, and close() returns', async () => {
    const redis = await startRedis();
    const q = openParseQueue({ redis: redis.url, name: 'gone', outageTimeoutMs: 1000 });
    try {
      const id = await enqueueParse(q, csvDoc(1));
      const waiting = waitForResult(q, id, 120_000).catch((e: unknown) => e);
      await redis.stop();
      const err = await waiting;
      expect(err).toBeInstanceOf(DocmillError);
      expect(err).toMatchObject({ status: 503, code: 'UNKNOWN_ERROR' });
      expect(String(err)).toMatch(/Redis has been unreachable for 1000 ms \(.*ECONNREFUSED.*\)/);
      // Redis is still away: later calls answer the same at once.
      await expect(enqueueParse(q, csvDoc(2))).rejects.toMatchObject({ status: 503 });
      await expect(waitForResult(q, id, 120_000)).rejects.toMatchObject({ status: 503 });
    } finally {
      await q.close();
    }
  }, 60_000);

  it('a wrong or missing password is a 503 at once', async () => {
    const redis = await startRedis();
    try {
      execFileSync('redis-cli', ['-p', String(redis.port), 'config', 'set', 'requirepass', 'right-pw']);
      for (const [auth, reply] of [
        [':wrong-pw@', 'WRONGPASS'],
        ['', 'NOAUTH'],
      ] as const) {
        const q = openParseQueue({ redis: `redis://${auth}127.0.0.1:${redis.port}`, name: 'auth' });
        try {
          // Known at once; before, the answer came after the 10 s connect timeout.
          const err = await within(
            enqueueParse(q, csvDoc(1)).catch((e: unknown) => e),
            8_000,
          );
          expect(err).toMatchObject({ status: 503, code: 'UNKNOWN_ERROR' });
          expect(String(err)).toContain(`Redis refused the credentials (${reply} `);
          expect(String(err)).not.toContain('wrong-pw');
        } finally {
          await q.close();
        }
      }
    } finally {
      await redis.stop();
    }
  }, 60_000);

  it('a worker running a job stops within its grace while Redis is away; the job is not lost', async () => {
    const redis = await startRedis();
    const grace = 3000;
    // The test's worker process: its CSV parses take 60 s, far past the grace.
    const script = fileURLToPath(new URL('./worker-process.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script, redis.url, 'gone', '60000', String(grace)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
    });
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const q = openParseQueue({ redis: redis.url, name: 'gone' });
    let second: Awaited<ReturnType<typeof startParseWorker>> | undefined;
    try {
      await until(() => out.includes('ready'), 30_000);
      const id = await enqueueParse(q, csvDoc(1));
      const waiting = waitForResult(q, id, 120_000).catch((e: unknown) => e);
      await until(() => out.includes('started'), 30_000);
      await redis.shutdown();
      child.kill('SIGTERM');
      // Generous slack for a busy machine; before the fix it never exited.
      expect(await within(exited, grace + 15_000)).toBe(0);
      // The job it could not hand back returns once its lock (1 s there) expires, to another worker.
      await redis.start();
      second = await startParseWorker({
        redis: redis.url,
        name: 'gone',
        engine: createEngine(),
        lockDuration: 1000,
        stalledInterval: 500,
      });
      expect(await waiting).toMatchObject({
        success: true,
        data: { markdown: expect.stringContaining('| row | 1 |') },
      });
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await q.close();
      await second?.close(1000);
      await redis.stop();
    }
  }, 120_000);
});
