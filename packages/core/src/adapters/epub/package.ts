import { badInput } from '../../errors.ts';
import type { Limits } from '../../limits.ts';
import { attr, deep, elements, localName, parseXml, textOf, type XmlElement } from '../../util/xml.ts';
import type { SafeZip } from '../../util/zip.ts';

/**
 * The EPUB package (OCF container → OPF package document): metadata, manifest, spine and the
 * table of contents titles (EPUB 3 nav document or EPUB 2 NCX).
 */

export interface ManifestItem {
  id: string;
  /** Zip path, resolved against the package document's folder. */
  path: string;
  mediaType: string;
  properties: string[];
}

export interface SpineEntry {
  item: ManifestItem;
  linear: boolean;
}

export interface EpubPackage {
  opfPath: string;
  metadata: { title?: string; author?: string; language?: string; description?: string; keywords?: string };
  spine: SpineEntry[];
  /** Manifest items that are navigation, not content (nav document, NCX). */
  navPaths: Set<string>;
  /** Chapter titles from the table of contents, by zip path (no fragment). */
  tocTitles: Map<string, string>;
}

/** Spine entries read; a real book has a few hundred at most. */
const MAX_SPINE = 5000;

/** Joins a relative href to a folder inside the zip, resolving `.` and `..`, dropping any fragment or query. */
export function resolvePath(base: string, href: string): string {
  let h = href.split('#')[0]?.split('?')[0] ?? '';
  try {
    h = decodeURIComponent(h);
  } catch {
    // A malformed escape stays literal.
  }
  const parts = h.startsWith('/') ? [] : base.split('/').slice(0, -1);
  for (const seg of h.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return parts.join('/');
}

const clean = (s: string): string => s.replace(/\s+/g, ' ').trim();

async function xmlPart(zip: SafeZip, path: string, limits: Limits, what: string): Promise<XmlElement | undefined> {
  const text = await zip.text(path);
  if (text === undefined) return undefined;
  return parseXml(text, limits, what);
}

function metadataOf(opf: XmlElement): EpubPackage['metadata'] {
  const meta = elements(opf).find((e) => localName(e.name) === 'metadata');
  const pick = (local: string): string[] =>
    deep(meta, local)
      .map((e) => clean(textOf(e)))
      .filter(Boolean);
  const out: EpubPackage['metadata'] = {};
  const title = pick('title')[0];
  if (title) out.title = title;
  const creators = pick('creator');
  if (creators.length) out.author = [...new Set(creators)].join(', ');
  const language = pick('language')[0];
  if (language) out.language = language;
  const description = pick('description')[0];
  if (description) out.description = description.replace(/<[^>]*>/g, '').trim();
  const subjects = pick('subject');
  if (subjects.length) out.keywords = [...new Set(subjects)].join(', ');
  return out;
}

/** EPUB 3 nav document: the `toc` nav's links and their text. */
function navTitles(nav: XmlElement, navPath: string, out: Map<string, string>): void {
  const navs = deep(nav, 'nav');
  const toc = navs.find((n) => /\btoc\b/.test(attr(n, 'epub:type') ?? attr(n, 'type') ?? '')) ?? navs[0];
  if (!toc) return;
  for (const a of deep(toc, 'a')) {
    const href = attr(a, 'href');
    const title = clean(textOf(a));
    if (!href || !title) continue;
    const target = resolvePath(navPath, href);
    if (!out.has(target)) out.set(target, title);
  }
}

/** EPUB 2 NCX: navPoint labels and content sources. */
function ncxTitles(ncx: XmlElement, ncxPath: string, out: Map<string, string>): void {
  for (const point of deep(ncx, 'navPoint')) {
    let label = '';
    let src = '';
    for (const c of elements(point)) {
      if (localName(c.name) === 'navLabel') label = clean(textOf(c));
      else if (localName(c.name) === 'content') src = attr(c, 'src') ?? '';
    }
    if (!label || !src) continue;
    const target = resolvePath(ncxPath, src);
    if (!out.has(target)) out.set(target, label);
  }
}

/** Content documents a DRM scheme encrypted (font obfuscation alone is harmless to us). */
async function checkEncryption(zip: SafeZip, limits: Limits): Promise<void> {
  const enc = await xmlPart(zip, 'META-INF/encryption.xml', limits, 'EPUB encryption.xml').catch(() => undefined);
  if (!enc) return;
  for (const data of deep(enc, 'EncryptedData')) {
    const algorithm = attr(deep(data, 'EncryptionMethod')[0], 'Algorithm') ?? '';
    const ref = deep(data, 'CipherReference')[0];
    const uri = attr(ref, 'URI') ?? '';
    const fontObfuscation = /idpf\.org\/2008\/embedding|ns\.adobe\.com\/pdf\/enc#RC/.test(algorithm);
    if (!fontObfuscation && /\.(x?html?|xml|opf|ncx)$/i.test(uri)) {
      throw badInput('The EPUB is encrypted (DRM-protected); its text cannot be read.');
    }
  }
}

export async function readPackage(zip: SafeZip, limits: Limits): Promise<EpubPackage> {
  await checkEncryption(zip, limits);
  const container = await xmlPart(zip, 'META-INF/container.xml', limits, 'EPUB container.xml');
  let opfPath = '';
  if (container) {
    const rootfiles = deep(container, 'rootfile');
    const opf = rootfiles.find((r) => (attr(r, 'media-type') ?? '').includes('oebps-package')) ?? rootfiles[0];
    opfPath = resolvePath('', attr(opf, 'full-path') ?? '');
  }
  // Sloppy or damaged containers: fall back to the only package document in the zip.
  if (!opfPath || !zip.has(opfPath)) opfPath = zip.names.find((n) => n.toLowerCase().endsWith('.opf')) ?? '';
  if (!opfPath) throw badInput('The EPUB has no package document (META-INF/container.xml and .opf are missing).');
  const opf = await xmlPart(zip, opfPath, limits, 'EPUB package document');
  if (!opf || localName(opf.name) !== 'package') throw badInput('The EPUB package document is missing or invalid.');

  const manifest = new Map<string, ManifestItem>();
  const manifestEl = elements(opf).find((e) => localName(e.name) === 'manifest');
  for (const it of elements(manifestEl)) {
    if (localName(it.name) !== 'item') continue;
    const id = attr(it, 'id');
    const href = attr(it, 'href');
    if (!id || !href || manifest.has(id)) continue;
    manifest.set(id, {
      id,
      path: resolvePath(opfPath, href),
      mediaType: (attr(it, 'media-type') ?? '').toLowerCase(),
      properties: (attr(it, 'properties') ?? '').split(/\s+/).filter(Boolean),
    });
  }
  const spineEl = elements(opf).find((e) => localName(e.name) === 'spine');
  const spine: SpineEntry[] = [];
  // An item is read once: a spine that lists one chapter 10,000 times (EPUB forbids repeats) is a
  // hostile multiplier, not a book.
  const listed = new Set<string>();
  for (const ref of elements(spineEl)) {
    if (localName(ref.name) !== 'itemref' || spine.length >= MAX_SPINE) continue;
    const item = manifest.get(attr(ref, 'idref') ?? '');
    if (!item || listed.has(item.id)) continue;
    listed.add(item.id);
    spine.push({ item, linear: attr(ref, 'linear') !== 'no' });
  }

  const navPaths = new Set<string>();
  const tocTitles = new Map<string, string>();
  const nav = [...manifest.values()].find((m) => m.properties.includes('nav'));
  const ncxId = attr(spineEl, 'toc');
  const ncx =
    (ncxId ? manifest.get(ncxId) : undefined) ??
    [...manifest.values()].find((m) => m.mediaType === 'application/x-dtbncx+xml');
  // The table of contents is optional for reading: a broken one costs titles, not the book.
  if (nav) {
    navPaths.add(nav.path);
    const doc = await xmlPart(zip, nav.path, limits, 'EPUB nav document').catch(() => undefined);
    if (doc) navTitles(doc, nav.path, tocTitles);
  }
  if (ncx) {
    navPaths.add(ncx.path);
    const doc = await xmlPart(zip, ncx.path, limits, 'EPUB NCX').catch(() => undefined);
    if (doc) ncxTitles(doc, ncx.path, tocTitles);
  }
  return { opfPath, metadata: metadataOf(opf), spine, navPaths, tocTitles };
}
