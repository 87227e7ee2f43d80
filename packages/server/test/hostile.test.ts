import { createEngine } from '@docmill/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import type { RequestLog } from '../src/config.ts';
import { form, post } from './helpers.ts';

// Hostile and broken clients through the app: each case was a 500 or a crash before.
const engine = createEngine();
afterAll(() => engine.close());

const html = () => new Blob(['<h1>Hello</h1>'], { type: 'text/html' });

describe('options too deep or too large are a 400 naming the limit, on every route', () => {
  // Written as text: JSON.stringify itself overflows the stack on such a value.
  const deep = `${'['.repeat(10_000)}{}${']'.repeat(10_000)}`;
  const options = `"formats":[{"type":"json","schema":{"type":"object","properties":{"a":${deep}}}}]`;

  it('POST /v2/parse', async () => {
    const logs: RequestLog[] = [];
    const app = createApp(engine, { rateLimit: false, log: (r) => logs.push(r) });
    const res = await app.app.request(
      '/v2/parse',
      post(form({ options: `{${options}}`, file: html(), filename: 'a.html' })),
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; error: string };
    expect(body.code).toBe('BAD_REQUEST');
    expect(body.error).toMatch(
      /^Invalid option formats\[0\]\.schema\.properties\.a(\[0\])+: nested more than 64 levels deep/,
    );
    expect(logs[0]?.code).toBe('BAD_REQUEST');
  });

  it('POST /v2/scrape', async () => {
    const app = createApp(engine, { rateLimit: false });
    const res = await app.app.request('/v2/scrape', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"url":"http://127.0.0.1:9/",${options}}`,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/64 levels deep \(the limit for options\)/);
  });
});
