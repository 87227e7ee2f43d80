import { badInput, DocmillError, throwIfAborted } from '../../errors.ts';
import { root } from '../../tree/build.ts';
import { append } from '../../util/arrays.ts';
import { isScriptUrl } from '../../util/script-url.ts';
import type { Adapter, AdapterContext, AdapterOutput } from '../types.ts';
import { capElements } from './cap.ts';
import { applyExclude, applyInclude, dropChrome, dropHidden, dropNonContent } from './clean.ts';
import { blocksOfNodes, imageSource } from './convert.ts';
import { type CssRule, MAX_CSS, parseCss } from './css.ts';
import { decodeHtml } from './decode.ts';
import { parseDocument } from './dom.ts';
import { readHead } from './meta.ts';
import { markStyledHeadings } from './styled-headings.ts';
import { pageBase, resolveUrl } from './urls.ts';
import { findFirst, nameOf } from './walk.ts';

/**
 * HTML, HTM and XHTML: decode, build the DOM as a browser would (dom.ts), clean (always-dropped
 * elements, hidden ones, `excludeTags`, `includeTags`, page chrome), then DOM → tree. The cleaned DOM is also served as
 * `data.html`, and every link of the page (not only the main content's) as `data.links`.
 */

/**
 * Every attribute the adapter reads below `<html>` (cleaning, conversion, metadata, stylesheets,
 * links). When neither `data.html` nor a caller's selector can see the rest, the DOM is built
 * without them. A new `getAttribute` or attribute selector in this adapter must be added here.
 */
export const READ_ATTRIBUTES: ReadonlySet<string> = new Set([
  // clean.ts: hidden elements, page chrome
  'hidden',
  'aria-hidden',
  'style',
  'role',
  'class',
  'id',
  // convert.ts: links, images, inputs, lists, tables; styled-headings.ts: <font size>
  'href',
  'title',
  'src',
  'srcset',
  'data-src',
  'alt',
  'type',
  'checked',
  'start',
  'colspan',
  'rowspan',
  'size',
  // meta.ts, styleRules: <meta>, <base href>, <link rel="stylesheet">
  'name',
  'property',
  'http-equiv',
  'content',
  'rel',
]);

/** Text with this share of NULs or replacement characters is not a web page. */
const MAX_GARBAGE_SHARE = 0.02;

function looksBinary(text: string): boolean {
  const sample = text.slice(0, 65536);
  let bad = 0;
  for (let i = 0; i < sample.length; i++) {
    const ch = sample.charCodeAt(i);
    if (ch === 0 || ch === 0xfffd) bad++;
  }
  return sample.length > 0 && bad / sample.length > MAX_GARBAGE_SHARE;
}

function allLinks(doc: Document, base: string | undefined): string[] {
  const out = new Set<string>();
  for (const a of doc.querySelectorAll('a[href]')) {
    const href = (a.getAttribute('href') ?? '').trim();
    if (!href || href.startsWith('#') || isScriptUrl(href)) continue;
    out.add(resolveUrl(href, base));
  }
  return [...out];
}

/** `data.html` carries absolute URLs and a single, largest image source per `<img>`. */
function absolutizeDom(parts: readonly Element[], base: string | undefined): void {
  for (const part of parts) {
    for (const a of part.querySelectorAll('a[href]'))
      a.setAttribute('href', resolveUrl(a.getAttribute('href') ?? '', base));
    for (const img of part.querySelectorAll('img')) {
      const src = imageSource(img, base);
      if (src) img.setAttribute('src', src);
      img.removeAttribute('srcset');
    }
  }
}

/** The page's content root: the body, which tree construction always creates. */
function contentRoot(doc: Document): Element {
  return doc.body ?? (doc.documentElement as Element);
}

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Linked stylesheets read per document; e-book chapters link one to three. */
const MAX_LINKED_SHEETS = 8;

/** The document's `<style>` elements and the linked sheets the caller can supply, in cascade order. */
async function styleRules(doc: Document, ctx: AdapterContext): Promise<CssRule[]> {
  const texts: string[] = [];
  let budget = 2 * MAX_CSS;
  let linked = 0;
  for (const el of doc.querySelectorAll('style, link[rel~="stylesheet" i][href]')) {
    if (budget <= 0) break;
    let css: string | undefined;
    // By local name: an inline SVG's <style> (which a browser applies to the whole page) is 'style'
    // in a browser's DOM and 'STYLE' in ours.
    if (nameOf(el) === 'style') css = el.textContent ?? '';
    else if (ctx.stylesheet && linked++ < MAX_LINKED_SHEETS)
      css = await ctx.stylesheet(el.getAttribute('href') ?? '').catch(() => undefined);
    if (!css) continue;
    texts.push(css.slice(0, budget));
    budget -= css.length;
  }
  const rules: CssRule[] = [];
  for (const css of texts) append(rules, parseCss(css, rules.length));
  return rules;
}

async function parseHtml(bytes: Uint8Array, ctx: AdapterContext): Promise<AdapterOutput> {
  const { text, encoding, contradicts } = decodeHtml(bytes);
  if (looksBinary(text)) throw badInput('The file is labelled HTML but holds binary data, not a web page.');
  if (contradicts)
    ctx.warn(
      `The page declares the encoding ${contradicts} but its bytes are ${encoding}; it was read as ${encoding}.`,
    );
  throwIfAborted(ctx.signal);
  let doc: Document;
  try {
    // `data.html` shows every attribute, and `includeTags` / `excludeTags` may select on any.
    const everyAttribute =
      ctx.options.formats.has('html') || ctx.options.includeTags.length > 0 || ctx.options.excludeTags.length > 0;
    const capped = capElements(text, ctx.limits.maxHtmlElements);
    if (capped.cut)
      ctx.warn(`The page has more than ${ctx.limits.maxHtmlElements} elements; the markup past that was dropped.`);
    doc = await parseDocument(capped.markup, everyAttribute ? {} : { attributes: READ_ATTRIBUTES });
  } catch (err) {
    if (err instanceof DocmillError) throw err;
    throw badInput(`The HTML could not be parsed: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!doc.documentElement) throw badInput('The HTML has no document element.');
  const { metadata, baseHref } = readHead(doc);
  const base = pageBase(baseHref, ctx.sourceURL);
  const links = ctx.options.formats.has('links') ? allLinks(doc, base) : undefined;

  const page = contentRoot(doc);
  // Stylesheets are read only where they may be the outline: pages that mark no headings.
  const styled = !findFirst(page, (el) => HEADINGS.has(nameOf(el)));
  const rules = styled ? await styleRules(doc, ctx) : [];
  dropNonContent(page);
  dropHidden(page);
  if (styled) markStyledHeadings(page, rules);
  applyExclude(page, ctx.options.excludeTags);
  const parts: Element[] = applyInclude(page, ctx.options.includeTags) ?? [page];
  if (ctx.options.onlyMainContent && parts[0] === page) dropChrome(page);
  throwIfAborted(ctx.signal);
  const whole = parts[0] === page;
  const out: AdapterOutput = { tree: root([], metadata), rawHtml: text, links };
  // Serializing the cleaned page costs as much as converting it: only when asked for.
  if (ctx.options.formats.has('html')) {
    absolutizeDom(parts, base);
    out.html = (whole ? page.innerHTML : parts.map((p) => p.outerHTML).join('\n')).trim();
  }
  const nodes = whole ? [...page.childNodes] : parts;
  out.tree.children = blocksOfNodes(nodes, { base, signal: ctx.signal, visited: 0 });
  return out;
}

export const adapter: Adapter = {
  name: 'html',
  kinds: ['html'],
  parse: parseHtml,
};
