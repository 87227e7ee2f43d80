import {
  DocmillError,
  type Engine,
  normalizeOptions,
  type ParseData,
  type ParseProgress,
  toDocmillError,
} from '@docmill/core';
import { type Job, UnrecoverableError, WaitingError, Worker } from 'bullmq';
import { CANCELLED, CANCELLED_BODY, cancelKey, watchCancels } from './cancel.ts';
import { endConnection, redisConnection } from './connection.ts';
import {
  decodeBytes,
  type JobError,
  jobError,
  type ParseJobData,
  type ParseResult,
  type QueueNames,
  resultKey,
  type StoredMarker,
} from './job.ts';
import { PROGRESS_INTERVAL_MS, type ProgressThrottle, throttleProgress } from './progress.ts';
import { clusterNamesProblem } from './redis-url.ts';

/** One record per finished attempt; never document content, and no file name under zero data retention. */
export interface JobLog {
  msg: 'job';
  time: string;
  jobId: string;
  attempt: number;
  status: number;
  code?: string;
  bytes: number;
  pages?: number;
  durationMs: number;
  filename?: string;
}

export interface ParseWorkerOptions extends QueueNames {
  /** `redis://host:port[/db]`, `rediss://` for TLS, or `redis-cluster://host:port,host:port` for a Redis Cluster. */
  redis: string;
  /** Anything with the core Engine's `parse`: in-process, a worker pool, another adapter. */
  engine: Pick<Engine, 'parse'>;
  /** Jobs this process runs at once (BullMQ's own concurrency). Default 1. */
  concurrency?: number;
  /** How long a worker's lock on a job lasts without renewal; a killed worker's jobs return after it. Default 30 s. */
  lockDuration?: number;
  /** How often this worker looks for stalled jobs of dead workers. Default 30 s. */
  stalledInterval?: number;
  /** How long an unread zero-data-retention result waits before Redis drops it. Default 1 h. */
  resultTtlSeconds?: number;
  /**
   * Least gap between two progress reports a job writes to Redis (the last one always goes out).
   * Default 250 ms; 0 sends every report of the engine.
   */
  progressIntervalMs?: number;
  log?: (record: JobLog) => void;
}

export interface ParseWorker {
  readonly worker: Worker<ParseJobData, ParseResult | StoredMarker>;
  /** Jobs running in this process now. */
  readonly inFlight: number;
  /**
   * Stops taking jobs and resolves within `graceMs` (default 30 s), whatever Redis does. In-flight
   * jobs may finish until `handBackMs(graceMs)` before that; those still running then are stopped
   * and moved back to the waiting list, so another worker takes them. A worker that runs nothing
   * while Redis is away closes at once; one whose Redis stays away drops its connections at
   * `graceMs`, and the jobs it could not hand back return to the queue when their locks expire.
   */
  close(graceMs?: number): Promise<void>;
}

const SHUTDOWN = Symbol('shutdown');

/** The end of a shutdown kept for stopping the jobs still running and handing them back: 2 s, a quarter of a shorter one. */
export function handBackMs(graceMs: number): number {
  return Math.min(2_000, graceMs / 4);
}

/**
 * Starts a BullMQ worker that runs parse jobs on `engine`. Rejects at once for a Redis Cluster URL
 * with a prefix that lacks a hash tag: such a worker would start and never take a job.
 */
export async function startParseWorker(opts: ParseWorkerOptions): Promise<ParseWorker> {
  const problem = clusterNamesProblem(opts.redis, opts);
  if (problem) throw new TypeError(problem);
  const names: QueueNames = { name: opts.name, ...(opts.prefix ? { prefix: opts.prefix } : {}) };
  const ttl = opts.resultTtlSeconds ?? 3600;
  const connection = redisConnection(opts.redis, true);
  const running = new Map<string, AbortController>();

  /** Three parameters: BullMQ hands a processor an abort signal only if it declares one (`length`). */
  async function process(
    job: Job<ParseJobData>,
    token: string | undefined,
    cancel: AbortSignal | undefined,
  ): Promise<ParseResult | StoredMarker> {
    const t0 = performance.now();
    const data = job.data;
    const id = job.id as string;
    const attempt = job.attemptsMade + 1;
    const zdr = data.zeroDataRetention;
    // Cancelled before it started, or while an earlier attempt's worker was dying.
    if (await connection.exists(cancelKey(names, id))) {
      return cancelled(job, { t0, attempt, bytes: 0, zdr });
    }
    if (data.bytes === undefined) {
      // A zero-data-retention job whose first attempt died: its bytes left Redis when it started.
      return fail(job, { status: 500, body: noBytes }, { t0, attempt, bytes: 0, zdr }, true);
    }
    const bytes = decodeBytes(data.bytes);
    if (zdr) await job.updateData({ options: data.options, hints: {}, zeroDataRetention: true });
    const controller = new AbortController();
    running.set(id, controller);
    const stop = cancel ? AbortSignal.any([controller.signal, cancel]) : controller.signal;
    // Progress is job state in Redis (BullMQ's own), which clients hear through QueueEvents.
    const progress = throttleProgress(
      (p) => job.updateProgress({ ...p }),
      opts.progressIntervalMs ?? PROGRESS_INTERVAL_MS,
    );
    const m: Measure = { t0, attempt, bytes: bytes.byteLength, zdr };
    try {
      const parsed = await runParse(opts.engine, bytes, data, stop, progress.report);
      // The last report reaches the events stream before the completion does.
      await endProgress(progress);
      // A cancel whose message this worker missed (its subscriber was reconnecting), or that came
      // as the parse ended: the client asked for no result, so none is stored or returned.
      if (await connection.exists(cancelKey(names, id))) return cancelled(job, m);
      const result: ParseResult = { success: true, data: parsed };
      opts.log?.(record(job, m, 200, undefined, pages(parsed)));
      return zdr ? store(id, result) : result;
    } catch (err) {
      await endProgress(progress);
      if (stop.reason === SHUTDOWN) {
        // Graceful shutdown ran out of time: give the job back, with its bytes, for another worker.
        if (zdr) await job.updateData(data);
        await job.moveToWait(token);
        throw new WaitingError();
      }
      if (stop.reason === CANCELLED) return cancelled(job, m);
      const e = toDocmillError(err);
      return fail(job, { status: e.status, body: jobError(e) }, m, false);
    } finally {
      running.delete(id);
    }
  }

  /**
   * A cancelled job fails at once, without a retry, and its bytes leave Redis whether or not the
   * client is still there to remove the job.
   */
  async function cancelled(job: Job<ParseJobData>, m: Measure): Promise<never> {
    const { options, hints, zeroDataRetention } = job.data;
    await job.updateData({ options, hints: zeroDataRetention ? {} : hints, zeroDataRetention });
    opts.log?.(record(job, m, 499, 'CANCELLED'));
    throw new UnrecoverableError(JSON.stringify(CANCELLED_BODY));
  }

  async function store(id: string, result: ParseResult): Promise<StoredMarker> {
    await connection.set(resultKey(names, id), JSON.stringify(result), 'EX', ttl);
    return { stored: true, success: result.success };
  }

  /**
   * Request errors (4xx, timeouts) are final at once; unknown errors are retried up to the job's
   * `attempts`, and the last one keeps its error body as `failedReason`.
   */
  async function fail(
    job: Job<ParseJobData>,
    err: { status: number; body: JobError },
    m: Measure,
    forceFinal: boolean,
  ): Promise<never> {
    opts.log?.(record(job, m, err.status, err.body.code));
    const final = forceFinal || err.status < 500 || m.attempt >= (job.opts.attempts ?? 1);
    let reason = JSON.stringify(err.body);
    if (m.zdr && final) {
      await store(job.id as string, err.body);
      reason = JSON.stringify({ stored: true, success: false });
    }
    throw final ? new UnrecoverableError(reason) : new Error(reason);
  }

  function record(job: Job<ParseJobData>, m: Measure, status: number, code?: string, pageCount?: number): JobLog {
    const filename = m.zdr ? undefined : job.data.hints?.filename;
    return {
      msg: 'job',
      time: new Date().toISOString(),
      jobId: job.id as string,
      attempt: m.attempt,
      status,
      ...(code ? { code } : {}),
      bytes: m.bytes,
      ...(pageCount !== undefined ? { pages: pageCount } : {}),
      durationMs: Math.round(performance.now() - m.t0),
      ...(filename ? { filename } : {}),
    };
  }

  const worker = new Worker<ParseJobData, ParseResult | StoredMarker>(opts.name, process, {
    connection,
    ...(opts.prefix ? { prefix: opts.prefix } : {}),
    concurrency: opts.concurrency ?? 1,
    ...(opts.lockDuration ? { lockDuration: opts.lockDuration } : {}),
    ...(opts.stalledInterval ? { stalledInterval: opts.stalledInterval } : {}),
    // Errors surface per job; without a listener BullMQ's EventEmitter would throw on 'error'.
    autorun: false,
  });
  worker.on('error', () => undefined);
  // BullMQ aborts the job's processor signal if this worker runs it, and ignores other ids.
  let cancels: { close(): void } | undefined;
  try {
    cancels = await watchCancels(opts.redis, names, (jobId) => worker.cancelJob(jobId, CANCELLED));
    void worker.run().catch(() => undefined);
    await worker.waitUntilReady();
  } catch (err) {
    // A refused start (a wrong password) must not leave connections open behind the error. Not
    // awaited: BullMQ's close first waits for a readiness that may never come.
    cancels?.close();
    void worker.close(true).catch(() => undefined);
    connection.disconnect();
    throw err;
  }
  const watching = cancels;

  return {
    worker,
    get inFlight() {
      return running.size;
    },
    async close(graceMs = 30_000) {
      const t0 = performance.now();
      const stopJobs = setTimeout(() => {
        for (const c of running.values()) c.abort(SHUTDOWN);
      }, graceMs - handBackMs(graceMs));
      let deadline: NodeJS.Timeout | undefined;
      const closing = worker.close().then(
        () => true,
        () => true,
      );
      // BullMQ's close waits for Redis (its blocking read, the jobs' last writes) for ever; an
      // idle worker with Redis away has nothing to wait for.
      const idleAndDown = running.size === 0 && connection.status !== 'ready';
      const closed =
        idleAndDown ||
        (await Promise.race([
          closing,
          new Promise<false>((resolve) => {
            deadline = setTimeout(() => resolve(false), graceMs);
          }),
        ]));
      clearTimeout(stopJobs);
      clearTimeout(deadline);
      watching.close();
      if (closed && !idleAndDown) {
        await endConnection(connection, Math.max(0, graceMs - (performance.now() - t0)));
        return;
      }
      // Given up on Redis: drop every connection, BullMQ's own blocking one included.
      for (const c of running.values()) c.abort(SHUTDOWN);
      void worker.disconnect().catch(() => undefined);
      connection.disconnect();
    },
  };
}

interface Measure {
  t0: number;
  attempt: number;
  bytes: number;
  zdr: boolean;
}

const noBytes = {
  success: false as const,
  code: 'UNKNOWN_ERROR' as const,
  error:
    'The job was interrupted after its document was removed from Redis (zeroDataRetention); submit the document again.',
};

/**
 * Sends the held report and closes the throttle before awaiting the sends: a report the engine
 * makes while they settle would otherwise be written after the attempt's outcome.
 */
function endProgress(progress: ProgressThrottle): Promise<void> {
  const sent = progress.flush();
  progress.close();
  return sent;
}

const pages = (d: ParseData) => (typeof d.metadata.numPages === 'number' ? d.metadata.numPages : 1);

/**
 * The engine's own `timeout` option bounds the job; the race also holds it for an engine that
 * ignores the signal (a remote or pooled one), so a job never outlives its limit. `stop` is the
 * worker's: shutdown past its grace, or the client's cancel.
 */
async function runParse(
  engine: Pick<Engine, 'parse'>,
  bytes: Uint8Array,
  data: ParseJobData,
  stop: AbortSignal,
  onProgress: (p: ParseProgress) => void,
): Promise<ParseData> {
  const { timeout } = normalizeOptions(data.options);
  const deadline = new AbortController();
  const timer = setTimeout(
    () =>
      deadline.abort(
        new DocmillError(408, 'SCRAPE_TIMEOUT', `Parsing did not finish within the ${timeout} ms timeout.`),
      ),
    timeout,
  );
  const signal = AbortSignal.any([deadline.signal, stop]);
  const aborted = new Promise<never>((_, reject) => {
    const onAbort = () => reject(stop.aborted ? stop.reason : signal.reason);
    // A cancel can land between the job's start and here.
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => undefined);
  try {
    return await Promise.race([engine.parse(bytes, data.options, { ...data.hints, signal, onProgress }), aborted]);
  } finally {
    clearTimeout(timer);
  }
}
