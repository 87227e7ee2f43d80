import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { dumpRedis, freePort, redisMissing } from './redis.ts';

/** Why Redis Cluster tests skip: they also need redis-cli, which builds the cluster. */
export const clusterMissing =
  redisMissing ??
  (() => {
    try {
      execFileSync('redis-cli', ['--version'], { stdio: 'ignore' });
      return undefined;
    } catch {
      return 'redis-cli is not installed (Debian redis-tools, with redis-server): Redis Cluster tests skipped';
    }
  })();

export interface TestCluster {
  /** `redis-cluster://` URL listing every node. */
  url: string;
  /** `redis://` URLs of the nodes, for looking at each one's keys. */
  nodes: string[];
  stop(): Promise<void>;
}

/**
 * A throwaway Redis Cluster: `masters` redis-server processes in cluster mode on free loopback
 * ports (client and bus ports both chosen, so no port+10000 clash), joined by
 * `redis-cli --cluster create` with no replicas. Resolves once every node reports `cluster_state:ok`.
 */
export async function startRedisCluster(masters = 3): Promise<TestCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'docmill-cluster-'));
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGKILL');
          }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const ports: number[] = [];
    for (let i = 0; i < masters; i++) {
      const [port, bus] = [await freePort(), await freePort()];
      ports.push(port);
      children.push(
        spawn(
          'redis-server',
          [
            '--port',
            String(port),
            '--cluster-port',
            String(bus),
            '--bind',
            '127.0.0.1',
            '--cluster-enabled',
            'yes',
            '--cluster-config-file',
            join(dir, `nodes-${port}.conf`),
            '--dir',
            dir,
            '--save',
            '',
            '--appendonly',
            'no',
          ],
          { stdio: 'ignore' },
        ),
      );
    }
    const nodes = ports.map((p) => `redis://127.0.0.1:${p}`);
    await Promise.all(nodes.map((url) => untilAnswers(url, 'PING', (r) => r === 'PONG')));
    await promisify(execFile)(
      'redis-cli',
      ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes'],
      { timeout: 30_000 },
    );
    await Promise.all(nodes.map((url) => untilAnswers(url, 'CLUSTER INFO', (r) => r.includes('cluster_state:ok'))));
    return { url: `redis-cluster://${ports.map((p) => `127.0.0.1:${p}`).join(',')}`, nodes, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Polls one node with a command until its answer passes `ok` (10 s at most). */
async function untilAnswers(url: string, command: string, ok: (reply: string) => boolean): Promise<void> {
  const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  r.on('error', () => undefined);
  const [name, ...args] = command.split(' ') as [string, ...string[]];
  const until = Date.now() + 10_000;
  try {
    for (;;) {
      try {
        if (r.status !== 'ready') await r.connect();
        if (ok(String(await r.call(name, ...args)))) return;
      } catch (err) {
        if (Date.now() > until) throw err;
      }
      if (Date.now() > until) throw new Error(`${url} never answered ${command} as expected`);
      await new Promise((res) => setTimeout(res, 50));
    }
  } finally {
    r.disconnect();
  }
}

/** Every key of every node with its content, as `dumpRedis` gives it for one server. */
export async function dumpCluster(c: TestCluster): Promise<Map<string, string>> {
  const all = new Map<string, string>();
  for (const url of c.nodes) for (const [k, v] of await dumpRedis(url)) all.set(k, v);
  return all;
}
