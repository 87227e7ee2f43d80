/**
 * Checks of chunk lists, shared by the chunk tests and the corpus report (`benchmarks/chunks.ts`):
 * budgets recounted with the tokenizer itself, word coverage of the Markdown, offsets.
 */
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { type Chunk, contextualize, type TokenizerName } from '../../src/index.ts';
import { wordsOf } from './metrics.ts';

const NO_SPECIAL = { disallowedSpecial: new Set<string>() };
const counters: Record<TokenizerName, (t: string) => number> = {
  o200k_base: (t) => countO200k(t, NO_SPECIAL),
  cl100k_base: (t) => countCl100k(t, NO_SPECIAL),
};

/** Chunks whose text the tokenizer counts above the budget (or whose `tokens` field is wrong). */
export function overBudget(chunks: readonly Chunk[], maxTokens: number, tokenizer: TokenizerName = 'o200k_base') {
  const count = counters[tokenizer];
  return chunks
    .map((c) => ({ id: c.id, tokens: count(c.text), claimed: c.tokens }))
    .filter((c) => c.tokens > maxTokens || c.tokens !== c.claimed);
}

/**
 * Chunks whose contextualized text (heading path in front) the tokenizer counts above the budget,
 * leaving out those whose path alone takes more than a quarter of it (the chunker does not reserve
 * room for such a path).
 */
export function contextOverBudget(
  chunks: readonly Chunk[],
  maxTokens: number,
  tokenizer: TokenizerName = 'o200k_base',
) {
  const count = counters[tokenizer];
  return chunks
    .filter((c) => count(`${c.headings.join('\n')}\n\n`) + 1 <= maxTokens / 4)
    .map((c) => ({ id: c.id, tokens: count(contextualize(c)) }))
    .filter((c) => c.tokens > maxTokens);
}

/**
 * Share of the Markdown's words found in the chunks in the same order. Words the chunks repeat
 * (overlap, table header rows) are skipped over; a word missing from the chunks is counted missing
 * without losing the place.
 */
export function wordCoverage(
  markdown: string,
  chunks: readonly Chunk[],
): { words: number; found: number; missing: string[] } {
  const want = wordsOf(markdown.replace(/<!-- page \d+ -->/g, ' '));
  const have = wordsOf(chunks.map((c) => c.text).join('\n\n'));
  const WINDOW = 20_000;
  let j = 0;
  let found = 0;
  const missing: string[] = [];
  for (const w of want) {
    const limit = Math.min(have.length, j + WINDOW);
    let k = j;
    while (k < limit && have[k] !== w) k++;
    if (k < limit) {
      found++;
      j = k + 1;
    } else if (missing.length < 20) missing.push(w);
  }
  return { words: want.length, found, missing };
}

/** Chunks whose offsets do not point at their own content in the Markdown. */
export function offsetErrors(markdown: string, chunks: readonly Chunk[]): string[] {
  const errors: string[] = [];
  for (const c of chunks) {
    if (c.startOffset === undefined || c.endOffset === undefined) continue;
    const slice = wordsOf(markdown.slice(c.startOffset, c.endOffset));
    const own = new Set(wordsOf(c.text));
    // Every word of the range is in the chunk (the range holds no more than the chunk).
    const stray = slice.filter((w) => !own.has(w));
    if (stray.length) errors.push(`${c.id}: ${stray.slice(0, 5).join(' ')}`);
  }
  return errors;
}
