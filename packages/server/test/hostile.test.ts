import { createEngine } from '@docmill/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import type { RequestLog } from '../src/config.ts';
import { startServer } from '../src/node.ts';
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

describe('key guessing is rate-limited per client address', () => {
  it('after `burst` missing or wrong keys an address gets 429 whatever key it sends, until the bucket refills', async () => {
    const app = createApp(engine, {
      keys: [{ id: 'a', key: 'right-key-0123456789' }],
      authFailureLimit: { perSecond: 0.2, burst: 3 },
    });
    const server = await startServer(app, { host: '127.0.0.1', port: 0 });
    try {
      const ask = (key?: string) =>
        fetch(`${server.url}/v2/parse`, {
          method: 'POST',
          body: form({ options: '{}', file: html(), filename: 'a.html' }),
          headers: key ? { authorization: `Bearer ${key}` } : {},
        });
      const first = await Promise.all([ask('guess-1'), ask(), ask('guess-3')]);
      expect(first.map((r) => r.status)).toEqual([401, 401, 401]);
      const blocked = await ask('guess-4');
      expect(blocked.status).toBe(429);
      // One token every 5 s: the wait is at most 5 s, less on a machine slow enough to refill some.
      const wait = Number(blocked.headers.get('retry-after'));
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(5);
      expect(((await blocked.json()) as { error: string }).error).toBe(
        `Too many requests with a missing or wrong API key from this address. Retry after ${wait} s.`,
      );
      // The right key is refused too while blocked: the answer says nothing about the key.
      expect((await ask('right-key-0123456789')).status).toBe(429);
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
      // A refused request spends nothing: the bucket refills and the right key gets through.
      let status = 429;
      for (let i = 0; i < 60 && status === 429; i++) {
        await new Promise((r) => setTimeout(r, 250));
        status = (await ask('right-key-0123456789')).status;
      }
      expect(status).toBe(200);
    } finally {
      await server.close(5000);
    }
  });
});
