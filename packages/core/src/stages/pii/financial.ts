import { abaValid, cardIssuerValid, digitsOf, ibanValid, luhnValid } from './checks.ts';
import { contextBefore, eachMatch } from './context.ts';
import type { PiiSpan } from './types.ts';

const push = (out: PiiSpan[], start: number, text: string, validated: boolean) =>
  out.push({ start, end: start + text.length, entity: 'FINANCIAL', validated, source: 'pattern' });

// 12–19 digits, optionally in groups split by one space or hyphen.
const CARD = /(?<![\w-])\d(?:[ -]?\d){11,18}(?![\w-]|[.,]\d)/g;

function findCards(text: string, out: PiiSpan[]): void {
  eachMatch(CARD, text, (m) => {
    const digits = digitsOf(m[0]);
    if (luhnValid(digits) && cardIssuerValid(digits)) push(out, m.index, m[0], true);
  });
}

const IBAN = /(?<![\w])[A-Z]{2}\d{2}(?:[ -]?[A-Z0-9]){11,30}(?![\w])/g;

function findIbans(text: string, out: PiiSpan[]): void {
  eachMatch(IBAN, text, (m) => {
    // The repetition may swallow a following word written in capitals; shorten until it checks.
    let candidate = m[0];
    while (candidate.length >= 15) {
      if (ibanValid(candidate)) return push(out, m.index, candidate, true);
      const cut = candidate.search(/[ -][A-Z0-9]+$/);
      if (cut < 0) return;
      candidate = candidate.slice(0, cut);
    }
  });
}

const SSN_WORDS = /\b(?:ssn|ssns|social security|social sec\.?|itin|taxpayer id|tax id|tin|ss#|ss no)\b[^\n]{0,24}$/i;
const SSN = /(?<![\w-])(\d{3})([- ]?)(\d{2})\2(\d{4})(?![\w-])/g;

/** US SSN and ITIN: area/group/serial rules; the undashed form only next to its name. */
function findSsns(text: string, out: PiiSpan[]): void {
  eachMatch(SSN, text, (m) => {
    const [, area = '', sep, group = '', serial = ''] = m;
    const context = contextBefore(text, m.index, SSN_WORDS);
    if (!sep && !context) return;
    if (group === '00' || serial === '0000') return;
    const a = Number(area);
    const g = Number(group);
    if (area[0] === '9') {
      // ITINs: 9xx with group 50–65, 70–88, 90–92 or 94–99.
      const itin = (g >= 50 && g <= 65) || (g >= 70 && g <= 88) || (g >= 90 && g <= 92) || g >= 94;
      if (!itin) return;
    } else if (a === 0 || a === 666) return;
    if (!context && sep === ' ') return;
    push(out, m.index, m[0], false);
  });
}

// A label saying what follows is an account, routing or sort code, or SWIFT/BIC, up to where its value
// would start. Values are looked for only there: scanning every number of a text for a label
// before it cost more than the rest of the financial pass on document text.
const ACCOUNT_LABEL =
  /\b(?:account|acct|a\/c|acc|routing|aba|sort code|bsb|swift|bic|bank|iban|checking|savings|kontonummer|konto|rib|clabe)\b(?:\s*(?:no\.?|number|num|#|nr\.?|code))?\s*[:#=]?\s*/gi;
const ACCOUNT_VALUE = /(?<![\w-])(?:\d[\d -]{4,20}\d|[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?)(?![\w-])/y;

/** Bank account, routing, sort code and SWIFT values: only right after a label saying so. */
function findAccounts(text: string, out: PiiSpan[]): void {
  eachMatch(ACCOUNT_LABEL, text, (label) => {
    const at = label.index + label[0].length;
    ACCOUNT_VALUE.lastIndex = at;
    const m = ACCOUNT_VALUE.exec(text);
    if (!m) return;
    const digits = digitsOf(m[0]);
    if (/^\d/.test(m[0]) && (digits.length < 6 || digits.length > 20)) return;
    push(out, at, m[0], digits.length === 9 && abaValid(digits));
  });
}

const BTC_LEGACY = /(?<![\w])[13][a-km-zA-HJ-NP-Z1-9]{25,34}(?![\w])/g;
const BTC_BECH32 = /(?<![\w])(?:bc1|tb1)[ac-hj-np-z02-9]{11,71}(?![\w])/gi;
const ETH = /(?<![\w])0x[a-fA-F0-9]{40}(?![\w])/g;

function findWallets(text: string, out: PiiSpan[]): void {
  eachMatch(BTC_LEGACY, text, (m) => {
    // Base58 without 0/O/I/l; real addresses mix cases and digits, words do not.
    if (/[a-z]/.test(m[0]) && /[A-Z]/.test(m[0]) && /\d.*\d/.test(m[0].slice(1))) push(out, m.index, m[0], false);
  });
  eachMatch(BTC_BECH32, text, (m) => push(out, m.index, m[0], false));
  eachMatch(ETH, text, (m) => push(out, m.index, m[0], true));
}

export function findFinancial(text: string, out: PiiSpan[]): void {
  if (/\d/.test(text)) {
    findCards(text, out);
    findIbans(text, out);
    findSsns(text, out);
    findAccounts(text, out);
  }
  findWallets(text, out);
}
