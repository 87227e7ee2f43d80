import { DocmillError, throwIfAborted } from '../../errors.ts';
import type { RedactOptions, ResolvedOptions } from '../../options/normalize.ts';
import type { Root } from '../../tree/types.ts';
import type { Stage, StageContext } from '../types.ts';
import { detectHeuristic, resolveSpans } from './detect.ts';
import { loadNameLexicon } from './lexicon.ts';
import { redactTree, type SpanFinder } from './redact-tree.ts';
import type { PiiConfig, PiiEntity, PiiModel, PiiSpan } from './types.ts';

export const MODEL_MISSING =
  'needs a token-classification model and this engine has none. Configure one with ' +
  'createEngine({ pii: { model } }) from \'@docmill/pii\' (README, "PII redaction"), or ask for ' +
  'redactPII: { mode: "fast" } (heuristics only). No unredacted text is returned.';

/**
 * Builds the span finder for one request's options. `fast`: heuristics; `aggressive`: model plus
 * heuristics; `accurate`: model plus only those pattern matches that prove themselves.
 */
export function spanFinder(opts: RedactOptions, model: PiiModel | undefined, signal?: AbortSignal): SpanFinder {
  const entities = new Set<PiiEntity>(opts.entities);
  return async (texts) => {
    const needNames = opts.mode !== 'accurate' && (entities.has('PERSON') || entities.has('LOCATION'));
    const lex = needNames ? await loadNameLexicon() : undefined;
    let modelSpans: PiiSpan[][] = [];
    if (opts.mode !== 'fast') {
      if (!model)
        throw new DocmillError(400, 'PARSE_UNSUPPORTED_OPTIONS', `redactPII mode "${opts.mode}" ${MODEL_MISSING}`);
      try {
        modelSpans = await model.detect(texts, signal);
      } catch (err) {
        if (signal?.aborted) throw signal.reason;
        const why = err instanceof Error ? err.message : String(err);
        throw new DocmillError(500, 'UNKNOWN_ERROR', `PII model failed, so nothing is returned unredacted: ${why}`, {
          cause: err,
        });
      }
    }
    return texts.map((text, i) => {
      throwIfAborted(signal);
      let spans = detectHeuristic(text, entities, lex);
      if (opts.mode === 'accurate') spans = spans.filter((s) => s.validated);
      const fromModel = (modelSpans[i] ?? []).filter((s) => entities.has(s.entity));
      return resolveSpans([...spans, ...fromModel]);
    });
  };
}

/**
 * The PII redaction stage. Installed by default in every engine (so `mode: "fast"` works with plain
 * `parse()`); the model modes fail closed before any parsing when no model is configured.
 */
export function piiStage(config: PiiConfig = {}): Stage {
  return {
    name: 'pii',
    redacts: true,
    validate(options: ResolvedOptions) {
      const o = options.redactPII;
      if (o && o.mode !== 'fast' && !config.model)
        throw new DocmillError(400, 'PARSE_UNSUPPORTED_OPTIONS', `redactPII mode "${o.mode}" ${MODEL_MISSING}`);
    },
    applies: (ctx: StageContext) => ctx.options.redactPII !== null,
    async run(tree: Root, ctx: StageContext): Promise<Root> {
      const opts = ctx.options.redactPII;
      if (!opts) return tree;
      return redactTree(tree, spanFinder(opts, config.model, ctx.signal), opts.replaceStyle);
    },
  };
}
