import type { PiiSpan } from '@docmill/core';
import { createTokenClassifier, type ModelOptions, type TokenClassifier } from './runner.ts';

/** Input of the `pii-ner` worker task. */
export interface NerTaskInput {
  options: ModelOptions;
  texts: string[];
}

// One loaded model per worker and configuration, kept across tasks.
const classifiers = new Map<string, Promise<TokenClassifier>>();

/** Worker task: classifies texts with the configured model, loading it on first use. */
export async function run(input: NerTaskInput): Promise<PiiSpan[][]> {
  const key = JSON.stringify(input.options);
  let c = classifiers.get(key);
  if (!c) {
    c = createTokenClassifier(input.options);
    classifiers.set(key, c);
    c.catch(() => classifiers.delete(key));
  }
  return (await c).classify(input.texts);
}
