export { detectHeuristic, resolveSpans } from './detect.ts';
export { loadNameLexicon } from './lexicon.ts';
export { redactTree, type SpanFinder } from './redact-tree.ts';
export { type ReplaceStyle, replaceInString } from './replace.ts';
export { MODEL_MISSING, piiStage, spanFinder } from './stage.ts';
export type { PiiConfig, PiiEntity, PiiModel, PiiSpan } from './types.ts';

import { detectHeuristic, resolveSpans } from './detect.ts';
import { loadNameLexicon } from './lexicon.ts';
import type { PiiEntity, PiiSpan } from './types.ts';

const ALL: PiiEntity[] = ['PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL', 'SECRET'];

/** Heuristic (`fast` mode) PII spans of one text, resolved and in order. */
export async function findPii(text: string, entities: readonly PiiEntity[] = ALL): Promise<PiiSpan[]> {
  const lex = await loadNameLexicon();
  return resolveSpans(detectHeuristic(text, new Set(entities), lex));
}
