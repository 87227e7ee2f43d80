import { clusterNamesProblem, clusterSeeds } from '@docmill/queue/redis-url';
import { UsageError } from './args.ts';

/** The flags `docmill worker` and `docmill enqueue` share, with their environment variables. */
export const queueFlagsHelp = `  --redis URL                Redis, redis://[user:pass@]host:port[/db] or rediss:// [DOCMILL_REDIS_URL]
                             default redis://127.0.0.1:6379; a Redis Cluster is
                             redis-cluster://[user:pass@]host:port[,host:port…][/0] (or rediss-cluster://)
  --queue NAME               queue name, default docmill [DOCMILL_QUEUE]
  --prefix P                 BullMQ key prefix, default bull; "{docmill}" on Redis Cluster [DOCMILL_QUEUE_PREFIX]`;

export const queueFlagSpecs = {
  redis: { type: 'string' },
  queue: { type: 'string' },
  prefix: { type: 'string' },
} as const;

export interface QueueTarget {
  redis: string;
  name: string;
  prefix?: string;
}

export function queueTarget(v: Record<string, unknown>, env: NodeJS.ProcessEnv): QueueTarget {
  const redis = (v.redis as string | undefined) ?? env.DOCMILL_REDIS_URL ?? 'redis://127.0.0.1:6379';
  checkRedisUrl('--redis', redis);
  const prefix = (v.prefix as string | undefined) ?? env.DOCMILL_QUEUE_PREFIX;
  const target = {
    redis,
    name: (v.queue as string | undefined) ?? env.DOCMILL_QUEUE ?? 'docmill',
    ...(prefix ? { prefix } : {}),
  };
  checkClusterNames(target);
  return target;
}

/**
 * A usage error for a URL the queue cannot use, before anything connects (a cluster URL ioredis
 * misreads would retry a host named "redis-cluster" forever). The message never repeats the URL,
 * which may carry a password.
 */
export function checkRedisUrl(flag: string, url: string): void {
  if (!/^rediss?(-cluster)?:\/\//i.test(url))
    throw new UsageError(`${flag} must be a redis://, rediss://, redis-cluster:// or rediss-cluster:// URL.`);
  try {
    clusterSeeds(url);
  } catch (err) {
    throw new UsageError(`${flag}: ${(err as Error).message}`);
  }
}

/** A usage error for a Redis Cluster queue whose keys would not share a slot. */
export function checkClusterNames(target: QueueTarget): void {
  const problem = clusterNamesProblem(target.redis, target);
  if (problem) throw new UsageError(problem);
}

export function positiveInt(flag: string, v: unknown, d: number): number {
  if (v === undefined || v === '') return d;
  if (typeof v !== 'string' || !/^[1-9]\d*$/.test(v))
    throw new UsageError(`${flag} must be a positive integer, got "${v}".`);
  return Number(v);
}
