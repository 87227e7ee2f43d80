import { DocmillError, type Engine, type ParseData, type ParseHints, type ParseInput } from '@docmill/core';
import { enqueueParse, type ParseQueue, waitForResult } from './client.ts';

/** Room for queueing and transfer on top of the parse's own `timeout` before the caller gives up. */
const WAIT_MARGIN_MS = 60_000;

/**
 * An Engine-shaped adapter whose `parse` runs on the queue's workers: give it to `createApp` and
 * HTTP replicas stop parsing themselves. Results and errors are the workers' (a failed job's error
 * body becomes the same DocmillError the engine would have thrown).
 */
export function queueEngine(q: ParseQueue): Pick<Engine, 'parse'> {
  return {
    async parse(input: ParseInput, options = {}, hints: ParseHints = {}): Promise<ParseData> {
      const bytes = await toBytes(input);
      const { filename, contentType, sourceURL, password } = hints;
      const id = await enqueueParse(q, bytes, options, {
        ...(filename ? { filename } : {}),
        ...(contentType ? { contentType } : {}),
        ...(sourceURL ? { sourceURL } : {}),
        ...(password ? { password } : {}),
      });
      const waiting = waitForResult(q, id, (options.timeout ?? 30_000) + WAIT_MARGIN_MS);
      // The caller's deadline (the HTTP server's) answers now; the worker still bounds the job itself.
      const result = hints.signal ? await raceSignal(waiting, hints.signal) : await waiting;
      if (result.success) return result.data;
      throw new DocmillError(statusOf(result.code), result.code, result.error, {
        ...(result.details ? { details: result.details } : {}),
      });
    },
  };
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

function raceSignal<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
