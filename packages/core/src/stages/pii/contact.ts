import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { digitsOf, luhnValid } from './checks.ts';
import { contextBefore, eachMatch } from './context.ts';
import type { PiiSpan } from './types.ts';

// An address from the first character of its local part (sticky: tried only where findEmails says).
const EMAIL =
  /[A-Za-z0-9](?:[A-Za-z0-9._%+-]{0,62}[A-Za-z0-9_%+-])?@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}(?![\w-])/y;
const LOCAL_MAX = 64;

/** A character of a local part: letters, digits and . _ % + - (the class of the local part). */
function localChar(c: number): boolean {
  return (
    (c >= 97 && c <= 122) ||
    (c >= 65 && c <= 90) ||
    (c >= 48 && c <= 57) ||
    c === 46 ||
    c === 95 ||
    c === 37 ||
    c === 43 ||
    c === 45
  );
}

/**
 * Addresses are looked for from each '@' back to the start of the run of local-part characters
 * before it: the only place one can start (nothing of that class may precede it). Running the
 * pattern from every letter of the text instead cost more than all other contact checks.
 */
export function findEmails(text: string, out: PiiSpan[]): void {
  let done = 0;
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', Math.max(at + 1, done))) {
    let start = at;
    while (start > 0 && at - start <= LOCAL_MAX && localChar(text.charCodeAt(start - 1))) start--;
    if (at - start > LOCAL_MAX || start < done) continue;
    EMAIL.lastIndex = start;
    const m = EMAIL.exec(text);
    if (!m) continue;
    done = start + m[0].length;
    if (!m[0].includes('..'))
      out.push({ start, end: start + m[0].length, entity: 'EMAIL', validated: true, source: 'pattern' });
  }
}

// Digits with the separators phone numbers are written with, an optional + or 00 and an extension.
const PHONE_CANDIDATE =
  /(?<![\w/.+-])(?:\+|00)?\(?\d[\d\s().-]{5,22}\d(?:\s*(?:x|ext\.?|extension)\s*\d{1,6})?(?![\w/-]|\.\d)/gi;
const PHONE_WORDS =
  /\b(?:phone|tel|telephone|mobile|mob|cell|call|fax|whatsapp|sms|text|contact|reach|ring|dial|landline|hotline|helpline|switchboard)\b[^\n]{0,40}$/i;
const NOT_PHONE_WORDS =
  /\b(?:isbn|issn|order|invoice|ref|reference|id|no|version|v|serial|sku|po|ticket|case)\W{0,3}$/i;
const NANP_SHAPE = /^(?:\+?1[-. ])?(?:\(\d{3}\)[ ]?|\d{3}[-.])\d{3}[-.]\d{4}$/;
const DATE_SHAPE = /^\d{4}[-./]\d{1,2}[-./]\d{1,2}$|^\d{1,2}[-./]\d{1,2}[-./]\d{2,4}$/;

/**
 * Numbers whose acceptance is settled by shape alone, without libphonenumber: NANP punctuation, or
 * +1 and ten digits, are always possible numbers. libphonenumber would first try every country of
 * calling code 1 in turn to name the exact one (most of the time of a PII-dense text), only to
 * accept by length. A leading 011 is the US exit code and goes the long way.
 */
function nanpPossible(main: string, digits: string, nanp: boolean, international: boolean): boolean {
  if (nanp) return !/^\(?011/.test(main);
  return international && digits.length === 11 && /^(?:\+|00)1/.test(main);
}

// Where a number written with a leading trunk 0 ("029 2018 0000", "0151 496 0000") most likely
// comes from when it is no NANP number; tried in turn, only next to a phone word.
const TRUNK_COUNTRIES = ['GB', 'DE', 'FR', 'IE', 'AU', 'NL', 'IT', 'ES'] as const;

function trunkNumber(main: string): boolean {
  if (!/^\(?0[1-9]/.test(main)) return false;
  return TRUNK_COUNTRIES.some((c) => parsePhoneNumberFromString(main, c)?.isPossible() === true);
}

/**
 * Digit counts no number of the US numbering plan (the default region) has, with or without its
 * national prefix 1: checked against libphonenumber's isValid on 1.5 million random numbers.
 */
function neverValidNanp(digits: string): boolean {
  const n = digits.length;
  const one = digits[0] === '1';
  return (n === 9 && !one) || (n === 10 && one) || (n === 11 && !one) || n >= 13;
}

export function findPhones(text: string, out: PiiSpan[]): void {
  eachMatch(PHONE_CANDIDATE, text, (m) => {
    let raw = m[0];
    // The class admits a closing parenthesis or dot of the surrounding sentence; give them back.
    while (/[\s.)-]$/.test(raw) && !/\(\d+\)$/.test(raw)) raw = raw.slice(0, -1);
    const start = m.index;
    const main = raw.replace(/\s*(?:x|ext\.?|extension)\s*\d{1,6}$/i, '');
    const digits = digitsOf(main);
    if (digits.length < 7 || digits.length > 15) return;
    if (DATE_SHAPE.test(main.trim())) return;
    const international = /^(?:\+|00)/.test(main);
    const separated = /[\s().-]/.test(main);
    const context = contextBefore(text, start, PHONE_WORDS);
    if (!international && !separated && !context) return;
    if (!context && contextBefore(text, start, NOT_PHONE_WORDS, 14)) return;
    // Version strings and dotted numbers: a phone written with dots has 3-3-4 style groups.
    if (!international && /\./.test(main) && !/^\(?\d{2,4}\)?\.\d{3,4}\.\d{3,4}$/.test(main)) return;
    const nanp = NANP_SHAPE.test(main);
    // With no phone word and no phone shape only isValid could accept, and it never does for these
    // digit counts (SSNs, IMEIs, ZIP+4 codes, long references): skip libphonenumber for them.
    if (!context && !international && !nanp && neverValidNanp(digits)) return;
    if (!nanpPossible(main, digits, nanp, international)) {
      const normalized = main.startsWith('00') ? `+${main.slice(2)}` : main;
      const phone = parsePhoneNumberFromString(normalized, 'US');
      if (!phone) return;
      // Written the way phone numbers are (NANP punctuation or a leading +), a possible number is
      // enough: area codes outside today's plan are still someone's number or a typo of one.
      // isPossible is a length check; isValid runs every type pattern, so it goes second.
      const phoneShaped = international || nanp;
      if (!(((context || phoneShaped) && phone.isPossible()) || phone.isValid() || (context && trunkNumber(main))))
        return;
    }
    out.push({ start, end: start + raw.length, entity: 'PHONE', validated: false, source: 'pattern' });
  });
  findImeis(text, out);
}

const IMEI = /(?<![\w-])\d{2}[- ]?\d{6}[- ]?\d{6}[- ]?\d(?![\w-])/g;

function findImeis(text: string, out: PiiSpan[]): void {
  eachMatch(IMEI, text, (m) => {
    const digits = digitsOf(m[0]);
    if (!luhnValid(digits)) return;
    const formatted = /^\d{2}-\d{6}-\d{6}-\d$/.test(m[0]);
    if (!formatted && !contextBefore(text, m.index, /\b(?:imei|meid|device id)\b/i, 32)) return;
    out.push({ start: m.index, end: m.index + m[0].length, entity: 'PHONE', validated: true, source: 'pattern' });
  });
}
