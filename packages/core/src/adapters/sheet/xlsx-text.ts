import { isElement, localName, type XmlElement, type XmlNode } from '../../util/xml.ts';

/**
 * Text and cell-reference rules of the XLSX reader. The workbook reader replaced SheetJS for XLSX
 * and XLSM and had to show every value as SheetJS did, so these follow SheetJS's readings where
 * they differ from a plain XML reading (named in each comment); the XML itself is decoded by
 * `util/xml.ts`.
 */

/** `_xHHHH_`, OOXML's escape for characters XML cannot carry (`_x000D_`), decoded in all text. */
export function unescapeOoxml(s: string): string {
  if (!s.includes('_')) return s;
  return s.replace(/_x([\da-fA-F]{4})_/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

const NAMED: Record<string, string> = { '&quot;': '"', '&apos;': "'", '&gt;': '>', '&lt;': '<', '&amp;': '&' };

function unescapeOnce(s: string): string {
  return unescapeOoxml(
    s.replace(/&(?:quot|apos|gt|lt|amp|#x?([\da-fA-F]+));/gi, (m: string, code: string | undefined) => {
      const named = NAMED[m];
      if (named !== undefined) return named;
      return String.fromCharCode(Number.parseInt(code ?? '', m.includes('x') ? 16 : 10)) || m;
    }),
  );
}

/**
 * A second round of unescaping over already decoded text, as SheetJS gives the cached result of a
 * string formula (`t="str"`): `&amp;lt;` shows as `<`.
 */
export function unescapeAgain(s: string): string {
  const at = s.indexOf('<![CDATA[');
  if (at < 0) return s.includes('&') || s.includes('_') ? unescapeOnce(s) : s;
  const end = s.indexOf(']]>');
  return unescapeOnce(s.slice(0, at)) + s.slice(at + 9, end) + unescapeAgain(s.slice(end + 3));
}

/** Character data of an element and its descendants, as written (no run structure). */
function flatText(nodes: readonly XmlNode[]): string {
  let s = '';
  for (const n of nodes) s += typeof n === 'string' ? n : flatText(n.children);
  return s;
}

/** The `t` elements of a rich-text string in order, phonetic runs (`rPh`) left out. */
function runTexts(el: XmlElement, out: string[]): void {
  for (const c of el.children) {
    if (!isElement(c)) continue;
    const local = localName(c.name);
    if (local === 'rPh') continue;
    if (local === 't') {
      // A `t` holding markup is not text SheetJS's pattern took.
      if (c.children.every((n) => typeof n === 'string')) out.push(flatText(c.children));
      continue;
    }
    runTexts(c, out);
  }
}

const hasRun = (el: XmlElement): boolean =>
  el.children.some((c) => isElement(c) && (localName(c.name) === 'r' || hasRun(c)));

/**
 * The text of a string item (`si` of the shared strings, `is` of an inline string, a comment's
 * `text`): its first `t` when it starts with one (anything after, a phonetic reading, is left out),
 * else every run's text joined; undefined when it has neither.
 */
export function stringItem(el: XmlElement | undefined): string | undefined {
  if (!el) return '';
  const first = el.children.find((c) => isElement(c) || c.trim() !== '');
  if (first === undefined) return '';
  if (isElement(first) && localName(first.name).startsWith('t'))
    return unescapeOoxml(flatText(first.children)).replace(/\r\n/g, '\n');
  if (!hasRun(el)) return undefined;
  const parts: string[] = [];
  runTexts(el, parts);
  return unescapeOoxml(parts.join('')).replace(/\r\n/g, '\n');
}

export interface CellAddress {
  r: number;
  c: number;
}

/** A1 reference to a 0-based position; digits and capitals are read wherever they stand (`$A$1`). */
export function decodeCell(ref: string): CellAddress {
  let r = 0;
  let c = 0;
  for (let i = 0; i < ref.length; i++) {
    const cc = ref.charCodeAt(i);
    if (cc >= 48 && cc <= 57) r = 10 * r + (cc - 48);
    else if (cc >= 65 && cc <= 90) c = 26 * c + (cc - 64);
  }
  return { c: c - 1, r: r - 1 };
}

export function encodeCell(at: CellAddress): string {
  let s = '';
  for (let col = at.c + 1; col; col = ((col - 1) / 26) | 0) s = String.fromCharCode(((col - 1) % 26) + 65) + s;
  return s + (at.r + 1);
}

export interface Range {
  s: CellAddress;
  e: CellAddress;
}

/** `A1:B2` to a range; a damaged reference reads as far as it goes (no exception). */
export function decodeRange(range: string): Range {
  const o = { s: { c: 0, r: 0 }, e: { c: 0, r: 0 } };
  const len = range.length;
  let i = 0;
  let idx = 0;
  let cc = 0;
  for (idx = 0; i < len; i++) {
    cc = range.charCodeAt(i) - 64;
    if (cc < 1 || cc > 26) break;
    idx = 26 * idx + cc;
  }
  o.s.c = idx - 1;
  for (idx = 0; i < len; i++) {
    cc = range.charCodeAt(i) - 48;
    if (cc < 0 || cc > 9) break;
    idx = 10 * idx + cc;
  }
  o.s.r = idx - 1;
  if (i === len || cc !== 10) {
    o.e.c = o.s.c;
    o.e.r = o.s.r;
    return o;
  }
  i++;
  for (idx = 0; i !== len; i++) {
    cc = range.charCodeAt(i) - 64;
    if (cc < 1 || cc > 26) break;
    idx = 26 * idx + cc;
  }
  o.e.c = idx - 1;
  for (idx = 0; i !== len; i++) {
    cc = range.charCodeAt(i) - 48;
    if (cc < 0 || cc > 9) break;
    idx = 10 * idx + cc;
  }
  o.e.r = idx - 1;
  return o;
}

/** xsd:boolean; anything else is false. */
export const parseBool = (v: string | undefined): boolean => v === '1' || v === 'true';

const DAY = 24 * 60 * 60 * 1000;
const EPOCH = Date.UTC(1899, 11, 30);
const EPOCH_1900_TIME = Date.UTC(1899, 11, 31);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

/** Excel serial of a date (1900 system keeps Excel's phantom 29 February 1900). */
export function dateToSerial(v: Date, date1904: boolean): number {
  const res = (v.getTime() - EPOCH) / DAY;
  if (date1904) {
    const shifted = res - 1462;
    return shifted < -1402 ? shifted - 1 : shifted;
  }
  return res < 60 ? res - 1 : res;
}

/** The date of a serial; 60 (the phantom 29 February 1900) stays a number. */
export function serialToDate(v: number): Date | number {
  if (v >= 60 && v < 61) return v;
  // Multiplied step by step, as SheetJS did: the rounding shows in the milliseconds.
  return new Date((v > 60 ? v : v + 1) * 24 * 60 * 60 * 1000 + EPOCH);
}

const TIME = /^(\d+):(\d+)(:\d+)?(\.\d+)?$/;
const DATE = /^(\d+)-(\d+)-(\d+)$/;
const DATE_TIME = /^(\d+)-(\d+)-(\d+)[T ](\d+):(\d+)(:\d+)?(\.\d+)?$/;

/** An ISO 8601 date cell (`t="d"`) as a UTC date; anything else as `Date` reads it. */
export function parseIsoDate(s: string, date1904: boolean): Date {
  let m = TIME.exec(s);
  if (m) {
    const seconds = (Number.parseInt(m[1] as string, 10) * 60 + Number.parseInt(m[2] as string, 10)) * 60;
    const extra = m[3] ? Number.parseInt(m[3].slice(1), 10) : 0;
    const ms = m[4] ? Number.parseInt(`${m[4]}000`.slice(1, 4), 10) : 0;
    return new Date((date1904 ? EPOCH_1904 : EPOCH_1900_TIME) + (seconds + extra) * 1000 + ms);
  }
  m = DATE.exec(s);
  if (m) return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 0, 0, 0, 0));
  m = DATE_TIME.exec(s);
  if (m)
    return new Date(
      Date.UTC(
        Number(m[1]),
        Number(m[2]) - 1,
        Number(m[3]),
        Number(m[4]),
        Number(m[5]),
        (m[6] && Number.parseInt(m[6].slice(1), 10)) || 0,
        (m[7] && Number.parseInt(`${m[7]}0000`.slice(1, 4), 10)) || 0,
      ),
    );
  return new Date(s);
}
