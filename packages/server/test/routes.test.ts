import { chunkSchema, createEngine, type ParseData, parseOptionsSchema } from '@docmill/core';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp } from '../src/app.ts';
import type { ParseEngine } from '../src/config.ts';
import { deriveCrawlParams } from '../src/crawl-preview.ts';
import { startServer } from '../src/node.ts';
import { fixture, form } from './helpers.ts';

const engine = createEngine();
afterAll(() => engine.close());
const app = createApp(engine, { rateLimit: false });
const postJson = (path: string, body: unknown) =>
  app.app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('GET /v1/deep-research/:id', () => {
  it('answers 404 with the contract body for any id', async () => {
    const res = await app.app.request('/v1/deep-research/0b7c5c2a-1f3e-4c7a-9a4e-2f1d3c4b5a69');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ success: false, error: 'Research job not found' });
  });
});

describe('POST /v2/crawl/params-preview', () => {
  it('derives options with the documented rules', async () => {
    const res = await postJson('/v2/crawl/params-preview', {
      url: 'https://example.com',
      prompt:
        'Crawl up to 50 pages of the /blog section, 2 levels deep, but skip /blog/tags and ignore the sitemap. Include subdomains.',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      success: true,
      data: {
        url: 'https://example.com',
        includePaths: ['^/blog(/.*)?$'],
        excludePaths: ['^/blog/tags(/.*)?$'],
        limit: 50,
        maxDiscoveryDepth: 2,
        crawlEntireDomain: false,
        sitemap: 'skip',
        allowSubdomains: true,
      },
    });
  });

  it('handles named sections, the whole domain, sitemap-only and negated subdomains', () => {
    expect(
      deriveCrawlParams('https://docs.example.com', 'Only the api pages, excluding changelog pages; no subdomains'),
    ).toMatchObject({
      includePaths: ['^/api(/.*)?$'],
      excludePaths: ['^/changelog(/.*)?$'],
      allowSubdomains: false,
      limit: 10000,
      sitemap: 'include',
    });
    const whole = deriveCrawlParams(
      'https://example.com',
      'Index the entire site using only the sitemap, 1,500 URLs max',
    );
    expect(whole).toMatchObject({ crawlEntireDomain: true, sitemap: 'only', limit: 1500 });
    expect(whole.maxDiscoveryDepth).toBeUndefined();
    expect(deriveCrawlParams('https://example.com', 'depth of 3, docs under /docs/* only').maxDiscoveryDepth).toBe(3);
    expect(deriveCrawlParams('https://example.com', 'docs under /docs/* only').includePaths).toEqual(['^/docs(/.*)?$']);
    // Same prompt, same answer.
    expect(deriveCrawlParams('https://a.b', 'x /a /b')).toEqual(deriveCrawlParams('https://a.b', 'x /a /b'));
  });

  it('uses a configured model when there is one, held to the schema', async () => {
    const withModel = createApp(engine, {
      rateLimit: false,
      paramsPreview: async () => ({
        includePaths: ['^/guides/.*$'],
        excludePaths: [],
        limit: 20,
        crawlEntireDomain: false,
        sitemap: 'include',
        allowSubdomains: false,
      }),
    });
    const res = await withModel.app.request('/v2/crawl/params-preview', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://example.com', prompt: 'guides' }),
    });
    expect(((await res.json()) as { data: { includePaths: string[] } }).data.includePaths).toEqual(['^/guides/.*$']);
    const broken = createApp(engine, { rateLimit: false, paramsPreview: async () => ({ limit: -4 }) });
    const bad = await broken.app.request('/v2/crawl/params-preview', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://example.com', prompt: 'guides' }),
    });
    expect(bad.status).toBe(500);
  });

  it('refuses a missing prompt, a bad URL, unknown keys and non-JSON with 400', async () => {
    for (const body of [
      { url: 'https://example.com' },
      { url: 'nope', prompt: 'x' },
      { url: 'https://e.com', prompt: 'x', y: 1 },
    ]) {
      const res = await postJson('/v2/crawl/params-preview', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('BAD_REQUEST');
    }
    const text = await app.app.request('/v2/crawl/params-preview', { method: 'POST', body: 'prompt=x' });
    expect(text.status).toBe(400);
  });
});

describe('GET /openapi.json', () => {
  it('documents every route with schemas generated from the validating zod objects', async () => {
    const res = await app.app.request('/openapi.json');
    const doc = (await res.json()) as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
      components: { schemas: Record<string, Record<string, unknown>> };
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        '/health',
        '/openapi.json',
        '/v1/deep-research/{id}',
        '/v2/crawl/params-preview',
        '/v2/parse',
        '/v2/scrape',
      ].sort(),
    );
    const { $schema: _s, ...expected } = z.toJSONSchema(parseOptionsSchema, { io: 'input', unrepresentable: 'any' });
    expect(doc.components.schemas.ParseOptions).toEqual(JSON.parse(JSON.stringify(expected)));
    // data.chunks items as core's chunkSchema describes them (fields, types, descriptions).
    const { $schema: _c, ...chunkItem } = z.toJSONSchema(chunkSchema);
    const parsed = doc.components.schemas.ParseResponse as {
      properties: { data: { properties: { chunks: { items: unknown } } } };
    };
    expect(parsed.properties.data.properties.chunks.items).toEqual(JSON.parse(JSON.stringify(chunkItem)));
    const scrape = doc.components.schemas.ScrapeRequest as { required: string[]; properties: Record<string, unknown> };
    expect(scrape.required).toEqual(['url']);
    expect(Object.keys(scrape.properties)).toEqual(expect.arrayContaining(['url', 'formats', 'timeout', 'maxAge']));
    const registered = app.app.routes
      .filter((r) => r.method !== 'ALL')
      .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, '{$1}')}`);
    for (const route of registered) {
      const [method, path] = route.split(' ') as [string, string];
      expect(doc.paths[path]?.[method], route).toBeDefined();
    }
  });
});

describe('Node adapter', () => {
  it('close() lets an in-flight upload finish, then refuses new connections', async () => {
    const slow: ParseEngine = {
      parse: () =>
        new Promise<ParseData>((r) =>
          setTimeout(() => r({ markdown: 'done late', metadata: { numPages: 1, error: null }, warning: null }), 400),
        ),
    };
    const app = createApp(slow, { rateLimit: false });
    const server = await startServer(app, { host: '127.0.0.1', port: 0 });
    const body = form({
      options: '{}',
      file: new Blob([fixture('pdf/basic.pdf') as Uint8Array<ArrayBuffer>]),
      filename: 'a.pdf',
    });
    const inflight = fetch(`${server.url}/v2/parse`, { method: 'POST', body });
    while (app.inFlight === 0) await new Promise((r) => setTimeout(r, 5));
    const closed = server.close(5000);
    const res = await inflight;
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: ParseData }).data.markdown).toBe('done late');
    await closed;
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();
  });

  it('cancels the parse when the client disconnects', async () => {
    let cancelled: unknown;
    let called = false;
    const watching: ParseEngine = {
      parse: (_b, _o, hints) =>
        new Promise<ParseData>((_r, reject) => {
          called = true;
          hints?.signal?.addEventListener('abort', () => {
            cancelled = hints.signal?.reason ?? 'aborted';
            reject(cancelled);
          });
        }),
    };
    const app = createApp(watching, { rateLimit: false });
    const server = await startServer(app, { host: '127.0.0.1', port: 0 });
    try {
      const client = new AbortController();
      const body = form({
        options: '{}',
        file: new Blob([fixture('pdf/basic.pdf') as Uint8Array<ArrayBuffer>]),
        filename: 'a.pdf',
      });
      const res = fetch(`${server.url}/v2/parse`, { method: 'POST', body, signal: client.signal });
      while (!called) await new Promise((r) => setTimeout(r, 5));
      client.abort();
      await expect(res).rejects.toThrow();
      for (let i = 0; i < 200 && cancelled === undefined; i++) await new Promise((r) => setTimeout(r, 10));
      expect(cancelled).toBeDefined();
      for (let i = 0; i < 200 && app.inFlight > 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(app.inFlight).toBe(0);
    } finally {
      await server.close(2000);
    }
  });
});
