import type { ParseData } from '@docmill/core';
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
