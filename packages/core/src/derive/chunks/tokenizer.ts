import { DocmillError } from '../../errors.ts';
import { once } from '../../util/once.ts';
import { type Counter, customCounter, encodingCounter } from './counter.ts';
import { type TokenCounter, type TokenizerName, tokenizerNames } from './types.ts';

/**
 * The BPE encodings load on first use (the o200k ranks are ≈ 2 MB of JavaScript), once per process:
 * a parse that asks for no chunks never imports them. Each encoding module carries its ranks, so
 * nothing is fetched.
 */
const loaders: Record<TokenizerName, () => Promise<Counter>> = {
  o200k_base: once(() => import('gpt-tokenizer/encoding/o200k_base').then((m) => encodingCounter(m, 'o200k_base'))),
  cl100k_base: once(() => import('gpt-tokenizer/encoding/cl100k_base').then((m) => encodingCounter(m, 'cl100k_base'))),
};

/** The counter for a tokenizer option: a name is loaded once per process, a function is used as is. */
export function tokenCounter(tokenizer: TokenizerName | TokenCounter = 'o200k_base'): Promise<Counter> {
  if (typeof tokenizer === 'function') return Promise.resolve(customCounter(tokenizer));
  const load = Object.hasOwn(loaders, tokenizer) ? loaders[tokenizer] : undefined;
  if (!load)
    return Promise.reject(
      new DocmillError(
        400,
        'BAD_REQUEST',
        `Unknown tokenizer "${String(tokenizer)}"; use ${tokenizerNames.join(' or ')}, or a function.`,
      ),
    );
  return load();
}
