import { norm } from './values.ts';

/**
 * What a schema property is called in documents: its name split into words, a short description,
 * synonyms the prompt gives, and a small table of words documents use interchangeably on invoices,
 * receipts and forms. Labels are compared as word sequences after normalization.
 */

/** Words documents swap for one another in labels. Kept small: every entry must be a real equivalence. */
const SYNONYMS: Record<string, string[]> = {
  id: ['#', 'no', 'number', 'num', 'identifier', 'ref'],
  number: ['#', 'no', 'num', 'id'],
  no: ['#', 'number', 'id'],
  ref: ['reference', 'ref #'],
  reference: ['ref', 'ref #'],
  transaction: ['txn', 'trans'],
  txn: ['transaction'],
  invoice: ['inv', 'bill'],
  quantity: ['qty', 'units', 'count'],
  qty: ['quantity'],
  total: ['grand total', 'total due', 'amount due', 'balance due', 'total amount'],
  subtotal: ['sub total'],
  tax: ['sales tax', 'vat', 'gst'],
  amount: ['amt', 'sum'],
  price: ['unit price', 'rate', 'each'],
  description: ['desc', 'item', 'details'],
  customer: ['client', 'buyer', 'bill to'],
  vendor: ['seller', 'supplier', 'merchant'],
  date: ['dated'],
  email: ['e mail', 'mail'],
  phone: ['tel', 'telephone'],
  code: ['#', 'id'],
  vin: ['vehicle identification number'],
  cost: ['price', 'amount'],
};

const GENERIC_TAIL = new Set(['id', 'number', 'no', '#', 'code', 'ref']);

const splitName = (name: string): string =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ');

export interface Token {
  /** Lower-cased, accents folded. */
  t: string;
  start: number;
  end: number;
}

const fold = (w: string) =>
  /[^\x00-\x7f]/.test(w) ? w.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase() : w.toLowerCase();

/** Words of a text with their offsets; `#` stays a token of its own ("Claim #", "Order #:"). */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}]+|#/gu)) {
    const start = m.index ?? 0;
    out.push({ t: fold(m[0]), start, end: start + m[0].length });
  }
  return out;
}

export const labelTokens = (text: string): string[] => tokenize(text).map((x) => x.t);

/** Quoted phrases of the prompt's sentences that mention the field, and "X (also called|aka) Y". */
export function promptSynonyms(prompt: string | undefined, name: string): string[] {
  if (!prompt) return [];
  const field = norm(splitName(name));
  const out: string[] = [];
  for (const sentence of prompt.split(/(?<=[.;!?\n])\s*/)) {
    const s = norm(sentence);
    if (!` ${s} `.includes(` ${field} `) && !sentence.includes(name)) continue;
    for (const q of sentence.matchAll(/["“'‘]([^"”'’]{1,60})["”'’]/g)) if (q[1]) out.push(q[1]);
    const aka = /(?:also called|aka|a\.k\.a\.|also known as|labell?ed|shown as|written as)\s+([^,.;()]{1,60})/i.exec(
      sentence,
    );
    if (aka?.[1]) out.push(aka[1].replace(/["“”'‘’]/g, ''));
  }
  return out;
}

/** Every label a property may appear under, as token sequences, best first. */
export function variantsOf(name: string, description: string | undefined, prompt: string | undefined): string[][] {
  const base = labelTokens(splitName(name));
  const seen = new Set<string>();
  const out: string[][] = [];
  const add = (tokens: string[]) => {
    const k = tokens.join(' ');
    if (tokens.length && !seen.has(k)) {
      seen.add(k);
      out.push(tokens);
    }
  };
  add(base);
  for (const p of promptSynonyms(prompt, name)) add(labelTokens(p));
  if (description && description.split(/\s+/).length <= 5) add(labelTokens(description));
  for (const q of description?.matchAll(/["“]([^"”]{1,60})["”]/g) ?? []) if (q[1]) add(labelTokens(q[1]));
  // "Transaction ID" is often labelled just "Transaction" / "TXN": the code-like value says the rest.
  for (const v of [...out]) if (v.length > 1 && GENERIC_TAIL.has(v.at(-1) ?? '')) add(v.slice(0, -1));
  // One word swapped for a synonym at a time keeps the list short and each variant plausible.
  const firstRound = [...out];
  for (const v of firstRound) {
    v.forEach((w, i) => {
      for (const syn of SYNONYMS[w] ?? []) add([...v.slice(0, i), ...labelTokens(syn), ...v.slice(i + 1)]);
    });
  }
  return out;
}

/** True when `tokens` contains `variant` as a contiguous run at `at`. */
export function matchesAt(tokens: readonly string[], variant: readonly string[], at: number): boolean {
  if (at + variant.length > tokens.length) return false;
  for (let i = 0; i < variant.length; i++) if (tokens[at + i] !== variant[i]) return false;
  return true;
}

/** How well a label (as tokens) names a field variant: equal, ending with it, or merely holding it. */
export function labelScore(label: readonly string[], variant: readonly string[]): number {
  if (!variant.length || !label.length) return 0;
  if (label.length === variant.length && matchesAt(label, variant, 0)) return 1;
  if (label.length > variant.length && matchesAt(label, variant, label.length - variant.length))
    return label.length - variant.length <= 2 ? 0.8 : 0.5;
  return 0;
}

export type ValueKind =
  | 'money'
  | 'percent'
  | 'number'
  | 'integer'
  | 'date'
  | 'datetime'
  | 'email'
  | 'phone'
  | 'id'
  | 'text'
  | 'boolean';

const MONEY_WORDS = new Set(
  'total subtotal tax vat gst amount price cost fee fees balance due paid revenue gross net value discount charge charges payment sum rate'.split(
    ' ',
  ),
);
const PERCENT_WORDS = new Set('percent percentage pct accuracy occupancy ratio share'.split(' '));
const ID_WORDS = new Set('id number no code ref reference sku vin identifier #'.split(' '));

/** How a property's value is read from text, from its JSON type, format and name. */
export function valueKind(
  name: string,
  schema: { type?: unknown; format?: unknown; description?: unknown },
): ValueKind {
  const words = labelTokens(`${splitName(name)} ${typeof schema.description === 'string' ? schema.description : ''}`);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  const has = (set: Set<string>) => words.some((w) => set.has(w));
  if (type === 'boolean') return 'boolean';
  if (type === 'integer') return 'integer';
  if (type === 'number') {
    if (has(PERCENT_WORDS) || String(schema.description ?? '').includes('%')) return 'percent';
    return has(MONEY_WORDS) ? 'money' : 'number';
  }
  if (schema.format === 'date') return 'date';
  if (schema.format === 'date-time') return 'datetime';
  if (schema.format === 'email' || words.includes('email')) return 'email';
  if (words.includes('phone') || words.includes('telephone')) return 'phone';
  const last = labelTokens(splitName(name)).at(-1) ?? '';
  if (last === 'date' || last === 'dated' || last === 'day') return 'date';
  if (ID_WORDS.has(last)) return 'id';
  return 'text';
}
