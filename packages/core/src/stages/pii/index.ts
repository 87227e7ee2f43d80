import type { RedactOptions } from '../../options/normalize.ts';
import type { Root } from '../../tree/types.ts';
import { loadHeuristics } from './load.ts';
import type { SpanFinder } from './redact-tree.ts';
import type { ReplaceStyle } from './replace.ts';
import type { PiiEntity, PiiModel, PiiSpan } from './types.ts';

export { loadNameLexicon } from './lexicon.ts';
export type { SpanFinder } from './redact-tree.ts';
export { type ReplaceStyle, replaceInString } from './replace.ts';
export { resolveSpans } from './resolve.ts';
export { MODEL_MISSING, piiStage } from './stage.ts';
export type { PiiConfig, PiiEntity, PiiModel, PiiSpan } from './types.ts';

// The public entry points load the detectors on their first call (see load.ts).

/** Heuristic (`fast` mode) PII spans of one text, resolved and in order. */
export async function findPii(text: string, entities?: readonly PiiEntity[]): Promise<PiiSpan[]> {
  return (await loadHeuristics()).findPii(text, entities);
}

/**
 * The span finder for one request's options. `fast`: heuristics; `aggressive`: model plus
 * heuristics; `accurate`: model plus only those pattern matches that prove themselves.
 */
export function spanFinder(opts: RedactOptions, model: PiiModel | undefined, signal?: AbortSignal): SpanFinder {
  let finder: SpanFinder | undefined;
  return async (texts) => {
    finder ??= (await loadHeuristics()).spanFinder(opts, model, signal);
    return finder(texts);
  };
}

/** Redacts a copy of the tree with the spans `find` reports (see redact-tree.ts). */
export async function redactTree(tree: Root, find: SpanFinder, style: ReplaceStyle): Promise<Root> {
  return (await loadHeuristics()).redactTree(tree, find, style);
}
