import { DocmillError } from '@docmill/core';
import { Cluster, Redis, type RedisOptions } from 'ioredis';
import { clusterSeeds } from './redis-url.ts';

/** What BullMQ and our own commands accept: one Redis server, or a Redis Cluster behind a seed list. */
export type RedisClient = Redis | Cluster;

/**
 * One ioredis connection per BullMQ object. Workers and QueueEvents block on Redis, so they need
 * `maxRetriesPerRequest: null` (BullMQ refuses otherwise); a client's queue fails fast instead.
 * A `redis-cluster://` (or `rediss-cluster://`) URL lists seed nodes of a Redis Cluster; ioredis
 * learns the rest of the cluster from them.
 */
export function redisConnection(url: string, blocking: boolean, extra: RedisOptions = {}): RedisClient {
  const options: RedisOptions = {
    ...extra,
    ...(blocking ? { maxRetriesPerRequest: null } : { maxRetriesPerRequest: 3 }),
  };
  const cluster = clusterSeeds(url);
  const redis = cluster
    ? new Cluster(cluster.nodes, {
        // A TLS cluster's nodes announce addresses while their certificates name hosts (managed
        // clusters such as ElastiCache/MemoryDB): ioredis must connect by the name it was given,
        // as its README advises, or every TLS handshake fails.
        ...(cluster.auth.tls
          ? { dnsLookup: (address: string, cb: (e: null, a: string) => void) => cb(null, address) }
          : {}),
        redisOptions: { ...options, ...cluster.auth },
      })
    : new Redis(url, options);
  // Failures reach callers through rejected commands and BullMQ's own 'error' events; without a
  // listener ioredis would print them to the console.
  redis.on('error', () => undefined);
  return redis;
}

/**
 * Resolves once `client` is connected. A client that never connects (Redis down, a wrong port or
 * password) would otherwise keep every command waiting while ioredis retries forever; after `ms`
 * this rejects with a 503 that gives ioredis's last reason but never the URL, which may hold a
 * password.
 */
export function whenConnected(client: RedisClient, ms: number): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    let reason = '';
    const onError = (e: Error) => {
      reason = e.message;
    };
    const done = () => {
      clearTimeout(timer);
      client.off('ready', onReady);
      client.off('error', onError);
    };
    const onReady = () => {
      done();
      resolve();
    };
    const timer = setTimeout(() => {
      done();
      reject(
        new DocmillError(503, 'UNKNOWN_ERROR', `Redis did not answer within ${ms} ms${reason ? ` (${reason})` : ''}.`),
      );
    }, ms);
    client.on('ready', onReady);
    client.on('error', onError);
  });
}
