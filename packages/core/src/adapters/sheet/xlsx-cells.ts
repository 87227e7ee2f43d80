import { attr, deep, kids, textOf, type XmlElement } from '../../util/xml.ts';
import { decodeEntities, NextChar, prototypeName } from '../../util/xml-reader.ts';

/**
 * The cells of a worksheet's `<sheetData>` and the items of a shared-strings part read straight
 * from the part's text, with no element tree: most of a workbook is its cells, and building a tree
 * for them (an element, an attribute map and strings for every `<c>` and `<v>`) was the largest
 * share of an XLSX parse.
 *
 * It reads only the shape spreadsheet writers use: unprefixed `row`, `c`, `v` and `f` elements with
 * attributes written `name="value"`, whitespace between them, text inside `v` and `f`, inline and
 * shared strings of one plain `t`. On anything else (rich text, a prefix, a comment, an extension
 * element, an unusual tag) it returns undefined and the caller reads the part as a tree, so the
 * cells come out the same either way. A section it does read is well-formed, so the rest of the
 * part, parsed as a tree with the section left out, is well-formed exactly when the whole part is.
 */

/** One `<c>` as the cell reader needs it: the attributes it reads, first `v`'s text and first `f`. */
export interface RawCell {
  r: string | undefined;
  s: string | undefined;
  t: string | undefined;
  v: string | undefined;
  f: XmlElement | undefined;
  /** The first inline string (`is`). */
  is: XmlElement | undefined;
}

export interface RawRow {
  r: string | undefined;
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
const COLON = 58;
const R = 114;
const S = 115;
const T = 116;

const isBlank = (c: number) => c === SPACE || c === LF || c === TAB || c === CR;

class Scanner {
  /** The last tag's `r`, `s` and `t` (read without `collect`), or all its attributes (with it). */
  r: string | undefined;
  s: string | undefined;
  t: string | undefined;
  attrs: Record<string, string> = {};
  selfClosing = false;
  /** Where the text `text` read ends (after its end tag). */
  after = 0;

  /** Where the next '<' and '&' are: a value holding '<' is left to the tree reader, one holding '&' is decoded. */
  private readonly angles: NextChar;
  private readonly amps: NextChar;

  constructor(readonly xml: string) {
    this.angles = new NextChar(xml, '<');
    this.amps = new NextChar(xml, '&');
  }

  /** Whether the tag at `lt` is `<name` followed by a space, '>' or '/'. */
  is(lt: number, name: string): boolean {
    const xml = this.xml;
    if (!xml.startsWith(name, lt + 1)) return false;
    const c = xml.charCodeAt(lt + 1 + name.length);
    return isBlank(c) || c === GT || c === SLASH;
  }

  /**
   * Reads the attributes of the start tag `<name …>` at `lt` (known to be `name`) written the plain
   * way: the index after its '>', or -1 for any other form. `collect` keeps every attribute in
   * `attrs`; otherwise only `r`, `s` and `t` are kept, and a prefixed one of those (`x:r`, which the
   * tree's `attr` would find) makes it -1.
   */
  tag(lt: number, name: string, collect: boolean): number {
    const xml = this.xml;
    const n = xml.length;
    let p = lt + 1 + name.length;
    let c = xml.charCodeAt(p);
    // Only a collecting read needs a map of its own (the element it becomes keeps it).
    const attrs: Record<string, string> = collect ? {} : this.attrs;
    if (collect) this.attrs = attrs;
    this.r = undefined;
    this.s = undefined;
    this.t = undefined;
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
      const len = p - start;
      if (len === 0 || (quote !== DQUOTE && quote !== SQUOTE)) return -1;
      const close = xml.indexOf(quote === DQUOTE ? '"' : "'", p + 2);
      if (close < 0) return -1;
      // Names the tree reader renames or refuses are left to it (the shortest, valueOf, has 7 characters).
      if (len >= 7 && prototypeName(xml.slice(start, p))) return -1;
      const last = xml.charCodeAt(p - 1);
      const one = len === 1 ? last : 0;
      if (collect || one === R || one === S || one === T) {
        if (this.angles.find(p + 2) < close) return -1;
        let raw = xml.slice(p + 2, close);
        if (this.amps.find(p + 2) < close) raw = decodeEntities(raw);
        if (collect) attrs[xml.slice(start, p)] = raw;
        else if (one === R) this.r = raw;
        else if (one === S) this.s = raw;
        else this.t = raw;
      } else if (len > 2 && xml.charCodeAt(p - 2) === COLON && (last === R || last === S || last === T)) return -1;
      else if (this.angles.find(p + 2) < close) return -1;
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

  /** Text from `from` up to the end tag `close` right after it (`after` set past it), or undefined. */
  text(from: number, close: string): string | undefined {
    const xml = this.xml;
    const lt = this.angles.find(from);
    if (!xml.startsWith(close, lt)) return undefined;
    const raw = xml.slice(from, lt);
    this.after = lt + close.length;
    return this.amps.find(from) < lt ? decodeEntities(raw) : raw;
  }

  /** A plain `<t>` at `lt` as an element (`after` set past it), or undefined. */
  plainT(lt: number): XmlElement | undefined {
    if (!this.is(lt, 't')) return undefined;
    const p = this.tag(lt, 't', true);
    if (p < 0) return undefined;
    const t: XmlElement = { name: 't', attrs: this.attrs, children: [] };
    this.after = p;
    if (this.selfClosing) return t;
    const text = this.text(p, '</t>');
    if (text === undefined) return undefined;
    if (text) t.children.push(text);
    return t;
  }

  /**
   * The string item (`si`, `is`) whose start tag ends at `from`, if it is empty or one plain `t`,
   * as the element the string reader takes (`after` set past its end tag `close`).
   */
  item(el: XmlElement, from: number, close: string): XmlElement | undefined {
    this.after = from;
    if (this.selfClosing) return el;
    let lt = this.next(from);
    if (lt < 0) return undefined;
    if (!this.xml.startsWith(close, lt)) {
      const t = this.plainT(lt);
      if (!t) return undefined;
      el.children.push(t);
      lt = this.next(this.after);
      if (lt < 0 || !this.xml.startsWith(close, lt)) return undefined;
    }
    this.after = lt + close.length;
    return el;
  }
}

/** The `<c>` whose start tag ends at `p` (its `r`, `s`, `t` read): the cell, `after` past it. */
function scanCell(s: Scanner, p: number): RawCell | undefined {
  const xml = s.xml;
  const cell: RawCell = { r: s.r, s: s.s, t: s.t, v: undefined, f: undefined, is: undefined };
  s.after = p;
  if (s.selfClosing) return cell;
  let seenV = false;
  for (;;) {
    const lt = s.next(p);
    if (lt < 0) return undefined;
    if (xml.startsWith('</c>', lt)) {
      s.after = lt + 4;
      return cell;
    }
    if (s.is(lt, 'v')) {
      p = s.tag(lt, 'v', false);
      if (p < 0) return undefined;
      let text = '';
      if (!s.selfClosing) {
        const read = s.text(p, '</v>');
        if (read === undefined) return undefined;
        text = read;
        p = s.after;
      }
      if (!seenV) cell.v = text;
      seenV = true;
    } else if (s.is(lt, 'f')) {
      p = s.tag(lt, 'f', true);
      if (p < 0) return undefined;
      const f: XmlElement = { name: 'f', attrs: s.attrs, children: [] };
      if (!s.selfClosing) {
        const read = s.text(p, '</f>');
        if (read === undefined) return undefined;
        if (read) f.children.push(read);
        p = s.after;
      }
      cell.f ??= f;
    } else if (s.is(lt, 'is')) {
      p = s.tag(lt, 'is', true);
      if (p < 0 || cell.is) return undefined;
      cell.is = s.item({ name: 'is', attrs: s.attrs, children: [] }, p, '</is>');
      if (!cell.is) return undefined;
      p = s.after;
    } else return undefined;
  }
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
  if (!s.is(start, 'sheetData')) return undefined;
  let p = s.tag(start, 'sheetData', false);
  if (p < 0) return undefined;
  const rows: RawRow[] = [];
  if (s.selfClosing) return { rows, start, end: p };
  for (;;) {
    let lt = s.next(p);
    if (lt < 0) return undefined;
    if (xml.startsWith('</sheetData>', lt)) return { rows, start, end: lt + 12 };
    if (!s.is(lt, 'row')) return undefined;
    p = s.tag(lt, 'row', false);
    if (p < 0) return undefined;
    const row: RawRow = { r: s.r, cells: [] };
    rows.push(row);
    if (s.selfClosing) continue;
    for (;;) {
      lt = s.next(p);
      if (lt < 0) return undefined;
      if (xml.startsWith('</row>', lt)) {
        p = lt + 6;
        break;
      }
      if (!s.is(lt, 'c')) return undefined;
      p = s.tag(lt, 'c', false);
      const cell = p < 0 ? undefined : scanCell(s, p);
      if (!cell) return undefined;
      row.cells.push(cell);
      p = s.after;
    }
  }
}

/** What `scanSharedStrings` read: the items, and where the root's content starts and ends. */
export interface ScannedStrings {
  items: XmlElement[];
  start: number;
  end: number;
}

/** Markup before the root that is only the XML declaration (or other processing instructions). */
const PROLOG = /^(?:\s|<\?[^<>]*\?>)*$/;

/**
 * The items of a shared-strings part (`<sst>` of `<si>`s of one plain `t` each: what writers produce
 * without rich text) read without a tree, as the `si` elements the string reader takes; undefined
 * for anything else (rich runs, phonetic text, prefixes, comments), which the tree then reads.
 */
export function scanSharedStrings(xml: string): ScannedStrings | undefined {
  const open = xml.indexOf('<sst');
  if (open < 0 || !PROLOG.test(xml.slice(0, open))) return undefined;
  const s = new Scanner(xml);
  if (!s.is(open, 'sst')) return undefined;
  let p = s.tag(open, 'sst', false);
  if (p < 0 || s.selfClosing) return undefined;
  const start = p;
  const items: XmlElement[] = [];
  for (;;) {
    const lt = s.next(p);
    if (lt < 0) return undefined;
    if (xml.startsWith('</sst>', lt)) return { items, start, end: lt };
    if (!s.is(lt, 'si')) return undefined;
    p = s.tag(lt, 'si', true);
    const si = p < 0 ? undefined : s.item({ name: 'si', attrs: s.attrs, children: [] }, p, '</si>');
    if (!si) return undefined;
    items.push(si);
    p = s.after;
  }
}

function firstText(el: XmlElement, local: string): string | undefined {
  const found = deep(el, local)[0];
  return found ? textOf(found) : undefined;
}

/** Rows and cells of a `sheetData` element read as a tree: the same as `scanSheetData` gives. */
export function treeRows(sheetData: XmlElement): RawRow[] {
  return kids(sheetData, 'row').map((r) => ({
    r: attr(r, 'r'),
    cells: kids(r, 'c').map((c) => ({
      r: attr(c, 'r'),
      s: attr(c, 's'),
      t: attr(c, 't'),
      v: firstText(c, 'v'),
      f: deep(c, 'f')[0],
      is: deep(c, 'is')[0],
    })),
  }));
}
