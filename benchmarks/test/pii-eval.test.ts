import { describe, expect, it } from 'vitest';
import { makeEvalSet, makeHeldoutSet } from '../../fixtures/scripts/make-pii-eval.ts';
import { findPii } from '../../packages/core/src/index.ts';
import { BUCKETS, type Bucket, errors, loadEvalSet, type Span, score } from '../pii/score.ts';

const docs = loadEvalSet();
const heldout = loadEvalSet('eval-heldout.json');

const TARGET: Record<Bucket, number> = {
  EMAIL: 0.95,
  PHONE: 0.95,
  FINANCIAL: 0.95,
  SECRET: 0.95,
  PERSON: 0.85,
  LOCATION: 0.85,
};

async function expectTargets(set: typeof docs): Promise<void> {
  const predictions: Span[][] = [];
  for (const d of set) predictions.push((await findPii(d.text)) as Span[]);
  const s = score(set, predictions);
  for (const b of BUCKETS) {
    const why = errors(set, predictions, b).slice(0, 10).join('\n');
    expect(s.buckets[b].precision, `${b} precision\n${why}`).toBeGreaterThanOrEqual(TARGET[b]);
    expect(s.buckets[b].recall, `${b} recall\n${why}`).toBeGreaterThanOrEqual(TARGET[b]);
  }
  expect(s.negatives.survived).toBe(s.negatives.total);
}

describe('PII evaluation set (fixtures/pii/eval.json)', () => {
  it('is what the seeded generator makes, with at least 500 spans over the six buckets', () => {
    expect(makeEvalSet()).toEqual(docs);
    const spans = docs.flatMap((d) => d.spans);
    expect(spans.length).toBeGreaterThanOrEqual(500);
    for (const b of BUCKETS) expect(spans.filter((s) => s.entity === b).length, b).toBeGreaterThanOrEqual(50);
    expect(docs.flatMap((d) => d.negatives).length).toBeGreaterThanOrEqual(200);
  });

  it('fast mode meets the per-bucket targets and every negative survives', () => expectTargets(docs));
});

describe('PII held-out set (fixtures/pii/eval-heldout.json: other seed, other templates)', () => {
  it('is what the seeded generator makes', () => {
    expect(makeHeldoutSet()).toEqual(heldout);
    expect(heldout.flatMap((d) => d.spans).length).toBeGreaterThanOrEqual(500);
  });

  it('fast mode meets the same per-bucket targets and every negative survives', () => expectTargets(heldout));
});
