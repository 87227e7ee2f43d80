import { XMLParser } from 'fast-xml-parser';
import type { XmlElement, XmlNode } from '../../src/util/xml.ts';

/**
 * The XML parsing docmill had before `util/xml-reader.ts`: fast-xml-parser 5 in ordered mode plus a
 * conversion to `XmlElement`. Kept only as the oracle the reader is compared with; it throws a
 * plain Error where the reader throws a DocmillError. One defect is mended here as in the reader:
 * `&constructor;` (any name on `Object.prototype`) stays literal; the old lookup put a function's
 * source text in its place.
 */

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

function decode(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (m, e: string) => {
    if (e[0] === '#') {
      const cp = e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number.parseInt(e.slice(1), 10);
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
    }
    return Object.hasOwn(predefined, e) ? (predefined[e] as string) : m;
  });
}

type Raw = Record<string, unknown>;

function convert(list: Raw[], depth: number, maxDepth: number): XmlNode[] {
  if (depth > maxDepth) throw new Error(`XML nesting deeper than ${maxDepth} levels`);
  const out: XmlNode[] = [];
  for (const item of list) {
    for (const key of Object.keys(item)) {
      if (key === ':@') continue;
      const value = item[key];
      if (key === '#text') {
        out.push(decode(String(value)));
        continue;
      }
      if (key === '#cdata') {
        out.push((value as Raw[]).map((v) => String(v['#text'] ?? '')).join(''));
        continue;
      }
      const attrs: Record<string, string> = {};
      for (const [k, v] of Object.entries((item[':@'] ?? {}) as Record<string, unknown>)) attrs[k] = decode(String(v));
      out.push({ name: key, attrs, children: convert(value as Raw[], depth + 1, maxDepth) });
    }
  }
  return out;
}

/** Root element as the old parser built it; throws on what it refused. */
export function legacyParseXml(xml: string, maxDepth: number): XmlElement {
  const root = convert(parser.parse(xml) as Raw[], 0, maxDepth).find((n): n is XmlElement => typeof n !== 'string');
  if (!root) throw new Error('no root element');
  return root;
}
