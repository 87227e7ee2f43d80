import { throwIfAborted } from '../../errors.ts';
import { heading, link, paragraph, section, text } from '../../tree/build.ts';
import type { Block, DocumentMetadata, Inline, Section } from '../../tree/types.ts';
import { append } from '../../util/arrays.ts';
import { attr, kid, kids, localName, textOf, type XmlElement } from '../../util/xml.ts';
import { htmlBlocks } from '../common/html-fragment.ts';
import { plainTextBlocks } from '../text/blocks.ts';
import type { AdapterContext } from '../types.ts';

/**
 * RSS 2.0, RSS 1.0 (RDF) and Atom: the channel's title and description, then one `item` section per
 * entry holding its title, link, date and author, and its text (the full content when the feed
 * carries it, else the summary) read through the HTML adapter.
 */

export type FeedKind = 'rss' | 'rdf' | 'atom';

export function feedKind(root: XmlElement): FeedKind | undefined {
  const name = localName(root.name);
  if (name === 'rss') return 'rss';
  if (name === 'RDF' && kids(root, 'item').length + kids(root, 'channel').length > 0) return 'rdf';
  if (name === 'feed') return 'atom';
  return undefined;
}

const clean = (s: string) => s.replace(/\s+/g, ' ').trim();
const field = (el: XmlElement | undefined, local: string) => clean(textOf(kid(el, local)));

/** An entry's link: RSS `<link>` text, Atom's `rel="alternate"` (or first) `href`. */
function linkOf(el: XmlElement): string {
  const links = kids(el, 'link');
  const atom = links.find((l) => attr(l, 'href') && (attr(l, 'rel') ?? 'alternate') === 'alternate') ?? links[0];
  const href = atom && attr(atom, 'href');
  return clean(href ?? textOf(links[0]));
}

interface Body {
  value: string;
  html: boolean;
}

/** The entry's fullest text: RSS `content:encoded`, Atom `content`, then the description or summary. */
function bodyOf(el: XmlElement): Body | undefined {
  const encoded = kids(el, 'encoded').find((e) => e.name.includes(':'));
  if (encoded && textOf(encoded).trim()) return { value: textOf(encoded), html: true };
  for (const local of ['content', 'summary', 'description']) {
    const node = kid(el, local);
    if (!node || !textOf(node).trim()) continue;
    const type = (attr(node, 'type') ?? (local === 'description' ? 'html' : 'text')).toLowerCase();
    if (type === 'xhtml') return { value: xmlMarkup(node), html: true };
    return { value: textOf(node), html: type === 'html' || type.includes('html') };
  }
  return undefined;
}

/** Inline XHTML content (Atom `type="xhtml"`) written back as markup for the HTML reader. */
function xmlMarkup(el: XmlElement): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  let out = '';
  for (const c of el.children) {
    if (typeof c === 'string') out += esc(c);
    else {
      const attrs = Object.entries(c.attrs)
        .map(([k, v]) => ` ${localName(k)}="${esc(v).replace(/"/g, '&quot;')}"`)
        .join('');
      out += `<${localName(c.name)}${attrs}>${xmlMarkup(c)}</${localName(c.name)}>`;
    }
  }
  return out;
}

/** Byline: link, date, author, each labelled. */
function byline(el: XmlElement): Inline[] {
  const out: Inline[] = [];
  const add = (label: string, value: Inline[]) => {
    if (out.length) out.push({ type: 'break' });
    out.push({ type: 'strong', children: [text(`${label}:`)] }, text(' '), ...value);
  };
  const href = linkOf(el);
  if (href) add('Link', [link(href, href)]);
  const date = field(el, 'pubDate') || field(el, 'published') || field(el, 'updated') || field(el, 'date');
  if (date) add('Date', [text(date)]);
  const author = field(el, 'creator') || clean(textOf(kid(kid(el, 'author'), 'name'))) || field(el, 'author');
  if (author) add('Author', [text(author)]);
  return out;
}

async function bodyBlocks(body: Body, ctx: AdapterContext): Promise<Block[]> {
  if (!body.html) return plainTextBlocks(body.value);
  try {
    return await htmlBlocks(body.value, ctx);
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    return plainTextBlocks(body.value.replace(/<[^>]*>/g, ' '));
  }
}

export async function readFeed(
  root: XmlElement,
  kind: FeedKind,
  ctx: AdapterContext,
): Promise<{ blocks: Block[]; metadata: DocumentMetadata }> {
  const channel = kind === 'atom' ? root : (kid(root, 'channel') ?? root);
  const entries = kind === 'atom' ? kids(root, 'entry') : kids(kind === 'rdf' ? root : channel, 'item');
  const blocks: Block[] = [];
  const metadata: DocumentMetadata = {};
  const title = field(channel, 'title');
  if (title) {
    metadata.title = title;
    blocks.push(heading(1, title));
  }
  const description = field(channel, 'description') || field(channel, 'subtitle');
  if (description) {
    metadata.description = description;
    blocks.push(paragraph(description));
  }
  const language = field(channel, 'language');
  if (language) metadata.language = language;
  const max = ctx.limits.maxMessages;
  if (entries.length > max)
    ctx.warn(`The feed has ${entries.length} items; only the first ${max} were read (limit maxMessages).`);
  const sections: Section[] = [];
  for (const [i, entry] of entries.slice(0, max).entries()) {
    throwIfAborted(ctx.signal);
    ctx.progress?.(i, Math.min(entries.length, max), 'parts');
    const itemTitle = field(entry, 'title');
    const kidsOf: Block[] = [];
    if (itemTitle) kidsOf.push(heading(2, itemTitle));
    const by = byline(entry);
    if (by.length) kidsOf.push(paragraph(by));
    const body = bodyOf(entry);
    if (body) append(kidsOf, await bodyBlocks(body, ctx));
    sections.push(section('item', i + 1, kidsOf, itemTitle ? { name: itemTitle } : {}));
  }
  metadata.numPages = sections.length;
  return { blocks: append(blocks, sections), metadata };
}
