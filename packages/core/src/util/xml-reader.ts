import { badInput } from '../errors.ts';
import type { XmlElement, XmlNode } from './xml.ts';

/**
 * A one-pass XML reader that builds `XmlElement` trees directly, with no token objects or
 * intermediate tree in between (fast-xml-parser plus a conversion spent half the CPU of a DOCX
 * parse, see the commit that added this file).
 *
 * It reads what the formats we accept contain and is strict where a damaged part could otherwise
 * be read silently wrong: every start tag must be closed by its own end tag, no end tag may come
 * without a start tag, element names must be names, and unterminated comments, CDATA sections,
 * processing instructions, declarations and tags are errors. No DTD is ever processed: a document
 * type declaration is skipped, and one declaring entities is refused. Entities are never expanded;
 * the five predefined ones and character references are decoded. Line ends are normalised to LF.
 *
 * Within a tag it reads attributes the way fast-xml-parser did (which kept trees identical when
 * this reader replaced it): a name without a quoted value is ignored, a later duplicate wins.
 */

// Character codes (plain constants: an enum's members are property loads in the hot loops).
const TAB = 9;
const CR = 13;
const SPACE = 32;
const BANG = 33;
const DQUOTE = 34;
const SQUOTE = 39;
const DASH = 45;
const SLASH = 47;
const EQ = 61;
const GT = 62;
const QM = 63;

const WIDE_SPACE = /\s/;
/** JavaScript's `\s`, the separator fast-xml-parser split names and attributes on. */
function isSpace(c: number): boolean {
  return c === SPACE || (c >= TAB && c <= CR) || (c >= 0xa0 && WIDE_SPACE.test(String.fromCharCode(c)));
}

/** Characters that cannot occur in an element name: a name holding one is a damaged tag. */
const NOT_IN_NAME = new Uint8Array(128);
for (const ch of '<>"\'=&/#@') NOT_IN_NAME[ch.charCodeAt(0)] = 1;

/**
 * What a character below U+00A0 is to `plainTag`, one table load per character: part of an element
 * name or attribute name (IN), the end of an element name (END: a space, '>' or '/'), or anything
 * that makes the tag one for the exact reading (OTHER). Wider characters are all OTHER there.
 */
const IN = 0;
const END = 1;
const OTHER = 2;
const NAME_CHAR = new Uint8Array(0xa0);
const KEY_CHAR = new Uint8Array(0xa0);
for (let c = 0; c < 0xa0; c++) {
  const ch = String.fromCharCode(c);
  const space = c === SPACE || (c >= TAB && c <= CR);
  NAME_CHAR[c] = space || c === GT || c === SLASH ? END : NOT_IN_NAME[c] === 1 ? OTHER : IN;
  KEY_CHAR[c] = c <= SPACE || '>/"\'<'.includes(ch) ? OTHER : IN;
}

/**
 * What the reader does with a name that would reach `Object.prototype` through an attribute map:
 * the first three are refused and the others renamed, as fast-xml-parser did; undefined for every
 * other name. Scanners reading beside the reader leave such names to it.
 */
export function prototypeName(name: string): 'refused' | 'renamed' | undefined {
  const c = name.charCodeAt(0);
  if (c !== 95 && c !== 99 && c !== 104 && c !== 112 && c !== 116 && c !== 118) return undefined; // _ c h p t v
  switch (name) {
    case '__proto__':
    case 'constructor':
    case 'prototype':
      return 'refused';
    case 'hasOwnProperty':
    case 'toString':
    case 'valueOf':
    case '__defineGetter__':
    case '__defineSetter__':
    case '__lookupGetter__':
    case '__lookupSetter__':
      return 'renamed';
    default:
      return undefined;
  }
}

function safeName(name: string, fail: (why: string) => Error): string {
  const rule = prototypeName(name);
  if (rule === undefined) return name;
  if (rule === 'refused') throw fail(`the name "${name}" is refused`);
  return `__${name}`;
}

/** The five predefined entities (a switch, so `&constructor;` finds nothing on a prototype). */
function predefined(name: string): string | undefined {
  switch (name) {
    case 'amp':
      return '&';
    case 'lt':
      return '<';
    case 'gt':
      return '>';
    case 'quot':
      return '"';
    case 'apos':
      return "'";
    default:
      return undefined;
  }
}

const isDigit = (c: number) => c >= 48 && c <= 57;
const isHex = (c: number) => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/**
 * Decodes the predefined entities and decimal (`&#65;`) and hexadecimal (`&#x41;`) character
 * references; any other entity, and a reference to no character (`&#0;`, past U+10FFFF), stays
 * literal.
 */
export function decodeEntities(s: string): string {
  let amp = s.indexOf('&');
  if (amp < 0) return s;
  let out = '';
  let from = 0;
  const n = s.length;
  while (amp >= 0) {
    let p = amp + 1;
    let decoded: string | undefined;
    if (s.charCodeAt(p) === 35) {
      // '#'
      const hex = s.charCodeAt(p + 1) === 120; // 'x'
      p += hex ? 2 : 1;
      const start = p;
      while (p < n && (hex ? isHex(s.charCodeAt(p)) : isDigit(s.charCodeAt(p)))) p++;
      if (p > start && s.charCodeAt(p) === 59) {
        const cp = Number.parseInt(s.slice(start, p), hex ? 16 : 10);
        if (cp > 0 && cp <= 0x10ffff) decoded = String.fromCodePoint(cp);
      }
    } else {
      while (p < n && isLetter(s.charCodeAt(p))) p++;
      if (p > amp + 1 && s.charCodeAt(p) === 59) decoded = predefined(s.slice(amp + 1, p));
    }
    if (decoded !== undefined) {
      out += s.slice(from, amp) + decoded;
      from = p + 1;
      amp = s.indexOf('&', from);
    } else {
      // Not a reference we decode: left as written, and the scan goes on after its '&'.
      amp = s.indexOf('&', amp + 1);
    }
  }
  return from === 0 ? s : out + s.slice(from);
}

/** Parses a whole XML document and returns its first top-level element. Throws DocmillError 400. */
export function readXml(source: string, maxDepth: number, what: string): XmlElement {
  return new Reader(lineFeeds(source), what).read(maxDepth);
}

/**
 * Attribute names seen before, one internalised string per name, in slots chosen by a hash taken
 * while the name is scanned. Storing a value under a fresh slice makes V8 look the name up in its
 * string table on every store: storing it under the slot's string when it equals the slice cut the
 * reader's time on OOXML parts by 11–16 % (comparing the slice is cheaper than `startsWith` on the
 * text, and a slot without the name only costs a string-table lookup). Short names only, so
 * the cache stays small (at most 4,096 names of up to 64 characters, shared by all documents; with
 * 1,024 slots, names of different parts evicted each other hundreds of times per pass).
 */
const KEY_SLOTS = 4095;
const keyCache: (string | undefined)[] = new Array(KEY_SLOTS + 1).fill(undefined);
/** The string V8 keeps for a property name: the string table's copy, not a slice holding on to its document. */
const internalised = (key: string): string => Object.keys({ [key]: 0 })[0] as string;

/**
 * CRLF and lone CR as LF, as XML reads line ends: the text the reader sees, which scanners reading
 * beside it must see too (`replaceAll` of a string is twice as fast as a global expression here).
 */
export function lineFeeds(s: string): string {
  if (!s.includes('\r')) return s;
  const lf = s.replaceAll('\r\n', '\n');
  return lf.includes('\r') ? lf.replaceAll('\r', '\n') : lf;
}

/**
 * Adds a child. An element's first child gets an array of its own size: most elements have one
 * child or none, and a push onto the empty array would reserve room for 17.
 */
function adopt(parent: XmlElement, node: XmlNode): void {
  const children = parent.children;
  if (children.length === 0) parent.children = [node];
  else children.push(node);
}

/**
 * The first occurrence of one character at or after a position, for readers that ask with
 * positions that mostly grow: each occurrence is searched for once, not once per question (an
 * `includes` call per attribute value took a tenth of the XML reader's time).
 */
export class NextChar {
  private from = 0;
  private at = -1;

  constructor(
    private readonly text: string,
    private readonly ch: string,
  ) {}

  /** The index of the first `ch` at or after `from`, or the text's length when there is none. */
  find(from: number): number {
    if (from > this.at || from < this.from) {
      const at = this.text.indexOf(this.ch, from);
      this.at = at < 0 ? this.text.length : at;
      this.from = from;
    }
    return this.at;
  }
}

/** One document's reading state (a class, so that nothing is re-created per call but the state). */
class Reader {
  // Next '"' and "'" at or after a position, cached: tags are scanned left to right, so each
  // document is searched for quotes once, however many tags it has.
  private dq = -2;
  private sq = -2;

  /** Where the next '&' is: a text run or value is decoded only when it holds one. */
  private readonly amps: NextChar;

  constructor(
    private readonly xml: string,
    private readonly what: string,
  ) {
    this.amps = new NextChar(xml, '&');
  }

  private fail(why: string): Error {
    return badInput(`The ${this.what} is not well-formed XML: ${why}`);
  }

  /** `fail` for the helpers that report through a function. */
  private readonly failure = (why: string): Error => this.fail(why);

  private nextQuote(from: number): number {
    if (this.dq !== -1 && this.dq < from) this.dq = this.xml.indexOf('"', from);
    if (this.sq !== -1 && this.sq < from) this.sq = this.xml.indexOf("'", from);
    const { dq, sq } = this;
    return dq < 0 ? sq : sq < 0 ? dq : Math.min(dq, sq);
  }

  /** The `end` of `<…end` (a '>' or '?>') past quoted values, or -1. */
  private tagEnd(from: number, closer: string): number {
    const xml = this.xml;
    let p = from;
    let end = xml.indexOf(closer, p);
    for (;;) {
      if (end < 0) return -1;
      const q = this.nextQuote(p);
      if (q < 0 || q > end) return end;
      const close = xml.indexOf(xml[q] as string, q + 1);
      if (close < 0) return -1;
      p = close + 1;
      if (end < p) end = xml.indexOf(closer, p);
    }
  }

  // The start tag `plainTag` read last: where its name ends, whether it closes itself, its attributes.
  private nameEnd = 0;
  private selfClosing = false;
  private attrs: Record<string, string> = {};

  /**
   * A start tag written the usual way (`<name a="v" b='w'>`, `<name/>`) read in one pass: the index
   * of its '>', or -1 for anything else (spaces around '=', unquoted values, quotes in names, wide
   * spaces), which the exact reading then takes whole. Both read such a tag the same.
   */
  private plainTag(lt: number): number {
    const xml = this.xml;
    const n = xml.length;
    let p = lt + 1;
    let c = xml.charCodeAt(p);
    let kind = c < 0xa0 ? NAME_CHAR[c] : OTHER;
    while (kind === IN && p < n) {
      c = xml.charCodeAt(++p);
      kind = c < 0xa0 ? NAME_CHAR[c] : OTHER;
    }
    if (kind !== END || p === lt + 1 || p >= n) return -1;
    this.nameEnd = p;
    const attrs: Record<string, string> = {};
    this.attrs = attrs;
    for (;;) {
      while (c === SPACE || (c <= CR && c >= TAB)) c = xml.charCodeAt(++p);
      if (c === GT) {
        this.selfClosing = false;
        return p;
      }
      if (c === SLASH) {
        if (xml.charCodeAt(p + 1) !== GT) return -1;
        this.selfClosing = true;
        return p + 1;
      }
      const start = p;
      let h = 0;
      while (c !== EQ) {
        if (p >= n || c >= 0xa0 || KEY_CHAR[c] !== IN) return -1;
        h = (h * 31 + c) | 0;
        c = xml.charCodeAt(++p);
      }
      const quote = xml.charCodeAt(p + 1);
      if (p === start || (quote !== DQUOTE && quote !== SQUOTE)) return -1;
      const close = xml.indexOf(quote === DQUOTE ? '"' : "'", p + 2);
      if (close < 0) return -1;
      const len = p - start;
      const slot = (h ^ (h >>> 11) ^ len) & KEY_SLOTS;
      let key = xml.slice(start, p);
      const cached = keyCache[slot];
      if (cached === key) key = cached;
      else {
        // A refused name is reported by the exact reading, after it has checked that the tag ends.
        if (key === '__proto__' || key === 'constructor' || key === 'prototype') return -1;
        key = safeName(key, this.failure);
        if (len <= 64) keyCache[slot] = key = internalised(key);
      }
      const raw = xml.slice(p + 2, close);
      attrs[key] = this.amps.find(p + 2) < close ? decodeEntities(raw) : raw;
      p = close + 1;
      c = xml.charCodeAt(p);
      if (!(c === SPACE || (c <= CR && c >= TAB) || c === GT || c === SLASH)) return -1;
    }
  }

  read(maxDepth: number): XmlElement {
    const xml = this.xml;
    const n = xml.length;
    const fail = this.failure;
    const stack: XmlElement[] = [];
    let current: XmlElement | undefined;
    let root: XmlElement | undefined;
    let doctype = false;
    // Character data read but not yet added: a comment does not split it, anything else does.
    let text = '';
    // Whether `text` holds an '&' (only then is it decoded).
    let entity = false;
    let i = 0;
    while (i < n) {
      const lt = xml.charCodeAt(i) === 60 ? i : xml.indexOf('<', i);
      if (lt < 0) {
        text += xml.slice(i);
        break;
      }
      if (lt > i) {
        text += xml.slice(i, lt);
        if (this.amps.find(i) < lt) entity = true;
      }
      const c1 = xml.charCodeAt(lt + 1);
      if (c1 === SLASH) {
        const open = current?.name;
        // Mostly `</name>` exactly; anything else (spaces, a renamed name, a mismatch) the long way.
        let gt = open === undefined ? -1 : lt + 2 + open.length;
        if (open === undefined || xml.charCodeAt(gt) !== 62 || !xml.startsWith(open, lt + 2)) {
          gt = xml.indexOf('>', lt + 2);
          if (gt < 0) throw this.fail('an end tag is not closed.');
          const name = safeName(xml.slice(lt + 2, gt).trim(), fail);
          if (open === undefined) throw this.fail(`the end tag </${name.slice(0, 40)}> has no start tag.`);
          if (name !== open)
            throw this.fail(`the end tag </${name.slice(0, 40)}> does not close <${open.slice(0, 40)}>.`);
        }
        if (text) {
          adopt(current as XmlElement, entity ? decodeEntities(text) : text);
          text = '';
          entity = false;
        }
        stack.pop();
        current = stack[stack.length - 1];
        i = gt + 1;
      } else if (c1 === QM) {
        const end = this.tagEnd(lt + 1, '?>');
        if (end < 0) throw this.fail('a processing instruction is not closed.');
        DECLARATION.lastIndex = lt + 2;
        if (!DECLARATION.test(xml) || DECLARATION.lastIndex !== end + 2) piNames(xml, lt + 1, end, fail);
        if (text) {
          if (current) adopt(current, entity ? decodeEntities(text) : text);
          text = '';
          entity = false;
        }
        i = end + 2;
      } else if (c1 === BANG) {
        if (xml.charCodeAt(lt + 2) === DASH && xml.charCodeAt(lt + 3) === DASH) {
          const end = xml.indexOf('-->', lt + 4);
          if (end < 0) throw this.fail('a comment is not closed.');
          i = end + 3;
        } else if (xml.startsWith('[CDATA[', lt + 2)) {
          const end = xml.indexOf(']]>', lt + 9);
          if (end < 0) throw this.fail('a CDATA section is not closed.');
          if (text) {
            if (current) adopt(current, entity ? decodeEntities(text) : text);
            text = '';
            entity = false;
          }
          if (current) adopt(current, xml.slice(lt + 9, end));
          i = end + 3;
        } else if (xml.startsWith('DOCTYPE', lt + 2)) {
          if (doctype || root) throw this.fail('a document type declaration is misplaced or repeated.');
          doctype = true;
          i = skipDoctype(xml, lt + 9, this.what, fail);
        } else {
          throw this.fail(`unexpected markup "${xml.slice(lt, lt + 12)}".`);
        }
      } else {
        let gt = this.plainTag(lt);
        let selfClosing = this.selfClosing;
        let nameEnd = this.nameEnd;
        let attrs = this.attrs;
        if (gt < 0) {
          gt = this.tagEnd(lt + 1, '>');
          if (gt < 0) throw this.fail(`a start tag is not closed: "${xml.slice(lt, lt + 40)}".`);
          selfClosing = xml.charCodeAt(gt - 1) === SLASH;
          // The name runs to the first space, or to the tag's end ('/>' excluded).
          let p = lt + 1;
          let bad = false;
          for (; p < gt; p++) {
            const c = xml.charCodeAt(p);
            if (c === SPACE || (c <= CR && c >= TAB) || (c >= 0xa0 && isSpace(c))) break;
            if (c < 128 && NOT_IN_NAME[c] === 1 && !(c === SLASH && selfClosing && p === gt - 1)) bad = true;
          }
          nameEnd = p === gt && selfClosing ? gt - 1 : p;
          if (bad || nameEnd === lt + 1) throw this.fail(`"${xml.slice(lt, Math.min(gt + 1, lt + 40))}" is not a tag.`);
          attrs = {};
          if (p < gt) readAttributes(xml, p, selfClosing ? gt - 1 : gt, attrs, fail);
        }
        const name = safeName(xml.slice(lt + 1, nameEnd), fail);
        if (stack.length >= maxDepth)
          throw badInput(`XML nesting deeper than ${maxDepth} levels: refusing the document.`);
        const el: XmlElement = { name, attrs, children: [] };
        if (current) {
          if (text) {
            adopt(current, entity ? decodeEntities(text) : text);
            text = '';
            entity = false;
          }
          adopt(current, el);
        } else {
          text = '';
          entity = false;
          root ??= el;
        }
        if (!selfClosing) {
          stack.push(el);
          current = el;
        }
        i = gt + 1;
      }
    }
    if (current) throw this.fail(`<${current.name.slice(0, 40)}> is not closed.`);
    if (!root) throw badInput(`The ${this.what} has no root element.`);
    return root;
  }
}

/**
 * Attributes of a tag between `from` and `end`, read as fast-xml-parser's attribute pattern
 * `([^\s=]+)\s*(=\s*(?:"([^"]*)"|'([^']*)'))?` matched repeatedly: a name is anything up to a space
 * or '=', and only a quoted value makes it an attribute.
 */
function readAttributes(
  xml: string,
  from: number,
  end: number,
  attrs: Record<string, string>,
  fail: (why: string) => Error,
): void {
  // While no name has held a quote, the quotes this meets are the ones the tag's end was found
  // past, so a value's closing quote is the next one (indexOf); after such a name, step by step.
  let aligned = true;
  let p = from;
  while (p < end) {
    const c = xml.charCodeAt(p);
    if (c === EQ || isSpace(c)) {
      p++;
      continue;
    }
    const start = p;
    for (p++; p < end; p++) {
      const d = xml.charCodeAt(p);
      if (d === EQ || d === SPACE || (d <= CR && d >= TAB) || (d >= 0xa0 && isSpace(d))) break;
      if (d === DQUOTE || d === SQUOTE) aligned = false;
    }
    if (c === DQUOTE || c === SQUOTE) aligned = false;
    const name = safeName(xml.slice(start, p), fail);
    let q = p;
    while (q < end && isSpace(xml.charCodeAt(q))) q++;
    if (q >= end || xml.charCodeAt(q) !== EQ) continue;
    q++;
    while (q < end && isSpace(xml.charCodeAt(q))) q++;
    const quote = xml.charCodeAt(q);
    if (q >= end || (quote !== DQUOTE && quote !== SQUOTE)) continue;
    let close: number;
    if (aligned) close = xml.indexOf(quote === DQUOTE ? '"' : "'", q + 1);
    else for (close = q + 1; close < end && xml.charCodeAt(close) !== quote; ) close++;
    if (close < 0 || close >= end) continue;
    const raw = xml.slice(q + 1, close);
    attrs[name] = raw.includes('&') ? decodeEntities(raw) : raw;
    p = close + 1;
  }
}

/**
 * An XML declaration as writers put it at the top of nearly every part: its pseudo-attributes have
 * names `piNames` accepts, so it need not read them.
 */
const DECLARATION = /xml(?:[ \t\n]+(?:version|encoding|standalone)=(?:"[^"]*"|'[^']*'))*[ \t\n]*\?>/y;

/** A processing instruction's pseudo-attributes are checked like attributes, then dropped. */
function piNames(xml: string, from: number, end: number, fail: (why: string) => Error): void {
  let p = from;
  while (p < end && !isSpace(xml.charCodeAt(p))) p++;
  if (p < end) readAttributes(xml, p, end, {}, fail);
}

/**
 * Skips a document type declaration (after `<!DOCTYPE`) and returns the index after its '>'. The
 * internal subset is stepped over, not read: quoted literals, comments and declarations are
 * skipped whole, and an entity declaration refuses the document.
 */
function skipDoctype(xml: string, from: number, what: string, fail: (why: string) => Error): number {
  const n = xml.length;
  let p = from;
  let subset = false;
  while (p < n) {
    const c = xml.charCodeAt(p);
    if (c === DQUOTE || c === SQUOTE) {
      const close = xml.indexOf(xml[p] as string, p + 1);
      if (close < 0) break;
      p = close + 1;
    } else if (subset && c === 60 /* < */) {
      if (xml.startsWith('<!--', p)) {
        const close = xml.indexOf('-->', p + 4);
        if (close < 0) break;
        p = close + 3;
      } else {
        if (xml.startsWith('<!ENTITY', p))
          throw badInput(`The ${what} declares XML entities (DTD); refusing a possible XML bomb.`);
        p++;
      }
    } else if (c === 91 /* [ */ && !subset) {
      subset = true;
      p++;
    } else if (c === 93 /* ] */ && subset) {
      subset = false;
      p++;
    } else if (c === GT && !subset) {
      return p + 1;
    } else {
      p++;
    }
  }
  throw fail('the document type declaration is not closed.');
}
