import { DocmillError } from './errors.ts';
import { joinBytes } from './util/bytes.ts';

export type ParseInput = Uint8Array | ArrayBuffer | Blob | ReadableStream<Uint8Array>;

const tooLarge = (max: number) =>
  new DocmillError(400, 'BAD_REQUEST', `Uploaded file exceeds maximum size of ${Math.round(max / (1024 * 1024))}MB.`);

/** Reads any accepted input into bytes, refusing more than `max` without buffering the excess. */
export async function readInput(input: ParseInput, max: number, signal?: AbortSignal): Promise<Uint8Array> {
  if (input instanceof Uint8Array) {
    if (input.byteLength > max) throw tooLarge(max);
    // A Node Buffer is a Uint8Array subclass that pdf.js refuses; a plain view shares its memory.
    return input.constructor === Uint8Array ? input : new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  }
  if (input instanceof ArrayBuffer) {
    if (input.byteLength > max) throw tooLarge(max);
    return new Uint8Array(input);
  }
  if (typeof Blob !== 'undefined' && input instanceof Blob) {
    if (input.size > max) throw tooLarge(max);
    return new Uint8Array(await input.arrayBuffer());
  }
  if (input && typeof (input as ReadableStream).getReader === 'function') {
    const reader = (input as ReadableStream<Uint8Array>).getReader();
    const chunks: Uint8Array[] = [];
    let total = 0;
    try {
      for (;;) {
        if (signal?.aborted) throw signal.reason;
        const { done, value } = await reader.read();
        if (done) break;
        total += value.byteLength;
        if (total > max) throw tooLarge(max);
        chunks.push(value);
      }
    } finally {
      reader.releaseLock();
    }
    return joinBytes(chunks);
  }
  throw new DocmillError(400, 'BAD_REQUEST', 'Missing file upload: expected bytes, a Blob or a ReadableStream.');
}
