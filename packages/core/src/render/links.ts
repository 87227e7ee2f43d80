import type { Root } from '../tree/types.ts';
import { walk } from '../tree/walk.ts';
import { isScriptUrl } from '../util/script-url.ts';

/** Absolute, de-duplicated link targets in document order; fragment-only links dropped, mailto kept. */
export function collectLinks(tree: Root, base?: string): string[] {
  const out = new Set<string>();
  walk(tree, (n) => {
    if (n.type === 'link') {
      const abs = absolutize(n.href, base);
      if (abs) out.add(abs);
    }
    return undefined;
  });
  return [...out];
}

/** Image URLs (absolute where a base is known); data URIs dropped when base64 images are removed. */
export function collectImages(tree: Root, opts: { removeBase64Images: boolean; base?: string | undefined }): string[] {
  const out = new Set<string>();
  walk(tree, (n) => {
    if (n.type === 'image' && n.url) {
      if (n.url.startsWith('data:')) {
        if (!opts.removeBase64Images) out.add(n.url);
      } else {
        const abs = absolutize(n.url, opts.base);
        if (abs) out.add(abs);
      }
    }
    return undefined;
  });
  return [...out];
}

export function absolutize(href: string, base?: string): string | undefined {
  const h = href.trim();
  if (!h || h.startsWith('#') || isScriptUrl(h)) return undefined;
  try {
    return new URL(h, base).href;
  } catch {
    // Relative link without a base: keep it as written rather than lose it.
    return /^[a-z][a-z0-9+.-]*:/i.test(h) || !base ? h : undefined;
  }
}
