import type { LlmConfig } from '../types.ts';

/**
 * A minimal OpenAI-compatible chat-completions call over the platform's `fetch` (Node, browsers,
 * workers): no SDK, no retries of its own. Every failure becomes an `LlmError` whose message is fit
 * for `warning`; the caller decides whether to repair or fall back.
 */

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  messages: ChatMessage[];
  maxTokens: number;
  /** `{type: 'json_schema', json_schema: …}` or `{type: 'json_object'}`. */
  responseFormat?: Record<string, unknown>;
}

export class LlmError extends Error {
  override readonly name = 'LlmError';
}

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export function completionsURL(baseURL: string): string {
  const base = baseURL.replace(/\/+$/, '');
  return /\/chat\/completions$/.test(base) ? base : `${base}/chat/completions`;
}

export async function chat(
  config: LlmConfig,
  req: ChatRequest,
  signal: AbortSignal,
  fetchImpl: FetchLike,
): Promise<string> {
  const body: Record<string, unknown> = {
    model: config.model,
    messages: req.messages,
    temperature: 0,
    max_tokens: req.maxTokens,
    stream: false,
  };
  if (req.responseFormat) body.response_format = req.responseFormat;
  const headers: Record<string, string> = { 'content-type': 'application/json', ...config.headers };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  let res: Response;
  try {
    res = await fetchImpl(completionsURL(config.baseURL), {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal,
    });
  } catch (err) {
    if (signal.aborted) throw new LlmError('the model did not answer in time');
    throw new LlmError(`the model endpoint could not be reached (${(err as Error).message})`);
  }
  let payload: unknown;
  try {
    payload = await res.json();
  } catch {
    if (signal.aborted) throw new LlmError('the model did not answer in time');
    throw new LlmError(`the model endpoint answered HTTP ${res.status} without JSON`);
  }
  if (!res.ok) {
    const detail = (payload as { error?: { message?: unknown } })?.error?.message;
    throw new LlmError(
      `the model endpoint answered HTTP ${res.status}${typeof detail === 'string' ? `: ${detail.slice(0, 200)}` : ''}`,
    );
  }
  const message = (payload as { choices?: { message?: { content?: unknown; refusal?: unknown } }[] })?.choices?.[0]
    ?.message;
  if (typeof message?.refusal === 'string' && message.refusal)
    throw new LlmError(`the model refused: ${message.refusal.slice(0, 200)}`);
  if (typeof message?.content !== 'string') throw new LlmError('the model answer had no message content');
  return message.content;
}
