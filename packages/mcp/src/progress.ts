import { type ParseProgress, throttleProgress } from '@docmill/core';
import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';

/** Gap between two progress notifications of one call (each stage's first and last report go at once). */
export const PROGRESS_INTERVAL_MS = 250;

export interface ProgressForwarder {
  onProgress: ((p: ParseProgress) => void) | undefined;
  /** Drops what is held back and waits for sent notifications, so none follows the result. */
  end(): Promise<void>;
}

/**
 * The engine's progress reports as MCP `notifications/progress` for the call's progress token.
 * MCP requires the progress value to grow with each notification, and a parse reports stage after
 * stage (pages read, then pages OCR'd), each counting from 0: a stage's count is added to the
 * totals of the stages before it.
 */
export function forwardProgress(
  token: string | number | undefined,
  send: (n: ServerNotification) => Promise<void>,
): ProgressForwarder {
  if (token === undefined) return { onProgress: undefined, end: async () => {} };
  let stage: string | undefined;
  let base = 0;
  let stageTotal = 0;
  let last = -1;
  const throttle = throttleProgress(async (p) => {
    if (p.stage !== stage) {
      if (stage !== undefined) base += stageTotal;
      stage = p.stage;
    }
    stageTotal = p.total;
    const progress = base + p.done;
    if (progress <= last) return;
    last = progress;
    await send({
      method: 'notifications/progress',
      params: {
        progressToken: token,
        progress,
        total: base + p.total,
        message: `${p.stage === 'parse' ? 'reading' : p.stage}: ${p.done} of ${p.total} ${p.unit}`,
      },
    });
  }, PROGRESS_INTERVAL_MS);
  return {
    onProgress: (p) => throttle.report(p),
    async end() {
      throttle.close();
      await throttle.flush();
    },
  };
}
