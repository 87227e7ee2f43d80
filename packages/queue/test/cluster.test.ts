import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createEngine, type ParseProgress } from '@docmill/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterSeeds } from '../src/connection.ts';
import {
  cancelParse,
  enqueueParse,
  type JobLog,
  openParseQueue,
  startParseWorker,
  waitForResult,
} from '../src/index.ts';
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
    expect(() => clusterSeeds('redis-cluster://h:99999')).toThrow('Bad Redis Cluster node "h:99999"');
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
