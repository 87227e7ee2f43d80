import type { JsonFormatSpec } from '../options/normalize.ts';
import type { Root } from '../tree/types.ts';
import { collectFacts, type Facts, type Unit } from './facts.ts';
import { labelScore, labelTokens, matchesAt, type ValueKind, valueKind, variantsOf } from './labels.ts';
import { cleanText, type FieldSchema, readValue } from './read.ts';
import { arrayFromTables, arrayFromText } from './records.ts';
import { checkAgainstSchema } from './validate.ts';

/**
 * Schema-guided JSON without a model. Each schema property is looked for under its labels (name,
 * short description, prompt synonyms, common synonyms) among the layout's label/value pairs and
 * inline in text lines and cells; the best-scored reading of the expected type wins, ties going to
 * the first in reading order. Arrays of objects come from table rows (columns matched to the item
 * properties) or receipt-style "qty @ price" lines. The result is validated; what could not be
 * filled or did not validate is omitted and listed in `missing`.
 */
export interface Extraction {
  json: Record<string, unknown>;
  missing: string[];
}

interface Candidate {
  value: unknown;
  score: number;
  order: number;
}

/** Where the next "Label:" of a run-on line starts in `text` (a time such as 14:32 is no label). */
function nextLabelStart(text: string): number {
  for (const m of text.matchAll(/([\p{L}#][\p{L}\p{N}#.)]*)\s?:(?=\s|$)/gu)) {
    if ((m.index ?? 0) > 0) return m.index ?? text.length;
  }
  return text.length;
}

const OWN_DATE = new Set(
  'date dated transaction receipt invoice document issue issued purchase order sale print printed report statement'.split(
    ' ',
  ),
);

/** Words (not numbers, marks or currency codes) between a label and the value read after it. */
const wordsInGap = (gap: string) => /\p{L}{2,}/u.test(gap.replace(/\b(?:USD|EUR|GBP|CHF|CAD|AUD|JPY)\b/g, ''));

function inlineCandidates(
  facts: Facts,
  variants: string[][],
  kind: ValueKind,
  schema: FieldSchema,
  out: Candidate[],
): void {
  variants.forEach((variant, vi) => {
    for (const { u, k } of facts.index.get(variant[0] ?? '') ?? []) {
      const unit = facts.units[u] as Unit;
      const next = facts.units[u + 1];
      if (!matchesAt(unit.words, variant, k)) continue;
      const endTok = unit.tokens[k + variant.length - 1];
      if (!endTok) continue;
      let rest = unit.text.slice(endTok.end);
      const colon = /^\s*[#)]*\s*:/.test(rest);
      // "Total Points: 3,247" is no reading of "total": the label goes on up to its colon.
      const labelGoesOn = /^\s*[\p{L}][\p{L}\s]{0,30}:(\s|$)/u.exec(rest);
      if (labelGoesOn && !colon) continue;
      rest = rest.slice(0, nextLabelStart(rest));
      // "Customer ID:" closing a line: a form whose value was set on the next line.
      const wrapped = colon && !rest.replace(/^[\s#):]+/, '') && next && next.source === unit.source;
      if (wrapped) rest = next.text.slice(0, nextLabelStart(next.text));
      if (kind === 'text' && !colon) rest = rest.split(/\s+/).slice(0, 8).join(' ');
      const v = readValue(rest, kind, schema);
      if (!v) continue;
      // Between a label and its number there may be marks ("(8.5%)"), not other words ("Net Amount 12").
      if (
        kind !== 'text' &&
        kind !== 'boolean' &&
        !schema.enum &&
        wordsInGap(rest.slice(0, v.index).replace(/^[\s#):]+/, ''))
      )
        continue;
      const atStart = k === 0 ? 0.15 : k <= 2 ? 0.05 : 0;
      const score =
        0.55 + atStart + (colon ? 0.15 : 0) - vi * 0.01 - (unit.source === 'heading' ? 0.1 : 0) - (wrapped ? 0.1 : 0);
      out.push({ value: v.value, score, order: unit.order });
    }
  });
}

function scalarCandidates(facts: Facts, name: string, schema: FieldSchema, prompt: string | undefined): Candidate[] {
  const variants = variantsOf(name, schema.description, prompt);
  const kind = valueKind(name, schema);
  const out: Candidate[] = [];
  for (const pair of facts.pairs) {
    // Inline labels are found below, under the schema's own labels and with their typed readers.
    if (pair.source === 'inline') continue;
    let best = 0;
    variants.forEach((v, vi) => {
      const s = labelScore(pair.tokens, v) - vi * 0.01;
      if (s > best) best = s;
    });
    if (best <= 0) continue;
    const v = readValue(pair.value, kind, schema);
    if (!v) continue;
    const bonus = pair.source === 'row' ? 0.1 : pair.source === 'form' ? 0.05 : 0;
    out.push({ value: v.value, score: best + bonus, order: pair.order });
  }
  inlineCandidates(facts, variants, kind, schema, out);
  // A document's own date usually comes unlabelled near its top (receipts, letters); a due date or
  // a birth date does not, so only the document's own date falls back to the first one shown.
  if (
    (kind === 'date' || kind === 'datetime') &&
    !out.length &&
    labelTokens(name.replace(/([a-z])([A-Z])/g, '$1 $2')).every((w) => OWN_DATE.has(w))
  ) {
    for (const unit of facts.units) {
      const v = readValue(unit.text, kind, schema, Number.POSITIVE_INFINITY);
      if (v) {
        out.push({ value: v.value, score: 0.1, order: unit.order });
        break;
      }
    }
  }
  if (kind === 'text' && /^(title|name|document title|heading)$/i.test(name) && facts.title)
    out.push({ value: cleanText(facts.title), score: 0.2, order: Number.MAX_SAFE_INTEGER });
  return out;
}

const best = (cs: Candidate[]) =>
  cs.reduce<Candidate | undefined>(
    (a, c) => (!a || c.score > a.score || (c.score === a.score && c.order < a.order) ? c : a),
    undefined,
  );

const typeOf = (s: FieldSchema) => (Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type);

function fillObject(
  facts: Facts,
  schema: FieldSchema,
  prompt: string | undefined,
  prefix: string,
  missing: string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, sub] of Object.entries(schema.properties ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    const type = typeOf(sub);
    if (type === 'object' && sub.properties) {
      const inner: string[] = [];
      const obj = fillObject(facts, sub, prompt, path, inner);
      if (Object.keys(obj).length) out[name] = obj;
      missing.push(...inner);
      continue;
    }
    if (type === 'array') {
      const items = sub.items ?? {};
      let rows: unknown[] | undefined;
      if (typeOf(items) === 'object' && items.properties) {
        rows = arrayFromTables(facts, items, prompt) ?? arrayFromText(facts, items);
      } else {
        const c = best(scalarCandidates(facts, name, { type: 'string', description: sub.description }, prompt));
        if (typeof c?.value === 'string')
          rows = c.value
            .split(/\s*[,;]\s*/)
            .filter(Boolean)
            .map((part) => readValue(part, valueKind(name, items), items, 0)?.value)
            .filter((v) => v !== undefined);
      }
      if (rows?.length) out[name] = rows;
      else missing.push(path);
      continue;
    }
    const c = best(scalarCandidates(facts, name, sub, prompt));
    if (c) out[name] = c.value;
    else missing.push(path);
  }
  return out;
}

/** Without a schema: every labelled value the layout shows, under camelCase keys. */
function allPairs(facts: Facts): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (facts.title) out.title = facts.title;
  for (const p of facts.pairs) {
    if (p.source === 'column' || p.source === 'inline' || !p.tokens.length || p.tokens.length > 5) continue;
    const key = p.tokens
      .filter((t) => t !== '#')
      .map((t, i) => (i ? t[0]?.toUpperCase() + t.slice(1) : t))
      .join('');
    if (key && !(key in out)) out[key] = cleanText(p.value);
  }
  return out;
}

export function extractOffline(tree: Root, spec: JsonFormatSpec): Extraction {
  const facts = collectFacts(tree);
  const schema = spec.schema as FieldSchema | undefined;
  if (!schema?.properties) return { json: allPairs(facts), missing: [] };
  const missing: string[] = [];
  const json = fillObject(facts, schema, spec.prompt, '', missing);
  const invalid = checkAgainstSchema(schema, json);
  for (const path of invalid) {
    // Drop the offending top-level field: a wrong value is worse than a missing one.
    const head = path.split('.')[0];
    if (!head) continue;
    delete json[head];
    if (!missing.some((m) => m === head || m.startsWith(`${head}.`))) missing.push(head);
  }
  return { json, missing: [...new Set(missing)] };
}
