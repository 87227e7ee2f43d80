import type { ParseProgress, ProgressUnit } from '../adapters/types.ts';

/**
 * Wraps the caller's progress callback for one stage. The callback is the host's code running in
 * the middle of our parse: whatever it throws is dropped, so a broken progress bar cannot fail
 * or corrupt a document.
 */
export function progressReporter(
  onProgress: ((p: ParseProgress) => void) | undefined,
  stage: string,
): ((done: number, total: number, unit: ProgressUnit) => void) | undefined {
  if (!onProgress) return undefined;
  return (done, total, unit) => {
    try {
      onProgress({ stage, done, total, unit });
    } catch {
      // Deliberately ignored: see above.
    }
  };
}

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
 * Thins a parse's progress events before they cross a wire (Redis writes, MCP notifications). The
 * first event of each stage, its end (`done === total`) and its last event before the next stage
 * starts go out at once; in between, at most one event per `intervalMs`, always the newest. Sends
 * run one after another so that clients see them in order, and a failed send is dropped: progress
 * is best effort and must never fail a parse.
 */
export function throttleProgress(send: (p: ParseProgress) => Promise<unknown>, intervalMs = 250): ProgressThrottle {
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
