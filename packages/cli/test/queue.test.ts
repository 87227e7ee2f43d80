import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createEngine } from '@docmill/core';
import { startParseWorker } from '@docmill/queue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dumpRedis, redisMissing, startRedis, type TestRedis } from '../../queue/test/redis.ts';
import { type CliStream, main } from '../src/main.ts';

const root = resolve(import.meta.dirname, '../../..');
const bin = join(root, 'packages/cli/src/bin.ts');

const capture = (isTTY = false) => {
  let text = '';
  const stream: CliStream = { write: (s: string) => (text += s), isTTY, columns: 100 };
  return { stream, text: () => text };
};

if (redisMissing) console.warn(redisMissing);

describe.skipIf(redisMissing)('docmill worker and docmill enqueue', () => {
  let redis: TestRedis;
  let worker: ChildProcess | undefined;
  let logs = '';
  const dir = mkdtempSync(join(tmpdir(), 'docmill-enqueue-'));
  beforeAll(async () => {
    redis = await startRedis();
    worker = spawn(
      process.execPath,
      ['--import', 'tsx', bin, 'worker', '--redis', redis.url, '--queue', 'cli', '--workers', '2'],
      { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    worker.stdout?.on('data', (d: Buffer) => {
      logs += d.toString();
    });
    const until = Date.now() + 30_000;
    while (!logs.includes('worker ready')) {
      if (Date.now() > until) throw new Error(`worker did not start: ${logs}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  });
  afterAll(async () => {
    if (worker && worker.exitCode === null) {
      const gone = new Promise((r) => worker?.once('exit', r));
      worker.kill('SIGKILL');
      await gone;
    }
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a folder through the queue gives the same files as docmill parse, then SIGTERM stops the worker', async () => {
    const src = join(dir, 'in');
    mkdirSync(join(src, 'sub'), { recursive: true });
    copyFileSync(join(root, 'fixtures/pdf/basic.pdf'), join(src, 'basic.pdf'));
    copyFileSync(join(root, 'fixtures/docx/basic.docx'), join(src, 'sub/basic.docx'));
    copyFileSync(join(root, 'fixtures/csv/comma.csv'), join(src, 'comma.csv'));
    copyFileSync(join(root, 'fixtures/csv/comma.csv'), join(src, 'notes.xyz'));
    const viaQueue = capture();
    const code = await main(
      ['enqueue', src, '--out', join(dir, 'queued'), '--redis', redis.url, '--queue', 'cli', '--in-flight', '3'],
      { stdout: capture().stream, stderr: viaQueue.stream, cwd: dir },
    );
    expect(code).toBe(0);
    const direct = capture();
    expect(
      await main(['parse', src, '--out', join(dir, 'direct')], {
        stdout: capture().stream,
        stderr: direct.stream,
        cwd: dir,
      }),
    ).toBe(0);
    const files = ['basic.pdf.md', 'comma.csv.md', 'sub/basic.docx.md'];
    for (const f of files) {
      const q = readFileSync(join(dir, 'queued', f), 'utf8');
      expect(q.length).toBeGreaterThan(10);
      expect(q).toBe(readFileSync(join(dir, 'direct', f), 'utf8'));
    }
    expect(readdirSync(join(dir, 'queued')).sort()).toEqual(['basic.pdf.md', 'comma.csv.md', 'sub']);
    expect(viaQueue.text()).toMatch(/^files: 3 {2}pages: \d+ {2}errors: 0 {2}skipped: 1/);
    expect(viaQueue.text()).toContain('skipped: notes.xyz');
    // Not a terminal: no progress bar escape codes.
    expect(viaQueue.text()).not.toContain('\r');

    // One file, --json, and a failing document's error body with exit code 1.
    const one = capture();
    expect(
      await main(['enqueue', 'in/comma.csv', '--json', '--redis', redis.url, '--queue', 'cli'], {
        stdout: one.stream,
        stderr: capture().stream,
        cwd: dir,
      }),
    ).toBe(0);
    expect(JSON.parse(one.text())).toMatchObject({ success: true, data: { markdown: expect.stringContaining('|') } });
    const bad = capture();
    expect(
      await main(['enqueue', 'in/comma.csv', '--options', '{"timeout":5}', '--redis', redis.url, '--queue', 'cli'], {
        stdout: capture().stream,
        stderr: bad.stream,
        cwd: dir,
      }),
    ).toBe(1);
    expect(JSON.parse(bad.text())).toMatchObject({ success: false, code: 'BAD_REQUEST' });

    // The worker logged one line per job, with file names but no content.
    const jobLines = logs
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((l) => l.msg === 'job');
    expect(jobLines.filter((l) => l.status === 200)).toHaveLength(4);
    expect(logs).not.toContain(readFileSync(join(dir, 'direct/comma.csv.md'), 'utf8').slice(0, 30));

    const exited = new Promise<number | null>((r) => worker?.once('exit', (c) => r(c)));
    worker?.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(logs).toContain('"msg":"stopped"');
    // --workers 2: a pool of two threads, kept busy by two jobs at once.
    expect(logs).toContain('"concurrency":2,"workers":2');
    // Finished jobs stay until their TTL without zeroDataRetention: the queue keys exist.
    expect([...(await dumpRedis(redis.url)).keys()].some((k) => k.startsWith('bull:cli:'))).toBe(true);
  });

  it('draws a progress bar over jobs on a terminal only', async () => {
    const inProcess = await startParseWorker({ redis: redis.url, name: 'tty', engine: createEngine() });
    try {
      const tty = capture(true);
      let t = 0;
      const code = await main(
        ['enqueue', join(root, 'fixtures/csv'), '--out', join(dir, 'tty'), '--redis', redis.url, '--queue', 'tty'],
        {
          stdout: capture().stream,
          stderr: tty.stream,
          cwd: dir,
          now: () => (t += 500),
        },
      );
      expect(code).toBe(0);
      expect(tty.text()).toMatch(/\r\[#*\.*\] \d+\/8 files/);
      expect(tty.text()).toContain('files: 8  ');
      // One file: the bar counts the pages of the job in flight, as the worker reports them.
      const one = capture(true);
      expect(
        await main(['enqueue', join(root, 'fixtures/pdf/running.pdf'), '--redis', redis.url, '--queue', 'tty'], {
          stdout: capture().stream,
          stderr: one.stream,
          cwd: dir,
          now: () => (t += 500),
        }),
      ).toBe(0);
      expect(one.text()).toMatch(/\r\[#{24}\] 3\/3 pages/);
    } finally {
      await inProcess.close(1000);
    }
  });
});

describe('queue flags', () => {
  it('docmill serve --queue-redis hands parses to the queue; worker/enqueue flags are checked', async () => {
    const { parseServeArgs } = await import('../src/serve.ts');
    expect(parseServeArgs(['--queue-redis', 'redis://10.0.0.5:6379', '--queue', 'q1'], {}).queue).toEqual({
      redis: 'redis://10.0.0.5:6379',
      name: 'q1',
    });
    expect(parseServeArgs([], { DOCMILL_QUEUE_REDIS_URL: 'redis://r:6379' }).queue).toEqual({
      redis: 'redis://r:6379',
      name: 'docmill',
    });
    expect(parseServeArgs([], {}).queue).toBeUndefined();
    const { queueTarget } = await import('../src/queue-flags.ts');
    const err = capture();
    expect(
      await main(['worker', '--redis', 'http://x', '--concurrency', '2'], {
        stdout: capture().stream,
        stderr: err.stream,
        cwd: root,
      }),
    ).toBe(2);
    expect(err.text()).toContain('--redis must be a redis://, rediss://, redis-cluster:// or rediss-cluster:// URL');
    // Unreadable URLs are usage errors (exit 2, no stack) that never repeat the URL or its password.
    for (const [args, say] of [
      [['worker', '--redis', 'http://:hunter2@x'], '--redis must be'],
      [['worker', '--redis', 'redis-cluster://:hunter2@h:99999'], 'seed node 1 is not host:port'],
      [['worker', '--redis', 'redis-cluster://:hunter2@h:7000/?tls=true'], 'the only path a cluster takes is /0'],
      [['enqueue', 'in/comma.csv', '--redis', 'rediss-cluster://:hunter2%zz@h:7000'], 'malformed %-escape'],
      [['serve', '--queue-redis', 'redis-cluster://:hunter2@h:0'], '--queue-redis: Bad redis-cluster:// URL'],
      [['worker', '--redis', 'redis-cluster://:hunter2@h:7000'], 'needs a hash tag'],
      [['serve', '--queue-redis', 'redis-cluster://:hunter2@h:7000', '--queue-prefix', 'dm'], 'needs a hash tag'],
    ] as const) {
      const e = capture();
      expect(await main([...args], { stdout: capture().stream, stderr: e.stream, cwd: root }), args.join(' ')).toBe(2);
      expect(e.text()).toContain(say);
      expect(e.text()).not.toContain('hunter2');
      expect(e.text()).not.toContain('    at ');
    }
    expect(queueTarget({ redis: 'redis-cluster://u:p@ss@10.0.0.5:7000/0', prefix: '{docmill}' }, {}).redis).toBe(
      'redis-cluster://u:p@ss@10.0.0.5:7000/0',
    );
    // A Redis Cluster: its URL and the hash-tagged prefix reach the queue, the server's too.
    expect(queueTarget({ redis: 'redis-cluster://10.0.0.5:7000,10.0.0.6:7000', prefix: '{docmill}' }, {})).toEqual({
      redis: 'redis-cluster://10.0.0.5:7000,10.0.0.6:7000',
      name: 'docmill',
      prefix: '{docmill}',
    });
    expect(
      parseServeArgs(['--queue-redis', 'redis-cluster://10.0.0.5:7000', '--queue-prefix', '{docmill}'], {}).queue,
    ).toEqual({ redis: 'redis-cluster://10.0.0.5:7000', name: 'docmill', prefix: '{docmill}' });
    const err2 = capture();
    expect(
      await main(['worker', '--concurrency', '0'], { stdout: capture().stream, stderr: err2.stream, cwd: root }),
    ).toBe(2);
    expect(err2.text()).toContain('--concurrency must be a positive integer');
    const help = capture();
    expect(await main(['enqueue', '--help'], { stdout: help.stream, stderr: capture().stream, cwd: root })).toBe(0);
    expect(help.text()).toContain('--in-flight N');
    // The parse flags follow the queue flags under one heading, not a second "Flags:".
    expect(help.text().match(/^Flags:$/gm)).toHaveLength(1);
    expect(help.text()).toMatch(/--attempts N .*\nand every "docmill parse" flag but --workers .*\n {2}--json /);
    expect(help.text()).not.toContain('--workers N');
    const workers = capture();
    expect(
      await main(['enqueue', 'x.pdf', '--workers', '2'], {
        stdout: capture().stream,
        stderr: workers.stream,
        cwd: root,
      }),
    ).toBe(2);
    expect(workers.text()).toContain('--workers sets parse threads on "docmill worker"');
  });
});
