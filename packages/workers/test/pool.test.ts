import { DocmillError } from '@docmill/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createPool, type Pool, type Progress } from '../src/index.ts';

const echo = new URL('./tasks/echo.ts', import.meta.url);
const spin = new URL('./tasks/spin.ts', import.meta.url);
const lend = new URL('./tasks/lend.ts', import.meta.url);
const orphan = new URL('./tasks/orphan.ts', import.meta.url);
const grow = new URL('./tasks/grow.ts', import.meta.url);

let pool: Pool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

const failure = async (p: Promise<unknown>): Promise<DocmillError> => {
  try {
    await p;
  } catch (err) {
    return err as DocmillError;
  }
  throw new Error('expected a rejection');
};

describe('worker pool', () => {
  it('retires a worker whose memory a task left above the high-water mark, delivering the answer', async () => {
    pool = createPool({ size: 1, tasks: { grow }, maxWorkerMemoryBytes: 256 * 2 ** 20 });
    type Grown = { threadId: number };
    const first = await pool.run<Grown>('grow', { mb: 16 });
    const small = await pool.run<Grown>('grow', { mb: 16 });
    // Under the mark: the same worker serves on.
    expect(small.value.threadId).toBe(first.value.threadId);
    expect(pool.stats()).toMatchObject({ started: 1, retired: 0 });
    const big = await pool.run<Grown>('grow', { mb: 300 });
    expect(big.value.threadId).toBe(first.value.threadId);
    expect(pool.stats()).toMatchObject({ started: 1, retired: 1, busy: 0 });
    // The next task gets a fresh worker, without the 300 MB.
    const after = await pool.run<Grown>('grow', { mb: 0 });
    expect(after.value.threadId).not.toBe(first.value.threadId);
    expect(pool.stats()).toMatchObject({ started: 2, retired: 1 });
  });

  it('keeps a worker whatever it holds with maxWorkerMemoryBytes: Infinity', async () => {
    pool = createPool({ size: 1, tasks: { grow }, maxWorkerMemoryBytes: Number.POSITIVE_INFINITY });
    const a = await pool.run<{ threadId: number }>('grow', { mb: 300 });
    const b = await pool.run<{ threadId: number }>('grow', { mb: 0 });
    expect(b.value.threadId).toBe(a.value.threadId);
    expect(pool.stats()).toMatchObject({ started: 1, retired: 0 });
  });

  it('lends idle workers to a task run with lend, and only then', async () => {
    pool = createPool({ size: 3, tasks: { lend } });
    type Lent = { offered: boolean; threadId: number; taken: { unit: string; threadId: number }[] };
    const input = { units: ['a', 'b', 'c'], task: echo.href };
    const r = await pool.run<Lent>('lend', input, { lend: true });
    expect(r.value.offered).toBe(true);
    expect(r.value.taken.map((t) => t.unit)).toEqual(['a', 'b', 'c']);
    // Two idle workers take one unit each; the third finds none idle and stays with the owner.
    const elsewhere = r.value.taken.filter((t) => t.threadId !== r.value.threadId);
    expect(new Set(elsewhere.map((t) => t.threadId)).size).toBe(2);
    expect(r.value.taken.filter((t) => t.threadId === r.value.threadId)).toHaveLength(1);
    expect(pool.stats()).toMatchObject({ busy: 0, started: 3 });
    const plain = await pool.run<Lent>('lend', input);
    expect(plain.value.offered).toBe(false);
    expect(plain.value.taken.every((t) => t.threadId === plain.value.threadId)).toBe(true);
  });

  it('a lent unit that fails rejects with its DocmillError; the pool keeps serving', async () => {
    pool = createPool({ size: 2, tasks: { lend } });
    const input = { units: ['x'], task: spin.href, extra: { ms: 0, fail: true } };
    const err = await failure(pool.run('lend', input, { lend: true }));
    expect([err.status, err.code, err.message]).toEqual([400, 'BAD_REQUEST', 'refused on purpose']);
    expect(pool.stats().busy).toBe(0);
  });

  it('a lent unit never outlives the task that lent it (returned, or crashed)', async () => {
    pool = createPool({ size: 2, tasks: { orphan, echo } });
    // The unit would hold its worker for an hour, far past the test's bound (vitest.config), which
    // a busy machine does not approach otherwise: the owner ends without waiting for it.
    const unit = { task: spin.href, unit: { ms: 3_600_000 } };
    const r = await pool.run<{ lent: boolean }>('orphan', unit, { lend: true });
    expect(r.value.lent).toBe(true);
    while (pool.stats().busy > 0) await new Promise((ok) => setTimeout(ok, 20));
    const crashed = await failure(pool.run('orphan', { ...unit, exit: true }, { lend: true }));
    expect(crashed.message).toMatch(/crashed/);
    while (pool.stats().busy > 0) await new Promise((ok) => setTimeout(ok, 20));
    // Both workers are free again: two requests at once, neither waits.
    const both = await Promise.all([pool.run('echo', { items: ['a'] }), pool.run('echo', { items: ['b'] })]);
    expect(both.map((b) => b.queued)).toEqual([false, false]);
  });

  it('runs a task in a worker thread and forwards progress across the seam', async () => {
    pool = createPool({ size: 1, tasks: { echo } });
    const seen: Progress[] = [];
    const r = await pool.run<{ items: string[]; isMainThread: boolean }>(
      'echo',
      { items: ['a', 'b', 'c'] },
      { onProgress: (p) => seen.push(p) },
    );
    expect(r.value.items).toEqual(['a', 'b', 'c']);
    expect(r.value.isMainThread).toBe(false);
    expect(r.queued).toBe(false);
    expect(seen.map((p) => p.done)).toEqual([1, 2, 3]);
    expect(seen[0]).toEqual({ stage: 'echo', done: 1, total: 3, unit: 'parts' });
  });

  it('rebuilds a DocmillError thrown in a worker with its status and code', async () => {
    pool = createPool({ size: 1, tasks: { spin } });
    const err = await failure(pool.run('spin', { ms: 0, fail: true }));
    expect(err).toBeInstanceOf(DocmillError);
    expect(err.status).toBe(400);
    expect(err.code).toBe('BAD_REQUEST');
    expect(err.message).toBe('refused on purpose');
  });

  it('terminates a worker whose task outlives its deadline; the next task runs on a fresh worker', async () => {
    pool = createPool({ size: 1, tasks: { spin } });
    const t0 = Date.now();
    const reason = new DocmillError(408, 'SCRAPE_TIMEOUT', 'deadline');
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(reason), 1500);
    const err = await failure(pool.run('spin', { ms: 60_000 }, { signal: ctl.signal }));
    expect(err).toBe(reason);
    expect(Date.now() - t0).toBeLessThan(10_000);
    const next = await pool.run<{ spun: number }>('spin', { ms: 5 });
    expect(next.value.spun).toBe(5);
    expect(pool.stats().started).toBe(2);
  });

  it('a crashing worker fails its own task only, and is replaced', async () => {
    pool = createPool({ size: 2, tasks: { spin } });
    const [crashed, fine] = await Promise.allSettled([
      pool.run('spin', { ms: 0, exit: true }),
      pool.run<{ spun: number }>('spin', { ms: 300 }),
    ]);
    expect(crashed.status).toBe('rejected');
    const err = (crashed as PromiseRejectedResult).reason as DocmillError;
    expect(err).toBeInstanceOf(DocmillError);
    expect(err.status).toBe(500);
    expect(err.message).toMatch(/worker crashed/);
    expect(fine.status).toBe('fulfilled');
    const again = await Promise.all([
      pool.run<{ spun: number }>('spin', { ms: 1 }),
      pool.run<{ spun: number }>('spin', { ms: 2 }),
    ]);
    expect(again.map((r) => r.value.spun)).toEqual([1, 2]);
    expect(pool.stats().started).toBe(3);
  });

  it('queues requests over capacity, says so, and refuses beyond the bounded queue', async () => {
    pool = createPool({ size: 1, maxQueue: 1, tasks: { spin } });
    await pool.run('spin', { ms: 0 }); // started worker, so the timings below are the task's own
    const first = pool.run('spin', { ms: 400 });
    const second = pool.run('spin', { ms: 0 });
    const third = failure(pool.run('spin', { ms: 0 }));
    expect((await third).status).toBe(503);
    const [a, b] = await Promise.all([first, second]);
    expect(a.queued).toBe(false);
    expect(a.queuedMs).toBe(0);
    expect(b.queued).toBe(true);
    expect(b.queuedMs).toBeGreaterThan(200);
    const alone = await pool.run('spin', { ms: 0 });
    expect(alone.queued).toBe(false);
  });

  it('an aborted request leaves the queue without touching the running task', async () => {
    pool = createPool({ size: 1, tasks: { spin } });
    const running = pool.run<{ spun: number }>('spin', { ms: 300 });
    const ctl = new AbortController();
    const waiting = failure(pool.run('spin', { ms: 0 }, { signal: ctl.signal }));
    ctl.abort(new DocmillError(408, 'SCRAPE_TIMEOUT', 'gave up'));
    expect((await waiting).message).toBe('gave up');
    expect((await running).value.spun).toBe(300);
    expect(pool.stats()).toMatchObject({ queued: 0, busy: 0, started: 1 });
  });

  it('without workers runs the same task path in-thread', async () => {
    pool = createPool({ size: 0, tasks: { echo, spin } });
    const r = await pool.run<{ items: string[]; isMainThread: boolean }>('echo', { items: ['x'] });
    expect(r.value.items).toEqual(['x']);
    const err = await failure(pool.run('spin', { ms: 0, fail: true }));
    expect(err.code).toBe('BAD_REQUEST');
  });

  it('refuses unknown tasks and work after close', async () => {
    pool = createPool({ size: 1, tasks: { echo } });
    expect((await failure(pool.run('nope', {}))).message).toMatch(/No task named "nope"/);
    await pool.close();
    expect((await failure(pool.run('echo', { items: [] }))).message).toMatch(/closed/);
  });
});
