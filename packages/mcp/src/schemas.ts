import { parseOptionsSchema } from '@docmill/core';
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
    'Outputs: markdown (default), html, rawHtml, links, images, summary, json ({type:"json", schema, prompt}).',
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

export const listFormatsInput = z.strictObject({});
