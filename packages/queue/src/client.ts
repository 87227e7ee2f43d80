import { DocmillError, type ParseOptions } from '@docmill/core';
import { Job, Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { redisConnection } from './connection.ts';
import {
  encodeBytes,
  errorBodyFrom,
  type JobHints,
  type ParseJobData,
  type ParseResult,
  type QueueNames,
  resultKey,
  type StoredMarker,
} from './job.ts';

export interface ParseQueueOptions extends QueueNames {
  redis: string;
  /** Tries per job for unknown (5xx) failures; request errors and timeouts are final at once. Default 3. */
  attempts?: number;
  /** How long finished jobs (and their results) stay in Redis when nobody reads them. Default 1 h. */
  resultTtlSeconds?: number;
  /**
   * Length of the queue's events stream, default 1000. BullMQ copies every return value (a whole
   * result) into it, so its 10,000 default can hold gigabytes; results are read from the jobs,
   * and the events only wake waiting clients early.
   */
  eventsMaxLen?: number;
}

/** A client's handle: the BullMQ queue, its events and a plain connection for stored results. */
export interface ParseQueue {
  readonly names: QueueNames;
  readonly queue: Queue<ParseJobData, ParseResult | StoredMarker>;
  readonly options: Required<Pick<ParseQueueOptions, 'attempts' | 'resultTtlSeconds'>>;
  /** @internal */ readonly redis: Redis;
  /** @internal */ waiter(): ResultWaiter;
  close(): Promise<void>;
}

export function openParseQueue(opts: ParseQueueOptions): ParseQueue {
  const names: QueueNames = { name: opts.name, ...(opts.prefix ? { prefix: opts.prefix } : {}) };
  const redis = redisConnection(opts.redis, false);
  // BullMQ never closes a connection it is handed (it may be shared), so close() quits it.
  const queueConnection = redisConnection(opts.redis, false);
  const queue = new Queue<ParseJobData, ParseResult | StoredMarker>(opts.name, {
    connection: queueConnection,
    ...(opts.prefix ? { prefix: opts.prefix } : {}),
    streams: { events: { maxLen: opts.eventsMaxLen ?? 1000 } },
  });
  queue.on('error', () => undefined);
  let waiter: ResultWaiter | undefined;
  const handle: ParseQueue = {
    names,
    queue,
    redis,
    options: { attempts: opts.attempts ?? 3, resultTtlSeconds: opts.resultTtlSeconds ?? 3600 },
    waiter() {
      waiter ??= new ResultWaiter(handle, opts.redis);
      return waiter;
    },
    async close() {
      await waiter?.close();
      await queue.close();
      await queueConnection.quit().catch(() => undefined);
      await redis.quit().catch(() => undefined);
    },
  };
  return handle;
}

/**
 * Submits one document; returns the job id. With `options.zeroDataRetention` the bytes leave Redis
 * when a worker starts the parse, and the result leaves it when `waitForResult` reads it.
 */
export async function enqueueParse(
  q: ParseQueue,
  bytes: Uint8Array,
  options: ParseOptions = {},
  hints: JobHints = {},
): Promise<string> {
  const zdr = options.zeroDataRetention === true;
  const ttl = q.options.resultTtlSeconds;
  const job = await q.queue.add(
    'parse',
    { bytes: encodeBytes(bytes), options, hints, zeroDataRetention: zdr },
    {
      attempts: q.options.attempts,
      backoff: { type: 'exponential', delay: 1000 },
      // BullMQ trims finished jobs older than `age` whenever a job finishes.
      removeOnComplete: zdr ? true : { age: ttl },
      removeOnFail: zdr ? true : { age: ttl },
    },
  );
  return job.id as string;
}

/**
 * Waits for a job's result: `{success, data}` or the error body (never throws for a failed parse).
 * A zero-data-retention result is deleted as it is read, so it can be read once.
 */
export function waitForResult(q: ParseQueue, jobId: string, timeoutMs = 600_000): Promise<ParseResult> {
  return q.waiter().wait(jobId, timeoutMs);
}

/** The outcome of a job if it has one now; `undefined` while it waits or runs. */
async function readOutcome(q: ParseQueue, jobId: string): Promise<ParseResult | undefined> {
  // GETDEL: a zero-data-retention result is read and removed in one step.
  const stored = await q.redis.getdel(resultKey(q.names, jobId));
  if (stored) return JSON.parse(stored) as ParseResult;
  const job = await Job.fromId<ParseJobData, ParseResult | StoredMarker>(q.queue, jobId);
  if (!job) {
    throw new DocmillError(500, 'UNKNOWN_ERROR', `Parse job ${jobId} not found: it expired or was already read.`);
  }
  if (job.finishedOn === undefined) return undefined;
  const state = await job.getState();
  if (state === 'completed') {
    const value = job.returnvalue;
    if (value && 'stored' in value) {
      throw new DocmillError(500, 'UNKNOWN_ERROR', `The result of job ${jobId} was already read or expired.`);
    }
    return value;
  }
  if (state === 'failed') {
    if (job.data.zeroDataRetention) await job.remove().catch(() => undefined);
    return errorBodyFrom(job.failedReason);
  }
  return undefined;
}

/**
 * One QueueEvents subscription serves every waiting call; a sweep every second re-reads pending
 * jobs, so an event missed during a reconnect only delays a result.
 */
class ResultWaiter {
  private readonly pending = new Map<string, Set<(r: ParseResult | Error) => void>>();
  private readonly events: QueueEvents;
  /** QueueEvents' own blocking connection: BullMQ leaves a connection it is handed open. */
  private readonly connection: Redis;
  private readonly ready: Promise<void>;
  private sweep: NodeJS.Timeout | undefined;

  constructor(
    private readonly q: ParseQueue,
    url: string,
  ) {
    this.connection = redisConnection(url, true);
    this.events = new QueueEvents(q.names.name, {
      connection: this.connection,
      ...(q.names.prefix ? { prefix: q.names.prefix } : {}),
    });
    this.events.on('error', () => undefined);
    const settle = ({ jobId }: { jobId: string }) => {
      if (this.pending.has(jobId)) void this.check(jobId);
    };
    this.events.on('completed', settle);
    this.events.on('failed', settle);
    this.ready = this.events.waitUntilReady().then(() => undefined);
  }

  async wait(jobId: string, timeoutMs: number): Promise<ParseResult> {
    await this.ready;
    return new Promise<ParseResult>((resolve, reject) => {
      const timer = setTimeout(
        () => done(new DocmillError(408, 'SCRAPE_TIMEOUT', `No result for job ${jobId} within ${timeoutMs} ms.`)),
        timeoutMs,
      );
      const done = (r: ParseResult | Error) => {
        clearTimeout(timer);
        const set = this.pending.get(jobId);
        set?.delete(done);
        if (set?.size === 0) this.pending.delete(jobId);
        if (this.pending.size === 0 && this.sweep) {
          clearInterval(this.sweep);
          this.sweep = undefined;
        }
        if (r instanceof Error) reject(r);
        else resolve(r);
      };
      const set = this.pending.get(jobId) ?? new Set();
      set.add(done);
      this.pending.set(jobId, set);
      this.sweep ??= setInterval(() => {
        for (const id of this.pending.keys()) void this.check(id);
      }, 1000);
      // The job may have finished before we subscribed.
      void this.check(jobId);
    });
  }

  private async check(jobId: string): Promise<void> {
    let outcome: ParseResult | Error | undefined;
    try {
      outcome = await readOutcome(this.q, jobId);
    } catch (err) {
      outcome = err as Error;
    }
    if (outcome === undefined) return;
    for (const done of [...(this.pending.get(jobId) ?? [])]) done(outcome);
  }

  async close(): Promise<void> {
    if (this.sweep) clearInterval(this.sweep);
    for (const [id, set] of this.pending)
      for (const done of set) done(new Error(`Queue closed while waiting for ${id}.`));
    await this.events.close();
    // A blocked XREAD would hold quit() until it times out: this connection only reads events.
    this.connection.disconnect();
  }
}
