/**
 * The peers of the PII benchmark, each turned into "spans per text" so the same scorer reads them.
 * - @arcjet/redact (WASM): its replace callback sees every match; a numbered sentinel stands in for
 *   it and the original offsets are read back from the output.
 * - @redactpii/node (regex only): it returns redacted text only, so each of its rules runs alone with
 *   a sentinel replacement and the offsets are recovered by aligning output and input.
 */
import { redact as arcjetRedact } from '@arcjet/redact';
import { Redactor } from '@redactpii/node';
import type { Bucket, Span } from './score.ts';

const SENTINEL = '\u0001';

const ARCJET_BUCKETS: Record<string, Bucket | undefined> = {
  email: 'EMAIL',
  'phone-number': 'PHONE',
  'credit-card-number': 'FINANCIAL',
};

export const arcjetCovers: Bucket[] = ['EMAIL', 'PHONE', 'FINANCIAL'];

export async function arcjetSpans(text: string): Promise<Span[]> {
  const found: { entity: string; plaintext: string }[] = [];
  const [out] = await arcjetRedact(text, {
    replace: (entity, plaintext) => {
      found.push({ entity, plaintext });
      return SENTINEL;
    },
  });
  const spans: Span[] = [];
  let i = 0;
  let k = 0;
  for (const ch of out) {
    if (ch === SENTINEL) {
      const f = found[k++];
      if (!f) continue;
      const start = text.indexOf(f.plaintext, i);
      if (start < 0) continue;
      const bucket = ARCJET_BUCKETS[f.entity];
      if (bucket) spans.push({ start, end: start + f.plaintext.length, entity: bucket });
      i = start + f.plaintext.length;
    } else i++;
  }
  return spans;
}

/** Arcjet as a user calls it (all its entities, default placeholders): the timed path. */
export async function arcjetRedactText(text: string): Promise<string> {
  const [out] = await arcjetRedact(text);
  return out;
}

type Rule = 'NAME' | 'EMAIL' | 'PHONE' | 'CREDIT_CARD' | 'SSN';
const REDACTPII_RULES: [Rule, Bucket][] = [
  ['NAME', 'PERSON'],
  ['EMAIL', 'EMAIL'],
  ['PHONE', 'PHONE'],
  ['CREDIT_CARD', 'FINANCIAL'],
  ['SSN', 'FINANCIAL'],
];

export const redactpiiCovers: Bucket[] = ['PERSON', 'EMAIL', 'PHONE', 'FINANCIAL'];

const single = REDACTPII_RULES.map(([rule, bucket]) => ({
  bucket,
  redactor: new Redactor({
    rules: { NAME: false, EMAIL: false, PHONE: false, CREDIT_CARD: false, SSN: false, [rule]: true },
    globalReplaceWith: SENTINEL,
  }),
}));

/** Original offsets of the sentinels in `out`: the text after each sentinel tells where it ended. */
function align(text: string, out: string, bucket: Bucket): Span[] {
  const spans: Span[] = [];
  let i = 0;
  for (let j = 0; j < out.length; j++) {
    if (out[j] !== SENTINEL) {
      i++;
      continue;
    }
    const next = out.indexOf(SENTINEL, j + 1);
    const anchor = out.slice(j + 1, Math.min(next < 0 ? out.length : next, j + 13));
    let end = anchor ? text.indexOf(anchor, i + 1) : text.length;
    if (end < 0) end = text.length;
    spans.push({ start: i, end, entity: bucket });
    i = end;
  }
  return spans;
}

export function redactpiiSpans(text: string): Span[] {
  return single.flatMap(({ bucket, redactor }) => align(text, redactor.redact(text), bucket));
}

const full = new Redactor();

/** redactpii as a user calls it (all rules): the timed path. */
export function redactpiiRedactText(text: string): string {
  return full.redact(text);
}
