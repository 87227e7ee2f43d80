import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createEngine, type Engine, type ParseData, type ParseProgress } from '@docmill/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapter as csv } from '../../core/src/adapters/csv/index.ts';
import {
  enqueueParse,
  type JobLog,
  openParseQueue,
  queueEngine,
  startParseWorker,
  waitForResult,
} from '../src/index.ts';
import { throttleProgress } from '../src/progress.ts';
import { until } from './held.ts';
import { redisMissing, startRedis, type TestRedis } from './redis.ts';

const fixture = (p: string) =>
  new Uint8Array(readFileSync(fileURLToPath(new URL(`../../../fixtures/${p}`, import.meta.url))));

const ev = (stage: string, done: number, total: number): ParseProgress => ({ stage, done, total, unit: 'pages' });

describe('throttleProgress', () => {
  it('sends the first report, each stage end and a stage’s last report before the next stage; holds the rest', async () => {
    const sent: ParseProgress[] = [];
    const t = throttleProgress(async (p) => {
      sent.push(p);
    }, 10_000);
    for (let i = 1; i <= 5; i++) t.report(ev('parse', i, 10));
    // A new stage: parse stopped at 5 of 10 (a document shorter than announced), and that goes first.
    t.report(ev('ocr', 1, 3));
    t.report(ev('ocr', 2, 3));
    await t.flush();
    expect(sent).toEqual([ev('parse', 1, 10), ev('parse', 5, 10), ev('ocr', 1, 3), ev('ocr', 2, 3)]);
  });

  it('sends in order even when a send is slow, and a failing send does not stop the next', async () => {
    const sent: number[] = [];
    const t = throttleProgress(async (p) => {
      if (p.done === 1) {
        await new Promise((r) => setTimeout(r, 30));
        throw new Error('Redis down');
      }
      sent.push(p.done);
    }, 0);
    for (let i = 1; i <= 4; i++) t.report(ev('parse', i, 4));
    await t.flush();
    expect(sent).toEqual([2, 3, 4]);
  });

  it('after close() the held report and its timer are dropped and later reports send nothing', async () => {
    const sent: number[] = [];
    const t = throttleProgress(async (p) => {
      sent.push(p.done);
    }, 20);
    t.report(ev('parse', 1, 10));
    t.report(ev('parse', 2, 10));
    t.close();
    t.report(ev('parse', 3, 10));
    t.report(ev('ocr', 1, 1));
    // Long enough for the held report's timer to have fired, had it not been cleared.
    await new Promise((r) => setTimeout(r, 60));
    await t.flush();
    expect(sent).toEqual([1]);
  });
});

if (redisMissing) console.warn(redisMissing);

describe.skipIf(redisMissing)('progress across the queue', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('queueEngine hears every page of a PDF parsed on a worker, ending at the total', async () => {
    const worker = await startParseWorker({
      redis: redis.url,
      name: 'progress-pdf',
      engine: createEngine(),
      progressIntervalMs: 0,
    });
    const q = openParseQueue({ redis: redis.url, name: 'progress-pdf' });
    try {
      const pdf = fixture('pdf/running.pdf');
      const seen: ParseProgress[] = [];
      const data = await queueEngine(q).parse(pdf, {}, { filename: 'running.pdf', onProgress: (p) => seen.push(p) });
      expect(data.metadata.numPages).toBe(3);
      expect(data.markdown).toContain('Body text of page 1');
      expect(seen).toEqual([ev('parse', 1, 3), ev('parse', 2, 3), ev('parse', 3, 3)]);
    } finally {
      await q.close();
      await worker.close(1000);
    }
  });

  it('600 page reports become one Redis write per 250 ms of reporting, increasing, the last one 600 of 600', async () => {
    // A CSV adapter that reports 600 "pages" over ≈ 1.2 s before it parses; it measures how long its
    // reports really took, since a loaded machine stretches them and the writes with them.
    let reportingMs = 0;
    const chatty: typeof csv = {
      ...csv,
      async parse(bytes, ctx) {
        const t0 = performance.now();
        for (let i = 1; i <= 600; i++) {
          ctx.progress?.(i, 600, 'pages');
          if (i % 50 === 0) await new Promise((r) => setTimeout(r, 100));
        }
        reportingMs = performance.now() - t0;
        return csv.parse(bytes, ctx);
      },
    };
    const logs: JobLog[] = [];
    const worker = await startParseWorker({
      redis: redis.url,
      name: 'progress-throttle',
      engine: createEngine({ adapters: { csv: chatty } }),
      log: (r) => logs.push(r),
    });
    const q = openParseQueue({ redis: redis.url, name: 'progress-throttle' });
    try {
      await q.listen();
      const id = await enqueueParse(q, fixture('csv/comma.csv'), {}, { filename: 'comma.csv' });
      const seen: ParseProgress[] = [];
      const r = await waitForResult(q, id, 30_000, { onProgress: (p) => seen.push(p) });
      expect(r.success && r.data.markdown).toContain('|');
      const done = seen.map((p) => p.done);
      // The first report, at most one per 250 ms while the reports last, and the last one; far
      // below the 600 reports either way.
      expect(done.length).toBeGreaterThanOrEqual(3);
      expect(done.length).toBeLessThanOrEqual(2 + Math.ceil(reportingMs / 250));
      expect(done.length).toBeLessThan(600);
      expect(done[0]).toBe(1);
      expect(done.at(-1)).toBe(600);
      for (let i = 1; i < done.length; i++) expect(done[i]).toBeGreaterThan(done[i - 1] as number);
      expect(seen.every((p) => p.stage === 'parse' && p.total === 600 && p.unit === 'pages')).toBe(true);
      // The job's own progress in Redis is the last report.
      expect((await q.queue.getJob(id))?.progress).toEqual(ev('parse', 600, 600));
      expect(logs).toHaveLength(1);
    } finally {
      await q.close();
      await worker.close(1000);
    }
  });

  it('an engine that ignores its signal writes no progress after its attempt timed out', async () => {
    // Reports a page every 30 ms for 60 pages (1.8 s, past the 1 s timeout) whatever its signal says, as a remote engine may.
    const state = { reports: 0, finished: false };
    const deaf: Pick<Engine, 'parse'> = {
      parse: (_bytes, _options, hints) =>
        new Promise((resolve) => {
          const iv = setInterval(() => {
            hints?.onProgress?.(ev('parse', ++state.reports, 60));
            if (state.reports < 60) return;
            clearInterval(iv);
            state.finished = true;
            resolve({ markdown: 'late', metadata: {} } as ParseData);
          }, 30);
        }),
    };
    const worker = await startParseWorker({
      redis: redis.url,
      name: 'progress-late',
      engine: deaf,
      progressIntervalMs: 0,
    });
    const q = openParseQueue({ redis: redis.url, name: 'progress-late', attempts: 1 });
    try {
      const id = await enqueueParse(q, fixture('csv/comma.csv'), { timeout: 1000 }, { filename: 'comma.csv' });
      const r = await waitForResult(q, id, 30_000);
      expect(r).toMatchObject({ success: false, code: 'SCRAPE_TIMEOUT' });
      await until(() => state.finished);
      // Let any write the last reports started reach Redis before looking.
      await new Promise((res) => setTimeout(res, 200));
      const events = await q.redis.xrange(q.queue.keys.events as string, '-', '+');
      const ofJob = events
        .map(([, f]) => Object.fromEntries(f.flatMap((v, i) => (i % 2 ? [] : [[v, f[i + 1]]]))))
        .filter((e) => e.jobId === id)
        .map((e) => e.event);
      expect(ofJob).toContain('progress');
      expect(ofJob.slice(ofJob.indexOf('failed'))).not.toContain('progress');
      const job = await q.queue.getJob(id);
      expect(await job?.getState()).toBe('failed');
      expect((job?.progress as ParseProgress | undefined)?.done).toBeLessThan(60);
    } finally {
      await q.close();
      await worker.close(1000);
    }
  });
});
