import type { z } from 'zod';
import { DEFAULT_CHUNK_TOKENS } from '../derive/chunks/limits.ts';
import type { TokenizerName } from '../derive/chunks/types.ts';
import { DocmillError } from '../errors.ts';
import { checkOptionsBounds } from './bounds.ts';
import { explainIssue } from './issues.ts';
import { type FormatType, type ParsedOptions, type PiiEntity, parseOptionsSchema, piiEntities } from './schema.ts';

export type PdfMode = 'fast' | 'auto' | 'ocr';

export interface JsonFormatSpec {
  schema?: Record<string, unknown>;
  prompt?: string;
}

/** The `chunks` format with its defaults filled in. */
export interface ChunksSpec {
  maxTokens: number;
  overlapTokens: number;
  tokenizer: TokenizerName;
}

export interface PdfOptions {
  mode: PdfMode;
  maxPages?: number;
  pages: boolean;
  blocks: boolean;
  pageMarkers: boolean;
}

export interface RedactOptions {
  mode: 'accurate' | 'aggressive' | 'fast';
  entities: PiiEntity[];
  replaceStyle: 'tag' | 'mask' | 'remove';
}

/** The flat, fully-defaulted options every adapter, stage and renderer reads. */
export interface ResolvedOptions {
  formats: Set<FormatType>;
  json?: JsonFormatSpec;
  /** Present when the `chunks` format was asked for. */
  chunks?: ChunksSpec;
  onlyMainContent: boolean;
  includeTags: string[];
  excludeTags: string[];
  timeout: number;
  removeBase64Images: boolean;
  pdf: PdfOptions;
  /** Raster images accepted as one-page OCR documents (`image` parser). */
  imageParser: boolean;
  redactPII: RedactOptions | null;
  /** OCR languages asked for (`ocr.languages`, a docmill extension); absent: the OCR stage's own. */
  ocrLanguages?: string[];
  origin: string;
  /** The validated options as given, for echoing and logging. */
  raw: ParsedOptions;
}

/** Keys the hosted scrape endpoint knows but parse refuses with PARSE_UNSUPPORTED_OPTIONS. */
const unsupportedKeys: Record<string, string> = {
  actions: 'actions',
  waitFor: 'waitFor',
  mobile: 'mobile',
  location: 'location',
  screenshot: 'screenshots',
  branding: 'branding',
  changeTracking: 'change tracking',
  maxAge: 'maxAge',
  storeInCache: 'storeInCache',
};
const unsupportedFormats = new Set([
  'screenshot',
  'changeTracking',
  'branding',
  'product',
  'menu',
  'audio',
  'video',
  'question',
  'highlights',
  'attributes',
]);

const unsupported = (what: string): DocmillError =>
  new DocmillError(400, 'PARSE_UNSUPPORTED_OPTIONS', `Parse uploads do not support ${what}.`);

function rejectUnsupported(input: Record<string, unknown>): void {
  for (const key in unsupportedKeys)
    if (key in input && input[key] !== undefined) throw unsupported(unsupportedKeys[key] as string);
  const proxy = input.proxy;
  if (typeof proxy === 'string' && proxy !== 'basic' && proxy !== 'auto') {
    throw unsupported(`proxy "${proxy}" (only "basic" and "auto")`);
  }
  if (Array.isArray(input.formats)) {
    for (const f of input.formats) {
      const type = typeof f === 'string' ? f : f && typeof f === 'object' ? (f as { type?: unknown }).type : undefined;
      if (typeof type === 'string' && unsupportedFormats.has(type)) throw unsupported(`the ${type} format`);
    }
  }
}

function fieldPath(path: readonly PropertyKey[]): string {
  return (
    path
      .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
      .join('')
      .replace(/^\./, '') || 'options'
  );
}

type Issue = z.core.$ZodIssue;

/**
 * A union's failure names the union ("formats[0]: Invalid input"); the branch that got furthest into
 * the value says what is wrong with it ("formats[0].tokenizer: expected one of …").
 */
function innermost(issue: Issue | undefined): Issue | undefined {
  if (issue?.code !== 'invalid_union') return issue;
  let best: Issue | undefined;
  for (const branch of issue.errors) {
    const deepest = branch.reduce<Issue | undefined>(
      (a, b) => (!a || b.path.length > a.path.length ? b : a),
      undefined,
    );
    if (deepest && deepest.path.length > (best?.path.length ?? 0)) best = deepest;
  }
  return best ? innermost({ ...best, path: [...issue.path, ...best.path] } as Issue) : issue;
}

/** Validates and defaults ParseOptions; throws DocmillError 400 naming the offending field. */
export function normalizeOptions(input: unknown = {}): ResolvedOptions {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new DocmillError(400, 'BAD_REQUEST', 'The options must be a JSON object.');
  }
  checkOptionsBounds(input);
  rejectUnsupported(input as Record<string, unknown>);
  const result = parseOptionsSchema.safeParse(input);
  if (!result.success) {
    const issues = result.error.issues;
    const first = innermost(issues[0]);
    let message = 'Invalid options.';
    if (first?.code === 'unrecognized_keys') {
      const where = first.path.length ? ` in ${fieldPath(first.path)}` : '';
      message = `Unrecognized option key${first.keys.length > 1 ? 's' : ''}${where}: ${first.keys.join(', ')}`;
    } else if (first) {
      const { path, message: why } = explainIssue(first, input);
      message = `Invalid option ${fieldPath(path)}: ${why}`;
    }
    throw new DocmillError(400, 'BAD_REQUEST', message, {
      details: issues.map((i) => ({ path: i.path.map(String), message: i.message, code: i.code })),
    });
  }
  return resolve(result.data);
}

function resolve(o: ParsedOptions): ResolvedOptions {
  const formats = new Set<FormatType>();
  let json: JsonFormatSpec | undefined;
  let chunks: ChunksSpec | undefined;
  for (const f of o.formats) {
    if (typeof f === 'string') formats.add(f);
    else {
      formats.add(f.type);
      if (f.type === 'json') {
        json = {};
        if (f.schema) json.schema = f.schema;
        if (f.prompt) json.prompt = f.prompt;
      } else if (f.type === 'chunks') {
        chunks = { maxTokens: f.maxTokens, overlapTokens: f.overlapTokens, tokenizer: f.tokenizer };
      }
    }
  }
  if (formats.has('json') && !json) json = {};
  if (formats.has('chunks') && !chunks)
    chunks = { maxTokens: DEFAULT_CHUNK_TOKENS, overlapTokens: 0, tokenizer: 'o200k_base' };

  // Without a pdf parser entry the text layer is still read, but nothing is OCR'd.
  let pdf: PdfOptions = { mode: 'fast', pages: false, blocks: false, pageMarkers: false };
  let imageParser = false;
  for (const p of o.parsers) {
    if (p === 'pdf') pdf = { mode: 'auto', pages: false, blocks: false, pageMarkers: false };
    else if (p === 'image' || (typeof p === 'object' && p.type === 'image')) imageParser = true;
    else if (typeof p === 'object' && p.type === 'pdf') {
      pdf = { mode: p.mode, pages: p.pages ?? false, blocks: p.blocks ?? false, pageMarkers: p.pageMarkers ?? false };
      if (p.maxPages !== undefined) pdf.maxPages = p.maxPages;
    }
  }

  let redactPII: RedactOptions | null = null;
  if (o.redactPII === true) redactPII = { mode: 'accurate', entities: [...piiEntities], replaceStyle: 'tag' };
  else if (o.redactPII && typeof o.redactPII === 'object') {
    redactPII = {
      mode: o.redactPII.mode,
      entities: o.redactPII.entities ? [...new Set(o.redactPII.entities)] : [...piiEntities],
      replaceStyle: o.redactPII.replaceStyle,
    };
  }

  const resolved: ResolvedOptions = {
    formats,
    onlyMainContent: o.onlyMainContent,
    includeTags: o.includeTags ?? [],
    excludeTags: o.excludeTags ?? [],
    timeout: o.timeout,
    removeBase64Images: o.removeBase64Images,
    pdf,
    imageParser,
    redactPII,
    origin: o.origin,
    raw: o,
  };
  if (json) resolved.json = json;
  if (chunks) resolved.chunks = chunks;
  if (o.ocr?.languages) resolved.ocrLanguages = [...new Set(o.ocr.languages)];
  return resolved;
}
