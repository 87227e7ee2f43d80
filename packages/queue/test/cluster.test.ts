import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createEngine, type ParseProgress } from '@docmill/core';
import { Queue } from 'bullmq';
import type { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisConnection } from '../src/connection.ts';
import {
  cancelParse,
  enqueueParse,
  type JobLog,
  openParseQueue,
  startParseWorker,
  waitForResult,
} from '../src/index.ts';
import { clusterSeeds } from '../src/redis-url.ts';
import { heldCsv, until } from './held.ts';
import { clusterMissing, dumpCluster, startRedisCluster, type TestCluster } from './redis-cluster.ts';

const fixture = (p: string) =>
  new Uint8Array(readFileSync(fileURLToPath(new URL(`../../../fixtures/${p}`, import.meta.url))));

describe('redis-cluster:// URLs', () => {
  it('list seed nodes and credentials; plain redis:// URLs are not clusters', () => {
    expect(clusterSeeds('rediss-cluster://app:p%40ss@10.0.0.5:7000,[::1]:7001,cache')).toEqual({
      nodes: [
        { host: '10.0.0.5', port: 7000 },
        { host: '::1', port: 7001 },
        { host: 'cache', port: 6379 },
      ],
      auth: { username: 'app', password: 'p@ss', tls: {} },
    });
    expect(clusterSeeds('redis-cluster://:secret@h:7000')).toEqual({
      nodes: [{ host: 'h', port: 7000 }],
      auth: { password: 'secret' },
    });
    expect(clusterSeeds('redis://10.0.0.5:7000')).toBeUndefined();
  });

  it('accept a /0 path and split credentials at the last @', () => {
    expect(clusterSeeds('redis-cluster://127.0.0.1:7000,127.0.0.1:7001/0')?.nodes).toEqual([
      { host: '127.0.0.1', port: 7000 },
      { host: '127.0.0.1', port: 7001 },
    ]);
    expect(clusterSeeds('redis-cluster://u:p@ss@127.0.0.1:7000')).toEqual({
      nodes: [{ host: '127.0.0.1', port: 7000 }],
      auth: { username: 'u', password: 'p@ss' },
    });
    expect(clusterSeeds('redis-cluster://:pa/ss@127.0.0.1:7000/')).toEqual({
      nodes: [{ host: '127.0.0.1', port: 7000 }],
      auth: { password: 'pa/ss' },
    });
  });

  it('refuse any cluster URL they cannot read, without repeating it or its password', () => {
    for (const url of [
      'redis-cluster://:hunter2@h:99999',
      'redis-cluster://:hunter2@h:7000/1',
      'redis-cluster://:hunter2@h:7000/?tls=true',
      'redis-cluster://:hunter2@h:70x0',
      'redis-cluster://:hunter2@',
      'redis-cluster://:hunter2%zz@h:7000',
      'redis-cluster:hunter2@h:7000',
      'REDIS-CLUSTER://:hunter2@h:7000/2',
      'redis-cluster://:hunter2,h:7000',
    ]) {
      let err: unknown;
      try {
        clusterSeeds(url);
      } catch (e) {
        err = e;
      }
      expect(err, url).toBeInstanceOf(TypeError);
      expect((err as Error).message).toMatch(/^Bad redis-cluster:\/\/ URL: /);
      expect((err as Error).message).not.toContain('hunter2');
      // Never handed to ioredis as a plain URL, where it became a host named "redis-cluster".
      expect(() => redisConnection(url, false, { lazyConnect: true })).toThrow(TypeError);
    }
  });

  it('a TLS cluster connects by the names it was given (managed clusters’ certificates name hosts)', () => {
    const tls = redisConnection('rediss-cluster://cache.example:7000', false, { lazyConnect: true }) as Cluster;
    const plain = redisConnection('redis-cluster://cache.example:7000', false, { lazyConnect: true }) as Cluster;
    try {
      const lookup = tls.options.dnsLookup as (a: string, cb: (e: unknown, a: string) => void) => void;
      let resolved = '';
      lookup('cache.example', (_e, a) => {
        resolved = a;
      });
      expect(resolved).toBe('cache.example');
      expect(tls.options.redisOptions?.tls).toEqual({});
      expect(plain.options.redisOptions?.tls).toBeUndefined();
    } finally {
      tls.disconnect();
      plain.disconnect();
    }
  });
});

if (clusterMissing) console.warn(clusterMissing);

describe.skipIf(clusterMissing)('parse jobs on a real 3-master Redis Cluster', () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await startRedisCluster(3);
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  it('round-trips documents with the {docmill} prefix, with and without zeroDataRetention', async () => {
    const names = { name: 'docmill', prefix: '{docmill}' };
    const logs: JobLog[] = [];
    const worker = await startParseWorker({
      redis: cluster.url,
      ...names,
      engine: createEngine(),
      concurrency: 2,
      progressIntervalMs: 0,
      log: (r) => logs.push(r),
    });
    // The client knows only one seed node; ioredis finds the others.
    const q = openParseQueue({ redis: cluster.url.replace(/,.*$/, ''), ...names });
    try {
      const engine = createEngine();
      const pdf = fixture('pdf/running.pdf');
      const direct = await engine.parse(pdf, {}, { filename: 'running.pdf' });
      const seen: ParseProgress[] = [];
      await q.listen();
      const id = await enqueueParse(q, pdf, {}, { filename: 'running.pdf' });
      const r = await waitForResult(q, id, 60_000, { onProgress: (p) => seen.push(p) });
      expect(r.success && r.data.markdown).toBe(direct.markdown);
      expect(r.success && r.data.markdown).toContain('Body text of page 1');
      expect(seen.map((p) => p.done)).toEqual([1, 2, 3]);

      // zeroDataRetention: once read, nothing of the document or its result is left on any node.
      const marker = 'CLUSTERZDR4410';
      const csv = new TextEncoder().encode(`name,secret\nalice,${marker}\n`);
      const b64 = Buffer.from(csv).toString('base64');
      const zid = await enqueueParse(q, csv, { zeroDataRetention: true }, { filename: 'secret.csv' });
      const zr = await waitForResult(q, zid, 60_000);
      expect(zr.success && zr.data.markdown).toContain(`| alice | ${marker} |`);
      const dump = await dumpCluster(cluster);
      const text = [...dump.keys(), ...dump.values()].join('\n');
      expect(text).not.toContain(b64);
      expect(text).not.toContain(marker);
      expect(text).not.toContain('secret.csv');
      expect([...dump.keys()].filter((k) => k.endsWith(`:${zid}`) || k.includes(`:${zid}:`))).toEqual([]);
      // The non-ZDR job is still there, and every queue key sits on one node (one hash slot).
      expect(text).toContain(Buffer.from(pdf).toString('base64').slice(0, 200));
      const owners = new Set<string>();
      for (const node of cluster.nodes) {
        const keys = [...(await dumpCluster({ ...cluster, nodes: [node] })).keys()];
        if (keys.some((k) => k.startsWith('{docmill}:docmill:'))) owners.add(node);
      }
      expect(owners.size).toBe(1);
      expect(logs.map((l) => l.status)).toEqual([200, 200]);
    } finally {
      await q.close();
      await worker.close(1000);
    }
  });

  it('a prefix without a hash tag is refused at once by clients and workers, not left to fail with CROSSSLOT', async () => {
    const engine = createEngine();
    for (const names of [{ name: 'docmill' }, { name: 'docmill', prefix: 'dm' }, { name: 'docmill', prefix: '{}' }]) {
      expect(() => openParseQueue({ redis: cluster.url, ...names })).toThrow('needs a hash tag');
      await expect(startParseWorker({ redis: cluster.url, ...names, engine })).rejects.toThrow('needs a hash tag');
    }
    // A tag in the queue name serves as well: every key starts with prefix:name.
    const q = openParseQueue({ redis: cluster.url, name: '{tagged}' });
    const worker = await startParseWorker({ redis: cluster.url, name: '{tagged}', engine });
    try {
      const id = await enqueueParse(q, fixture('csv/comma.csv'), {}, { filename: 'comma.csv' });
      const r = await waitForResult(q, id, 60_000);
      expect(r.success && r.data.markdown).toContain('|');
    } finally {
      await q.close();
      await worker.close(1000);
    }
    // The reason for the refusal: without a tag BullMQ's multi-key commands fail on a cluster.
    const untagged = new Queue('docmill', { connection: redisConnection(cluster.url, false) });
    try {
      await expect(untagged.add('parse', {})).rejects.toThrow('CROSSSLOT');
    } finally {
      await untagged.close();
      await (untagged.opts.connection as Cluster).quit();
    }
  });

  it('cancels a running job through the cluster: its worker hears it over pub/sub and aborts the parse', async () => {
    const held = heldCsv();
    const names = { name: 'slow', prefix: '{docmill}' };
    const logs: JobLog[] = [];
    const worker = await startParseWorker({
      redis: cluster.url,
      ...names,
      engine: createEngine({ adapters: { csv: held.adapter } }),
      log: (r) => logs.push(r),
    });
    const q = openParseQueue({ redis: cluster.url, ...names });
    try {
      const id = await enqueueParse(q, fixture('csv/comma.csv'), {}, { filename: 'comma.csv' });
      await until(() => held.state.started === 1);
      expect(await cancelParse(q, id)).toBe('stopped');
      expect(held.state.aborts).toHaveLength(1);
      expect(logs).toEqual([expect.objectContaining({ jobId: id, status: 499, code: 'CANCELLED' })]);
      expect(await q.queue.getJobState(id)).toBe('unknown');
    } finally {
      await q.close();
      await worker.close(1000);
    }
  });
});
