import { badInput } from '../errors.ts';
import type { Limits } from '../limits.ts';
import { readXml } from './xml-reader.ts';

/**
 * XML parts of OOXML, ODF and EPUB are parsed through here only: no DTD or entity expansion (the
 * five predefined entities and numeric references are decoded, nothing else), a size cap and a
 * nesting-depth cap, and malformed structure is an error (see `xml-reader.ts`). The result is a
 * small ordered element tree that keeps mixed content in document order, which run-based formats
 * need.
 */

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

/** Parses an XML document and returns its root element. Throws DocmillError 400 on malformed XML. */
export function parseXml(
  xml: string,
  limits: Pick<Limits, 'maxXmlBytes' | 'maxXmlDepth'>,
  what = 'XML part',
): XmlElement {
  if (xml.length > limits.maxXmlBytes)
    throw badInput(`The ${what} is larger than the ${limits.maxXmlBytes}-byte XML limit.`);
  // A DTD with entity declarations has no place in the formats we read; refuse rather than ignore it.
  const head = xml.slice(0, 4096);
  if (head.includes('<!') && /<!DOCTYPE[^>]*\[/i.test(head) && /<!ENTITY/i.test(xml.slice(0, 1 << 20))) {
    throw badInput(`The ${what} declares XML entities (DTD); refusing a possible XML bomb.`);
  }
  return readXml(xml, limits.maxXmlDepth, what);
}

const sectionPatterns = new Map<string, [RegExp, RegExp]>();

/**
 * The first `<local …>…</local>` of a document (any prefix), cut out as written, for an element
 * that does not nest: one section of a large part (a slide master's shapes, a styles part's number
 * formats) can then be parsed without the rest. Undefined when there is none.
 */
export function xmlSection(xml: string, local: string): string | undefined {
  let patterns = sectionPatterns.get(local);
  if (!patterns) {
    patterns = [new RegExp(`<(?:\\w+:)?${local}\\b[^<>]*>`, 'g'), new RegExp(`</(?:\\w+:)?${local}>`, 'g')];
    sectionPatterns.set(local, patterns);
  }
  const [open, close] = patterns;
  open.lastIndex = 0;
  const m = open.exec(xml);
  if (!m) return undefined;
  close.lastIndex = open.lastIndex;
  return close.exec(xml) ? xml.slice(m.index, close.lastIndex) : undefined;
}

// ---------------------------------------------------------------- navigation helpers

/** Local part of a qualified name: `w:p` → `p`. */
export const localName = (name: string): string => {
  const i = name.indexOf(':');
  return i < 0 ? name : name.slice(i + 1);
};

export const isElement = (n: XmlNode | undefined): n is XmlElement => typeof n === 'object' && n !== null;

/**
 * Whether a qualified name has this local part, without cutting the name (navigation compares
 * every child it passes, and a cut per comparison was a good part of an adapter's garbage).
 */
export function hasLocalName(name: string, local: string): boolean {
  // Most comparisons fail, and most failures show in the lengths or the last characters.
  const n = local.length;
  if (name.length < n || (n > 0 && name.charCodeAt(name.length - 1) !== local.charCodeAt(n - 1))) return false;
  const colon = name.indexOf(':');
  if (colon < 0) return name === local;
  return name.length - colon - 1 === local.length && name.startsWith(local, colon + 1);
}

/** Child elements, optionally only those with the given qualified name. */
export function elements(el: XmlElement | undefined, name?: string): XmlElement[] {
  if (!el) return [];
  const out: XmlElement[] = [];
  for (const c of el.children) if (isElement(c) && (name === undefined || c.name === name)) out.push(c);
  return out;
}

/** First child element with the given qualified name. */
export function child(el: XmlElement | undefined, name: string): XmlElement | undefined {
  if (!el) return undefined;
  for (const c of el.children) if (isElement(c) && c.name === name) return c;
  return undefined;
}

/** Follows a path of qualified names through first matching children. */
export function path(el: XmlElement | undefined, ...names: string[]): XmlElement | undefined {
  let cur = el;
  for (const n of names) cur = child(cur, n);
  return cur;
}

/** All descendants with the given qualified name, in document order. */
export function descendants(el: XmlElement | undefined, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  if (el) named(el, name, out);
  return out;
}

function named(e: XmlElement, name: string, out: XmlElement[]): void {
  for (const c of e.children) {
    if (!isElement(c)) continue;
    if (c.name === name) out.push(c);
    named(c, name, out);
  }
}

/** Concatenated character data of an element and its descendants. */
export function textOf(el: XmlElement | undefined): string {
  if (!el) return '';
  let s = '';
  for (const c of el.children) s += typeof c === 'string' ? c : textOf(c);
  return s;
}

/** Attribute value by qualified name, or by local name when the prefix differs between writers. */
export function attr(el: XmlElement | undefined, name: string): string | undefined {
  if (!el) return undefined;
  const attrs = el.attrs;
  const v = attrs[name];
  if (v !== undefined) return v;
  const local = localName(name);
  for (const k in attrs) if (hasLocalName(k, local)) return attrs[k];
  return undefined;
}

/**
 * Navigation by local name: Strict and Transitional documents, and writers other than Microsoft's,
 * disagree on namespace prefixes but never on local names.
 */
export function kids(el: XmlElement | undefined, local?: string): XmlElement[] {
  if (!el) return [];
  const out: XmlElement[] = [];
  for (const c of el.children) if (isElement(c) && (local === undefined || hasLocalName(c.name, local))) out.push(c);
  return out;
}

export function kid(el: XmlElement | undefined, local: string): XmlElement | undefined {
  if (!el) return undefined;
  for (const c of el.children) if (isElement(c) && hasLocalName(c.name, local)) return c;
  return undefined;
}

/** Follows a chain of first children by local name. */
export function walk(el: XmlElement | undefined, ...locals: string[]): XmlElement | undefined {
  let cur = el;
  for (const l of locals) cur = kid(cur, l);
  return cur;
}

/**
 * Descendants with a local name in document order. `nested: false` stops at each match (a table's
 * paragraphs are not the body's); `true` also collects matches inside matches.
 */
function collect(el: XmlElement | undefined, local: string, nested: boolean): XmlElement[] {
  const out: XmlElement[] = [];
  if (el) gather(el, local, nested, out);
  return out;
}

function gather(e: XmlElement, local: string, nested: boolean, out: XmlElement[]): void {
  for (const c of e.children) {
    if (!isElement(c)) continue;
    const hit = hasLocalName(c.name, local);
    if (hit) out.push(c);
    if (!hit || nested) gather(c, local, nested, out);
  }
}

/** Outermost descendants with a local name (does not look inside a match). */
export const find = (el: XmlElement | undefined, local: string): XmlElement[] => collect(el, local, false);

/** Every descendant with a local name, matches inside matches included. */
export const deep = (el: XmlElement | undefined, local: string): XmlElement[] => collect(el, local, true);
