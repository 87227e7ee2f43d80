import type { ParseData, ParseHints, ParseOptions } from '@docmill/core';
import type { Ctx, Services } from './context.ts';
import { type Admission, deadlineError } from './limits.ts';

/**
 * Takes a parse slot before the body is read, so that uploads (up to 51 MB each) and fetched pages
 * are only held in memory for admitted requests: memory is bounded by `concurrency`, and waiting
 * requests stay unread on their connection. The page quota is checked first, the queue may refuse
 * with 429, and the slot is always released.
 */
export async function withSlot<T>(c: Ctx, s: Services, work: (slot: Admission) => Promise<T>): Promise<T> {
  s.quotas.check(c.get('keyId') ?? 'anonymous', c.get('pageQuota'));
  const slot = await s.gate.admit(c.req.raw.signal);
  try {
    return await work(slot);
  } finally {
    slot.release();
  }
}

/** A deadline for the `timeout` option, counted from `startedAt`, that also fires when the client goes away. */
export function deadline(c: Ctx, timeoutMs: number, startedAt: number) {
  const controller = new AbortController();
  const left = Math.max(0, timeoutMs - (Date.now() - startedAt));
  const timer = setTimeout(() => controller.abort(deadlineError(timeoutMs)), left);
  return {
    signal: AbortSignal.any([controller.signal, c.req.raw.signal]),
    /** The 408 when our own deadline fired; whatever the engine threw otherwise. */
    reason: (err: unknown) => (controller.signal.aborted ? controller.signal.reason : err),
    expired: () => Date.now() - startedAt > timeoutMs,
    clear: () => clearTimeout(timer),
  };
}

/** One parse inside a slot: cancellation, the deadline, page accounting and the queue facts. */
export async function parseInSlot(
  c: Ctx,
  s: Services,
  slot: Admission,
  bytes: Uint8Array,
  options: ParseOptions,
  timeoutMs: number,
  hints: Omit<ParseHints, 'signal'>,
): Promise<ParseData> {
  const d = deadline(c, timeoutMs, slot.startedAt);
  try {
    const data = await s.engine.parse(bytes, options, { ...hints, signal: d.signal });
    // An in-process engine can hold the event loop past the deadline in one synchronous step, so
    // the timer only fires afterwards: the contract still says 408 (a worker pool avoids the wait).
    if (d.expired()) throw deadlineError(timeoutMs);
    const pages = typeof data.metadata.numPages === 'number' ? data.metadata.numPages : 1;
    c.set('pages', pages);
    s.quotas.add(c.get('keyId') ?? 'anonymous', pages);
    if (slot.queuedMs > 0) {
      data.metadata.concurrencyLimited = true;
      data.metadata.concurrencyQueueDurationMs = slot.queuedMs;
    }
    return data;
  } catch (err) {
    throw d.reason(err);
  } finally {
    d.clear();
  }
}
