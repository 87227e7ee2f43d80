import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createEngine } from '@docmill/core';
import { startParseWorker } from '@docmill/queue';
import { afterAll, describe, expect, it } from 'vitest';
import { gatedCsv, until, within } from '../../queue/test/held.ts';
import { freePort, redisMissing, startRedis } from '../../queue/test/redis.ts';
import { type CliStream, main } from '../src/main.ts';

const root = resolve(import.meta.dirname, '../../..');
const bin = join(root, 'packages/cli/src/bin.ts');
const dir = mkdtempSync(join(tmpdir(), 'docmill-outage-'));

/** `docmill <args>` in a child process, with its stdout and stderr as text and its exit. */
function docmill(args: string[]) {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', bin, ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout?.on('data', (d: Buffer) => {
    out.stdout += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    out.stderr += d.toString();
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, out, exited };
}

/** A folder of `n` small CSV files, each naming its own number. */
function csvFolder(name: string, n: number): string {
  const src = join(dir, name);
  mkdirSync(src, { recursive: true });
  for (let i = 1; i <= n; i++) writeFileSync(join(src, `f${i}.csv`), `name,n\nrow,${i}\n`);
  return src;
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

if (redisMissing) console.warn(redisMissing);

describe.skipIf(redisMissing)('docmill enqueue and docmill worker when Redis fails', () => {
  it('enqueue rides out a Redis restart: results finished meanwhile are written, and it exits 0', async () => {
    const redis = await startRedis();
    const gated = gatedCsv();
    const worker = await startParseWorker({
      redis: redis.url,
      name: 'restart',
      engine: createEngine({ adapters: { csv: gated.adapter } }),
      concurrency: 8,
    });
    const src = csvFolder('restart', 6);
    const out = join(dir, 'restart-out');
    const run = docmill(['enqueue', src, '--out', out, '--redis', redis.url, '--queue', 'restart', '--in-flight', '4']);
    try {
      await until(() => gated.state.started === 4, 60_000);
      await redis.shutdown();
      // Before the fix every file in flight failed here ("max retries per request").
      await new Promise((r) => setTimeout(r, 1500));
      // The four parses end while Redis is away; their results reach it once it is back.
      gated.release();
      await until(() => gated.state.finished === 4, 30_000);
      await new Promise((r) => setTimeout(r, 500));
      await redis.start();
      expect(await within(run.exited, 60_000)).toBe(0);
      for (let i = 1; i <= 6; i++) {
        expect(readFileSync(join(out, `f${i}.csv.md`), 'utf8')).toContain(`| row | ${i} |`);
      }
      expect(run.out.stderr).toMatch(/^files: 6 {2}pages: 6 {2}errors: 0 /m);
      expect(run.out.stderr).not.toContain('error:');
      expect(run.out.stderr).not.toContain('Warning');
    } finally {
      run.child.kill('SIGKILL');
      await worker.close(1000);
      await redis.stop();
    }
  }, 180_000);

  it('an idle worker whose Redis is down exits on SIGTERM within --shutdown-timeout', async () => {
    const redis = await startRedis();
    const shutdownMs = 3000;
    const run = docmill(['worker', '--redis', redis.url, '--queue', 'idle', '--shutdown-timeout', String(shutdownMs)]);
    try {
      await until(() => run.out.stdout.includes('worker ready'), 60_000);
      await redis.stop();
      // Long enough for ioredis to be between two reconnect attempts (up to 2 s apart), where it
      // mostly is during an outage: that is where BullMQ's close used to wait for ever.
      await new Promise((r) => setTimeout(r, 5000));
      run.child.kill('SIGTERM');
      // Generous slack for a busy machine; before the fix it was still running a minute later.
      expect(await within(run.exited, shutdownMs + 15_000)).toBe(0);
      expect(run.out.stdout).toContain('"msg":"stopped"');
    } finally {
      run.child.kill('SIGKILL');
      await redis.stop();
    }
  }, 120_000);

  it('enqueue to a port nobody listens on is a 503 at once, with or without a terminal', async () => {
    const port = await freePort();
    for (const isTTY of [false, true]) {
      let stderr = '';
      const stream: CliStream = { write: (s: string) => (stderr += s), isTTY, columns: 100 };
      const code = await within(
        main(['enqueue', 'fixtures/csv/comma.csv', '--redis', `redis://127.0.0.1:${port}`], {
          stdout: { write: () => true, isTTY, columns: 100 },
          stderr: stream,
          cwd: root,
        }),
        // The refusal is known at once; before the fix the answer came after the 10 s connect timeout.
        8_000,
      );
      expect(code).toBe(2);
      const body = JSON.parse(stderr.trim().split('\n').pop() as string);
      expect(body).toMatchObject({ success: false, code: 'UNKNOWN_ERROR', status: 503 });
      expect(body.error).toMatch(/^Cannot reach Redis \(connect ECONNREFUSED 127\.0\.0\.1:\d+\)\.$/);
    }
  }, 60_000);

  it('enqueue of 20 files waiting for a slow Redis prints no MaxListenersExceededWarning', async () => {
    const redis = await startRedis();
    const worker = await startParseWorker({ redis: redis.url, name: 'many', engine: createEngine(), concurrency: 4 });
    const out = join(dir, 'many-out');
    // Frozen, Redis accepts connections and answers nothing: all 16 files in flight wait for it
    // at once, as they do while Redis starts or comes back.
    redis.pause();
    const run = docmill(['enqueue', csvFolder('many', 20), '--out', out, '--redis', redis.url, '--queue', 'many']);
    try {
      // Within the 10 s connect timeout, counted from the submissions, which come after the spawn.
      await new Promise((r) => setTimeout(r, 5000));
      redis.resume();
      expect(await within(run.exited, 90_000)).toBe(0);
      expect(run.out.stderr).toMatch(/^files: 20 {2}pages: 20 {2}errors: 0 /m);
      expect(run.out.stderr).not.toContain('Warning');
      expect(readFileSync(join(out, 'f20.csv.md'), 'utf8')).toContain('| row | 20 |');
    } finally {
      run.child.kill('SIGKILL');
      redis.resume();
      await worker.close(1000);
      await redis.stop();
    }
  }, 120_000);
});
