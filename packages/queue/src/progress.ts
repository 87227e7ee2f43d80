import type { ParseProgress } from '@docmill/core';

/** Default gap between two progress writes of one job: a 600-page PDF costs tens of writes, not 600. */
export const PROGRESS_INTERVAL_MS = 250;

export interface ProgressThrottle {
  report(p: ParseProgress): void;
  /** Sends the event still held back (the last one) and resolves once every send has settled. */
  flush(): Promise<void>;
  /**
   * Ends the throttle: the held report and its timer are dropped and later reports are no-ops. An
   * engine that ignores its abort signal may report after its attempt ended, and those writes
   * would land on a job that has failed, been retried or been handed to another worker.
   */
  close(): void;
}

/**
 * Thins a parse's progress events before they become Redis writes. The first event of each stage,
 * its end (`done === total`) and its last event before the next stage starts go out at once; in
 * between, at most one event per `intervalMs`, always the newest. Sends run one after
 * another so that clients see them in order, and a failed send is dropped: progress is best effort
 * and must never fail a parse.
 */
export function throttleProgress(
  send: (p: ParseProgress) => Promise<unknown>,
  intervalMs = PROGRESS_INTERVAL_MS,
): ProgressThrottle {
  let lastAt = Number.NEGATIVE_INFINITY;
  let stage: string | undefined;
  let pending: ParseProgress | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let chain: Promise<unknown> = Promise.resolve();
  let closed = false;

  const emit = (p: ParseProgress) => {
    pending = undefined;
    if (timer) clearTimeout(timer);
    timer = undefined;
    lastAt = performance.now();
    chain = chain.then(() => send(p)).catch(() => undefined);
  };

  return {
    report(p) {
      if (closed) return;
      const newStage = p.stage !== stage;
      if (newStage && pending) emit(pending);
      stage = p.stage;
      const since = performance.now() - lastAt;
      if (newStage || since >= intervalMs || p.done >= p.total) {
        emit(p);
        return;
      }
      pending = p;
      timer ??= setTimeout(() => {
        if (pending) emit(pending);
      }, intervalMs - since);
    },
    async flush() {
      if (pending) emit(pending);
      await chain;
    },
    close() {
      closed = true;
      pending = undefined;
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}

const UNITS = new Set(['pages', 'slides', 'sheets', 'parts']);

/** Progress read back from Redis is someone else's JSON: only well-formed events reach a callback. */
export function isParseProgress(x: unknown): x is ParseProgress {
  if (typeof x !== 'object' || x === null) return false;
  const p = x as Record<string, unknown>;
  return (
    typeof p.stage === 'string' &&
    typeof p.done === 'number' &&
    typeof p.total === 'number' &&
    typeof p.unit === 'string' &&
    UNITS.has(p.unit)
  );
}
