import { DocmillError } from '../errors.ts';
import type { LlmConfig } from './types.ts';

/**
 * The model endpoint from environment variables, for the CLI and the HTTP server (core itself never
 * reads `process.env`: callers pass the environment in). Unset base URL or model means no model.
 *
 * DOCMILL_LLM_BASE_URL, DOCMILL_LLM_MODEL, DOCMILL_LLM_API_KEY, DOCMILL_LLM_LOCAL (1/true),
 * DOCMILL_LLM_ZDR_SAFE (1/true), DOCMILL_LLM_CONTEXT_TOKENS, DOCMILL_LLM_MAX_OUTPUT_TOKENS,
 * DOCMILL_LLM_MAX_CHUNKS, DOCMILL_LLM_TIMEOUT_MS.
 */
export function llmConfigFromEnv(env: Record<string, string | undefined>): LlmConfig | undefined {
  const baseURL = env.DOCMILL_LLM_BASE_URL?.trim();
  const model = env.DOCMILL_LLM_MODEL?.trim();
  if (!baseURL && !model) return undefined;
  if (!baseURL || !model) {
    throw new DocmillError(500, 'UNKNOWN_ERROR', 'DOCMILL_LLM_BASE_URL and DOCMILL_LLM_MODEL must be set together.');
  }
  const flag = (v: string | undefined) => /^(1|true|yes)$/i.test(v?.trim() ?? '');
  const int = (name: string): number | undefined => {
    const v = env[name]?.trim();
    if (!v) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0)
      throw new DocmillError(500, 'UNKNOWN_ERROR', `${name} must be a positive integer.`);
    return n;
  };
  const config: LlmConfig = { baseURL, model };
  if (env.DOCMILL_LLM_API_KEY) config.apiKey = env.DOCMILL_LLM_API_KEY;
  if (flag(env.DOCMILL_LLM_LOCAL)) config.local = true;
  if (flag(env.DOCMILL_LLM_ZDR_SAFE)) config.zdrSafe = true;
  const numeric = {
    contextTokens: int('DOCMILL_LLM_CONTEXT_TOKENS'),
    maxOutputTokens: int('DOCMILL_LLM_MAX_OUTPUT_TOKENS'),
    maxChunks: int('DOCMILL_LLM_MAX_CHUNKS'),
    timeoutMs: int('DOCMILL_LLM_TIMEOUT_MS'),
  };
  for (const [k, v] of Object.entries(numeric))
    if (v !== undefined) (config as unknown as Record<string, number>)[k] = v;
  return config;
}
