import { renderMarkdown } from '../render/markdown.ts';
import { extractOffline } from './extract.ts';
import { type FetchLike, LlmError } from './llm/client.ts';
import { extractWithModel, type ModelCall, summarizeWithModel } from './llm/tasks.ts';
import { summarizeOffline, summaryBudget, textLengthOf } from './summary.ts';
import type { DeriveRequest, DeriveResult, Deriver, LlmConfig } from './types.ts';
import { compileSchema } from './validate.ts';

export { llmConfigFromEnv } from './env.ts';
export { extractOffline } from './extract.ts';
export { summarizeOffline } from './summary.ts';
export type { DeriveRequest, DeriveResult, Deriver, LlmConfig } from './types.ts';

export interface DeriverConfig {
  llm?: LlmConfig;
  /** Replaces the global `fetch` for model calls (proxies, tests). */
  fetch?: FetchLike;
}

/** Time kept back from the parse deadline so the offline path can still answer after a slow model. */
const FALLBACK_RESERVE_MS = 250;

/**
 * Builds the function that turns a finished tree into `summary` and `json`. With a model endpoint
 * configured (and allowed under zero data retention) the model answers; every model failure —
 * unreachable, too slow, invalid JSON after one repair — falls back to the offline result and says
 * why in `warning`. Offline, both formats are deterministic.
 */
export function createDeriver(config: DeriverConfig = {}): Deriver {
  const llm = config.llm;
  return async (req: DeriveRequest, signal: AbortSignal): Promise<DeriveResult> => {
    const warnings: string[] = [];
    const result: DeriveResult = { warnings };
    if (req.json?.schema) compileSchema(req.json.schema);
    let allowed = !!llm;
    if (llm && req.zeroDataRetention && !llm.local && !llm.zdrSafe) {
      allowed = false;
      warnings.push(
        'zeroDataRetention is set and the configured model endpoint is not marked local or ZDR-safe, so no text was sent to it: the offline extractor answered.',
      );
    }
    let markdown: string | undefined;
    const model = async <T>(
      what: string,
      task: (md: string, call: ModelCall) => Promise<T>,
    ): Promise<T | undefined> => {
      if (!llm || !allowed) return undefined;
      const left = req.deadline - Date.now() - FALLBACK_RESERVE_MS;
      const ms = Math.min(left, llm.timeoutMs ?? Number.POSITIVE_INFINITY);
      if (ms <= 0) {
        warnings.push(
          `No time was left for the model before the parse timeout: the ${what} comes from the offline extractor.`,
        );
        return undefined;
      }
      // Prompts hold the Markdown of the finished tree only; base64 images would only eat context.
      markdown ??= renderMarkdown(req.tree, { removeBase64Images: true });
      const notes: string[] = [];
      // A controller and a timer of our own: a timeout signal held only by AbortSignal.any() can be
      // garbage-collected before it fires on some Node versions.
      const bounded = new AbortController();
      const timer = setTimeout(() => bounded.abort(), ms);
      const onAbort = () => bounded.abort();
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        const out = await task(markdown, { config: llm, signal: bounded.signal, fetch: config.fetch ?? fetch, notes });
        warnings.push(...notes);
        return out;
      } catch (err) {
        if (signal.aborted) throw signal.reason;
        if (!(err instanceof LlmError)) throw err;
        warnings.push(`The model could not give the ${what} (${err.message}): the offline extractor answered.`);
        return undefined;
      } finally {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      }
    };

    if (req.summary) {
      const offline = () => summarizeOffline(req.tree);
      const words = Math.max(40, Math.round(summaryBudget(textLengthOf(req.tree)) / 6));
      const viaModel = await model('summary', (md, call) => summarizeWithModel(md, words, call));
      result.summary = (viaModel ?? offline()) || null;
    }
    if (req.json) {
      const spec = req.json;
      const viaModel = await model('json', (md, call) => extractWithModel(md, spec, call));
      if (viaModel) result.json = viaModel;
      else {
        const { json, missing } = extractOffline(req.tree, spec);
        result.json = json;
        if (missing.length) warnings.push(`JSON extraction found no valid value for: ${missing.join(', ')}.`);
        if (!spec.schema)
          warnings.push('No JSON schema was given: the offline extractor returned the labelled values it found.');
      }
    }
    return result;
  };
}
