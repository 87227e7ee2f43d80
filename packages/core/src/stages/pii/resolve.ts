import { append } from '../../util/arrays.ts';
import type { PiiEntity, PiiSpan } from './types.ts';

// When two detections overlap, the more specific bucket keeps the characters.
const PRIORITY: Record<PiiEntity, number> = { SECRET: 6, FINANCIAL: 5, EMAIL: 5, PHONE: 4, LOCATION: 3, PERSON: 2 };

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
  // Arbitration never reaches past a cluster of overlapping spans: settling each cluster alone
  // gives the same spans, where settling all at once was quadratic in a text of many addresses.
  if (spans.some((s) => s.end <= s.start)) return arbitrate(spans);
  const index = new Map(spans.map((s, i) => [s, i]));
  const out: PiiSpan[] = [];
  let cluster: PiiSpan[] = [];
  let reach = Number.NEGATIVE_INFINITY;
  const settle = () => {
    if (cluster.length) append(out, arbitrate(cluster.sort((a, b) => (index.get(a) ?? 0) - (index.get(b) ?? 0))));
    cluster = [];
  };
  for (const s of ordered) {
    if (s.start >= reach) settle();
    cluster.push(s);
    reach = Math.max(reach, s.end);
  }
  settle();
  return out;
}

/** Settles overlapping spans (see resolveSpans), in the order given. */
export function arbitrate(spans: readonly PiiSpan[]): PiiSpan[] {
  if (spans.length < 2) return spans.map((s) => ({ ...s }));
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
