import { badRequest } from './errors.ts';

/**
 * Counts body bytes as they arrive and fails the stream as soon as the count passes `max`, so an
 * oversized upload without (or with a lying) Content-Length is cut off instead of buffered whole.
 */
export function countBytes(body: ReadableStream<Uint8Array>, max: number, onOver: () => void) {
  const counter = { bytes: 0 };
  const stream = body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        counter.bytes += chunk.byteLength;
        if (counter.bytes > max) {
          onOver();
          controller.error(new Error('body limit'));
        } else controller.enqueue(chunk);
      },
    }),
  );
  return { stream, counter };
}

/** Reads a JSON object body of at most `maxBytes`, counted as it streams. */
export async function readJsonBody(request: Request, maxBytes: number): Promise<Record<string, unknown>> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\b/i.test(type)) throw badRequest('Send a JSON body with Content-Type: application/json.');
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  const tooBig = () => badRequest(`The JSON body exceeds ${maxBytes} bytes.`);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooBig();
  if (!request.body) throw badRequest('The request body is empty.');
  let over = false;
  const { stream } = countBytes(request.body, maxBytes, () => {
    over = true;
  });
  let text: string;
  try {
    text = await new Response(stream).text();
  } catch {
    throw over ? tooBig() : badRequest('The request body could not be read.');
  }
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
