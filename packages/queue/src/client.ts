import { randomUUID } from 'node:crypto';
import { DocmillError, type ParseOptions, type ParseProgress } from '@docmill/core';
import { Job, Queue, QueueEvents } from 'bullmq';
import { CANCELLED_BODY, cancelKey } from './cancel.ts';
import { endConnection, type RedisClient, redisConnection } from './connection.ts';
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
import { RedisLink } from './link.ts';
import { isParseProgress } from './progress.ts';
import { clusterNamesProblem } from './redis-url.ts';

export interface ParseQueueOptions extends QueueNames {
  /** `redis://host:port[/db]`, `rediss://` for TLS, or `redis-cluster://host:port,host:port` for a Redis Cluster. */
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
  /**
   * How long `enqueueParse` waits for a Redis this handle has not reached yet before it fails with
   * a 503; a refused connection (nothing listening, no such host, a wrong password) fails at once.
   * Default 10 s.
   */
  connectTimeoutMs?: number;
  /**
   * How long the handle rides out the loss of Redis (a restart, a failover): submissions and waits
   * hold on, and read the results that completed meanwhile once Redis is back. Past it, every
   * pending call fails with a 503, and later ones fail at once until Redis answers. Default 60 s.
   */
  outageTimeoutMs?: number;
}

/** A client's handle: the BullMQ queue, its events and a plain connection for stored results. */
export interface ParseQueue {
  readonly names: QueueNames;
  readonly queue: Queue<ParseJobData, ParseResult | StoredMarker>;
  readonly options: Required<
    Pick<ParseQueueOptions, 'attempts' | 'resultTtlSeconds' | 'connectTimeoutMs' | 'outageTimeoutMs'>
  >;
  /** @internal */ readonly redis: RedisClient;
  /** @internal Whether the handle's own connections are up, and how long they may be down. */ readonly link: RedisLink;
  /** @internal */ waiter(): ResultWaiter;
  /**
   * Opens the queue's event subscription, which `waitForResult` otherwise opens on first use and
   * keeps. Await it before `enqueueParse` to hear a job's progress from its first report.
   */
  listen(): Promise<void>;
  close(): Promise<void>;
}

/** Throws at once for a Redis Cluster URL with a prefix that lacks a hash tag (see `clusterNamesProblem`). */
export function openParseQueue(opts: ParseQueueOptions): ParseQueue {
  const problem = clusterNamesProblem(opts.redis, opts);
  if (problem) throw new TypeError(problem);
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
  const options = {
    attempts: opts.attempts ?? 3,
    resultTtlSeconds: opts.resultTtlSeconds ?? 3600,
    connectTimeoutMs: opts.connectTimeoutMs ?? 10_000,
    outageTimeoutMs: opts.outageTimeoutMs ?? 60_000,
  };
  const link = new RedisLink([queueConnection, redis], options);
  let waiter: ResultWaiter | undefined;
  const handle: ParseQueue = {
    names,
    queue,
    redis,
    options,
    link,
    waiter() {
      waiter ??= new ResultWaiter(handle, opts.redis);
      return waiter;
    },
    async listen() {
      // The subscription alone would wait for an unreachable Redis for ever.
      await link.whenUp();
      await handle.waiter().ready;
    },
    async close() {
      link.close();
      await waiter?.close();
      // BullMQ's close may wait for a connection that is not coming back.
      if (link.up) await queue.close().catch(() => undefined);
      else void queue.close().catch(() => undefined);
      await Promise.all([queueConnection, redis].map(endConnection));
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
  const data: ParseJobData = { bytes: encodeBytes(bytes), options, hints, zeroDataRetention: zdr };
  // Our own id makes a second try safe: BullMQ adds a job id once, whether the first try's reply
  // was lost with the connection or not.
  const jobId = randomUUID();
  for (;;) {
    await q.link.whenUp();
    const losses = q.link.losses;
    try {
      await q.queue.add('parse', data, {
        jobId,
        attempts: q.options.attempts,
        backoff: { type: 'exponential', delay: 1000 },
        // BullMQ trims finished jobs older than `age` whenever a job finishes.
        removeOnComplete: zdr ? true : { age: ttl },
        removeOnFail: zdr ? true : { age: ttl },
      });
      return jobId;
    } catch (err) {
      // Redis went away during the add: try again once it is back, within the outage bound.
      if (q.link.up && q.link.losses === losses) throw err;
    }
  }
}

export interface WaitOptions {
  /**
   * The worker's progress reports for this job, as the engine's `onProgress` gives them (thinned
   * out by the worker). Best effort: reports sent before the wait began are not replayed.
   */
  onProgress?: (p: ParseProgress) => void;
  /** Stops waiting (rejects with the signal's reason); the job itself runs on, see `cancelParse`. */
  signal?: AbortSignal;
}

/**
 * Waits for a job's result: `{success, data}` or the error body (never throws for a failed parse).
 * A zero-data-retention result is deleted as it is read, so it can be read once.
 */
export function waitForResult(
  q: ParseQueue,
  jobId: string,
  timeoutMs = 600_000,
  opts: WaitOptions = {},
): Promise<ParseResult> {
  return q.waiter().wait(jobId, timeoutMs, opts);
}

/** The outcome of a job if it has one now; `undefined` while it waits or runs. */
async function readOutcome(q: ParseQueue, jobId: string): Promise<ParseResult | undefined> {
  // GETDEL: a zero-data-retention result is read and removed in one step.
  const stored = await q.redis.getdel(resultKey(q.names, jobId));
  if (stored) return JSON.parse(stored) as ParseResult;
  const job = await Job.fromId<ParseJobData, ParseResult | StoredMarker>(q.queue, jobId);
  if (!job) {
    // A cancelled job is removed, a zero-data-retention one even by its own worker: its mark says why.
    if (await q.redis.exists(cancelKey(q.names, jobId))) return CANCELLED_BODY;
    throw new DocmillError(
      500,
      'UNKNOWN_ERROR',
      `Parse job ${jobId} not found: it expired, was already read, or Redis lost it (a restart without persistence).`,
    );
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
 * jobs, so an event missed during a reconnect only delays a result. While Redis is away the waits
 * hold (a failed read is no outcome) and every pending job is read as soon as it is back; the
 * handle's link ends them with a 503 once the outage outlasts its bound.
 */
class ResultWaiter {
  private readonly pending = new Map<string, Set<(r: ParseResult | Error) => void>>();
  private readonly listeners = new Map<string, Set<(p: ParseProgress) => void>>();
  private events: QueueEvents | undefined;
  /** QueueEvents' own blocking connection: BullMQ leaves a connection it is handed open. */
  private readonly connection: RedisClient;
  /** Resolves once every event added to the stream from now on will be heard. */
  readonly ready: Promise<void>;
  private sweep: NodeJS.Timeout | undefined;
  private closed = false;
  private subscribed = false;
  private readonly unhook: () => void;

  constructor(
    private readonly q: ParseQueue,
    url: string,
  ) {
    this.connection = redisConnection(url, true);
    this.ready = this.subscribe();
    this.ready.catch(() => undefined);
    // Back after an outage: read what completed meanwhile now, not at the next sweep.
    const onUp = () => this.checkAll();
    const onDown = (err: Error) => this.failAll(err);
    q.link.on('up', onUp);
    q.link.on('outage', onDown);
    q.link.on('refused', onDown);
    this.unhook = () => {
      q.link.off('up', onUp);
      q.link.off('outage', onDown);
      q.link.off('refused', onDown);
    };
  }

  /**
   * QueueEvents reads from `$` by default, which BullMQ resolves only when its first XREAD runs:
   * events between "ready" and that read would be lost. Starting at the stream's current last
   * entry leaves no gap, so a job enqueued after `ready` has all its progress heard.
   */
  private async subscribe(): Promise<void> {
    const eventsKey = this.q.queue.keys.events as string;
    // Redis unreachable: `$` still works once it is back, only without that guarantee, rather
    // than a failed subscription that every later wait would inherit.
    const last = await this.q.link
      .whenUp()
      .then(() => this.q.redis.xrevrange(eventsKey, '+', '-', 'COUNT', 1))
      .catch(() => undefined);
    if (this.closed) return;
    const events = new QueueEvents(this.q.names.name, {
      connection: this.connection,
      ...(this.q.names.prefix ? { prefix: this.q.names.prefix } : {}),
      lastEventId: last === undefined ? '$' : (last[0]?.[0] ?? '0-0'),
      autorun: false,
    });
    this.events = events;
    events.on('error', () => undefined);
    const settle = ({ jobId }: { jobId: string }) => {
      if (this.pending.has(jobId)) void this.check(jobId);
    };
    events.on('completed', settle);
    events.on('failed', settle);
    // The worker writes progress before it completes the job, and the events stream keeps that
    // order: a listener hears the last report before its wait resolves.
    events.on('progress', ({ jobId, data }) => {
      if (!isParseProgress(data)) return;
      for (const listener of this.listeners.get(jobId) ?? []) {
        try {
          listener(data);
        } catch {
          // The caller's callback: a broken progress bar must not stop the events for other jobs.
        }
      }
    });
    void events.run().catch(() => undefined);
    await events.waitUntilReady();
    this.subscribed = true;
  }

  /**
   * The timeout and the signal hold from the call on, not from when the subscription is ready: with
   * Redis unreachable it may never be, and the caller's deadline must still answer.
   */
  wait(jobId: string, timeoutMs: number, opts: WaitOptions): Promise<ParseResult> {
    const { signal } = opts;
    // Its own function per wait: two waits for one job may pass the same callback.
    const onProgress = opts.onProgress && ((p: ParseProgress) => opts.onProgress?.(p));
    return new Promise<ParseResult>((resolve, reject) => {
      if (signal?.aborted) return reject(abortError(signal));
      if (this.closed) return reject(new Error(`Queue closed while waiting for ${jobId}.`));
      const down = this.q.link.failure;
      if (down) return reject(down);
      let settled = false;
      const timer = setTimeout(
        () => done(new DocmillError(408, 'SCRAPE_TIMEOUT', `No result for job ${jobId} within ${timeoutMs} ms.`)),
        timeoutMs,
      );
      const onAbort = () => done(abortError(signal as AbortSignal));
      signal?.addEventListener('abort', onAbort, { once: true });
      if (onProgress) {
        const listeners = this.listeners.get(jobId) ?? new Set();
        listeners.add(onProgress);
        this.listeners.set(jobId, listeners);
      }
      const done = (r: ParseResult | Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        removeFrom(this.listeners, jobId, onProgress);
        removeFrom(this.pending, jobId, done);
        if (this.pending.size === 0 && this.sweep) {
          clearInterval(this.sweep);
          this.sweep = undefined;
        }
        if (r instanceof Error) reject(r);
        else resolve(r);
      };
      // Pending at once, so that close() and the link settle a wait held up by an absent Redis.
      const set = this.pending.get(jobId) ?? new Set();
      set.add(done);
      this.pending.set(jobId, set);
      // Reads while Redis is away would only fail: the sweep skips them, the link's 'up' reads.
      this.sweep ??= setInterval(() => {
        if (this.q.link.up) this.checkAll();
      }, 1000);
      // The job may have finished already.
      if (this.q.link.up) void this.check(jobId);
    });
  }

  private checkAll(): void {
    for (const id of this.pending.keys()) void this.check(id);
  }

  private failAll(err: Error): void {
    for (const set of [...this.pending.values()]) for (const done of [...set]) done(err);
  }

  private async check(jobId: string): Promise<void> {
    const losses = this.q.link.losses;
    let outcome: ParseResult | Error | undefined;
    try {
      outcome = await readOutcome(this.q, jobId);
    } catch (err) {
      // Redis went away during the read: no outcome yet; it is read again once Redis is back.
      if (!this.q.link.up || this.q.link.losses !== losses) return;
      outcome = err as Error;
    }
    if (outcome === undefined) return;
    for (const done of [...(this.pending.get(jobId) ?? [])]) done(outcome);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.unhook();
    if (this.sweep) clearInterval(this.sweep);
    this.sweep = undefined;
    for (const [id, set] of this.pending)
      for (const done of [...set]) done(new Error(`Queue closed while waiting for ${id}.`));
    // Not awaiting `ready`: with Redis unreachable the subscription never gets there. A blocked
    // XREAD, or a connection still retrying, would also hold quit(): this one only reads events.
    this.connection.disconnect();
    // BullMQ's close first awaits the connection's readiness, forever if it never came, and
    // waits for Redis if it went away since.
    if (this.subscribed && this.q.link.up) await this.events?.close().catch(() => undefined);
    else void this.events?.close().catch(() => undefined);
  }
}

/** An aborted signal's reason as the Error a wait rejects with. */
export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error(String(reason));
}

function removeFrom<K, V>(map: Map<K, Set<V>>, key: K, value: V | undefined): void {
  if (value === undefined) return;
  const set = map.get(key);
  set?.delete(value);
  if (set?.size === 0) map.delete(key);
}
