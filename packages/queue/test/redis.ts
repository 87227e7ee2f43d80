import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
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
  stop(): Promise<void>;
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

/** A throwaway redis-server on a free loopback port, nothing persisted. */
export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${port}`;
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  const until = Date.now() + 10_000;
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
  return {
    url,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
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
