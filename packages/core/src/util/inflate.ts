import { badInput, DocmillError, throwIfAborted } from '../errors.ts';
import { joinBytes } from './bytes.ts';

/**
 * Inflates raw DEFLATE data (no zlib header) with the platform's DecompressionStream, stopping as
 * soon as the output would pass `cap` bytes, so a hostile stream cannot fill memory. For parts the zip
 * reader cannot inflate itself: an encrypted OpenDocument part is deflated first, then encrypted; a
 * part a zip was cut inside is inflated as far as it goes (`upToCut`: what came out before the data
 * ended or turned bad is returned instead of the error).
 */
export async function inflateRaw(
  data: Uint8Array,
  cap: number,
  what: string,
  signal?: AbortSignal,
  upToCut = false,
): Promise<Uint8Array> {
  const stream = new Blob([data as Uint8Array<ArrayBuffer>])
    .stream()
    .pipeThrough(new DecompressionStream('deflate-raw'));
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      throwIfAborted(signal);
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > cap) throw badInput(`${what} inflates past its declared size or the unzip budget.`);
      chunks.push(value);
    }
  } catch (err) {
    await reader.cancel().catch(() => undefined);
    if (signal?.aborted || err instanceof DocmillError) throw err;
    if (!upToCut || !total) throw badInput(`${what} is damaged (its compressed data does not inflate).`, err);
  }
  return joinBytes(chunks);
}
