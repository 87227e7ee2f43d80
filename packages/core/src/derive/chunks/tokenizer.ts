import { type Counter, customCounter, type Encoding, encodingCounter } from './counter.ts';
import type { TokenCounter, TokenizerName } from './types.ts';

/**
 * The BPE encodings load on first use (the o200k ranks are ≈ 2 MB of JavaScript): a parse that asks
 * for no chunks never imports them. Each encoding module carries its ranks, so nothing is fetched.
 */
const loaders: Record<TokenizerName, () => Promise<Encoding>> = {
  o200k_base: () => import('gpt-tokenizer/encoding/o200k_base'),
  cl100k_base: () => import('gpt-tokenizer/encoding/cl100k_base'),
};

const loaded = new Map<TokenizerName, Promise<Counter>>();

/** The counter for a tokenizer option: a name is loaded once per process, a function is used as is. */
export function tokenCounter(tokenizer: TokenizerName | TokenCounter = 'o200k_base'): Promise<Counter> {
  if (typeof tokenizer === 'function') return Promise.resolve(customCounter(tokenizer));
  let counter = loaded.get(tokenizer);
  if (!counter) {
    const load = loaders[tokenizer];
    if (!load) return Promise.reject(new Error(`Unknown tokenizer "${String(tokenizer)}"`));
    counter = load().then((m) => encodingCounter(m, tokenizer));
    // A failed import may succeed later (a chunk file the bundler's server had not sent yet).
    counter.catch(() => loaded.delete(tokenizer));
    loaded.set(tokenizer, counter);
  }
  return counter;
}
