import { DocmillError } from '@docmill/core';
import * as Comlink from 'comlink';
import {
  fromWire,
  type Lender,
  type Outcome,
  type ProgressCallback,
  runTask,
  toWire,
  type WorkerOutcome,
} from './protocol.ts';
import type { Spawn, SpawnedWorker } from './spawn.ts';

export interface PoolOptions {
  /** Workers in the pool. Default: available cores − 1, at least 1. 0 runs tasks in-thread. */
  size?: number;
  /** Requests allowed to wait for a worker; one more is refused with 503. Default 256. */
  maxQueue?: number;
  /** Task registry: name → module URL (a module exporting `run(input, ctx)`). */
  tasks?: Record<string, string | URL>;
  /**
   * Modules every worker imports before its first task, in order. A runtime that must be loaded
   * once per thread before anything else (onnxruntime-node for the PII stage) goes here.
   */
  preload?: (string | URL)[];
  /** Platform hook (tests inject crashing workers). Default: worker_threads in Node, Web Workers elsewhere. */
  spawn?: Spawn;
  /**
   * High-water mark of a worker's memory (its JS heap plus ArrayBuffers and WebAssembly memory,
   * which never shrinks): a worker above it after a task is retired and replaced. Default 1 GiB;
   * `Infinity` keeps workers whatever they hold. Where a worker cannot report its memory
   * (browsers) it is kept.
   */
  maxWorkerMemoryBytes?: number;
}

/** Default high-water mark of a worker's memory (see `PoolOptions.maxWorkerMemoryBytes`). */
export const DEFAULT_MAX_WORKER_MEMORY_BYTES = 1024 * 1024 * 1024;

export interface RunOptions {
  /** Aborting terminates the worker running the task (it is replaced) and rejects with the reason. */
  signal?: AbortSignal | undefined;
  onProgress?: ProgressCallback | undefined;
  /** Buffers moved (not copied) into the worker. */
  transfer?: Transferable[] | undefined;
  /**
   * Lets the task hand units of its work (`TaskContext.offload`) to workers that are idle while no
   * request waits: one long document then uses the whole pool. A lent unit shares the task's signal.
   */
  lend?: boolean | undefined;
}

export interface TaskResult<T> {
  value: T;
  /** The request found every worker busy and waited in the queue. */
  queued: boolean;
  queuedMs: number;
}

export interface PoolStats {
  size: number;
  busy: number;
  queued: number;
  started: number;
  /** Workers ended for holding more memory than `maxWorkerMemoryBytes` after a task. */
  retired: number;
}

export interface Pool {
  readonly size: number;
  register(name: string, url: string | URL): void;
  run<T>(task: string, input: unknown, options?: RunOptions): Promise<TaskResult<T>>;
  stats(): PoolStats;
  /** Ends every worker; waiting and running tasks fail. */
  close(): Promise<void>;
}

interface Slot {
  worker: Promise<SpawnedWorker> | undefined;
  busy: boolean;
  /** Fails the running task (pool closing). */
  cancel: ((err: unknown) => void) | undefined;
}

interface Waiter {
  grant(slot: Slot): void;
  fail(err: unknown): void;
}

export function defaultPoolSize(): number {
  const nav = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator;
  let cores = nav?.hardwareConcurrency;
  const proc = globalThis.process as (NodeJS.Process & { getBuiltinModule?: (id: string) => unknown }) | undefined;
  if (!cores && typeof proc?.getBuiltinModule === 'function') {
    const os = proc.getBuiltinModule('node:os') as typeof import('node:os') | undefined;
    cores = os?.availableParallelism?.();
  }
  return Math.max(1, (cores ?? 2) - 1);
}

const busyError = (max: number) =>
  new DocmillError(
    503,
    'UNKNOWN_ERROR',
    `The engine is at capacity: ${max} requests are already waiting. Retry later.`,
  );
const closedError = () => new DocmillError(500, 'UNKNOWN_ERROR', 'The worker pool is closed.');
const lenderGone = () => new DocmillError(500, 'UNKNOWN_ERROR', 'The task that lent this unit of work has ended.');

/**
 * A fixed set of lazily started workers driven through comlink. One task runs per worker at a
 * time; requests beyond the pool wait in a bounded FIFO queue. A task whose signal fires takes its
 * worker down with it (a wasm loop cannot be interrupted any other way); a worker that dies fails
 * only its own task. Either way the slot starts a fresh worker for the next task. `platformSpawn`
 * is the entry's default (worker_threads from the Node entry, Web Workers from the browser one).
 */
export function makePool(options: PoolOptions, platformSpawn: Spawn): Pool {
  const size = Math.max(0, Math.floor(options.size ?? defaultPoolSize()));
  const maxQueue = options.maxQueue ?? 256;
  const spawn = options.spawn ?? platformSpawn;
  const preload = (options.preload ?? []).map(String);
  const maxMemory = options.maxWorkerMemoryBytes ?? DEFAULT_MAX_WORKER_MEMORY_BYTES;
  const tasks = new Map<string, string>();
  for (const [k, v] of Object.entries(options.tasks ?? {})) tasks.set(k, String(v));
  const slots: Slot[] = Array.from({ length: size }, () => ({ worker: undefined, busy: false, cancel: undefined }));
  const queue: Waiter[] = [];
  let started = 0;
  let retired = 0;
  let closed = false;
  let inThreadBusy = 0;

  function acquire(signal: AbortSignal | undefined): { slot: Slot } | Promise<Slot> {
    const free = slots.find((s) => !s.busy);
    if (free) {
      free.busy = true;
      return { slot: free };
    }
    if (queue.length >= maxQueue) throw busyError(maxQueue);
    return new Promise<Slot>((resolve, reject) => {
      const onAbort = () => {
        const i = queue.indexOf(waiter);
        if (i >= 0) queue.splice(i, 1);
        reject(signal?.reason);
      };
      const waiter: Waiter = {
        grant(slot) {
          signal?.removeEventListener('abort', onAbort);
          resolve(slot);
        },
        fail(err) {
          signal?.removeEventListener('abort', onAbort);
          reject(err);
        },
      };
      queue.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** A slot for lent work: only a free one, and never while requests wait (they come first). */
  function idleSlot(): Slot | undefined {
    if (closed || queue.length) return undefined;
    const free = slots.find((s) => !s.busy);
    if (free) free.busy = true;
    return free;
  }

  /**
   * The lender a task run with `lend` calls back: units start on idle slots, their outcomes are
   * kept until read. Units share the owner's signal and never outlive the owner: `end` (called when
   * the owner's run settles, however it ends) aborts any unit still running, which frees its slot.
   */
  function lenderFor(owner: AbortSignal | undefined): { lender: Lender; end(): void } {
    const outcomes = new Map<number, Promise<Outcome>>();
    const units = new AbortController();
    const follow = () => units.abort(owner?.reason);
    owner?.addEventListener('abort', follow, { once: true });
    if (owner?.aborted) follow();
    let ids = 0;
    const lender: Lender = {
      async start(url, input) {
        if (units.signal.aborted) return null;
        const slot = idleSlot();
        if (!slot) return null;
        const id = ++ids;
        const done = execute(slot, url, input, { signal: units.signal }).then(
          (value): Outcome => ({ ok: true, value }),
          (err: unknown): Outcome => ({ ok: false, error: toWire(err) }),
        );
        outcomes.set(
          id,
          done.finally(() => release(slot)),
        );
        return id;
      },
      async outcome(id) {
        const out = outcomes.get(id);
        outcomes.delete(id);
        return out ?? { ok: false, error: toWire(new Error(`No lent task ${id}.`)) };
      },
    };
    return {
      lender,
      end() {
        owner?.removeEventListener('abort', follow);
        if (!units.signal.aborted) units.abort(lenderGone());
      },
    };
  }

  function release(slot: Slot): void {
    const next = queue.shift();
    if (next) next.grant(slot);
    else slot.busy = false;
  }

  function workerOf(slot: Slot): Promise<SpawnedWorker> {
    if (!slot.worker) {
      started++;
      const w = spawn().then(async (sw) => {
        for (const url of preload) await sw.api.preload(url);
        return sw;
      });
      w.catch(() => {
        if (slot.worker === w) slot.worker = undefined;
      });
      slot.worker = w;
    }
    return slot.worker;
  }

  /** Drops a slot's worker (after a timeout or crash); the next task on the slot starts a new one. */
  function discard(slot: Slot, w: SpawnedWorker): void {
    if (slot.worker) slot.worker = undefined;
    w.terminate().catch(() => undefined);
  }

  async function execute(slot: Slot, url: string, input: unknown, opts: RunOptions): Promise<unknown> {
    const { signal } = opts;
    if (signal?.aborted) throw signal.reason;
    const w = await workerOf(slot);
    if (signal?.aborted) throw signal.reason;
    const lending = opts.lend ? lenderFor(signal) : undefined;
    return new Promise<unknown>((resolve, reject) => {
      let settled = false;
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        slot.cancel = undefined;
        unsubscribe();
        signal?.removeEventListener('abort', onAbort);
        lending?.end();
        fn();
      };
      const onAbort = () =>
        settle(() => {
          discard(slot, w);
          reject(signal?.reason);
        });
      signal?.addEventListener('abort', onAbort, { once: true });
      slot.cancel = (err) => settle(() => reject(err));
      const unsubscribe = w.onCrash((reason) =>
        settle(() => {
          discard(slot, w);
          reject(new DocmillError(500, 'UNKNOWN_ERROR', `A worker crashed while parsing (${reason}).`));
        }),
      );
      const payload = opts.transfer?.length ? Comlink.transfer(input, opts.transfer) : input;
      const progress = opts.onProgress ? Comlink.proxy(opts.onProgress) : undefined;
      const lender = lending ? Comlink.proxy(lending.lender) : undefined;
      w.api.run(url, payload, progress, lender).then(
        (out: WorkerOutcome) =>
          settle(() => {
            // Memory a task left behind (wasm memory never shrinks) goes with the worker; the
            // answer is delivered all the same and the slot starts a fresh worker next time.
            if (out.memory !== undefined && out.memory > maxMemory) {
              retired++;
              discard(slot, w);
            }
            if (out.ok) resolve(out.value);
            else reject(fromWire(out.error));
          }),
        (err: unknown) =>
          settle(() => {
            discard(slot, w);
            reject(
              new DocmillError(
                500,
                'UNKNOWN_ERROR',
                `A worker stopped answering (${err instanceof Error ? err.message : String(err)}).`,
              ),
            );
          }),
      );
    });
  }

  async function runInThread(url: string, input: unknown, opts: RunOptions): Promise<TaskResult<unknown>> {
    // The no-worker fallback takes the same task path; a deadline can only stop waiting for it.
    if (opts.signal?.aborted) throw opts.signal.reason;
    inThreadBusy++;
    try {
      const aborted = new Promise<never>((_, reject) =>
        opts.signal?.addEventListener('abort', () => reject(opts.signal?.reason), { once: true }),
      );
      aborted.catch(() => undefined);
      const out = await Promise.race([runTask(url, input, opts.onProgress), aborted]);
      if (!out.ok) throw fromWire(out.error);
      return { value: out.value, queued: false, queuedMs: 0 };
    } finally {
      inThreadBusy--;
    }
  }

  return {
    size,
    register(name, url) {
      tasks.set(name, String(url));
    },
    async run<T>(task: string, input: unknown, opts: RunOptions = {}): Promise<TaskResult<T>> {
      if (closed) throw closedError();
      const url = tasks.get(task);
      if (!url)
        throw new DocmillError(500, 'UNKNOWN_ERROR', `No task named "${task}" is registered in the worker pool.`);
      if (size === 0) return (await runInThread(url, input, opts)) as TaskResult<T>;
      const t0 = performance.now();
      const got = acquire(opts.signal);
      const queued = got instanceof Promise;
      const slot = queued ? await got : got.slot;
      const queuedMs = queued ? Math.round(performance.now() - t0) : 0;
      try {
        return { value: (await execute(slot, url, input, opts)) as T, queued, queuedMs };
      } finally {
        release(slot);
      }
    },
    stats() {
      return {
        size,
        busy: slots.filter((s) => s.busy).length + inThreadBusy,
        queued: queue.length,
        started,
        retired,
      };
    },
    async close() {
      closed = true;
      for (const w of queue.splice(0)) w.fail(closedError());
      await Promise.all(
        slots.map(async (s) => {
          const w = s.worker;
          s.worker = undefined;
          s.cancel?.(closedError());
          if (w) await (await w.catch(() => undefined))?.terminate();
        }),
      );
    },
  };
}
