import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createEngine, DocmillError, type ParseData } from '@docmill/core';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  enqueueParse,
  type JobLog,
  openParseQueue,
  type ParseQueue,
  queueEngine,
  startParseWorker,
  waitForResult,
} from '../src/index.ts';
import { heldCsv } from './held.ts';
import { dumpRedis, redisMissing, startRedis, type TestRedis } from './redis.ts';

const fixture = (p: string) =>
  new Uint8Array(readFileSync(fileURLToPath(new URL(`../../../fixtures/${p}`, import.meta.url))));
const workerScript = fileURLToPath(new URL('./worker-process.ts', import.meta.url));

if (redisMissing) console.warn(redisMissing);

describe.skipIf(redisMissing)('parse jobs on BullMQ over a real redis-server', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  /** A queue, an in-process worker on the real engine, and cleanup of both. */
  async function setup(name: string, engine = createEngine(), attempts = 3) {
    const logs: JobLog[] = [];
    const worker = await startParseWorker({ redis: redis.url, name, engine, concurrency: 2, log: (r) => logs.push(r) });
    const q = openParseQueue({ redis: redis.url, name, attempts });
    return {
      q,
      worker,
      logs,
      async close() {
        await q.close();
        await worker.close(1000);
      },
    };
  }

  it('a closed client leaves no Redis connection open (BullMQ never closes a connection it is handed)', async () => {
    const admin = new Redis(redis.url);
    const clients = async () =>
      String(await admin.client('LIST'))
        .trim()
        .split('\n').length;
    try {
      const before = await clients();
      const q = openParseQueue({ redis: redis.url, name: 'close-check' });
      await enqueueParse(q, fixture('pdf/basic.pdf'), {}, { filename: 'basic.pdf' });
      // The result waiter opens its own event connection: wait until it is there.
      const waiting = waitForResult(q, 'no-such-job', 60_000).catch((e: unknown) => e);
      let open = await clients();
      for (let i = 0; i < 50 && open < before + 3; i++) {
        await new Promise((r) => setTimeout(r, 50));
        open = await clients();
      }
      expect(open).toBeGreaterThanOrEqual(before + 3);
      await q.close();
      expect(await waiting).toBeInstanceOf(Error);
      let after = await clients();
      for (let i = 0; i < 50 && after > before; i++) {
        await new Promise((r) => setTimeout(r, 50));
        after = await clients();
      }
      expect(after).toBe(before);
    } finally {
      admin.disconnect();
    }
  });

  it('round-trips documents: {success, data} as the engine gives it, and error bodies', async () => {
    const s = await setup('roundtrip');
    try {
      const pdf = fixture('pdf/basic.pdf');
      const csv = fixture('csv/comma.csv');
      const [a, b, c] = await Promise.all([
        enqueueParse(s.q, pdf, { formats: ['markdown'] }, { filename: 'basic.pdf' }),
        enqueueParse(s.q, csv, {}, { filename: 'comma.csv' }),
        enqueueParse(s.q, new Uint8Array(0), {}, { filename: 'empty.pdf' }),
      ]);
      const direct = await createEngine().parse(pdf, { formats: ['markdown'] }, { filename: 'basic.pdf' });
      const ra = await waitForResult(s.q, a);
      expect(ra.success).toBe(true);
      expect((ra as { data: ParseData }).data.markdown).toBe(direct.markdown);
      expect((ra as { data: ParseData }).data.markdown?.length).toBeGreaterThan(20);
      const rb = await waitForResult(s.q, b);
      expect(rb.success && rb.data.markdown).toContain('|');
      const rc = await waitForResult(s.q, c);
      expect(rc).toEqual({ success: false, code: 'BAD_REQUEST', error: 'The file is empty (0 bytes).' });
      // A request error is final at once: one attempt, not three.
      expect(s.logs.filter((l) => l.jobId === c)).toHaveLength(1);
      // Logs name the file but never its content.
      const logText = JSON.stringify(s.logs);
      expect(logText).toContain('basic.pdf');
      expect(logText).not.toContain(direct.markdown?.slice(0, 20));
    } finally {
      await s.close();
    }
  });

  it('an encrypted document: the rebuilt error still says whether the password was missing or wrong', async () => {
    // Before: the job's error body dropped the marker, so a server on the queue could not name its
    // own way to give the password.
    const s = await setup('passwords');
    try {
      const engine = queueEngine(s.q);
      const locked = fixture('pdf/encrypted.pdf');
      const none = await engine.parse(locked, {}, { filename: 'locked.pdf' }).catch((e: unknown) => e);
      expect(none).toBeInstanceOf(DocmillError);
      expect([(none as DocmillError).status, (none as DocmillError).password]).toEqual([400, 'required']);
      const wrong = await engine.parse(locked, {}, { filename: 'locked.pdf', password: 'x' }).catch((e: unknown) => e);
      expect((wrong as DocmillError).password).toBe('incorrect');
      const opened = await engine.parse(locked, {}, { filename: 'locked.pdf', password: 'docmill' });
      expect(opened.markdown).toContain('Locked Fixture');
    } finally {
      await s.close();
    }
  });

  it('a job over its time limit fails with SCRAPE_TIMEOUT', async () => {
    const held = heldCsv();
    const s = await setup('timeout', createEngine({ adapters: { csv: held.adapter } }));
    try {
      const id = await enqueueParse(s.q, fixture('csv/comma.csv'), { timeout: 1000 }, { filename: 'a.csv' });
      const r = await waitForResult(s.q, id);
      expect(r.success).toBe(false);
      expect(!r.success && r.code).toBe('SCRAPE_TIMEOUT');
      // The deadline stopped the parse (the held adapter would otherwise fail after 20 s).
      expect(held.state.aborts).toHaveLength(1);
    } finally {
      await s.close();
    }
  });

  it('unknown failures are retried up to attempts and keep the final error body', async () => {
    let calls = 0;
    const broken = {
      parse: async () => {
        calls++;
        throw new Error(`backend crashed #${calls}`);
      },
    };
    const logs: JobLog[] = [];
    const worker = await startParseWorker({
      redis: redis.url,
      name: 'attempts',
      engine: broken,
      log: (r) => logs.push(r),
    });
    const q = openParseQueue({ redis: redis.url, name: 'attempts', attempts: 2 });
    try {
      const id = await enqueueParse(q, fixture('csv/comma.csv'));
      const r = await waitForResult(q, id, 20_000);
      expect(calls).toBe(2);
      expect(r).toMatchObject({ success: false, code: 'UNKNOWN_ERROR' });
      expect(!r.success && r.error).toContain('backend crashed #2');
      expect(logs.map((l) => l.attempt)).toEqual([1, 2]);
    } finally {
      await q.close();
      await worker.close(1000);
    }
  });

  it('zeroDataRetention: bytes leave Redis when the parse starts, the result when it is read', async () => {
    // The document must be findable in a dump: a CSV with a marker in its text.
    const marker = 'ZDRMARKER7731';
    const doc = new TextEncoder().encode(`name,secret\nalice,${marker}\nbob,${marker}2\n`);
    const b64 = Buffer.from(doc).toString('base64');
    const seenDuringParse: string[] = [];
    const engine = createEngine();
    const spy = {
      async parse(...args: Parameters<typeof engine.parse>) {
        seenDuringParse.push(JSON.stringify([...(await dumpRedis(redis.url)).values()]));
        return engine.parse(...args);
      },
    };
    const logs: JobLog[] = [];
    const worker = await startParseWorker({ redis: redis.url, name: 'zdr', engine: spy, log: (r) => logs.push(r) });
    const q = openParseQueue({ redis: redis.url, name: 'zdr' });
    try {
      // Control: without the option the bytes and the result stay (until their TTL).
      const kept = await enqueueParse(q, doc, {}, { filename: 'secret.csv' });
      const rk = await waitForResult(q, kept);
      expect(rk.success && rk.data.markdown).toContain(marker);
      const afterKept = JSON.stringify([...(await dumpRedis(redis.url)).values()]);
      expect(afterKept).toContain(b64);
      expect(afterKept).toContain(marker);
      await q.queue.obliterate({ force: true });

      const id = await enqueueParse(q, doc, { zeroDataRetention: true }, { filename: 'secret.csv' });
      const r = await waitForResult(q, id);
      expect(r.success && r.data.markdown).toContain(marker);
      // While the engine ran, Redis no longer held the bytes.
      expect(seenDuringParse[1]).not.toContain(b64);
      expect(seenDuringParse[1]).not.toContain('secret.csv');
      const dump = await dumpRedis(redis.url);
      const all = [...dump.keys(), ...dump.values()].join('\n');
      expect(all).not.toContain(b64);
      expect(all).not.toContain(marker);
      expect(all).not.toContain('secret.csv');
      expect(
        [...dump.keys()].filter((k) => k.startsWith('bull:zdr:') && (k.endsWith(`:${id}`) || k.includes(`:${id}:`))),
      ).toEqual([]);
      // Read once: a second read finds nothing.
      await expect(waitForResult(q, id, 3000)).rejects.toThrow(/not found|already read/);
      expect(JSON.stringify(logs.at(-1))).not.toContain('secret.csv');

      // A failed zero-data-retention job leaves nothing either.
      const bad = await enqueueParse(q, new Uint8Array(0), { zeroDataRetention: true });
      const rb = await waitForResult(q, bad);
      expect(rb).toMatchObject({ success: false, code: 'BAD_REQUEST' });
      const dump2 = await dumpRedis(redis.url);
      expect([...dump2.keys()].filter((k) => k.startsWith('bull:zdr:') && k.endsWith(`:${bad}`))).toEqual([]);
    } finally {
      await q.close();
      await worker.close(1000);
    }
  });

  it('a worker killed with SIGKILL mid-parse loses no job: it completes on a second worker', async () => {
    const children: ChildProcess[] = [];
    const spawnWorker = () => spawnTestWorker(children, [redis.url, 'stall', '2500']);
    let q: ParseQueue | undefined;
    try {
      // Both workers up before the job exists: whichever takes it is killed, the other must finish it.
      const pair = await Promise.all([spawnWorker(), spawnWorker()]);
      q = openParseQueue({ redis: redis.url, name: 'stall' });
      const id = await enqueueParse(q, fixture('csv/comma.csv'), {}, { filename: 'comma.csv' });
      await waitFor(() => pair.some((w) => w.out().includes('started')), 120_000);
      const victim = pair.find((w) => w.out().includes('started')) as (typeof pair)[number];
      const survivor = pair.find((w) => w !== victim) as (typeof pair)[number];
      victim.child.kill('SIGKILL');
      const r = await waitForResult(q, id, 120_000);
      expect(r.success && r.data.markdown).toContain('|');
      expect(survivor.out()).toContain(`started ${survivor.child.pid}`);
      expect(victim.child.signalCode).toBe('SIGKILL');
    } finally {
      await q?.close();
      await Promise.all(children.map(stopChild));
    }
  });

  it('SIGTERM lets the in-flight job finish before the worker exits', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', workerScript, redis.url, 'drain', '1500'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
    });
    const q = openParseQueue({ redis: redis.url, name: 'drain' });
    try {
      await waitFor(() => out.includes('ready'), 180_000);
      const id = await enqueueParse(q, fixture('csv/comma.csv'));
      await waitFor(() => out.includes('started'), 120_000);
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      const r = await waitForResult(q, id, 5000);
      expect(r.success && r.data.markdown).toContain('|');
    } finally {
      await q.close();
      await stopChild(child);
    }
  });
});

describe.skipIf(redisMissing)('graceful shutdown past its grace period', () => {
  it('hands the in-flight job back to the queue, where another worker completes it', async () => {
    const redis = await startRedis();
    const children: ChildProcess[] = [];
    const q = openParseQueue({ redis: redis.url, name: 'handback' });
    const spawnWorker = (delay: string, grace: string) =>
      spawnTestWorker(children, [redis.url, 'handback', delay, grace]);
    try {
      const first = await spawnWorker('20000', '300');
      const id = await enqueueParse(q, fixture('csv/comma.csv'));
      await waitFor(() => first.out().includes('started'), 120_000);
      const exited = new Promise<number | null>((r) => first.child.once('exit', (c) => r(c)));
      first.child.kill('SIGTERM');
      expect(await exited).toBe(0);
      // Handed back, not finished: the 20 s parse did not hold the shutdown.
      expect(await q.queue.getJobState(id)).toBe('waiting');
      const second = await spawnWorker('10', '1000');
      const r = await waitForResult(q, id, 20_000);
      expect(r.success && r.data.markdown).toContain('|');
      expect(second.out()).toContain('started');
    } finally {
      await q.close();
      await Promise.all(children.map(stopChild));
      await redis.stop();
    }
  });
});

/** Starts test/worker-process.ts with `args` (url, queue, delay[, grace]); resolves once it is ready. */
async function spawnTestWorker(children: ChildProcess[], args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', workerScript, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  let out = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  await waitFor(() => out.includes('ready'), 180_000);
  return { child, out: () => out };
}

async function waitFor(cond: () => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
