/**
 * A DOM builder a host installs where core has no HTML parser of its own: a browser's Web Worker
 * has no `DOMParser`, and browser bundles leave out the parse5 backend (`#html-dom`) so that pages
 * never carry it. `@docmill/core/html-dom`'s `installHtmlDom()` fills it; the pooled engine's
 * browser workers call that.
 */
export const fallbackDom: { parse?: HtmlDomParser } = {};

/** Builds a browser-conforming DOM of an HTML text. */
export type HtmlDomParser = (text: string, options?: HtmlDomOptions) => Promise<Document>;

export interface HtmlDomOptions {
  /**
   * The only attributes the caller reads (below `<html>`): a builder may leave the others out.
   * A native `DOMParser` keeps them all, which only costs time.
   */
  attributes?: ReadonlySet<string>;
}
