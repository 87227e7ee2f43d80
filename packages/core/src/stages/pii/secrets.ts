import { charClasses, entropy } from './checks.ts';
import { eachMatch } from './context.ts';
import type { PiiSpan } from './types.ts';

const push = (out: PiiSpan[], start: number, end: number, validated: boolean) =>
  out.push({ start, end, entity: 'SECRET', validated, source: 'pattern' });

/**
 * Credentials that announce themselves by prefix: cloud (AWS, Google, Azure storage, DigitalOcean),
 * VCS (GitHub, GitLab, Bitbucket), chat (Slack, Discord webhooks, Telegram), payment (Stripe, Square,
 * PayPal/Braintree), LLM providers (OpenAI, Anthropic, Hugging Face, Groq, Replicate) and package
 * registries (npm, PyPI).
 */
const PREFIXED = new RegExp(
  [
    /(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}/,
    /AIza[0-9A-Za-z_-]{35}/,
    /ya29\.[0-9A-Za-z_-]{20,}/,
    /dop_v1_[a-f0-9]{64}/,
    /gh[pousr]_[A-Za-z0-9]{36,255}/,
    /github_pat_[A-Za-z0-9_]{22,255}/,
    /glpat-[A-Za-z0-9_-]{20,}/,
    /ATBB[A-Za-z0-9_=.-]{28,}/,
    /xox[abposr]-[A-Za-z0-9-]{10,}/,
    /xapp-\d-[A-Za-z0-9-]{10,}/,
    /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/]+/,
    /https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/\d+\/[A-Za-z0-9_-]+/,
    /\d{8,10}:AA[A-Za-z0-9_-]{33}/,
    /(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/,
    /whsec_[A-Za-z0-9]{24,}/,
    /sq0(?:atp|csp)-[A-Za-z0-9_-]{22,}/,
    /access_token\$production\$[a-z0-9]{16}\$[a-f0-9]{32}/,
    /sk-ant-[A-Za-z0-9_-]{20,}/,
    /sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/,
    /hf_[A-Za-z0-9]{30,}/,
    /gsk_[A-Za-z0-9]{40,}/,
    /r8_[A-Za-z0-9]{30,}/,
    /npm_[A-Za-z0-9]{36}/,
    /pypi-[A-Za-z0-9_-]{50,}/,
    /SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/,
    /shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}/,
    /AccountKey=[A-Za-z0-9+/=]{40,}/,
  ]
    .map((r) => r.source)
    .join('|'),
  'g',
);

const PEM =
  /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)/g;
const JWT = /(?<![\w-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}(?![\w-])/g;

// A label then a value: `password: x`, `api_key = "…"`, `Authorization: Bearer …`.
// The label may close a longer key: `db_password`, `smtp-token` (after `_`/`-`), `smtpPassword`
// (camelCase, in CAMEL_LABELLED: the case-insensitive flag cannot tell the capital apart).
const LABELLED =
  /(?:\b|[a-z0-9][_-])(pass(?:word|wd|code|phrase)?|pwd|pin|secret(?:[_ -]?key)?|client[_ -]?secret|(?:access|auth|api|bearer|refresh|session|private)[_ -]?(?:token|key)|token|api[_ -]?key|apikey|authorization|bearer)\b["']?\s*(?:[:=]|is|=>)?\s*(?:bearer\s+)?["'`]?([^\s"'`,;]{4,200})/gi;

const CAMEL_LABELLED =
  /[a-z0-9](Pass(?:word|wd|code|phrase)|Pwd|Pin|Secret(?:Key)?|Token|ApiKey|AccessToken|AuthToken|PrivateKey)\b["']?\s*(?:[:=]|=>)\s*["'`]?([^\s"'`,;]{4,200})/g;

// Substrings every label of LABELLED contains; `includes` over a lower-cased copy is far cheaper
// than running the regex over text that has none of them.
const LABEL_HINTS = ['pass', 'pwd', 'pin', 'secret', 'token', 'key', 'auth', 'bearer'];

function findLabelled(text: string, out: PiiSpan[]): void {
  const lower = text.toLowerCase();
  if (!LABEL_HINTS.some((h) => lower.includes(h))) return;
  const labelled = (m: RegExpExecArray) => {
    const label = (m[1] ?? '').toLowerCase();
    const value = (m[2] ?? '').replace(/[.)\]]+$/, '');
    const start = m.index + m[0].length - (m[2] ?? '').length;
    const isPassword = /^(?:pass|pwd|pin)/.test(label);
    if (/^(?:<|\*{3}|x{4}|\[redacted)/i.test(value)) return;
    if (isPassword) {
      // A password is a password whatever its strength, but not the next word of a sentence.
      if (label === 'pin' ? !/^\d{4,8}$/.test(value) : value.length < 6 || charClasses(value) < 2) return;
    } else if (value.length < 12 || entropy(value) < 3 || charClasses(value) < 2) return;
    push(out, start, start + value.length, false);
  };
  eachMatch(LABELLED, text, labelled);
  eachMatch(CAMEL_LABELLED, text, labelled);
}

const PASSPORT = /\bpassport\b(?:\s*(?:no\.?|number|num|#|nr\.?))?\s*[:#]?\s*([A-Z0-9]{6,9})(?![\w-])/gi;
const LICENCE =
  /\b(?:driver'?s?|driving|medical|dea|npi)\s+licen[cs]e\b(?:\s*(?:no\.?|number|num|#|nr\.?))?\s*[:#]?\s*([A-Z0-9][A-Z0-9-]{4,16})(?![\w-])|\b(?:dl|npi|dea)\s*(?:no\.?|number|#)?\s*[:#]\s*([A-Z0-9][A-Z0-9-]{4,16})(?![\w-])/gi;

function findDocumentNumbers(text: string, out: PiiSpan[]): void {
  for (const re of [PASSPORT, LICENCE]) {
    eachMatch(re, text, (m) => {
      const value = m[1] ?? m[2] ?? '';
      if (!/\d/.test(value)) return;
      const start = m.index + m[0].length - value.length;
      push(out, start, start + value.length, false);
    });
  }
}

export function findSecrets(text: string, out: PiiSpan[]): void {
  eachMatch(PREFIXED, text, (m) => push(out, m.index, m.index + m[0].length, true));
  if (text.includes('-----BEGIN')) eachMatch(PEM, text, (m) => push(out, m.index, m.index + m[0].length, true));
  if (text.includes('eyJ')) eachMatch(JWT, text, (m) => push(out, m.index, m.index + m[0].length, true));
  findLabelled(text, out);
  findDocumentNumbers(text, out);
}
