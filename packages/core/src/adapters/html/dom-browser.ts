/**
 * `#html-dom` under the `browser` condition: a page parses HTML with its native `DOMParser`, so
 * bundles for browsers carry no parse5 or linkedom. A Web Worker, which has no `DOMParser`, gets
 * the parse5 backend only when its entry installs it (`@docmill/core/html-dom`).
 */
import type { HtmlDomParser } from './dom-fallback.ts';

export const parseHtmlDom: HtmlDomParser | undefined = undefined;
