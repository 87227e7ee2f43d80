import { Cluster, type ClusterNode, Redis, type RedisOptions } from 'ioredis';

/** What BullMQ and our own commands accept: one Redis server, or a Redis Cluster behind a seed list. */
export type RedisClient = Redis | Cluster;

/** URL schemes that name a Redis Cluster: `redis-cluster://[user:pass@]host:port[,host:port…]`. */
const CLUSTER = /^(rediss?)-cluster:\/\/(?:([^@/]*)@)?([^/?#]+)\/?$/;

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
    ? new Cluster(cluster.nodes, { redisOptions: { ...options, ...cluster.auth } })
    : new Redis(url, options);
  // Failures reach callers through rejected commands and BullMQ's own 'error' events; without a
  // listener ioredis would print them to the console.
  redis.on('error', () => undefined);
  return redis;
}

/** The seed nodes and credentials of a cluster URL; undefined for a plain `redis://` URL. */
export function clusterSeeds(
  url: string,
): { nodes: ClusterNode[]; auth: Pick<RedisOptions, 'username' | 'password' | 'tls'> } | undefined {
  const m = CLUSTER.exec(url);
  if (!m) return undefined;
  const [, scheme, userinfo, hosts] = m as unknown as [string, string, string | undefined, string];
  const nodes = hosts.split(',').map((hp) => {
    const at = hp.lastIndexOf(':');
    const host = at > 0 ? hp.slice(0, at) : hp;
    const port = at > 0 ? Number(hp.slice(at + 1)) : 6379;
    if (!host || !Number.isInteger(port) || port <= 0 || port > 65535) {
      throw new TypeError(`Bad Redis Cluster node "${hp}" in ${scheme}-cluster:// URL.`);
    }
    return { host: host.replace(/^\[(.*)\]$/, '$1'), port };
  });
  const colon = userinfo?.indexOf(':') ?? -1;
  const user = userinfo === undefined ? undefined : decodeURIComponent(colon < 0 ? userinfo : userinfo.slice(0, colon));
  const pass = userinfo === undefined || colon < 0 ? undefined : decodeURIComponent(userinfo.slice(colon + 1));
  return {
    nodes,
    auth: {
      ...(user ? { username: user } : {}),
      ...(pass ? { password: pass } : {}),
      ...(scheme === 'rediss' ? { tls: {} } : {}),
    },
  };
}
