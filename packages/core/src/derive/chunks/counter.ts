import type { TokenCounter } from './types.ts';

/** Token counting with a cache for the short, repeated texts chunking counts again and again. */
export interface Counter {
  count(text: string): number;
  /** The count when it is at most `limit`, otherwise false (may stop counting early). */
  within(text: string, limit: number): number | false;
}

const CACHED_LENGTH = 256;
const CACHE_SIZE = 4096;

export function makeCounter(fn: TokenCounter): Counter {
  const cache = new Map<string, number>();
  const count = (text: string): number => {
    if (!text) return 0;
    if (text.length > CACHED_LENGTH) return checked(fn(text));
    let n = cache.get(text);
    if (n === undefined) {
      n = checked(fn(text));
      if (cache.size >= CACHE_SIZE) cache.clear();
      cache.set(text, n);
    }
    return n;
  };
  return {
    count,
    within: (text, limit) => {
      const n = count(text);
      return n <= limit ? n : false;
    },
  };
}

/** A caller's counter must give whole, non-negative numbers: anything else would break the budget. */
function checked(n: number): number {
  if (!Number.isInteger(n) || n < 0)
    throw new TypeError(`The tokenizer returned ${n}; a token count must be a whole number ≥ 0.`);
  return n;
}
