import { expect } from 'vitest';
import { DocmillError, parse } from '../../src/index.ts';

/** Deterministic PRNG (LCG) so damaged variants are the same on every run. */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Flips `flips` random bits of a copy. */
export function bitFlipped(bytes: Uint8Array, rand: () => number, flips: number): Uint8Array {
  const copy = new Uint8Array(bytes);
  for (let k = 0; k < flips; k++) {
    const at = Math.floor(rand() * copy.length);
    copy[at] = (copy[at] ?? 0) ^ (1 << Math.floor(rand() * 8));
  }
  return copy;
}

/** Damaged copies of a fixture: half truncated at spread-out lengths, half with 1–16 bits flipped. */
export function damagedVariants(bytes: Uint8Array, count: number): Uint8Array[] {
  const rand = prng(bytes.length);
  return Array.from({ length: count }, (_, i) =>
    i % 2 === 0
      ? bytes.slice(0, Math.max(1, Math.floor(rand() * bytes.length)))
      : bitFlipped(bytes, rand, 1 + Math.floor(rand() * 16)),
  );
}

/**
 * Parses each damaged copy and asserts a result or a DocmillError 400 (408 if the deadline hit),
 * never another exception, and never longer than the timeout.
 */
export async function expectSurvivesDamage(
  bytes: Uint8Array,
  filename: string,
  count = 200,
  parseWith: typeof parse = parse,
): Promise<void> {
  for (const copy of damagedVariants(bytes, count)) {
    const t0 = Date.now();
    try {
      await parseWith(copy, { timeout: 5000 }, { filename });
    } catch (err) {
      expect(err).toBeInstanceOf(DocmillError);
      expect([400, 408]).toContain((err as DocmillError).status);
    }
    expect(Date.now() - t0).toBeLessThan(5500);
  }
}
