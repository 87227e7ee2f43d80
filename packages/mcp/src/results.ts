import { type Chunk, DocmillError, type ParseData } from '@docmill/core';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Budget, type Cut } from './budget.ts';

type Text = { type: 'text'; text: string };
const text = (t: string): Text => ({ type: 'text', text: t });

/** The order formats were asked in, each once (strings or `{type}` objects). */
export function formatOrder(formats: ReadonlyArray<string | { type: string }>): string[] {
  return [...new Set(formats.map((f) => (typeof f === 'string' ? f : f.type)))];
}

const jsonLength = (x: unknown) => JSON.stringify(x).length + 1;

/** How to get what a cut result left out. */
export function pagingHint(data: ParseData, subject: string): string {
  const pdf = data.metadata.contentType === 'application/pdf';
  return (
    `${subject} To read all of it, call chunk_document with the same document: it returns the text in ` +
    'chunks, in order, and says which start to ask for next.' +
    (pdf ? ' Or parse fewer pages: parsers: [{"type":"pdf","maxPages":N}] reads pages 1 to N.' : '')
  );
}

export function cutNote(cuts: readonly Cut[], limit: number, hint: string): string {
  const what = cuts
    .map((c) => `${c.field} ${c.returned.toLocaleString('en-US')} of ${c.total.toLocaleString('en-US')} ${c.unit}`)
    .join(', ');
  return `[docmill: this result is cut to its limit of ${limit.toLocaleString('en-US')} characters (${what}). ${hint}]`;
}

/**
 * A parse as a tool result: each asked format as readable text, in the order asked, then the
 * metadata and the warning; the same values (cut the same way) as `structuredContent`.
 */
export function parseResult(data: ParseData, formats: readonly string[], limit: number): CallToolResult {
  const budget = new Budget(limit);
  const out: Record<string, unknown> = { metadata: data.metadata, warning: data.warning };
  const content: Text[] = [];
  const labelled = formats.length > 1;
  const push = (field: string, body: string) => content.push(text(labelled ? `--- ${field} ---\n${body}` : body));
  for (const f of formats) {
    const v = (data as unknown as Record<string, unknown>)[f];
    if (v === undefined) continue;
    if (typeof v === 'string') {
      out[f] = budget.text(f, v);
      push(f, out[f] as string);
    } else if (Array.isArray(v)) {
      out[f] = budget.items(f, v as string[], (s) => String(s).length + 1);
      push(f, (out[f] as string[]).join('\n'));
    } else if (v === null) {
      out[f] = null;
    } else {
      // A json extraction is cut whole or kept whole: half an object means nothing.
      const kept = budget.items(f, [v], jsonLength);
      out[f] = kept.length ? v : null;
      if (kept.length) push(f, JSON.stringify(v, null, 2));
    }
  }
  for (const extra of ['pages', 'blocks'] as const) {
    const list = data[extra];
    if (list) out[extra] = budget.items(extra, list, jsonLength);
  }
  content.push(text(`--- metadata ---\n${JSON.stringify(data.metadata)}`));
  if (data.warning) content.push(text(`--- warning ---\n${data.warning}`));
  if (budget.cuts.length) {
    const hint = pagingHint(data, 'The document is longer than one result may be.');
    out.truncated = { limit, cuts: budget.cuts, hint };
    content.push(text(cutNote(budget.cuts, limit, hint)));
  }
  return { content, structuredContent: out };
}

/** A chunk's provenance in one line: id, tokens, heading path, pages/sheet/chapter. */
function chunkLabel(c: Chunk): string {
  const parts = [c.id, `${c.tokens} tokens`];
  if (c.headings.length) parts.push(c.headings.join(' › '));
  if (c.pages?.length) parts.push(`${c.pages.length > 1 ? 'pages' : 'page'} ${c.pages.join(', ')}`);
  if (c.sheet !== undefined) parts.push(`sheet ${c.sheet}`);
  if (c.chapter !== undefined) parts.push(`chapter ${c.chapter}${c.chapterTitle ? ` (${c.chapterTitle})` : ''}`);
  return `[${parts.join(' · ')}]`;
}

/**
 * One page of a document's chunks, from `start`: at most `limit`, and only as many as fit in the
 * result (a first chunk larger than the whole result is cut, saying so). `next` continues.
 */
export function chunkResult(
  data: ParseData,
  start: number,
  limit: number | undefined,
  maxChars: number,
): CallToolResult {
  const all = data.chunks ?? [];
  if (start > 0 && start >= all.length) {
    throw new DocmillError(
      400,
      'BAD_REQUEST',
      `start ${start} is past the last chunk: the document has ${all.length}.`,
    );
  }
  const window = all.slice(start, limit === undefined ? undefined : start + limit);
  const budget = new Budget(maxChars);
  let chunks = budget.items('chunks', window, jsonLength);
  if (chunks.length === 0 && window.length > 0) {
    const first = window[0] as Chunk;
    chunks = [{ ...first, text: new Budget(maxChars).text('text', first.text) }];
    budget.cuts.splice(0, budget.cuts.length, {
      field: `${first.id}.text`,
      returned: (chunks[0] as Chunk).text.length,
      total: first.text.length,
      unit: 'characters',
    });
  }
  const end = start + chunks.length;
  const next = end < all.length ? end : null;
  const content: Text[] = chunks.map((c) => text(`${chunkLabel(c)}\n${c.text}`));
  const range = chunks.length ? `chunks ${start + 1}–${end} of ${all.length}` : `no chunks (of ${all.length})`;
  content.push(
    text(`--- ${range}${next === null ? '; that is the end' : `; for the rest call again with start: ${next}`} ---`),
  );
  content.push(text(`--- metadata ---\n${JSON.stringify(data.metadata)}`));
  if (data.warning) content.push(text(`--- warning ---\n${data.warning}`));
  const out: Record<string, unknown> = {
    chunks,
    start,
    next,
    totalChunks: all.length,
    metadata: data.metadata,
    warning: data.warning,
  };
  if (budget.cuts.length) {
    const oversized = budget.cuts[0]?.field.endsWith('.text');
    const hint = oversized
      ? 'One chunk is larger than a result may be: ask for a smaller maxTokens.'
      : `Call chunk_document again with start: ${next} for the chunks that follow.`;
    out.truncated = { limit: maxChars, cuts: budget.cuts, hint };
    content.push(text(cutNote(budget.cuts, maxChars, hint)));
  }
  return { content, structuredContent: out };
}
