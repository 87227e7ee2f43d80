import { parseOptionsSchema } from '@docmill/core';
import { z } from 'zod';

/**
 * Request schemas of the routes beyond /v2/parse. Parse options are core's schema itself (no second
 * copy); scrape extends it with the URL and the cache fields the SDK sends. The OpenAPI document is
 * generated from these same objects.
 */

export const httpUrl = z.url({ protocol: /^https?$/ });

/** Keys a scrape may carry that matter only to the hosted cache; accepted and ignored. */
export const CACHE_KEYS = ['maxAge', 'minAge', 'storeInCache'] as const;

export const scrapeRequestSchema = parseOptionsSchema.extend({
  url: httpUrl.describe('Page or document to fetch (http or https).'),
  maxAge: z.number().int().min(0).optional().describe('Accepted for compatibility; this server has no cache.'),
  minAge: z.number().int().min(0).optional().describe('Accepted for compatibility; this server has no cache.'),
  storeInCache: z.boolean().optional().describe('Accepted for compatibility; nothing is stored.'),
});

export const paramsPreviewRequestSchema = z.strictObject({
  url: httpUrl,
  prompt: z.string().min(1).max(10_000),
});

export const crawlParamsSchema = z.object({
  url: z.string(),
  includePaths: z.array(z.string()),
  excludePaths: z.array(z.string()),
  limit: z.number().int().min(1),
  maxDiscoveryDepth: z.number().int().min(0).optional(),
  crawlEntireDomain: z.boolean(),
  sitemap: z.enum(['include', 'skip', 'only']),
  allowSubdomains: z.boolean(),
});
export type CrawlParams = z.infer<typeof crawlParamsSchema>;
