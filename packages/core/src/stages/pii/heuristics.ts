/** The lazily loaded half of the PII stage (see load.ts): detectors, span finder, tree redaction. */
import { detectHeuristic } from './detect.ts';
import { loadNameLexicon } from './lexicon.ts';
import { resolveSpans } from './resolve.ts';
import type { PiiEntity, PiiSpan } from './types.ts';

export { spanFinder } from './find.ts';
export { redactTree } from './redact-tree.ts';

const ALL: PiiEntity[] = ['PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL', 'SECRET'];

/** Heuristic (`fast` mode) PII spans of one text, resolved and in order. */
export async function findPii(text: string, entities: readonly PiiEntity[] = ALL): Promise<PiiSpan[]> {
  const lex = await loadNameLexicon();
  return resolveSpans(detectHeuristic(text, new Set(entities), lex));
}
