/**
 * Reading typed values out of document text: amounts with thousands separators and currency,
 * percentages, dates in the common written forms (returned as ISO 8601), booleans and identifiers.
 * Each reader returns the value and where it ended, so callers can judge how close it sat to a label.
 */

export interface Found<T> {
  value: T;
  /** Offset of the value's first character in the searched text. */
  index: number;
  end: number;
}

const CURRENCY = /[$€£¥₹]|\b(?:USD|EUR|GBP|CHF|CAD|AUD|JPY)\b/;
// A trailing currency mark counts only when no amount follows it: in "$-50.00 $299.99" the second
// "$" opens the next amount.
const NUMBER_RE =
  /(\()?([-−+]?)\s?((?:[$€£¥₹]|(?:USD|EUR|GBP|CHF|CAD|AUD|JPY)\s?)?)\s?([-−]?)(\d{1,3}(?:[,.'’]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?)(\s?(?:[$€£¥₹]|(?:USD|EUR|GBP|CHF|CAD|AUD|JPY)\b)(?!\s?[-−+]?\d))?(\))?(\s?%)?/g;

export interface NumberToken extends Found<number> {
  currency: boolean;
  percent: boolean;
}

/** Decimal value of a digit group, deciding which of `,` and `.` separates thousands. */
export function numberValue(digits: string): number {
  const lastComma = digits.lastIndexOf(',');
  const lastDot = digits.lastIndexOf('.');
  let s = digits.replace(/['’]/g, '');
  if (lastComma >= 0 && lastDot >= 0) {
    s = lastComma > lastDot ? s.replace(/\./g, '').replace(',', '.') : s.replace(/,/g, '');
  } else if (lastComma >= 0) {
    // "1,234" and "12,345,678" group thousands; "12,5" is a decimal comma.
    s = /^\d{1,3}(,\d{3})+$/.test(s) ? s.replace(/,/g, '') : s.replace(',', '.');
  } else if (lastDot >= 0 && /^\d{1,3}(\.\d{3}){2,}$/.test(s)) s = s.replace(/\./g, '');
  return Number(s);
}

/** Every number in `text`, in order, with its currency and percent marks. */
export function numbers(text: string): NumberToken[] {
  const out: NumberToken[] = [];
  for (const m of text.matchAll(NUMBER_RE)) {
    const [all, open, sign, cur, sign2, digits, suffix, close, pct] = m;
    if (!digits) continue;
    // The pattern may open on the space before a currency sign; the value starts after it.
    const index = (m.index ?? 0) + all.length - all.trimStart().length;
    // A digit glued to letters ("7-in-1", "2TB", "A-12") is part of a word, not a quantity.
    const before = text[index - 1] ?? ' ';
    const after = text[(m.index ?? 0) + all.length] ?? ' ';
    if (/[\p{L}_]/u.test(before) || /[\p{L}_]/u.test(after)) continue;
    // Parts of dates and fractions ("12/20/24", "1/2") are not amounts.
    // …and a number hyphenated to a word ("7-in-1") is part of a name.
    if (
      before === '/' ||
      after === '/' ||
      (after === '-' && /[\p{L}\d]/u.test(text[(m.index ?? 0) + all.length + 1] ?? ''))
    )
      continue;
    if (!sign && !sign2 && before === '-' && /[\p{L}\p{N}]/u.test(text[index - 2] ?? ' ')) continue;
    let value = numberValue(digits);
    if (!Number.isFinite(value)) continue;
    const negative = /[-−]/.test(sign ?? '') || /[-−]/.test(sign2 ?? '') || (open === '(' && close === ')');
    if (negative) value = -value;
    out.push({
      value,
      index,
      end: (m.index ?? 0) + all.length,
      currency: CURRENCY.test(`${cur ?? ''}${suffix ?? ''}`),
      percent: !!pct,
    });
  }
  return out;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const pad = (n: number) => String(n).padStart(2, '0');
const monthOf = (word: string) => MONTHS.indexOf(word.slice(0, 3).toLowerCase()) + 1;
const fullYear = (y: string) => (y.length === 2 ? 2000 + Number(y) : Number(y));

function iso(y: number, m: number, d: number): string | undefined {
  if (m < 1 || m > 12 || d < 1 || d > 31 || y < 1000 || y > 9999) return undefined;
  const probe = new Date(Date.UTC(y, m - 1, d));
  if (probe.getUTCMonth() !== m - 1) return undefined;
  return `${y}-${pad(m)}-${pad(d)}`;
}

const DATE_FORMS: { re: RegExp; read(m: RegExpExecArray): string | undefined }[] = [
  { re: /\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b/g, read: (m) => iso(Number(m[1]), Number(m[2]), Number(m[3])) },
  {
    // Slashes read month first (US usage) unless the first part cannot be a month; dots read day first.
    re: /\b(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})\b/g,
    read: (m) => {
      const a = Number(m[1]);
      const b = Number(m[3]);
      const y = fullYear(m[4] ?? '');
      const dayFirst = m[2] === '.' || a > 12;
      return dayFirst ? iso(y, b, a) : iso(y, a, b);
    },
  },
  {
    re: /\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?([A-Za-z]{3,9})\.?,?\s+(\d{4})\b/g,
    read: (m) => (monthOf(m[2] ?? '') ? iso(Number(m[3]), monthOf(m[2] ?? ''), Number(m[1])) : undefined),
  },
  {
    re: /\b([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b/g,
    read: (m) => (monthOf(m[1] ?? '') ? iso(Number(m[3]), monthOf(m[1] ?? ''), Number(m[2])) : undefined),
  },
];

/** The first calendar date in `text`, as `YYYY-MM-DD`. */
export function firstDate(text: string): Found<string> | undefined {
  let best: Found<string> | undefined;
  for (const form of DATE_FORMS) {
    form.re.lastIndex = 0;
    for (let m = form.re.exec(text); m; m = form.re.exec(text)) {
      const value = form.read(m);
      if (value && (!best || m.index < best.index)) best = { value, index: m.index, end: m.index + m[0].length };
      if (value) break;
    }
  }
  return best;
}

/** A date followed by a time of day, as `YYYY-MM-DDTHH:MM:SS`, else the date alone. */
export function firstDateTime(text: string): Found<string> | undefined {
  const d = firstDate(text);
  if (!d) return undefined;
  const t = /^[\sT,]*(?:at\s+)?(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?/.exec(text.slice(d.end));
  if (!t) return d;
  let h = Number(t[1]);
  if (t[4]?.toLowerCase() === 'pm' && h < 12) h += 12;
  if (t[4]?.toLowerCase() === 'am' && h === 12) h = 0;
  return { value: `${d.value}T${pad(h)}:${t[2]}:${t[3] ?? '00'}`, index: d.index, end: d.end + t[0].length };
}

const TRUE_WORDS = /^(?:yes|y|true|on|checked|x|☒|☑|✓|✔|1)$/i;
const FALSE_WORDS = /^(?:no|n|false|off|unchecked|☐|✗|✘|0|none)$/i;

export function booleanValue(text: string): boolean | undefined {
  const word = text
    .replace(/^[\s:#\-–—|]+/, '')
    .trim()
    .split(/[\s,;.]+/)[0]
    ?.replace(/[[\]()]/g, '');
  if (word === undefined) return undefined;
  if (TRUE_WORDS.test(word)) return true;
  if (FALSE_WORDS.test(word)) return false;
  return undefined;
}

const ID_TOKEN = /[A-Za-z0-9][A-Za-z0-9\-_/.#]*[A-Za-z0-9]|[A-Za-z0-9]/g;

/** The first code-like token (holds a digit, or is an upper-case code with a hyphen), within `maxTokens`. */
export function firstIdentifier(text: string, maxTokens = 3): Found<string> | undefined {
  let seen = 0;
  for (const m of text.matchAll(ID_TOKEN)) {
    const tok = m[0];
    if (/\d/.test(tok) || /^[A-Z]+(?:-[A-Z0-9]+)+$/.test(tok))
      return { value: tok, index: m.index ?? 0, end: (m.index ?? 0) + tok.length };
    if (++seen >= maxTokens) break;
  }
  return undefined;
}

export function firstEmail(text: string): Found<string> | undefined {
  const m = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/.exec(text);
  return m ? { value: m[0], index: m.index, end: m.index + m[0].length } : undefined;
}

export function firstPhone(text: string): Found<string> | undefined {
  const m = /\+?\(?\d[\d\s().-]{6,}\d/.exec(text);
  return m && m[0].replace(/\D/g, '').length >= 7
    ? { value: m[0].trim(), index: m.index, end: m.index + m[0].length }
    : undefined;
}

export const norm = (s: string): string =>
  s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** The enum member `text` names: equal after normalization, else the one whose words it contains. */
export function enumValue(text: string, members: readonly unknown[]): unknown {
  const t = norm(text);
  const exact = members.find((m) => norm(String(m)) === t);
  if (exact !== undefined) return exact;
  const padded = ` ${t} `;
  const hits = members.filter((m) => norm(String(m)) && padded.includes(` ${norm(String(m))} `));
  return hits.length === 1 ? hits[0] : undefined;
}
