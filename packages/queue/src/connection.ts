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
 * QUIT lets a connected client finish its replies, for up to `ms`; a client that is retrying to
 * connect, or a Redis that stops answering meanwhile, would hold it for ever: such a client is
 * dropped.
 */
export async function endConnection(c: RedisClient, ms = 5_000): Promise<void> {
  if (c.status === 'ready') {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    });
    await Promise.race([c.quit().catch(() => undefined), late]);
    clearTimeout(timer);
  }
  if (c.status !== 'end') c.disconnect();
}
