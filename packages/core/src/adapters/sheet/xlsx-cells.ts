import { deep, kids, textOf, type XmlElement } from '../../util/xml.ts';
import { decodeEntities } from '../../util/xml-reader.ts';

/**
 * The cells of a worksheet's `<sheetData>` read straight from the part's text, with no element
 * tree: most of a worksheet part is its cells, and building a tree for them (an element, an
 * attribute map and strings for every `<c>` and `<v>`) was the largest share of an XLSX parse.
 *
 * It reads only the shape spreadsheet writers use: unprefixed `row`, `c`, `v` and `f` elements with
 * attributes written `name="value"`, whitespace between them, text inside `v` and `f`, inline
 * strings of one plain `t`. On anything else (rich text, a prefix, a comment, an extension
 * element, an unusual tag) it returns undefined and the caller reads the part as a tree, so the
 * cells come out the same either way; a section it does read is well-formed, so the rest of the
 * part, parsed as a tree with an empty `<sheetData/>` in its place, is well-formed exactly when the
 * whole part is.
 */

/** One `<c>` as the cell reader needs it: its attributes, first `v`'s text and first `f`. */
export interface RawCell {
  /** The `c` element with its attributes (and no children), for `attr` lookups. */
  el: XmlElement;
  v: string | undefined;
  f: XmlElement | undefined;
  /** The first inline string (`is`). */
  is: XmlElement | undefined;
}

export interface RawRow {
  el: XmlElement;
  cells: RawCell[];
}

/** What `scanSheetData` read: the rows, and where the section starts and ends in the text. */
export interface ScannedSheetData {
  rows: RawRow[];
  start: number;
  end: number;
}

const SPACE = 32;
const TAB = 9;
const LF = 10;
const CR = 13;
const LT = 60;
const GT = 62;
const SLASH = 47;
const EQ = 61;
const DQUOTE = 34;
const SQUOTE = 39;

const isBlank = (c: number) => c === SPACE || c === LF || c === TAB || c === CR;

/** Attribute names the tree reader renames or refuses (prototype keys): those tags are left to it. */
const SPECIAL_KEYS = new Set([
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  'valueOf',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
]);

class Scanner {
  /** The tag `tag` read last. */
  name = '';
  attrs: Record<string, string> = {};
  selfClosing = false;

  constructor(private readonly xml: string) {}

  startsWith(text: string, at: number): boolean {
    return this.xml.startsWith(text, at);
  }

  named(name: string): boolean {
    return this.name === name;
  }

  /**
   * Reads the start tag at `lt` written the plain way (`<name a="v">`, `<name/>`): the index after
   * its '>', or -1 for any other form.
   */
  tag(lt: number): number {
    const xml = this.xml;
    const n = xml.length;
    let p = lt + 1;
    let c = xml.charCodeAt(p);
    while (p < n && !isBlank(c) && c !== GT && c !== SLASH) {
      // Letters only: every name this reads is one (`row`, `c`, `v`, `f`, `sheetData`).
      if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90))) return -1;
      c = xml.charCodeAt(++p);
    }
    if (p === lt + 1 || p >= n) return -1;
    this.name = xml.slice(lt + 1, p);
    const attrs: Record<string, string> = {};
    this.attrs = attrs;
    for (;;) {
      while (isBlank(c)) c = xml.charCodeAt(++p);
      if (c === GT) {
        this.selfClosing = false;
        return p + 1;
      }
      if (c === SLASH) {
        if (xml.charCodeAt(p + 1) !== GT) return -1;
        this.selfClosing = true;
        return p + 2;
      }
      const start = p;
      while (c !== EQ) {
        if (p >= n || c <= SPACE || c >= 0xa0 || c === GT || c === SLASH || c === DQUOTE || c === SQUOTE || c === LT)
          return -1;
        if (c === 38 || c === 35 || c === 64) return -1; // & # @: not in a name
        c = xml.charCodeAt(++p);
      }
      const quote = xml.charCodeAt(p + 1);
      if (p === start || (quote !== DQUOTE && quote !== SQUOTE)) return -1;
      const close = xml.indexOf(quote === DQUOTE ? '"' : "'", p + 2);
      if (close < 0) return -1;
      const key = xml.slice(start, p);
      if (SPECIAL_KEYS.has(key)) return -1;
      const raw = xml.slice(p + 2, close);
      if (raw.includes('<')) return -1;
      attrs[key] = raw.includes('&') ? decodeEntities(raw) : raw;
      p = close + 1;
      c = xml.charCodeAt(p);
      if (!(isBlank(c) || c === GT || c === SLASH)) return -1;
    }
  }

  /** The next '<' after blanks from `p`, or -1 when other text or the end comes first. */
  next(p: number): number {
    const xml = this.xml;
    const n = xml.length;
    while (p < n) {
      const c = xml.charCodeAt(p);
      if (c === LT) return p;
      if (!isBlank(c)) return -1;
      p++;
    }
    return -1;
  }

  /** Text from `from` up to the end tag `close` right after it: [text, index after], or undefined. */
  text(from: number, close: string): [string, number] | undefined {
    const xml = this.xml;
    const lt = xml.indexOf('<', from);
    if (lt < 0 || !xml.startsWith(close, lt)) return undefined;
    const raw = xml.slice(from, lt);
    return [raw.includes('&') ? decodeEntities(raw) : raw, lt + close.length];
  }
}

/**
 * An inline string written as one plain `t` (`<is><t>text</t></is>`), as the element the string
 * reader takes, and the index after `</is>`; undefined for rich text or anything else.
 */
function readInlineString(s: Scanner, from: number): [XmlElement, number] | undefined {
  const is: XmlElement = { name: 'is', attrs: s.attrs, children: [] };
  if (s.selfClosing) return [is, from];
  let lt = s.next(from);
  if (lt < 0) return undefined;
  let p = s.tag(lt);
  if (p < 0 || !s.named('t')) return undefined;
  const t: XmlElement = { name: 't', attrs: s.attrs, children: [] };
  if (!s.selfClosing) {
    const read = s.text(p, '</t>');
    if (!read) return undefined;
    if (read[0]) t.children.push(read[0]);
    p = read[1];
  }
  lt = s.next(p);
  if (lt < 0 || !s.startsWith('</is>', lt)) return undefined;
  is.children.push(t);
  return [is, lt + 5];
}

/**
 * The first `<sheetData>` of a worksheet part (line ends already normalised), read without a tree;
 * undefined when it is missing, written in a form this does not read, or preceded by markup that
 * could hide another (a comment, a declaration, a prefixed `sheetData`).
 */
export function scanSheetData(xml: string): ScannedSheetData | undefined {
  const start = xml.indexOf('<sheetData');
  if (start < 0) return undefined;
  const head = xml.slice(0, start);
  if (head.includes('<!') || head.includes(':sheetData')) return undefined;
  const s = new Scanner(xml);
  let p = s.tag(start);
  if (p < 0 || !s.named('sheetData')) return undefined;
  const rows: RawRow[] = [];
  if (s.selfClosing) return { rows, start, end: p };
  for (;;) {
    let lt = s.next(p);
    if (lt < 0) return undefined;
    if (xml.startsWith('</sheetData>', lt)) return { rows, start, end: lt + 12 };
    p = s.tag(lt);
    if (p < 0 || !s.named('row')) return undefined;
    const row: RawRow = { el: { name: 'row', attrs: s.attrs, children: [] }, cells: [] };
    rows.push(row);
    if (s.selfClosing) continue;
    for (;;) {
      lt = s.next(p);
      if (lt < 0) return undefined;
      if (xml.startsWith('</row>', lt)) {
        p = lt + 6;
        break;
      }
      p = s.tag(lt);
      if (p < 0 || !s.named('c')) return undefined;
      const cell: RawCell = {
        el: { name: 'c', attrs: s.attrs, children: [] },
        v: undefined,
        f: undefined,
        is: undefined,
      };
      row.cells.push(cell);
      if (s.selfClosing) continue;
      let seenV = false;
      for (;;) {
        lt = s.next(p);
        if (lt < 0) return undefined;
        if (xml.startsWith('</c>', lt)) {
          p = lt + 4;
          break;
        }
        p = s.tag(lt);
        if (p < 0) return undefined;
        const name = s.name;
        if (name === 'is') {
          const is = readInlineString(s, p);
          if (!is || cell.is) return undefined;
          [cell.is, p] = is;
          continue;
        }
        if (name !== 'v' && name !== 'f') return undefined;
        let content = '';
        if (!s.selfClosing) {
          const read = s.text(p, name === 'v' ? '</v>' : '</f>');
          if (!read) return undefined;
          [content, p] = read;
        }
        if (name === 'v') {
          if (!seenV) cell.v = content;
          seenV = true;
        } else if (!cell.f) cell.f = { name: 'f', attrs: s.attrs, children: content ? [content] : [] };
      }
    }
  }
}

function firstText(el: XmlElement, local: string): string | undefined {
  const found = deep(el, local)[0];
  return found ? textOf(found) : undefined;
}

/** Rows and cells of a `sheetData` element read as a tree: the same as `scanSheetData` gives. */
export function treeRows(sheetData: XmlElement): RawRow[] {
  return kids(sheetData, 'row').map((r) => ({
    el: r,
    cells: kids(r, 'c').map((c) => ({ el: c, v: firstText(c, 'v'), f: deep(c, 'f')[0], is: deep(c, 'is')[0] })),
  }));
}
