import { Redis, type RedisOptions } from 'ioredis';

/**
 * One ioredis connection per BullMQ object. Workers and QueueEvents block on Redis, so they need
 * `maxRetriesPerRequest: null` (BullMQ refuses otherwise); a client's queue fails fast instead.
 */
export function redisConnection(url: string, blocking: boolean, extra: RedisOptions = {}): Redis {
  const redis = new Redis(url, {
    ...extra,
    ...(blocking ? { maxRetriesPerRequest: null } : { maxRetriesPerRequest: 3 }),
  });
  // Failures reach callers through rejected commands and BullMQ's own 'error' events; without a
  // listener ioredis would print them to the console.
  redis.on('error', () => undefined);
  return redis;
}
