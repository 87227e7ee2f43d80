import type { TokenCounter, TokenizerName } from './types.ts';

/**
 * The BPE encodings load on first use (the o200k ranks are ≈ 2 MB of JavaScript): a parse that asks
 * for no chunks never imports them. Each encoding module carries its ranks, so nothing is fetched.
 */
const loaders: Record<TokenizerName, () => Promise<TokenCounter>> = {
  o200k_base: () => import('gpt-tokenizer/encoding/o200k_base').then((m) => ordinary(m.countTokens)),
  cl100k_base: () => import('gpt-tokenizer/encoding/cl100k_base').then((m) => ordinary(m.countTokens)),
};

/** Special-token text (`<|endoftext|>`) in a document is text: counted as ordinary tokens, never refused. */
const NO_SPECIAL = { disallowedSpecial: new Set<string>() };
const ordinary =
  (count: (text: string, options: typeof NO_SPECIAL) => number): TokenCounter =>
  (text) =>
    count(text, NO_SPECIAL);

const loaded = new Map<TokenizerName, Promise<TokenCounter>>();

/** The counter for a tokenizer option: a name is loaded once per process, a function is used as is. */
export function tokenCounter(tokenizer: TokenizerName | TokenCounter = 'o200k_base'): Promise<TokenCounter> {
  if (typeof tokenizer === 'function') return Promise.resolve(tokenizer);
  let counter = loaded.get(tokenizer);
  if (!counter) {
    const load = loaders[tokenizer];
    if (!load) return Promise.reject(new Error(`Unknown tokenizer "${String(tokenizer)}"`));
    counter = load();
    // A failed import may succeed later (a chunk file the bundler's server had not sent yet).
    counter.catch(() => loaded.delete(tokenizer));
    loaded.set(tokenizer, counter);
  }
  return counter;
}
