/**
 * Precision and recall per PII bucket against fixtures/pii/eval.json.
 *
 * A gold span counts as found when predicted spans of its bucket cover at least 80% of its
 * non-space characters (a half-redacted name still leaks). A predicted span counts as correct when
 * at least half of its non-space characters lie in gold spans of its bucket. Negatives (dates, order
 * numbers, versions, prices, ISBNs, UUIDs) are reported as survived when no predicted span touches them.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export type Bucket = 'PERSON' | 'EMAIL' | 'PHONE' | 'LOCATION' | 'FINANCIAL' | 'SECRET';
export const BUCKETS: Bucket[] = ['PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL', 'SECRET'];

export interface Span {
  start: number;
  end: number;
  entity: Bucket;
}
export interface EvalDoc {
  text: string;
  spans: Span[];
  negatives: { start: number; end: number; kind: string }[];
}
export interface BucketScore {
  gold: number;
  found: number;
  predicted: number;
  correct: number;
  precision: number;
  recall: number;
}
export interface Score {
  buckets: Record<Bucket, BucketScore>;
  negatives: { total: number; survived: number };
}

/** A labelled set from fixtures/pii: `eval.json` (tuned on) or `eval-heldout.json` (held out). */
export function loadEvalSet(name = 'eval.json'): EvalDoc[] {
  const file = fileURLToPath(new URL(`../../fixtures/pii/${name}`, import.meta.url));
  return (JSON.parse(readFileSync(file, 'utf8')) as { docs: EvalDoc[] }).docs;
}

function covered(text: string, target: { start: number; end: number }, by: readonly Span[]): number {
  let total = 0;
  let hit = 0;
  for (let i = target.start; i < target.end; i++) {
    if (/\s/.test(text[i] ?? '')) continue;
    total++;
    if (by.some((s) => s.start <= i && i < s.end)) hit++;
  }
  return total === 0 ? 1 : hit / total;
}

/** Scores predictions (one list per document) for the buckets given (others are ignored). */
export function score(
  docs: readonly EvalDoc[],
  predictions: readonly Span[][],
  buckets: readonly Bucket[] = BUCKETS,
): Score {
  const result = { buckets: {} as Record<Bucket, BucketScore>, negatives: { total: 0, survived: 0 } };
  for (const b of buckets) result.buckets[b] = { gold: 0, found: 0, predicted: 0, correct: 0, precision: 1, recall: 1 };
  docs.forEach((doc, i) => {
    const predicted = (predictions[i] ?? []).filter((p) => buckets.includes(p.entity));
    for (const b of buckets) {
      const s = result.buckets[b];
      const gold = doc.spans.filter((g) => g.entity === b);
      const mine = predicted.filter((p) => p.entity === b);
      s.gold += gold.length;
      s.found += gold.filter((g) => covered(doc.text, g, mine) >= 0.8).length;
      s.predicted += mine.length;
      s.correct += mine.filter((p) => covered(doc.text, p, gold) >= 0.5).length;
    }
    for (const n of doc.negatives) {
      result.negatives.total++;
      if (!predicted.some((p) => p.start < n.end && n.start < p.end)) result.negatives.survived++;
    }
  });
  for (const b of buckets) {
    const s = result.buckets[b];
    s.precision = s.predicted ? s.correct / s.predicted : 1;
    s.recall = s.gold ? s.found / s.gold : 1;
  }
  return result;
}

/** Lists the misses and false alarms of one bucket (for tuning and for test failure messages). */
export function errors(docs: readonly EvalDoc[], predictions: readonly Span[][], bucket: Bucket): string[] {
  const out: string[] = [];
  docs.forEach((doc, i) => {
    const mine = (predictions[i] ?? []).filter((p) => p.entity === bucket);
    const gold = doc.spans.filter((g) => g.entity === bucket);
    for (const g of gold)
      if (covered(doc.text, g, mine) < 0.8) out.push(`miss #${i}: ${JSON.stringify(doc.text.slice(g.start, g.end))}`);
    for (const p of mine)
      if (covered(doc.text, p, gold) < 0.5) out.push(`false #${i}: ${JSON.stringify(doc.text.slice(p.start, p.end))}`);
  });
  return out;
}
