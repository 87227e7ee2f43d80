import { parseHtmlDom } from '#html-dom';
import { DocmillError } from '../../errors.ts';
import { isNode } from '../../platform/index.ts';
import { fallbackDom, type HtmlDomOptions, type HtmlDomParser } from './dom-fallback.ts';

/**
 * HTML text → DOM, built the way browsers build it. The HTML standard's tree construction decides
 * where misnested markup ends up (`<center><table></center><tr>` keeps its rows in the table, a
 * `<p>` never holds a `<div>`, stray end tags are ignored), and real pages depend on it.
 *
 * Browser pages: the native `DOMParser` implements that algorithm. Elsewhere: parse5 replayed into
 * linkedom (`dom-parse5.ts`), reached through `#html-dom`, which the `browser` condition maps to
 * nothing so that pages never download it; a Web Worker installs it instead (`dom-fallback.ts`).
 */

/** parse5 + linkedom in Node; nothing in browser bundles. */
const builtIn: HtmlDomParser | undefined = parseHtmlDom;

interface NativeParser {
  parseFromString(text: string, type: string): Document;
}

function nativeParser(): NativeParser | undefined {
  const ctor = (globalThis as { DOMParser?: new () => NativeParser }).DOMParser;
  // Node has no DOMParser; a test environment that installs a lenient one is not a browser.
  return ctor && !isNode ? new ctor() : undefined;
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

/**
 * A browser-conforming DOM of `text` (always with `<html>`, `<head>` and `<body>`). `options` are
 * a hint: a native parser ignores them.
 */
export async function parseDocument(text: string, options: HtmlDomOptions = {}): Promise<Document> {
  const source = isXhtml(text) ? expandSelfClosing(text) : text;
  const native = nativeParser();
  if (native) return native.parseFromString(source, 'text/html');
  const parse = fallbackDom.parse ?? builtIn;
  if (!parse) {
    throw new DocmillError(
      500,
      'UNKNOWN_ERROR',
      "HTML needs a DOMParser, which a Web Worker lacks: call installHtmlDom() from '@docmill/core/html-dom' in the worker.",
    );
  }
  return parse(source, options);
}
