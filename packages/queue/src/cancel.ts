import type { ErrorBody } from '@docmill/core';
import type { ParseQueue } from './client.ts';
import { type RedisClient, redisConnection } from './connection.ts';
import { DEFAULT_PREFIX, type QueueNames, resultKey } from './job.ts';

/**
 * The abort reason a worker gives BullMQ's `cancelJob` for a job its client cancelled. BullMQ
 * (6.7) can abort a processor's signal, but only inside the worker process that runs the job;
 * telling that process is ours: a key (read when a job starts) and a pub/sub message (heard while
 * it runs).
 */
export const CANCELLED = 'docmill: cancelled by the client';

/** What a cancelled job's waiters get. */
export const CANCELLED_BODY: ErrorBody = {
  success: false,
  code: 'UNKNOWN_ERROR',
  error: 'The parse job was cancelled by its client.',
};

/**
 * Set while a cancelled job may still be started or running somewhere, and left to expire with
 * the queue's result TTL: the job itself is removed (and a zero-data-retention one leaves nothing
 * else), so this key is how a waiter learns the job was cancelled rather than lost. It holds only
 * "1", never document content.
 */
export function cancelKey(names: QueueNames, jobId: string): string {
  return `${names.prefix ?? DEFAULT_PREFIX}:${names.name}:docmill-cancel:${jobId}`;
}

/** Where clients announce a cancelled job id to the queue's workers. */
export function cancelChannel(names: QueueNames): string {
  return `${names.prefix ?? DEFAULT_PREFIX}:${names.name}:docmill-cancel`;
}

/** `removed`: it had not started (or had finished) and is gone; `stopped`: a worker aborted it. */
export type CancelOutcome = 'removed' | 'stopped' | 'running';

/**
 * Cancels a parse job. A job that waits (or waits for a retry) is removed with its bytes; a running
 * one is aborted by its worker, fails without a retry and is then removed too, so a cancelled job
 * leaves neither bytes nor a result in Redis, only its cancel mark until the result TTL. Resolves once that is done, or with `running` when
 * no worker stopped the job within `settleMs` (a worker that lost its connection; it finds the
 * cancel key if the job is retried).
 */
export async function cancelParse(q: ParseQueue, jobId: string, settleMs = 10_000): Promise<CancelOutcome> {
  const key = cancelKey(q.names, jobId);
  // The mark goes first: a worker that takes the job between here and the removal below sees it
  // when the job starts.
  await q.redis.set(key, '1', 'EX', q.options.resultTtlSeconds);
  const removed = await removeIfIdle(q, jobId);
  // Told even when the removal worked: a job whose worker lost its lock (a long event-loop stall)
  // can be removed while that worker still runs it.
  await q.redis.publish(cancelChannel(q.names), jobId);
  if (removed) return 'removed';
  const until = Date.now() + settleMs;
  for (;;) {
    const state = await q.queue.getJobState(jobId);
    // A worker may finish it just before it hears the cancel: the job goes either way.
    if (state !== 'active' && (await removeIfIdle(q, jobId))) return 'stopped';
    if (Date.now() > until) return 'running';
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Removes the job and any stored result unless a worker holds the job's lock. */
async function removeIfIdle(q: ParseQueue, jobId: string): Promise<boolean> {
  // BullMQ answers 0 for a job a worker holds (and for one already gone); any error (Redis down)
  // is the caller's to see, not a "busy" job to wait for.
  const removed = await q.queue.remove(jobId);
  if (removed !== 1) return false;
  await q.redis.del(resultKey(q.names, jobId));
  return true;
}

/**
 * A worker's subscription to cancel messages: `onCancel` runs for every announced job id (most are
 * not this worker's). Its own connection, since a subscribed connection runs no other command.
 */
export async function watchCancels(
  url: string,
  names: QueueNames,
  onCancel: (jobId: string) => void,
): Promise<{ close(): void }> {
  const sub: RedisClient = redisConnection(url, true);
  const channel = cancelChannel(names);
  sub.on('message', (ch: string, jobId: string) => {
    if (ch === channel) onCancel(jobId);
  });
  try {
    await sub.subscribe(channel);
  } catch (err) {
    sub.disconnect();
    throw err;
  }
  return { close: () => sub.disconnect() };
}
