import { DocmillError } from '../../errors.ts';
import type { ResolvedOptions } from '../../options/normalize.ts';
import type { Root } from '../../tree/types.ts';
import type { Stage, StageContext } from '../types.ts';
import { loadHeuristics } from './load.ts';
import type { PiiConfig } from './types.ts';

export const MODEL_MISSING =
  'needs a token-classification model and this engine has none. Configure one with ' +
  'createEngine({ pii: { model } }) from \'@docmill/pii\' (README, "PII redaction"), or ask for ' +
  'redactPII: { mode: "fast" } (heuristics only). No unredacted text is returned.';

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
    async close() {
      await config.model?.close?.();
    },
    async run(tree: Root, ctx: StageContext): Promise<Root> {
      const opts = ctx.options.redactPII;
      if (!opts) return tree;
      // The detectors (libphonenumber-js among them) load with the first request that redacts.
      const { redactTree, spanFinder } = await loadHeuristics();
      return redactTree(tree, spanFinder(opts, config.model, ctx.signal), opts.replaceStyle);
    },
  };
}
