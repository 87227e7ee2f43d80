import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

/** Why Redis tests skip, or undefined when Debian's redis-server is on PATH. */
export const redisMissing = (() => {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'redis-server is not installed (apt-get install redis-server; .ci/run does it): queue tests skipped';
  }
})();

export interface TestRedis {
  url: string;
  port: number;
  /** Kills Redis for good, its data with it. */
  stop(): Promise<void>;
  /**
   * Stops Redis as a restart does (SHUTDOWN SAVE writes its data to the test's own folder, every
   * client sees its connection close); `start()` brings it back on the same port with that data.
   */
  shutdown(): Promise<void>;
  start(): Promise<void>;
  /** Freezes Redis (SIGSTOP): connections open, nothing answers, until `resume()`. */
  pause(): void;
  resume(): void;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * A throwaway redis-server on a free loopback port, in a folder of its own: nothing is persisted
 * unless a test restarts it (`shutdown`, `start`).
 */
export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'docmill-redis-'));
  const url = `redis://127.0.0.1:${port}`;
  let child = await spawnRedis(port, dir, url);
  const exited = (c: ChildProcess, signal?: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (c.exitCode !== null || c.signalCode !== null) return resolve();
      c.once('exit', () => resolve());
      if (signal) c.kill(signal);
    });
  return {
    url,
    port,
    async stop() {
      await exited(child, 'SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
    async shutdown() {
      execFileSync('redis-cli', ['-p', String(port), 'shutdown', 'save'], { stdio: 'ignore' });
      await exited(child);
    },
    async start() {
      child = await spawnRedis(port, dir, url);
    },
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
  };
}

async function spawnRedis(port: number, dir: string, url: string): Promise<ChildProcess> {
  const child: ChildProcess = spawn(
    'redis-server',
    [
      ...['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      ...['--protected-mode', 'yes', '--dir', dir],
    ],
    { stdio: 'ignore' },
  );
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  // A busy machine may take a while to start it.
  const until = Date.now() + 30_000;
  for (;;) {
    try {
      await probe.connect();
      await probe.ping();
      break;
    } catch (err) {
      if (Date.now() > until || child.exitCode !== null) {
        child.kill('SIGKILL');
        throw err;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  probe.disconnect();
  return child;
}

/** Every key in the database with its whole content, as text, for searching. */
export async function dumpRedis(url: string): Promise<Map<string, string>> {
  const r = new Redis(url);
  const out = new Map<string, string>();
  try {
    for (const key of await r.keys('*')) {
      const type = await r.type(key);
      let value: unknown;
      if (type === 'string') value = await r.getBuffer(key).then((b) => b?.toString('latin1'));
      else if (type === 'hash') value = await r.hgetall(key);
      else if (type === 'list') value = await r.lrange(key, 0, -1);
      else if (type === 'set') value = await r.smembers(key);
      else if (type === 'zset') value = await r.zrange(key, 0, -1, 'WITHSCORES');
      else if (type === 'stream') value = await r.xrange(key, '-', '+');
      out.set(key, JSON.stringify(value));
    }
  } finally {
    r.disconnect();
  }
  return out;
}
