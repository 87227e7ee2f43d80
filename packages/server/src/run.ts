import type { ParseData, ParseHints, ParseOptions } from '@docmill/core';
import type { Ctx, Services } from './context.ts';
import { deadlineError } from './limits.ts';

/**
 * Runs one parse for a request: quota check, a slot in the gate, a deadline that counts the queue
 * wait against the `timeout` option, cancellation when the client goes away, page accounting.
 */
export async function runParse(
  c: Ctx,
  s: Services,
  bytes: Uint8Array,
  options: ParseOptions,
  timeoutMs: number,
  hints: Omit<ParseHints, 'signal'>,
  /** When the request's clock started (scrape spends part of the timeout fetching). */
  started = Date.now(),
): Promise<ParseData> {
  const keyId = c.get('keyId') ?? 'anonymous';
  s.quotas.check(keyId, c.get('pageQuota'));
  const deadline = new AbortController();
  const left = Math.max(0, timeoutMs - (Date.now() - started));
  const timer = setTimeout(() => deadline.abort(deadlineError(timeoutMs)), left);
  const signal = AbortSignal.any([deadline.signal, c.req.raw.signal]);
  try {
    const admission = await s.gate.admit(signal);
    try {
      const data = await s.engine.parse(bytes, options, { ...hints, signal });
      // An in-process engine can hold the event loop past the deadline in one synchronous step, so
      // the timer only fires afterwards: the contract still says 408 (a worker pool avoids the wait).
      if (Date.now() - started > timeoutMs) throw deadlineError(timeoutMs);
      const pages = typeof data.metadata.numPages === 'number' ? data.metadata.numPages : 1;
      c.set('pages', pages);
      s.quotas.add(keyId, pages);
      if (admission.queuedMs > 0) {
        data.metadata.concurrencyLimited = true;
        data.metadata.concurrencyQueueDurationMs = admission.queuedMs;
      }
      return data;
    } finally {
      admission.release();
    }
  } catch (err) {
    // Whichever fired first decides: our deadline is a 408 even if the engine saw a plain abort.
    if (deadline.signal.aborted) throw deadline.signal.reason;
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
