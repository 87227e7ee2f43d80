import type { DefaultTreeAdapterMap } from 'parse5';
import { isNode } from '../../platform/index.ts';
import { once } from '../../util/once.ts';

/**
 * HTML text → DOM, built the way browsers build it. The HTML standard's tree construction decides
 * where misnested markup ends up (`<center><table></center><tr>` keeps its rows in the table, a
 * `<p>` never holds a `<div>`, stray end tags are ignored), and real pages depend on it.
 *
 * Browsers: the native `DOMParser` implements that algorithm. Elsewhere: `parse5` (a conforming
 * tokenizer and tree builder) parses, and its plain-object tree is replayed into a linkedom
 * document, so the rest of the adapter keeps a real DOM with `querySelectorAll` for
 * `includeTags` / `excludeTags`. linkedom's own parser is lenient (htmlparser2) and closes tags
 * where they are written, which breaks such tables.
 */

type P5 = DefaultTreeAdapterMap;

const loadParse5 = once(() => import('parse5'));
const loadLinkedom = once(() => import('linkedom'));

const HTML_NS = 'http://www.w3.org/1999/xhtml';

interface NativeParser {
  parseFromString(text: string, type: string): Document;
}

function nativeParser(): NativeParser | undefined {
  const ctor = (globalThis as { DOMParser?: new () => NativeParser }).DOMParser;
  // Node has no DOMParser; a test environment that installs a lenient one is not a browser.
  return ctor && !isNode ? new ctor() : undefined;
}

function copyChildren(source: P5['parentNode'], target: Node, doc: Document): void {
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
      const el = createElement(child, doc);
      top.to.appendChild(el);
      // Script bodies are never read (the element itself is dropped later), and a template's
      // children live in its content fragment: copying them would only cost time.
      if (child.childNodes.length && child.tagName !== 'script') stack.push({ from: child, to: el, i: 0 });
    }
    // Comments are not copied: they are never content and `data.html` is better without them.
  }
}

function createElement(src: P5['element'], doc: Document): Element {
  const el =
    src.namespaceURI === HTML_NS ? doc.createElement(src.tagName) : doc.createElementNS(src.namespaceURI, src.tagName);
  for (const a of src.attrs) {
    try {
      el.setAttribute(a.prefix ? `${a.prefix}:${a.name}` : a.name, a.value);
    } catch {
      // Attribute names a browser keeps but a DOM API refuses (`"`, `<`) carry no content.
    }
  }
  return el;
}

async function viaParse5(text: string): Promise<Document> {
  const [{ parse }, { parseHTML }] = await Promise.all([loadParse5(), loadLinkedom()]);
  const tree = parse(text);
  const doc = (parseHTML('<!DOCTYPE html><html></html>') as unknown as { document: Document }).document;
  const html = doc.documentElement as Element;
  const srcHtml = tree.childNodes.find((n): n is P5['element'] => 'tagName' in n && n.tagName === 'html');
  if (srcHtml) {
    for (const a of srcHtml.attrs) html.setAttribute(a.name, a.value);
    copyChildren(srcHtml, html, doc);
  }
  return doc;
}

/** Elements that never have content: `<br/>` means the same in HTML and XHTML. */
const VOID = new Set([
  'area',
  'base',
  'basefont',
  'bgsound',
  'br',
  'col',
  'embed',
  'frame',
  'hr',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/** XHTML (EPUB chapters, `.xhtml` files): an XML declaration or the XHTML namespace on `<html>`. */
function isXhtml(text: string): boolean {
  const head = text.slice(0, 4096);
  return /^\s*<\?xml/.test(head) || /<html[^>]+xmlns\s*=\s*["']http:\/\/www\.w3\.org\/1999\/xhtml/i.test(head);
}

/**
 * XHTML is XML, where `<title/>`, `<script src="…"/>` or `<a id="p5"/>` are empty elements. HTML
 * tree construction ignores the slash: a `<title/>` would swallow the whole document as its text.
 * Reading systems parse such files as XML; writing the empty elements out in full gives the HTML
 * parser the same tree.
 */
export function expandSelfClosing(text: string): string {
  return text.replace(/<([a-zA-Z][\w:.-]*)((?:\s[^<>]*?)?)\s*\/>/g, (whole, name: string, attrs: string) =>
    VOID.has(name.toLowerCase()) ? whole : `<${name}${attrs}></${name}>`,
  );
}

/** A browser-conforming DOM of `text` (always with `<html>`, `<head>` and `<body>`). */
export async function parseDocument(text: string): Promise<Document> {
  const source = isXhtml(text) ? expandSelfClosing(text) : text;
  const native = nativeParser();
  if (native) return native.parseFromString(source, 'text/html');
  return viaParse5(source);
}
