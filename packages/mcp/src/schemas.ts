import { chunkSchema, parseOptionsSchema } from '@docmill/core';
import { parseDataSchema } from '@docmill/server';
import { z } from 'zod';

/**
 * The tools' argument schemas are core's ParseOptions schema itself (the fields that matter to a
 * local parse, with descriptions for the agent) beside the document's source. The SDK turns them
 * into the JSON Schemas clients see and validates every call with them.
 */
const o = parseOptionsSchema.shape;

const source = {
  path: z
    .string()
    .min(1)
    .optional()
    .describe('A file inside the folders this server may read; relative paths start at the first of them.'),
  url: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe('An http(s) document or page on the public internet, fetched by the server.'),
  data: z.string().optional().describe('The document itself, base64-encoded (give filename too).'),
  filename: z.string().max(1024).optional().describe('File name of data (its extension helps detection).'),
  password: z.string().max(1024).optional().describe('Password of an encrypted document.'),
};

const options = {
  onlyMainContent: o.onlyMainContent.describe(
    'HTML: keep only the main content (no navigation, footers, ads); Word: leave page headers/footers out.',
  ),
  includeTags: o.includeTags.describe('HTML: CSS selectors of the parts to keep.'),
  excludeTags: o.excludeTags.describe('HTML: CSS selectors of the parts to drop.'),
  timeout: o.timeout.describe('Milliseconds the parse may take (1000–300000).'),
  parsers: o.parsers.describe(
    'PDF settings ({type:"pdf", mode:"fast"|"auto"|"ocr", maxPages, pages, blocks, pageMarkers}); add "image" to OCR raster images.',
  ),
  removeBase64Images: o.removeBase64Images.describe('Replace embedded images by a placeholder (default true).'),
  redactPII: o.redactPII.describe('Redact personal data: true, or {mode, entities, replaceStyle}.'),
};

export const parseDocumentInput = z.strictObject({
  ...source,
  formats: o.formats.describe(
    'Outputs: markdown (default), html, rawHtml, links, images, summary, json ({type:"json", schema, prompt}), chunks ({type:"chunks", maxTokens}; chunk_document pages through them).',
  ),
  ...options,
});
export type ParseDocumentArgs = z.output<typeof parseDocumentInput>;

/** What a result says about the outputs it had to cut (the result size limit). */
const truncated = z
  .object({
    limit: z.number().int().describe('Characters a result may hold.'),
    cuts: z.array(
      z.object({
        field: z.string(),
        returned: z.number().int(),
        total: z.number().int(),
        unit: z.enum(['characters', 'items']),
      }),
    ),
    hint: z.string(),
  })
  .describe('Present when outputs were cut to fit the result size limit.');

export const parseDocumentOutput = parseDataSchema.extend({ truncated: truncated.optional() });

/**
 * The `chunks` format's own fields (maxTokens, overlapTokens, tokenizer), found in core's schema by
 * its `type`, so chunk_document takes exactly what `formats: [{type: "chunks"}]` takes.
 */
function chunksFields() {
  // The format items are a union (of strings and a union of objects, told apart by `type`): search it.
  const find = (t: z.ZodType): z.ZodObject | undefined => {
    if (t instanceof z.ZodObject) {
      const type = t.shape.type;
      return type instanceof z.ZodLiteral && type.value === 'chunks' ? t : undefined;
    }
    if (!(t instanceof z.ZodUnion)) return undefined;
    for (const x of t.options as z.ZodType[]) {
      const hit = find(x);
      if (hit) return hit;
    }
    return undefined;
  };
  const item = find(o.formats.unwrap().element);
  if (!item) throw new Error('core has no chunks format');
  const shape = item.shape as Record<'maxTokens' | 'overlapTokens' | 'tokenizer', z.ZodType>;
  return {
    maxTokens: shape.maxTokens.describe('Most tokens per chunk (16–65536, default 512).'),
    overlapTokens: shape.overlapTokens.describe(
      'Tokens of a chunk repeated at the start of the next one in the same section (default 0, at most half of maxTokens).',
    ),
    tokenizer: shape.tokenizer.describe('Token encoding the counts use: o200k_base (default) or cl100k_base.'),
  };
}

export const chunkDocumentInput = z.strictObject({
  ...source,
  ...chunksFields(),
  start: z
    .number()
    .int()
    .min(0)
    .default(0)
    .describe('Index of the first chunk to return (0 = the beginning); a result says which start comes next.'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(10_000)
    .optional()
    .describe('Most chunks to return; fewer when they would pass the result size limit.'),
  ...options,
});
export type ChunkDocumentArgs = z.output<typeof chunkDocumentInput>;

export const chunkDocumentOutput = z.object({
  chunks: z.array(chunkSchema),
  start: z.number().int().describe('Index of the first chunk in this result.'),
  next: z.number().int().nullable().describe('The start that continues after this result; null at the end.'),
  totalChunks: z.number().int(),
  metadata: parseDataSchema.shape.metadata,
  warning: z.string().nullable(),
  truncated: truncated.optional(),
});

export const listFormatsInput = z.strictObject({});
