import { describe, expect, it } from 'vitest';
import type { PiiEntity, PiiSpan } from '../../src/index.ts';
import { arbitrate, resolveSpans } from '../../src/stages/pii/resolve.ts';

const ENTITIES: PiiEntity[] = ['PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL', 'SECRET'];

describe('PII: resolving overlapping spans cluster by cluster', () => {
  it('keeps what arbitrating all spans at once keeps, ties, merges and order included', () => {
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    let clustered = 0;
    for (let t = 0; t < 3000; t++) {
      const spans: PiiSpan[] = Array.from({ length: 2 + next(12) }, () => {
        const start = next(60);
        // Every other case has two buckets only, so that same-bucket merges are common.
        const entity = ENTITIES[next(t % 2 ? 2 : 6)] as PiiEntity;
        return { start, end: start + 1 + next(12), entity, validated: next(3) === 0, source: 'pattern' as const };
      });
      const ordered = [...spans].sort((a, b) => a.start - b.start);
      if (ordered.every((s, i) => i === 0 || s.start >= (ordered[i - 1] as PiiSpan).end)) continue;
      expect(resolveSpans(spans)).toEqual(arbitrate(spans));
      clustered++;
    }
    expect(clustered).toBeGreaterThan(1000);
  });

  it('a text of many overlapping pairs reads each span a bounded number of times', () => {
    let reads = 0;
    const read = (value: number) => () => {
      reads++;
      return value;
    };
    const spans: PiiSpan[] = [];
    // "12 Main Street, Springfield, IL 62704" found as a street address and as a city, state, zip.
    for (let k = 0; k < 2000; k++)
      for (const [a, b] of [
        [100 * k, 100 * k + 40],
        [100 * k + 16, 100 * k + 50],
      ] as const) {
        const s = { entity: 'LOCATION', validated: false, source: 'pattern' } as PiiSpan;
        Object.defineProperty(s, 'start', { get: read(a), enumerable: true });
        Object.defineProperty(s, 'end', { get: read(b), enumerable: true });
        spans.push(s);
      }
    const out = resolveSpans(spans);
    expect(out).toHaveLength(2000);
    expect(out[1999]).toMatchObject({ start: 199_900, end: 199_950, entity: 'LOCATION' });
    expect(reads).toBeLessThanOrEqual(60 * spans.length);
  });
});
