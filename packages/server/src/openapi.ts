import { chunkSchema, parseOptionsSchema } from '@docmill/core';
import { z } from 'zod';
import { crawlParamsSchema, paramsPreviewRequestSchema, scrapeRequestSchema } from './schemas.ts';

/** Response shapes, for the document only (the engine's types are the source of truth at runtime). */
const errorBody = z.object({
  success: z.literal(false),
  code: z
    .enum([
      'BAD_REQUEST',
      'PARSE_UNSUPPORTED_OPTIONS',
      'UNSUPPORTED_FILE_TYPE',
      'SCRAPE_TIMEOUT',
      'SCRAPE_DNS_RESOLUTION_ERROR',
      'SCRAPE_SSL_ERROR',
      'SCRAPE_SITE_ERROR',
      'UNKNOWN_ERROR',
    ])
    .optional(),
  error: z.string(),
  details: z.array(z.unknown()).optional(),
});
const metadata = z.looseObject({
  title: z.string().optional(),
  description: z.string().optional(),
  language: z.string().optional(),
  sourceURL: z.string().optional(),
  url: z.string().optional(),
  statusCode: z.number().int().optional(),
  numPages: z.number().int().optional(),
  totalPages: z.number().int().optional(),
  contentType: z.string().optional(),
  error: z.string().nullable(),
  concurrencyLimited: z.boolean().optional(),
  concurrencyQueueDurationMs: z.number().optional(),
});
const document = z.object({
  markdown: z.string().optional(),
  html: z.string().nullable().optional(),
  rawHtml: z.string().nullable().optional(),
  links: z.array(z.string()).optional(),
  images: z.array(z.string()).optional(),
  summary: z.string().nullable().optional(),
  json: z.record(z.string(), z.unknown()).nullable().optional(),
  pages: z.array(z.object({ pageNumber: z.number().int(), markdown: z.string() })).optional(),
  blocks: z.array(z.record(z.string(), z.unknown())).optional(),
  /** docmill extension: the `chunks` format. */
  chunks: z.array(chunkSchema).optional(),
  metadata,
  warning: z.string().nullable(),
});
const success = z.object({ success: z.literal(true), data: document });
const health = z.object({
  status: z.enum(['ok', 'draining']),
  version: z.string(),
  running: z.number().int().describe('Parses running.'),
  queued: z.number().int().describe('Requests waiting for an upload or a parse slot.'),
  uploads: z.number().int().describe('Requests whose body is being read or is held.'),
});

const passwordHeader = {
  name: 'X-Docmill-Password',
  in: 'header',
  required: false,
  schema: { type: 'string' },
  description: "Password of an encrypted document (the parse form's `password` field wins); never logged nor echoed.",
};

const schema = (s: z.ZodType, io: 'input' | 'output' = 'output') => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
};

const json = (ref: string) => ({
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } },
});
const errors = (...codes: number[]) =>
  Object.fromEntries(codes.map((c) => [String(c), { description: STATUS_TEXT[c] ?? 'Error', ...json('Error') }]));
const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request (BAD_REQUEST, PARSE_UNSUPPORTED_OPTIONS, UNSUPPORTED_FILE_TYPE)',
  401: 'Missing or invalid API key',
  402: 'Page quota of the key used up',
  404: 'Not found',
  408: 'Timeout (SCRAPE_TIMEOUT): the `timeout` option, or a request body that arrived too slowly',
  429: 'Rate limit or full queue; see Retry-After',
  500: 'Unexpected error (UNKNOWN_ERROR) with an error id',
  503: 'Shutting down',
};

/** The OpenAPI 3.1 document of the routes, generated from the zod schemas the routes validate with. */
export function openApiDocument(version: string): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'docmill HTTP adapter',
      version,
      description: 'Self-hosted, drop-in POST /v2/parse and POST /v2/scrape over the docmill engine.',
    },
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: {
        ParseOptions: schema(parseOptionsSchema, 'input'),
        ScrapeRequest: schema(scrapeRequestSchema, 'input'),
        ParamsPreviewRequest: schema(paramsPreviewRequestSchema, 'input'),
        CrawlParams: schema(crawlParamsSchema),
        ParseResponse: schema(success),
        Error: schema(errorBody),
        Health: schema(health),
      },
    },
    paths: {
      '/v2/parse': {
        post: {
          operationId: 'parseFile',
          summary: 'Parse an uploaded file',
          description:
            'At most 100 form parts and 16 KB of headers per part. The body may pause at most 10 s and must then average 64 KiB/s (server defaults), or 408.',
          parameters: [passwordHeader],
          requestBody: {
            required: true,
            content: {
              'multipart/form-data': {
                schema: {
                  type: 'object',
                  required: ['file'],
                  properties: {
                    file: { type: 'string', format: 'binary', description: 'At most 50 MB.' },
                    options: {
                      description: 'ParseOptions as a JSON string field, or a part of type application/json.',
                      $ref: '#/components/schemas/ParseOptions',
                    },
                    password: {
                      type: 'string',
                      maxLength: 1024,
                      description: 'Password of an encrypted document; never logged nor echoed.',
                    },
                  },
                },
                encoding: { options: { contentType: 'application/json, text/plain' } },
              },
            },
          },
          responses: {
            '200': { description: 'Parsed', ...json('ParseResponse') },
            ...errors(400, 401, 402, 408, 429, 500),
          },
        },
      },
      '/v2/scrape': {
        post: {
          operationId: 'scrape',
          summary: 'Fetch a URL (no browser rendering) and parse it',
          parameters: [passwordHeader],
          requestBody: { required: true, ...json('ScrapeRequest') },
          responses: {
            '200': {
              description: 'Parsed; or, as the hosted service answers, success false with SCRAPE_DNS_RESOLUTION_ERROR',
              content: {
                'application/json': {
                  schema: {
                    oneOf: [{ $ref: '#/components/schemas/ParseResponse' }, { $ref: '#/components/schemas/Error' }],
                  },
                },
              },
            },
            ...errors(400, 401, 402, 408, 429),
            '500': {
              description: 'SCRAPE_SSL_ERROR, SCRAPE_SITE_ERROR, or UNKNOWN_ERROR with an error id',
              ...json('Error'),
            },
          },
        },
      },
      '/v2/crawl/params-preview': {
        post: {
          operationId: 'crawlParamsPreview',
          summary: 'Derive crawl options from a prompt (deterministic rules unless a model is configured)',
          requestBody: { required: true, ...json('ParamsPreviewRequest') },
          responses: {
            '200': {
              description: 'Derived options',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: { success: { const: true }, data: { $ref: '#/components/schemas/CrawlParams' } },
                  },
                },
              },
            },
            ...errors(400, 401, 429),
          },
        },
      },
      '/v1/deep-research/{id}': {
        get: {
          operationId: 'getDeepResearchStatus',
          summary: 'Deep research status; this server runs no research jobs',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { ...errors(401, 404) },
        },
      },
      '/health': {
        get: {
          operationId: 'health',
          security: [],
          summary: 'Liveness and drain state for load balancers',
          responses: {
            '200': { description: 'Serving', ...json('Health') },
            '503': { description: 'Draining', ...json('Health') },
          },
        },
      },
      '/openapi.json': {
        get: {
          operationId: 'openapi',
          security: [],
          summary: 'This document',
          responses: { '200': { description: 'OpenAPI 3.1' } },
        },
      },
    },
  };
}

/** The `data` object of a successful parse, for other hosts that describe it (the MCP tools' output schema). */
export { document as parseDataSchema };
