import { findEmails, findPhones } from './contact.ts';
import { findFinancial } from './financial.ts';
import type { NameLexicon } from './lexicon.ts';
import { findNamesAndPlaces } from './names.ts';
import { findSecrets } from './secrets.ts';
import type { PiiEntity, PiiSpan } from './types.ts';

// When two detections overlap, the more specific bucket keeps the characters.
const PRIORITY: Record<PiiEntity, number> = { SECRET: 6, FINANCIAL: 5, EMAIL: 5, PHONE: 4, LOCATION: 3, PERSON: 2 };

/**
 * Every heuristic detector over one text. PERSON and LOCATION need the lexicon; without it (not
 * loaded yet) they are skipped, so callers load it first (`loadNameLexicon`).
 */
export function detectHeuristic(text: string, entities: ReadonlySet<PiiEntity>, lex?: NameLexicon): PiiSpan[] {
  const out: PiiSpan[] = [];
  if (entities.has('SECRET')) findSecrets(text, out);
  if (entities.has('EMAIL')) findEmails(text, out);
  if (entities.has('FINANCIAL')) findFinancial(text, out);
  if (entities.has('PHONE')) findPhones(text, out);
  const person = entities.has('PERSON');
  const place = entities.has('LOCATION');
  if (lex && (person || place)) findNamesAndPlaces(text, lex, person, place, out);
  return out.filter((s) => entities.has(s.entity) && s.end > s.start);
}

const rank = (s: PiiSpan) => (s.validated ? 1e7 : 0) + PRIORITY[s.entity] * 1e5 + (s.end - s.start);

const overlaps = (a: PiiSpan, b: PiiSpan) => a.start < b.end && b.start < a.end;

/**
 * Non-overlapping spans in text order. Higher-ranked spans (validated, then more specific bucket,
 * then longer) claim their characters; a same-bucket overlap is merged into one span.
 */
export function resolveSpans(spans: readonly PiiSpan[]): PiiSpan[] {
  // Most texts have no span or spans that do not touch: nothing to arbitrate, nothing to copy.
  if (spans.length < 2) return [...spans];
  const ordered = [...spans].sort((a, b) => a.start - b.start);
  if (ordered.every((s, i) => i === 0 || s.start >= (ordered[i - 1] as PiiSpan).end)) return ordered;
  let kept: PiiSpan[] = [];
  for (const s of [...spans].sort((a, b) => rank(b) - rank(a))) {
    const touching = kept.filter((k) => overlaps(k, s));
    if (touching.some((k) => k.entity !== s.entity)) continue;
    if (touching.length === 0) {
      kept.push({ ...s });
      continue;
    }
    const merged: PiiSpan = {
      ...s,
      start: Math.min(s.start, ...touching.map((k) => k.start)),
      end: Math.max(s.end, ...touching.map((k) => k.end)),
      validated: s.validated || touching.some((k) => k.validated),
    };
    // The widened span must not swallow a span of another bucket.
    if (kept.some((k) => k.entity !== s.entity && overlaps(k, merged))) continue;
    kept = kept.filter((k) => !touching.includes(k));
    kept.push(merged);
  }
  return kept.sort((a, b) => a.start - b.start);
}
