import { badInput, throwIfAborted } from '../errors.ts';
import { InflateLimitError, loadInflateRaw } from '../platform/inflate.ts';

/**
 * Inflates raw DEFLATE data (no zlib header) that does not come from a zip entry the zip reader
 * inflates itself, with the same inflater (`platform/inflate.ts`), stopping as soon as the output
 * would pass `cap` bytes: an encrypted OpenDocument part is deflated first, then encrypted; a part
 * a zip was cut inside is inflated as far as it goes (`upToCut`: what the data gives before it ends
 * or turns bad is returned instead of the error).
 */
export async function inflateRaw(
  data: Uint8Array,
  cap: number,
  what: string,
  signal?: AbortSignal,
  upToCut = false,
): Promise<Uint8Array> {
  throwIfAborted(signal);
  const inflate = await loadInflateRaw();
  try {
    return inflate(data, cap, upToCut);
  } catch (err) {
    if (err instanceof InflateLimitError)
      throw badInput(`${what} inflates past its declared size or the unzip budget.`);
    throw badInput(`${what} is damaged (its compressed data does not inflate).`, err);
  }
}
