import { z } from 'zod';
import { DEFAULT_CHUNK_TOKENS, MAX_CHUNK_TOKENS, MIN_CHUNK_TOKENS } from '../derive/chunks/limits.ts';
import { tokenizerNames } from '../derive/chunks/types.ts';

/**
 * ParseOptions exactly as the contract (parse-api.md 2.2–2.6) and the compat notes describe them:
 * strict objects, defaults, ranges. `normalizeOptions()` turns the parsed value into the flat
 * `ResolvedOptions` the engine works with.
 */

const formatTypes = ['markdown', 'summary', 'html', 'rawHtml', 'links', 'images', 'json', 'chunks'] as const;
export type FormatType = (typeof formatTypes)[number];

const simpleFormat = z.strictObject({
  type: z.enum(['markdown', 'summary', 'html', 'rawHtml', 'links', 'images']),
});
const jsonFormat = z.strictObject({
  type: z.literal('json'),
  schema: z.record(z.string(), z.unknown()).optional(),
  prompt: z.string().optional(),
});
/**
 * docmill's extension of the contract: `data.chunks`, the document cut for embedding. The contract's
 * own formats are untouched by it.
 */
const chunksFormat = z
  .strictObject({
    type: z.literal('chunks'),
    maxTokens: z.number().int().min(MIN_CHUNK_TOKENS).max(MAX_CHUNK_TOKENS).default(DEFAULT_CHUNK_TOKENS),
    overlapTokens: z.number().int().min(0).default(0),
    tokenizer: z.enum(tokenizerNames).default('o200k_base'),
  })
  .refine((f) => f.overlapTokens <= f.maxTokens / 2, {
    message: 'overlapTokens must be at most half of maxTokens',
    path: ['overlapTokens'],
  });
// Objects are told apart by `type`, so an error names the field at fault (formats[0].maxTokens).
const formatItem = z.union([
  z.enum(formatTypes),
  z.discriminatedUnion('type', [simpleFormat, jsonFormat, chunksFormat]),
]);

const pdfParser = z.strictObject({
  type: z.literal('pdf'),
  mode: z.enum(['fast', 'auto', 'ocr']).default('auto'),
  maxPages: z.number().int().min(1).max(10000).optional(),
  pages: z.boolean().optional(),
  blocks: z.boolean().optional(),
  pageMarkers: z.boolean().optional(),
});
const imageParser = z.strictObject({ type: z.literal('image') });
const parserItem = z.union([z.literal('pdf'), z.literal('image'), pdfParser, imageParser]);

export const piiEntities = ['PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL', 'SECRET'] as const;
export type PiiEntity = (typeof piiEntities)[number];

const redactOptions = z.strictObject({
  mode: z.enum(['accurate', 'aggressive', 'fast']).default('accurate'),
  entities: z.array(z.enum(piiEntities)).min(1).optional(),
  replaceStyle: z.enum(['tag', 'mask', 'remove']).default('tag'),
});

export const parseOptionsSchema = z.strictObject({
  formats: z.array(formatItem).default(['markdown']),
  onlyMainContent: z.boolean().default(true),
  includeTags: z.array(z.string()).optional(),
  excludeTags: z.array(z.string()).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  timeout: z.number().int().min(1000).max(300000).default(30000),
  parsers: z.array(parserItem).default(['pdf']),
  skipTlsVerification: z.boolean().default(true),
  removeBase64Images: z.boolean().default(true),
  blockAds: z.boolean().default(true),
  redactPII: z.union([z.boolean(), redactOptions]).default(false),
  proxy: z.enum(['basic', 'auto']).optional(),
  origin: z.string().default('api'),
  integration: z.string().nullable().optional(),
  auditMetadata: z.strictObject({ username: z.string().max(1024) }).optional(),
  zeroDataRetention: z.boolean().default(false),
});

/** What callers may pass (all optional, strings or objects). */
export type ParseOptions = z.input<typeof parseOptionsSchema>;
export type ParsedOptions = z.output<typeof parseOptionsSchema>;
export type RedactPIIOptions = z.input<typeof redactOptions>;
export type ChunksFormat = z.output<typeof chunksFormat>;
