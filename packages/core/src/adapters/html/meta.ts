import type { DocumentMetadata } from '../../tree/types.ts';
import { collapse } from './convert.ts';
import { HTML_NS, nameOf, walk } from './walk.ts';

/** Open Graph properties reported under camel-cased keys, as the hosted API does. */
const OG_KEYS: Record<string, string> = {
  'og:title': 'ogTitle',
  'og:description': 'ogDescription',
  'og:url': 'ogUrl',
  'og:image': 'ogImage',
  'og:site_name': 'ogSiteName',
  'og:locale': 'ogLocale',
  'og:type': 'ogType',
};

function clean(s: string | null | undefined): string | undefined {
  const v = collapse(s ?? '').trim();
  return v || undefined;
}

/** What the document says about itself, found in one walk (`<meta>` and `<title>` may sit anywhere). */
export interface DocumentHead {
  metadata: DocumentMetadata;
  /** The first `<base href>`'s value, as written. */
  baseHref: string | undefined;
}

export function readHead(doc: Document): DocumentHead {
  const metas: Element[] = [];
  let titleEl: Element | undefined;
  let baseHref: string | undefined;
  if (doc.documentElement)
    walk(doc.documentElement, (el) => {
      // An inline SVG's <title> names the drawing and its <base> sets no URL: only HTML's count.
      if (el.namespaceURI !== HTML_NS) return true;
      const name = nameOf(el);
      if (name === 'meta') metas.push(el);
      else if (name === 'title') titleEl ??= el;
      else if (name === 'base' && baseHref === undefined) baseHref = el.getAttribute('href') ?? undefined;
      return true;
    });
  return { metadata: htmlMetadata(doc, metas, titleEl), baseHref };
}

function htmlMetadata(doc: Document, metas: readonly Element[], titleEl: Element | undefined): DocumentMetadata {
  const meta: DocumentMetadata = {};
  const byName = new Map<string, string>();
  for (const el of metas) {
    const key = (el.getAttribute('name') ?? el.getAttribute('property') ?? el.getAttribute('http-equiv') ?? '')
      .trim()
      .toLowerCase();
    const content = clean(el.getAttribute('content'));
    if (key && content && !byName.has(key)) byName.set(key, content);
  }
  const title = clean(titleEl?.textContent) ?? byName.get('og:title');
  if (title) meta.title = title;
  const description = byName.get('description') ?? byName.get('og:description');
  if (description) meta.description = description;
  const keywords = byName.get('keywords');
  if (keywords) meta.keywords = keywords;
  const author = byName.get('author');
  if (author) meta.author = author;
  const lang =
    clean(doc.documentElement?.getAttribute('lang')) ??
    clean(doc.documentElement?.getAttribute('xml:lang')) ??
    byName.get('content-language');
  if (lang) meta.language = lang;
  for (const [property, key] of Object.entries(OG_KEYS)) {
    const v = byName.get(property);
    if (v) meta[key] = v;
  }
  return meta;
}
