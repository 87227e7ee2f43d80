import { DocmillError, type ErrorCode, type Offload, type ParseProgress, type PasswordProblem } from '@docmill/core';

/**
 * The typed protocol across the worker seam. Tasks are modules named by URL; a worker imports a
 * task module once and calls its `run` for every request. Errors cross as plain records and are
 * rebuilt on the calling side, so a `DocmillError` thrown in a worker is a `DocmillError` again
 * (with its status and code) where the caller catches it.
 */

/** What a task's progress callback receives: core's ParseHints.onProgress report. */
export type Progress = ParseProgress;
export type ProgressCallback = (p: Progress) => void;

export interface TaskContext {
  /** Forwards progress to the caller, across the seam when there is one. */
  onProgress?: ProgressCallback | undefined;
  /** Idle workers of the pool that runs this task, for units of its work (see RunOptions.lend). */
  offload?: Offload | undefined;
}

/** A task module exports `run`; its input and result must survive structured clone. */
export interface TaskModule<I = unknown, O = unknown> {
  run(input: I, ctx: TaskContext): O | Promise<O>;
}

export interface WireError {
  name: string;
  message: string;
  status?: number;
  code?: string;
  /** A DocmillError's password marker (a missing or wrong password). */
  password?: PasswordProblem;
}

export type Outcome = { ok: true; value: unknown } | { ok: false; error: WireError };

/** The pool's side of `TaskContext.offload`, called across the seam by the task it lends to. */
export interface Lender {
  /** Starts task module `url` on `input` in an idle worker: an id, or null when none is idle. */
  start(url: string, input: unknown): Promise<number | null>;
  /** How a started task ended (errors as records, so a DocmillError stays one). */
  outcome(id: number): Promise<Outcome>;
}

/** A task's `offload` over its pool's lender. */
export function offloadVia(lender: Lender): Offload {
  return async (task, input) => {
    const id = await lender.start(task, input);
    if (id === null) return null;
    const result = lender.outcome(id).then((out) => {
      if (!out.ok) throw fromWire(out.error);
      return out.value;
    });
    // Awaited by the caller; a caller that fails first must not leave an unhandled rejection.
    result.catch(() => undefined);
    return { result };
  };
}

/** A task's outcome as a worker reports it, with the worker's memory after the task. */
export type WorkerOutcome = Outcome & { memory?: number | undefined };

/**
 * Memory the calling thread holds: its JS heap plus what lives outside it (ArrayBuffers,
 * WebAssembly memories, which never shrink). Per thread in a Node worker; undefined where the
 * runtime cannot tell (browsers).
 */
export function threadMemory(): number | undefined {
  const proc = (globalThis as { process?: { memoryUsage?: () => { heapTotal: number; external: number } } }).process;
  const m = proc?.memoryUsage?.();
  return m ? m.heapTotal + m.external : undefined;
}

/** What a worker exposes through comlink. */
export interface WorkerApi {
  run(url: string, input: unknown, onProgress?: ProgressCallback, lender?: Lender): Promise<WorkerOutcome>;
  /** Imports a module ahead of the first task (warm start, or a runtime that must load first). */
  preload(url: string): Promise<void>;
}

export function toWire(err: unknown): WireError {
  if (err instanceof DocmillError) {
    const wire: WireError = { name: err.name, message: err.message, status: err.status, code: err.code };
    if (err.password) wire.password = err.password;
    return wire;
  }
  if (err instanceof Error) return { name: err.name, message: err.message };
  return { name: 'Error', message: String(err) };
}

export function fromWire(w: WireError): DocmillError {
  if (w.name === 'DocmillError' && typeof w.status === 'number' && w.code) {
    return new DocmillError(
      w.status,
      w.code as ErrorCode,
      w.message,
      w.password ? { password: w.password } : undefined,
    );
  }
  return new DocmillError(500, 'UNKNOWN_ERROR', `An unexpected error occurred in a worker. ${w.message}`.trim());
}

const modules = new Map<string, Promise<unknown>>();
const known = new Map<string, () => Promise<unknown>>();

/**
 * Names modules a worker can load without a URL. A bundled browser app has no module files at
 * run time: its worker entry lists the tasks (and stage modules) it carries as static imports
 * under ids such as `docmill:ocr`, and the pool is given those ids in place of URLs.
 */
export function registerModules(loaders: Record<string, () => Promise<unknown>>): void {
  for (const [id, load] of Object.entries(loaders)) known.set(id, load);
}

/** Imports a module once per thread: a registered id, or else a URL. */
export function loadModule<T>(url: string): Promise<T> {
  let m = modules.get(url);
  if (!m) {
    const load = known.get(url);
    m = load ? load() : import(/* @vite-ignore */ url);
    modules.set(url, m);
    m.catch(() => modules.delete(url));
  }
  return m as Promise<T>;
}

/** Imports a task module once per thread. */
export function loadTask(url: string): Promise<TaskModule> {
  return loadModule<TaskModule>(url);
}

/** Runs one task and turns any failure into an `Outcome`: the same path in a worker and in-thread. */
export async function runTask(
  url: string,
  input: unknown,
  onProgress?: ProgressCallback,
  offload?: Offload,
): Promise<Outcome> {
  try {
    const mod = await loadTask(url);
    if (typeof mod.run !== 'function') throw new Error(`Task module ${url} exports no run function.`);
    return { ok: true, value: await mod.run(input, { onProgress, ...(offload ? { offload } : {}) }) };
  } catch (err) {
    return { ok: false, error: toWire(err) };
  }
}
