import type { ParseData, ParseHints, ParseOptions } from '@docmill/core';
import type { Ctx, Services } from './context.ts';
import { type Admission, deadlineError } from './limits.ts';

/**
 * Runs a request that carries a document (an upload, or a page to fetch) inside an upload slot:
 * the body is read, or the page fetched, only once admitted, so waiting requests stay unread on
 * their connection and what is held in memory is bounded by `maxUploads`. The page quota is
 * checked first; the queue may refuse with 429; the slot is always released. `work` gets the
 * admission, whose `queuedMs` the parse slot adds to.
 */
export async function withUpload<T>(c: Ctx, s: Services, work: (upload: Admission) => Promise<T>): Promise<T> {
  s.quotas.check(c.get('keyId') ?? 'anonymous', c.get('pageQuota'));
  const upload = await s.uploads.admit(c.req.raw.signal);
  try {
    return await work(upload);
  } finally {
    upload.release();
  }
}

/**
 * Takes a parse slot for a request whose document is in hand: a slow client never holds one. The
 * slot's `queuedMs` counts the wait for the upload slot too.
 */
export async function withSlot<T>(
  c: Ctx,
  s: Services,
  upload: Admission,
  work: (slot: Admission) => Promise<T>,
): Promise<T> {
  const slot = await s.gate.admit(c.req.raw.signal);
  try {
    return await work({ ...slot, queuedMs: slot.queuedMs + upload.queuedMs });
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

/**
 * One parse inside a slot: cancellation, the deadline (from `startedAt`: the parse slot's grant,
 * or earlier when the time to fetch the document counts too), page accounting and the queue facts.
 */
export async function parseInSlot(
  c: Ctx,
  s: Services,
  slot: Admission,
  bytes: Uint8Array,
  options: ParseOptions,
  timeoutMs: number,
  hints: Omit<ParseHints, 'signal'>,
  startedAt = slot.startedAt,
): Promise<ParseData> {
  const d = deadline(c, timeoutMs, startedAt);
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
