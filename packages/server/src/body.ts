import { DocmillError } from '@docmill/core';
import { badRequest } from './errors.ts';

/** How a request body must arrive: its size limit and the pace it must keep. */
export interface BodyRules {
  maxBytes: number;
  /** Longest pause between two pieces of the body, and the grace before `minBytesPerSecond` counts. */
  timeoutMs: number;
  /** After the first `timeoutMs`, bytes received must average at least this rate. */
  minBytesPerSecond: number;
}

/** A chunk larger than this is handed on in slices with a turn of the event loop between them. */
const SLICE_BYTES = 256 * 1024;

export const bodyTimeoutError = (rules: BodyRules): DocmillError =>
  new DocmillError(
    408,
    'SCRAPE_TIMEOUT',
    `The request body arrived too slowly: it may pause at most ${rules.timeoutMs} ms and, after the first ` +
      `${rules.timeoutMs} ms, must average at least ${rules.minBytesPerSecond} bytes/s.`,
  );

const turn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Reads a body piece by piece into `take`, under its size limit and pace: a client that stalls,
 * or trickles slower than the minimum rate, gets 408 at once instead of holding what it was given
 * until Node's 300 s request timeout. `take` runs per piece, never on more than 256 KB at a time.
 */
export async function readBody(
  request: Request,
  rules: BodyRules,
  take: (chunk: Uint8Array) => void,
  tooBig: () => Error,
): Promise<number> {
  const body = request.body;
  if (!body) return 0;
  const reader = body.getReader();
  const started = Date.now();
  let last = started;
  let received = 0;
  let expired = false;
  let finished = false;
  // Each arrival pushes both deadlines back; the timer re-checks when it fires rather than being re-armed per chunk.
  const due = () =>
    Math.min(last + rules.timeoutMs, started + rules.timeoutMs + (received / rules.minBytesPerSecond) * 1000);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    timer = setTimeout(
      () => {
        if (Date.now() < due()) return arm();
        expired = true;
        reader.cancel().catch(() => undefined);
      },
      Math.max(1, due() - Date.now()),
    );
  };
  arm();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (expired) throw bodyTimeoutError(rules);
      if (done) {
        finished = true;
        return received;
      }
      received += value.byteLength;
      last = Date.now();
      if (received > rules.maxBytes) throw tooBig();
      for (let at = 0; at < value.byteLength; at += SLICE_BYTES) {
        if (at > 0) await turn();
        take(at === 0 && value.byteLength <= SLICE_BYTES ? value : value.subarray(at, at + SLICE_BYTES));
      }
    }
  } catch (err) {
    if (expired) throw bodyTimeoutError(rules);
    throw err;
  } finally {
    clearTimeout(timer);
    // What the client still sends is read and dropped by the Node adapter for a short while,
    // then the connection is closed: closing at once, with unread bytes, would reset it before
    // the client had read the answer.
    if (!finished) reader.cancel().catch(() => undefined);
  }
}

/** Reads a JSON object body of at most `rules.maxBytes`, counted and paced as it streams. */
export async function readJsonBody(request: Request, rules: BodyRules): Promise<Record<string, unknown>> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\b/i.test(type)) throw badRequest('Send a JSON body with Content-Type: application/json.');
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  const tooBig = () => badRequest(`The JSON body exceeds ${rules.maxBytes} bytes.`);
  if (Number.isFinite(declared) && declared > rules.maxBytes) throw tooBig();
  if (!request.body) throw badRequest('The request body is empty.');
  const decoder = new TextDecoder();
  let text = '';
  try {
    await readBody(
      request,
      rules,
      (chunk) => {
        text += decoder.decode(chunk, { stream: true });
      },
      tooBig,
    );
  } catch (err) {
    throw err instanceof DocmillError ? err : badRequest('The request body could not be read.');
  }
  text += decoder.decode();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest('Invalid JSON in the request body.');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest('The request body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}
