import { DocmillError, throwIfAborted } from '../../errors.ts';
import type { FormatType } from '../../options/schema.ts';
import { section } from '../../tree/build.ts';
import type { Block, Image, Section } from '../../tree/types.ts';
import { blockText, walk } from '../../tree/walk.ts';
import type { SafeZip } from '../../util/zip.ts';
import type { AdapterContext } from '../types.ts';
import { type EpubPackage, resolvePath, type SpineEntry } from './package.ts';

/**
 * Spine documents → chapter sections. Each XHTML document goes through the HTML adapter (with the
 * page-chrome heuristics off: in a book, `<header>` and `<nav>`-like markup hold real content).
 */

const CONTENT_TYPES = new Set(['application/xhtml+xml', 'text/html', 'application/html', 'text/xml']);
/** Pictures inlined as data URIs only up to this size (removeBase64Images: false). */
const MAX_INLINE_IMAGE = 8 << 20;

const IMAGE_MIME: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  webp: 'image/webp',
};

/**
 * Reading order: linear spine items first, then the `linear="no"` ones (covers, notes, answer keys
 * that reading systems show out of the flow) so their text is kept without interrupting the book.
 */
export function readingOrder(pkg: EpubPackage): SpineEntry[] {
  const isContent = (e: SpineEntry) =>
    !pkg.navPaths.has(e.item.path) && !e.item.properties.includes('nav') && CONTENT_TYPES.has(e.item.mediaType);
  const content = pkg.spine.filter(isContent);
  return [...content.filter((e) => e.linear), ...content.filter((e) => !e.linear)];
}

function base64(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/** Relative picture sources point into the zip: keep them as references (or data URIs when asked). */
async function fixImages(blocks: Block[], chapterPath: string, zip: SafeZip, ctx: AdapterContext): Promise<void> {
  const images: Image[] = [];
  for (const b of blocks)
    walk(b, (n) => {
      if (n.type === 'image') images.push(n);
      return undefined;
    });
  for (const img of images) {
    const url = img.url ?? '';
    if (!url || /^[a-z][a-z0-9+.-]*:/i.test(url)) continue;
    const path = resolvePath(chapterPath, url);
    const mime = IMAGE_MIME[path.split('.').pop()?.toLowerCase() ?? ''];
    delete img.url;
    img.ref = path;
    if (mime) img.mime = mime;
    if (!ctx.options.removeBase64Images && mime && zip.has(path)) {
      const bytes = await zip.bytes(path).catch(() => undefined);
      if (bytes && bytes.length <= MAX_INLINE_IMAGE) {
        img.url = `data:${mime};base64,${base64(bytes)}`;
        delete img.ref;
      }
    }
  }
}

function firstHeading(blocks: Block[]): string | undefined {
  for (const b of blocks) {
    if (b.type === 'heading') return blockText(b).replace(/\s+/g, ' ').trim() || undefined;
    if (b.type === 'section' || b.type === 'blockquote') {
      const inner = firstHeading(b.children);
      if (inner) return inner;
    }
  }
  return undefined;
}

export async function readChapters(pkg: EpubPackage, zip: SafeZip, ctx: AdapterContext): Promise<Section[]> {
  const html = (await import('../html/index.ts')).adapter;
  // Chapters need only their tree: no per-chapter `html` serialization or link harvesting.
  const chapterOptions = {
    ...ctx.options,
    formats: new Set<FormatType>(),
    onlyMainContent: false,
    includeTags: [],
    excludeTags: [],
  };
  // Books share one or two stylesheets across every chapter: read each once.
  const sheets = new Map<string, Promise<string | undefined>>();
  const sheetAt = (path: string) => {
    let sheet = sheets.get(path);
    if (!sheet) {
      sheet = zip.has(path) ? zip.text(path).catch(() => undefined) : Promise.resolve(undefined);
      sheets.set(path, sheet);
    }
    return sheet;
  };
  const out: Section[] = [];
  let failed = 0;
  const order = readingOrder(pkg);
  for (const [k, entry] of order.entries()) {
    throwIfAborted(ctx.signal);
    ctx.progress?.(k, order.length, 'parts');
    const path = entry.item.path;
    let blocks: Block[];
    try {
      const bytes = await zip.bytes(path);
      if (!bytes) {
        ctx.warn(`EPUB chapter "${path}" is listed in the spine but missing from the archive; skipped.`);
        failed++;
        continue;
      }
      const res = await html.parse(bytes, {
        ...ctx,
        kind: 'html',
        filename: path,
        sourceURL: undefined,
        options: chapterOptions,
        stylesheet: (href) =>
          /^[a-z][a-z0-9+.-]*:/i.test(href) ? Promise.resolve(undefined) : sheetAt(resolvePath(path, href)),
      });
      blocks = res.tree.children;
    } catch (err) {
      // One damaged chapter should not cost the rest of the book; a timeout still stops everything.
      if (!(err instanceof DocmillError) || err.status !== 400) throw err;
      ctx.warn(`EPUB chapter "${path}" could not be read (${err.message}); skipped.`);
      failed++;
      continue;
    }
    await fixImages(blocks, path, zip, ctx);
    if (!blocks.length) continue;
    const name = pkg.tocTitles.get(path) ?? firstHeading(blocks);
    out.push(section('chapter', out.length + 1, blocks, name ? { name } : {}));
  }
  ctx.progress?.(order.length, order.length, 'parts');
  if (order.length && failed === order.length)
    throw new DocmillError(400, 'BAD_REQUEST', 'None of the EPUB chapters could be read (damaged archive?).');
  return out;
}
