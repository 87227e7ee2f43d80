import { XMLParser } from 'fast-xml-parser';
import { badInput } from '../errors.ts';
import type { Limits } from '../limits.ts';

/**
 * XML parts of OOXML, ODF and EPUB are parsed through here only: no DTD or entity expansion
 * (fast-xml-parser's `processEntities` is off; we decode the five predefined entities and numeric
 * references ourselves), a size cap and a nesting-depth cap. The result is a small ordered element
 * tree that keeps mixed content in document order, which run-based formats need.
 */

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: false,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  commentPropName: false as unknown as string,
  cdataPropName: '#cdata',
});

const predefined: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes predefined and numeric character references; any other entity stays literal. */
export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (m, e: string) => {
    if (e[0] === '#') {
      const cp = e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number.parseInt(e.slice(1), 10);
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
    }
    return predefined[e] ?? m;
  });
}

type Raw = Record<string, unknown>;

function convert(list: Raw[], depth: number, maxDepth: number): XmlNode[] {
  if (depth > maxDepth) throw badInput(`XML nesting deeper than ${maxDepth} levels: refusing the document.`);
  const out: XmlNode[] = [];
  for (const item of list) {
    for (const key of Object.keys(item)) {
      if (key === ':@') continue;
      const value = item[key];
      if (key === '#text') {
        out.push(decodeEntities(String(value)));
        continue;
      }
      if (key === '#cdata') {
        const inner = Array.isArray(value)
          ? (value as Raw[]).map((v) => String(v['#text'] ?? '')).join('')
          : String(value);
        out.push(inner);
        continue;
      }
      const attrsRaw = (item[':@'] ?? {}) as Record<string, unknown>;
      const attrs: Record<string, string> = {};
      for (const [k, v] of Object.entries(attrsRaw)) attrs[k] = decodeEntities(String(v));
      out.push({
        name: key,
        attrs,
        children: Array.isArray(value) ? convert(value as Raw[], depth + 1, maxDepth) : [],
      });
    }
  }
  return out;
}

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
  if (/<!DOCTYPE[^>]*\[/i.test(head) && /<!ENTITY/i.test(xml.slice(0, 1 << 20))) {
    throw badInput(`The ${what} declares XML entities (DTD); refusing a possible XML bomb.`);
  }
  let raw: Raw[];
  try {
    raw = parser.parse(xml) as Raw[];
  } catch (err) {
    throw badInput(`The ${what} is not well-formed XML: ${(err as Error).message}`, err);
  }
  const nodes = convert(raw, 0, limits.maxXmlDepth);
  const root = nodes.find(
    (n): n is XmlElement => typeof n !== 'string' && !n.name.startsWith('?') && n.name !== '!DOCTYPE',
  );
  if (!root) throw badInput(`The ${what} has no root element.`);
  return root;
}

// ---------------------------------------------------------------- navigation helpers

/** Local part of a qualified name: `w:p` → `p`. */
export const localName = (name: string): string => {
  const i = name.indexOf(':');
  return i < 0 ? name : name.slice(i + 1);
};

export const isElement = (n: XmlNode | undefined): n is XmlElement => typeof n === 'object' && n !== null;

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
  const visit = (e: XmlElement) => {
    for (const c of e.children) {
      if (!isElement(c)) continue;
      if (c.name === name) out.push(c);
      visit(c);
    }
  };
  if (el) visit(el);
  return out;
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
  const v = el.attrs[name];
  if (v !== undefined) return v;
  const local = localName(name);
  for (const [k, val] of Object.entries(el.attrs)) if (localName(k) === local) return val;
  return undefined;
}

/**
 * Navigation by local name: Strict and Transitional documents, and writers other than Microsoft's,
 * disagree on namespace prefixes but never on local names.
 */
export function kids(el: XmlElement | undefined, local?: string): XmlElement[] {
  if (!el) return [];
  const out: XmlElement[] = [];
  for (const c of el.children) if (isElement(c) && (local === undefined || localName(c.name) === local)) out.push(c);
  return out;
}

export function kid(el: XmlElement | undefined, local: string): XmlElement | undefined {
  if (!el) return undefined;
  for (const c of el.children) if (isElement(c) && localName(c.name) === local) return c;
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
  const visit = (e: XmlElement) => {
    for (const c of e.children) {
      if (!isElement(c)) continue;
      const hit = localName(c.name) === local;
      if (hit) out.push(c);
      if (!hit || nested) visit(c);
    }
  };
  if (el) visit(el);
  return out;
}

/** Outermost descendants with a local name (does not look inside a match). */
export const find = (el: XmlElement | undefined, local: string): XmlElement[] => collect(el, local, false);

/** Every descendant with a local name, matches inside matches included. */
export const deep = (el: XmlElement | undefined, local: string): XmlElement[] => collect(el, local, true);
