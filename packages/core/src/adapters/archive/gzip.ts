import { badInput, throwIfAborted } from '../../errors.ts';
import type { Limits } from '../../limits.ts';
import { joinBytes } from '../../util/bytes.ts';
import { RATIO_CHECK_FROM } from '../../util/zip.ts';

/**
 * gzip inflated with the platform's DecompressionStream (Node and browsers), metered: it stops
 * past `maxUnzippedBytes`, or past RATIO_CHECK_FROM bytes at more than `maxCompressionRatio`
 * times the compressed size, the zip rules applied to a stream.
 */
export async function gunzip(bytes: Uint8Array, limits: Limits, signal?: AbortSignal): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream('gzip'));
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      let step: ReadableStreamReadResult<Uint8Array>;
      try {
        step = await reader.read();
      } catch (err) {
        // A damaged or cut stream: keep what inflated cleanly, if anything.
        if (total > 0) break;
        throw badInput(`The gzip data is damaged: ${(err as Error).message}`, err);
      }
      if (step.done) break;
      total += step.value.length;
      if (total > limits.maxUnzippedBytes)
        throw badInput(`The gzip data inflates past ${limits.maxUnzippedBytes} bytes: refusing a likely bomb.`);
      if (total > RATIO_CHECK_FROM && total / bytes.length > limits.maxCompressionRatio)
        throw badInput(
          `The gzip data expands more than ${limits.maxCompressionRatio}× (limit maxCompressionRatio): refusing a likely bomb.`,
        );
      chunks.push(step.value);
      throwIfAborted(signal);
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
  return joinBytes(chunks);
}
