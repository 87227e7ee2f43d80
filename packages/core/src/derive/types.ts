import type { JsonFormatSpec } from '../options/normalize.ts';
import type { Root } from '../tree/types.ts';

/**
 * Derivations read the finished tree (after every stage, so after PII redaction) and produce the
 * `summary` and `json` formats. Requests and results are plain data (structured-clone safe) so a
 * deriver can run in a worker; the abort signal travels beside the request, not inside it.
 */
export interface DeriveRequest {
  tree: Root;
  summary: boolean;
  /** Present when the `json` format was asked for. */
  json?: JsonFormatSpec;
  /** The request's `zeroDataRetention`: a provider not marked local/ZDR-safe must not see the text. */
  zeroDataRetention: boolean;
  /** Epoch milliseconds when the parse times out; model calls stop early enough to fall back. */
  deadline: number;
}

export interface DeriveResult {
  summary?: string | null;
  json?: Record<string, unknown> | null;
  warnings: string[];
}

export type Deriver = (request: DeriveRequest, signal: AbortSignal) => Promise<DeriveResult>;

/** An OpenAI-compatible chat-completions endpoint (llama.cpp, vLLM, Ollama or a hosted service). */
export interface LlmConfig {
  /** Base URL up to the API version, e.g. `http://127.0.0.1:8080/v1`; `/chat/completions` is appended. */
  baseURL: string;
  model: string;
  apiKey?: string;
  /** The endpoint runs on infrastructure you control: requests with `zeroDataRetention` may use it. */
  local?: boolean;
  /** The provider retains nothing (contractual ZDR): requests with `zeroDataRetention` may use it. */
  zdrSafe?: boolean;
  /** Context window in tokens (default 8192); the Markdown is cut into chunks that fit. */
  contextTokens?: number;
  /** Tokens reserved for the answer (default 1024). */
  maxOutputTokens?: number;
  /** At most this many chunks are sent per request (default 8); the rest is named in `warning`. */
  maxChunks?: number;
  /** Upper bound per model call in ms, below the parse timeout (default: the time the parse has left). */
  timeoutMs?: number;
  /** Extra HTTP headers (gateways, organisation ids). */
  headers?: Record<string, string>;
}
