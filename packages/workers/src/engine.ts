import {
  DEFAULT_LIMITS,
  DocmillError,
  type Engine,
  type Limits,
  type LlmConfig,
  normalizeOptions,
  type ParseData,
  type ParseHints,
  type ParseInput,
  type ParseOptions,
  readInput,
  type TreeResult,
  timeoutError,
  toDocmillError,
} from '@docmill/core';
import type { Pool, PoolOptions } from './pool.ts';
import type { ProgressCallback } from './protocol.ts';

/** A stage built inside each worker by a module exporting `createStage(options)`. */
export interface StageModule {
  url: string | URL;
  /** Must survive structured clone. */
  options?: unknown;
}

export interface PooledEngineConfig {
  /** Documents parsed at once, each in its own worker. Default: available cores − 1, at least 1. */
  workers?: number;
  /** Requests that may wait for a worker before new ones are refused with 503. Default 256. */
  maxQueue?: number;
  limits?: Partial<Limits>;
  /** OpenAI-compatible endpoint for `summary`/`json`, used by the workers' engines (plain data). */
  llm?: LlmConfig;
  /** Stages (OCR, PII) for the workers' engines, in order. */
  stages?: StageModule[];
  /** Modules each worker imports before its first task (see PoolOptions.preload). */
  preload?: (string | URL)[];
  /** Use this pool instead of creating one (it must have the "parse" task registered; `close` leaves it running). */
  pool?: Pool;
  /** A worker holding more after a document is replaced (see PoolOptions.maxWorkerMemoryBytes; default 1 GiB). */
  maxWorkerMemoryBytes?: number;
}

export interface ParseTaskInput {
  mode: 'parse' | 'tree';
  bytes: Uint8Array;
  options: unknown;
  hints: { filename?: string; contentType?: string; sourceURL?: string; password?: string };
  config: { limits: Partial<Limits>; stages: { url: string; options?: unknown }[]; llm?: LlmConfig };
}

type Hints = ParseHints & { onProgress?: ProgressCallback };

/**
 * The engine interface with every document parsed in a pool worker, so several documents parse at
 * once. Requests over capacity wait in the pool's bounded queue; those that waited say so in
 * `metadata.concurrencyLimited` / `concurrencyQueueDurationMs`. The request's `timeout` (and the
 * caller's signal) end the worker running it.
 */
export function makePooledEngine(
  config: PooledEngineConfig,
  platform: { createPool(options: PoolOptions): Pool; parseTask: string },
): Engine & { readonly pool: Pool } {
  const { createPool } = platform;
  const ownPool = !config.pool;
  const pool =
    config.pool ??
    createPool({
      ...(config.workers !== undefined ? { size: config.workers } : {}),
      ...(config.maxQueue !== undefined ? { maxQueue: config.maxQueue } : {}),
      ...(config.preload ? { preload: config.preload } : {}),
      ...(config.maxWorkerMemoryBytes !== undefined ? { maxWorkerMemoryBytes: config.maxWorkerMemoryBytes } : {}),
    });
  pool.register('parse', platform.parseTask);
  const limits: Limits = { ...DEFAULT_LIMITS, ...config.limits };
  const taskConfig: ParseTaskInput['config'] = {
    limits: config.limits ?? {},
    stages: (config.stages ?? []).map((s) => ({ url: String(s.url), options: s.options })),
    ...(config.llm ? { llm: config.llm } : {}),
  };
  let closed = false;

  async function send<T extends ParseData | TreeResult>(
    mode: ParseTaskInput['mode'],
    input: ParseInput,
    options: ParseOptions | undefined,
    hints: Hints,
  ): Promise<T> {
    if (closed) throw new DocmillError(500, 'UNKNOWN_ERROR', 'The engine is closed.');
    // Validated here too, so a bad request is refused without waiting for a worker.
    const { timeout } = normalizeOptions(options ?? {});
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(timeoutError(timeout)), timeout);
    const onCallerAbort = () =>
      controller.abort(
        hints.signal?.reason instanceof DocmillError
          ? hints.signal.reason
          : new DocmillError(408, 'SCRAPE_TIMEOUT', 'Parsing was aborted by the caller.'),
      );
    hints.signal?.addEventListener('abort', onCallerAbort, { once: true });
    if (hints.signal?.aborted) onCallerAbort();
    try {
      const read = await readInput(input, limits.maxInputBytes, controller.signal);
      // The worker gets its own copy, moved rather than cloned. Bytes read from a Blob or a stream
      // are ours already; a Uint8Array (a Node Buffer, perhaps a slice of Node's shared pool) or an
      // ArrayBuffer is the caller's memory, which moving would detach under the caller's feet.
      const callers = input instanceof Uint8Array || input instanceof ArrayBuffer;
      const bytes = callers ? read.slice() : read;
      const fileName = hints.filename ?? (input as { name?: unknown }).name;
      const contentType = hints.contentType ?? (typeof Blob !== 'undefined' && input instanceof Blob ? input.type : '');
      const task: ParseTaskInput = {
        mode,
        bytes,
        options: options ?? {},
        hints: {
          ...(typeof fileName === 'string' ? { filename: fileName } : {}),
          ...(contentType ? { contentType } : {}),
          ...(hints.sourceURL ? { sourceURL: hints.sourceURL } : {}),
          ...(hints.password ? { password: hints.password } : {}),
        },
        config: taskConfig,
      };
      const r = await pool.run<T>('parse', task, {
        signal: controller.signal,
        onProgress: hints.onProgress,
        transfer: [bytes.buffer as ArrayBuffer],
        lend: true,
      });
      if (r.queued) {
        const meta = 'tree' in r.value ? r.value.tree.metadata : r.value.metadata;
        meta.concurrencyLimited = true;
        meta.concurrencyQueueDurationMs = r.queuedMs;
      }
      return r.value;
    } catch (err) {
      throw toDocmillError(err);
    } finally {
      clearTimeout(timer);
      hints.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  return {
    pool,
    parse: (input, options, hints = {}) => send<ParseData>('parse', input, options, hints),
    parseTree: (input, options, hints = {}) => send<TreeResult>('tree', input, options, hints),
    async close() {
      closed = true;
      if (ownPool) await pool.close();
    },
  };
}
