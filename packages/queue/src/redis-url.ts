import type { ClusterNode, RedisOptions } from 'ioredis';

/**
 * Reading Redis URLs without loading a Redis client, so that a CLI can check its flags before it
 * imports the queue. URL schemes that name a Redis Cluster:
 * `redis-cluster://[user:pass@]host:port[,host:port…][/0]`, `rediss-cluster://` for TLS.
 */
const CLUSTER_SCHEME = /^(rediss?)-cluster:/i;

/** A host name, an IPv4 address or a bracketed IPv6 one (zone ids included). */
const HOST = /^(?:[A-Za-z0-9._-]+|\[[0-9A-Za-z:.%]+\])$/;

/** A Redis Cluster URL this module cannot read. Its message never repeats the URL: it may hold a password. */
export class RedisUrlError extends TypeError {
  override name = 'RedisUrlError';
}

/**
 * The seed nodes and credentials of a cluster URL; undefined for a plain `redis://` URL. Any URL
 * with a cluster scheme that does not parse is an error: handed to ioredis as a plain URL it would
 * become a connection to a host named "redis-cluster", retried forever.
 */
export function clusterSeeds(
  url: string,
): { nodes: ClusterNode[]; auth: Pick<RedisOptions, 'username' | 'password' | 'tls'> } | undefined {
  const m = CLUSTER_SCHEME.exec(url);
  if (!m) return undefined;
  const scheme = `${(m[1] as string).toLowerCase()}-cluster://`;
  const bad = (why: string) =>
    new RedisUrlError(`Bad ${scheme} URL: ${why}; expected ${scheme}[user:pass@]host:port[,host:port…][/0].`);
  const rest = url.slice(m[0].length);
  if (!rest.startsWith('//')) throw bad('"//" must follow the scheme');
  const body = rest.slice(2);
  // The last '@' ends the credentials: a password may hold '@' or '/' that were not percent-encoded.
  const at = body.lastIndexOf('@');
  const userinfo = at < 0 ? undefined : body.slice(0, at);
  const hostPart = body.slice(at + 1);
  const slash = hostPart.indexOf('/');
  const hosts = slash < 0 ? hostPart : hostPart.slice(0, slash);
  const path = slash < 0 ? '' : hostPart.slice(slash);
  // A cluster has only database 0; options in a query string would be silently dropped.
  if (path !== '' && path !== '/' && path !== '/0')
    throw bad('the only path a cluster takes is /0 (no other database, no query)');
  if (/[?#]/.test(hosts)) throw bad('query strings and fragments are not supported');
  if (!hosts) throw bad('no seed node');
  const nodes = hosts.split(',').map((hp, i) => {
    const colon = hp.lastIndexOf(':');
    const hasPort = colon > 0 && (!hp.startsWith('[') || hp.lastIndexOf(']') < colon);
    const host = hasPort ? hp.slice(0, colon) : hp;
    const portText = hasPort ? hp.slice(colon + 1) : '6379';
    const port = /^\d{1,5}$/.test(portText) ? Number(portText) : Number.NaN;
    if (!HOST.test(host) || !(port > 0 && port <= 65535)) {
      // Named by position, not text: a mistyped URL may have put a password there.
      throw bad(`seed node ${i + 1} is not host:port with a port from 1 to 65535`);
    }
    return { host: host.replace(/^\[(.*)\]$/, '$1'), port };
  });
  let user: string | undefined;
  let pass: string | undefined;
  if (userinfo !== undefined) {
    const colon = userinfo.indexOf(':');
    try {
      user = decodeURIComponent(colon < 0 ? userinfo : userinfo.slice(0, colon));
      pass = colon < 0 ? undefined : decodeURIComponent(userinfo.slice(colon + 1));
    } catch {
      throw bad('the user name or password has a malformed %-escape');
    }
  }
  return {
    nodes,
    auth: {
      ...(user ? { username: user } : {}),
      ...(pass ? { password: pass } : {}),
      ...(scheme.startsWith('rediss') ? { tls: {} } : {}),
    },
  };
}

/**
 * On a Redis Cluster every key of a queue must hash to one slot, which only a hash tag in the
 * key's start (`{docmill}:name:…`) ensures: BullMQ's scripts touch several keys at once and
 * fail with CROSSSLOT otherwise, and a worker would swallow that and never take a job. Returns
 * why `url` and these names cannot work together, or undefined when they can.
 */
export function clusterNamesProblem(url: string, names: { prefix?: string; name: string }): string | undefined {
  if (!clusterSeeds(url)) return undefined;
  const start = `${names.prefix ?? 'bull'}:${names.name}:`;
  const open = start.indexOf('{');
  const close = open < 0 ? -1 : start.indexOf('}', open + 1);
  if (close > open + 1) return undefined;
  return (
    'On a Redis Cluster the queue prefix needs a hash tag, e.g. "{docmill}" (--prefix \'{docmill}\'), ' +
    "so that all of a queue's keys sit in one slot; without one every queue command fails with CROSSSLOT."
  );
}
