import type { Hono } from 'hono';
import { readJsonBody } from '../body.ts';
import type { AppEnv, Services } from '../context.ts';
import { deriveCrawlParams } from '../crawl-preview.ts';
import { badRequest } from '../errors.ts';
import { crawlParamsSchema, paramsPreviewRequestSchema } from '../schemas.ts';

export function crawlPreviewRoute(app: Hono<AppEnv>, s: Services): void {
  app.post('/v2/crawl/params-preview', async (c) => {
    const body = await readJsonBody(c.req.raw, { maxBytes: s.config.maxJsonBytes, ...s.config.body });
    const parsed = paramsPreviewRequestSchema.safeParse(body);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      const where = first?.path.length ? first.path.join('.') : 'body';
      throw badRequest(`Invalid ${where}: ${first?.message ?? 'invalid request'}`);
    }
    const { url, prompt } = parsed.data;
    const derive = s.config.paramsPreview;
    // A configured model may do better than the rules; its answer is held to the same schema.
    const data = derive
      ? crawlParamsSchema.parse({ ...(await derive(url, prompt)), url })
      : deriveCrawlParams(url, prompt);
    return c.json({ success: true, data });
  });
}

export function deepResearchRoute(app: Hono<AppEnv>): void {
  // This server runs no research jobs, so every id is unknown: the contract's not-found body.
  app.get('/v1/deep-research/:id', (c) => c.json({ success: false, error: 'Research job not found' }, 404));
}
