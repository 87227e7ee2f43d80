import { throwIfAborted } from '../../errors.ts';
import type { Image } from '../../tree/types.ts';
import type { SafeZip } from '../../util/zip.ts';
import type { AdapterContext } from '../types.ts';

const INLINEABLE = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/svg+xml', 'image/webp', 'image/bmp']);
/** Pictures larger than this stay references: a data URI that size helps no reader. */
const MAX_INLINE_BYTES = 8 * 1024 * 1024;

function base64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/**
 * When the caller keeps base64 images, embedded pictures become data URIs; otherwise they keep
 * their zip path in `ref` and the renderer prints the removal placeholder.
 */
export async function inlineImages(images: Image[], zip: SafeZip, ctx: AdapterContext): Promise<void> {
  if (ctx.options.removeBase64Images) return;
  const cache = new Map<string, string | undefined>();
  for (const img of images) {
    if (img.url || !img.ref || !INLINEABLE.has(img.mime ?? '')) continue;
    throwIfAborted(ctx.signal);
    if (!cache.has(img.ref)) {
      const bytes = await zip.bytes(img.ref).catch(() => undefined);
      cache.set(
        img.ref,
        bytes && bytes.length <= MAX_INLINE_BYTES ? `data:${img.mime};base64,${base64(bytes)}` : undefined,
      );
    }
    const url = cache.get(img.ref);
    if (url) img.url = url;
  }
}
