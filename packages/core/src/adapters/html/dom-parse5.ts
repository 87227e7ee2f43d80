import type { DefaultTreeAdapterMap } from 'parse5';
import { once } from '../../util/once.ts';
import { fallbackDom, type HtmlDomOptions } from './dom-fallback.ts';
import { HTML_NS } from './walk.ts';

/**
 * HTML text → DOM where there is no native `DOMParser` (Node, a browser's Web Worker). `parse5` (a
 * conforming tokenizer and tree builder) parses, and its plain-object tree is replayed into a
 * linkedom document, so the rest of the adapter keeps a real DOM with `querySelectorAll` for
 * `includeTags` / `excludeTags`. linkedom's own parser is lenient (htmlparser2) and closes tags
 * where they are written, which breaks misnested tables.
 *
 * linkedom is loaded from its `worker` build, one self-contained module: its main entry imports
 * `@acemir/cssom`, whose `browser` field names a script that exports nothing, so browser bundlers
 * (Vite, rolldown) fail on it. Node loads the same file, so Node and workers share one DOM.
 */

type P5 = DefaultTreeAdapterMap;

const loadParse5 = once(() => import('parse5'));
const loadLinkedom = once(() => import('linkedom/worker'));

/** Which attributes to copy; `undefined` copies all. */
type AttributeFilter = ReadonlySet<string> | undefined;

function copyChildren(source: P5['parentNode'], target: Node, doc: Document, keep: AttributeFilter): void {
  // Explicit stack instead of recursion: hostile nesting depth must not overflow the call stack.
  const stack: Array<{ from: P5['parentNode']; to: Node; i: number }> = [{ from: source, to: target, i: 0 }];
  while (stack.length) {
    const top = stack[stack.length - 1] as { from: P5['parentNode']; to: Node; i: number };
    const child = top.from.childNodes[top.i++];
    if (!child) {
      stack.pop();
      continue;
    }
    if (child.nodeName === '#text') {
      top.to.appendChild(doc.createTextNode((child as P5['textNode']).value));
    } else if ('tagName' in child) {
      const el = createElement(child, doc, keep);
      top.to.appendChild(el);
      // Script bodies are never read (the element itself is dropped later), and a template's
      // children live in its content fragment: copying them would only cost time.
      if (child.childNodes.length && child.tagName !== 'script') stack.push({ from: child, to: el, i: 0 });
    }
    // Comments are not copied: they are never content and `data.html` is better without them.
  }
}

function createElement(src: P5['element'], doc: Document, keep: AttributeFilter): Element {
  const el =
    src.namespaceURI === HTML_NS ? doc.createElement(src.tagName) : doc.createElementNS(src.namespaceURI, src.tagName);
  for (const a of src.attrs) {
    // Every attribute is a linkedom node of its own (about half of a page's nodes): one that
    // nothing reads is not made at all.
    if (keep && (a.prefix || !keep.has(a.name))) continue;
    try {
      el.setAttribute(a.prefix ? `${a.prefix}:${a.name}` : a.name, a.value);
    } catch {
      // Attribute names a browser keeps but a DOM API refuses (`"`, `<`) carry no content.
    }
  }
  return el;
}

/**
 * `text` parsed by parse5 and replayed into a linkedom document. With `options.attributes`, the
 * elements below `<html>` get only the attributes named there.
 */
export async function parseHtmlDom(text: string, options: HtmlDomOptions = {}): Promise<Document> {
  const [{ parse }, { parseHTML }] = await Promise.all([loadParse5(), loadLinkedom()]);
  const tree = parse(text);
  const doc = (parseHTML('<!DOCTYPE html><html></html>') as unknown as { document: Document }).document;
  const html = doc.documentElement as Element;
  const srcHtml = tree.childNodes.find((n): n is P5['element'] => 'tagName' in n && n.tagName === 'html');
  if (srcHtml) {
    for (const a of srcHtml.attrs) html.setAttribute(a.name, a.value);
    copyChildren(srcHtml, html, doc, options.attributes);
  }
  return doc;
}

/**
 * Makes core parse HTML with this backend where the runtime has no `DOMParser` (a browser's Web
 * Worker): browser bundles of core leave it out unless a worker entry calls this.
 */
export function installHtmlDom(): void {
  fallbackDom.parse = parseHtmlDom;
}
