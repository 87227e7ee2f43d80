import type { JsonFormatSpec } from '../../options/normalize.ts';
import type { LlmConfig } from '../types.ts';
import { schemaErrors } from '../validate.ts';
import { CHARS_PER_TOKEN, chunkMarkdown } from './chunk.ts';
import { type ChatMessage, chat, type FetchLike, LlmError } from './client.ts';

/**
 * The two model tasks. Prompts carry the rendered Markdown of the finished (redacted) tree and the
 * request's own schema and prompt, nothing else about the document. Long documents go in chunks that
 * fit the context: summaries are summarized again, JSON answers are merged field by field.
 */

export interface ModelCall {
  config: LlmConfig;
  signal: AbortSignal;
  fetch: FetchLike;
  /** Filled with what the caller should hear about (chunks left out). */
  notes: string[];
}

const DEFAULT_CONTEXT = 8192;
const DEFAULT_OUTPUT = 1024;
const DEFAULT_MAX_CHUNKS = 8;

function chunksFor(markdown: string, call: ModelCall, overheadChars: number): string[] {
  const context = call.config.contextTokens ?? DEFAULT_CONTEXT;
  const output = call.config.maxOutputTokens ?? DEFAULT_OUTPUT;
  const room = (context - output) * CHARS_PER_TOKEN - overheadChars;
  if (room < 500) throw new LlmError('the configured context is too small for the instructions and any text');
  const chunks = chunkMarkdown(markdown, room);
  const max = call.config.maxChunks ?? DEFAULT_MAX_CHUNKS;
  if (chunks.length > max) {
    call.notes.push(
      `The document needed ${chunks.length} model calls; only the first ${max} chunks were sent to the model.`,
    );
    return chunks.slice(0, max);
  }
  return chunks;
}

const SUMMARY_SYSTEM =
  'You summarize documents. Use only facts stated in the text you are given. Keep the main claims, ' +
  'figures and conclusions; leave out boilerplate. Answer with the summary as plain prose, no preamble.';

export async function summarizeWithModel(markdown: string, maxWords: number, call: ModelCall): Promise<string> {
  const ask = async (text: string, words: number, what: string) => {
    const answer = await chat(
      call.config,
      {
        messages: [
          { role: 'system', content: SUMMARY_SYSTEM },
          { role: 'user', content: `Summarize ${what} in at most ${words} words.\n\n${text}` },
        ],
        maxTokens: call.config.maxOutputTokens ?? DEFAULT_OUTPUT,
      },
      call.signal,
      call.fetch,
    );
    const clean = answer.trim();
    if (!clean) throw new LlmError('the model returned an empty summary');
    return clean;
  };
  const chunks = chunksFor(markdown, call, SUMMARY_SYSTEM.length + 200);
  if (chunks.length === 0) return '';
  if (chunks.length === 1) return ask(chunks[0] as string, maxWords, 'this document');
  const parts: string[] = [];
  for (const [i, c] of chunks.entries())
    parts.push(await ask(c, maxWords, `part ${i + 1} of ${chunks.length} of a document`));
  return ask(parts.join('\n\n'), maxWords, 'this document from the summaries of its parts');
}

const JSON_SYSTEM =
  'You extract structured data from documents. Answer with one JSON object and nothing else. ' +
  'It must conform to the JSON Schema given. Use only values stated in the document; leave out ' +
  'properties the document does not state rather than guessing.';

function parseJsonAnswer(answer: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(answer);
  const text = (fenced?.[1] ?? answer).trim();
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A chunk holds part of the document, so required fields may honestly be absent from it. */
function partialSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const { required: _required, ...rest } = schema;
  return rest;
}

function merge(parts: Record<string, unknown>[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const part of parts) {
    for (const [k, v] of Object.entries(part)) {
      if (v === null || v === undefined || v === '') continue;
      const have = out[k];
      if (Array.isArray(have) && Array.isArray(v)) out[k] = [...have, ...v];
      else if (have === undefined) out[k] = v;
    }
  }
  return out;
}

async function extractChunk(
  chunk: string,
  spec: JsonFormatSpec,
  schema: Record<string, unknown> | undefined,
  call: ModelCall,
): Promise<Record<string, unknown>> {
  const instructions = [
    spec.prompt ? `Task: ${spec.prompt}` : 'Task: extract the data the schema describes.',
    schema ? `JSON Schema:\n${JSON.stringify(spec.schema)}` : 'Answer with a JSON object of the document’s key facts.',
    `Document (Markdown):\n${chunk}`,
  ].join('\n\n');
  const messages: ChatMessage[] = [
    { role: 'system', content: JSON_SYSTEM },
    { role: 'user', content: instructions },
  ];
  const responseFormat = spec.schema
    ? { type: 'json_schema', json_schema: { name: 'extraction', schema: spec.schema, strict: false } }
    : { type: 'json_object' };
  for (let attempt = 0; attempt < 2; attempt++) {
    const answer = await chat(
      call.config,
      { messages, maxTokens: call.config.maxOutputTokens ?? DEFAULT_OUTPUT, responseFormat },
      call.signal,
      call.fetch,
    );
    const value = parseJsonAnswer(answer);
    const problem =
      value === undefined || value === null || typeof value !== 'object' || Array.isArray(value)
        ? 'the answer is not a JSON object'
        : schema
          ? schemaErrors(schema, value)
          : undefined;
    if (!problem) return value as Record<string, unknown>;
    if (attempt === 1) throw new LlmError(`the model's JSON did not validate after one repair (${problem})`);
    // One repair: show the model its answer and what is wrong with it.
    messages.push(
      { role: 'assistant', content: answer },
      {
        role: 'user',
        content: `That answer does not conform to the schema: ${problem}. Reply with the corrected JSON object only.`,
      },
    );
  }
  throw new LlmError('unreachable');
}

export async function extractWithModel(
  markdown: string,
  spec: JsonFormatSpec,
  call: ModelCall,
): Promise<Record<string, unknown>> {
  const overhead = JSON_SYSTEM.length + (spec.prompt?.length ?? 0) + JSON.stringify(spec.schema ?? {}).length + 300;
  const chunks = chunksFor(markdown, call, overhead);
  if (chunks.length === 0) return {};
  const full = spec.schema;
  if (chunks.length === 1) return extractChunk(chunks[0] as string, spec, full, call);
  const parts: Record<string, unknown>[] = [];
  for (const c of chunks) parts.push(await extractChunk(c, spec, full ? partialSchema(full) : undefined, call));
  const merged = merge(parts);
  const problem = full ? schemaErrors(full, merged) : undefined;
  if (problem) throw new LlmError(`the merged answers of ${chunks.length} chunks do not validate (${problem})`);
  return merged;
}
