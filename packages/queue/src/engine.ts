import { DocmillError, type Engine, type ParseData, type ParseHints, type ParseInput } from '@docmill/core';
import { cancelParse } from './cancel.ts';
import { abortError, enqueueParse, type ParseQueue, waitForResult } from './client.ts';

/** Room for queueing and transfer on top of the parse's own `timeout` before the caller gives up. */
const WAIT_MARGIN_MS = 60_000;

/**
 * An Engine-shaped adapter whose `parse` runs on the queue's workers: give it to `createApp` and
 * HTTP replicas stop parsing themselves. Results and errors are the workers' (a failed job's error
 * body becomes the same DocmillError the engine would have thrown). `hints.onProgress` hears the
 * worker's progress; an aborted `hints.signal` cancels the job on the queue, not only the wait.
 */
export function queueEngine(q: ParseQueue): Pick<Engine, 'parse'> {
  return {
    async parse(input: ParseInput, options = {}, hints: ParseHints = {}): Promise<ParseData> {
      hints.signal?.throwIfAborted();
      const bytes = await toBytes(input);
      const { filename, contentType, sourceURL, password, signal, onProgress } = hints;
      const waitMs = (options.timeout ?? 30_000) + WAIT_MARGIN_MS;
      // Redis may be unreachable, and then neither the subscription nor the job's addition ever
      // settles: the caller's signal and the wait's own budget bound them too.
      const giveUp = AbortSignal.any([...(signal ? [signal] : []), AbortSignal.timeout(waitMs)]);
      // Subscribed before the job exists, so no progress report is missed.
      if (onProgress) await settleBy(q.listen(), giveUp);
      // The caller may have gone while we subscribed: no job for nobody.
      signal?.throwIfAborted();
      const adding = enqueueParse(q, bytes, options, {
        ...(filename ? { filename } : {}),
        ...(contentType ? { contentType } : {}),
        ...(sourceURL ? { sourceURL } : {}),
        ...(password ? { password } : {}),
      });
      const id = await settleBy(adding, giveUp).catch((err: unknown) => {
        // Given up while the job was being added: if it gets added after all, it is cancelled.
        adding.then((late) => cancelParse(q, late)).catch(() => undefined);
        throw err;
      });
      // The caller's deadline (the HTTP server's) answers now; the job is removed or its worker
      // stops it in the background, so the caller does not wait for that either.
      const onAbort = () => void cancelParse(q, id).catch(() => undefined);
      // Aborted while the job was being added: cancel it now, the wait below rejects at once.
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
      let result: Awaited<ReturnType<typeof waitForResult>>;
      try {
        result = await waitForResult(q, id, waitMs, {
          ...(signal ? { signal } : {}),
          ...(onProgress ? { onProgress } : {}),
        });
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
      if (result.success) return result.data;
      throw new DocmillError(statusOf(result.code), result.code, result.error, {
        ...(result.details ? { details: result.details } : {}),
        ...(result.password ? { password: result.password } : {}),
      });
    },
  };
}

/** `p`, unless `signal` aborts first: then its reason, a lapsed budget as the contract's 408. */
function settleBy<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      const reason: unknown = signal.reason;
      if (reason instanceof DOMException && reason.name === 'TimeoutError') {
        reject(new DocmillError(408, 'SCRAPE_TIMEOUT', 'The parse queue did not answer in time.'));
      } else reject(abortError(signal));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function statusOf(code: string): number {
  if (code === 'SCRAPE_TIMEOUT') return 408;
  if (code === 'UNKNOWN_ERROR') return 500;
  return 400;
}

async function toBytes(input: ParseInput): Promise<Uint8Array> {
  if (input instanceof Uint8Array) return input;
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  return new Uint8Array(await new Response(input as Blob | ReadableStream<Uint8Array>).arrayBuffer());
}
