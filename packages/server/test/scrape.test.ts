import { execFileSync } from 'node:child_process';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { createEngine, type ParseData } from '@docmill/core';
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import type { ServerConfig } from '../src/config.ts';
import { startServer } from '../src/node.ts';
import { blockedReason, isAllowed } from '../src/scrape/address.ts';
import { createNodeFetcher } from '../src/scrape/node-fetcher.ts';
import { fixture } from './helpers.ts';

// A real HTTP server on 127.0.0.1 plays the web; the scrape route fetches from it only when the
// app is configured to allow loopback, and must refuse it (without connecting) otherwise.
const engine = createEngine();
let site: http.Server;
let base = '';
let port = 0;
const hits: string[] = [];
const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

beforeAll(async () => {
  site = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    const send = (status: number, type: string, body: string | Uint8Array, extra: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': type, ...extra });
      res.end(body);
    };
    switch (req.url) {
      case '/page.html':
        return send(200, 'text/html; charset=utf-8', page('Hello page', '<p>Plain <a href="/next">next</a>.</p>'));
      case '/go':
        return send(302, 'text/plain', '', { location: '/page.html' });
      case '/loop':
        return send(301, 'text/plain', '', { location: '/loop' });
      case '/doc':
        return send(200, 'application/octet-stream', fixture('pdf/basic.pdf'));
      case '/gz':
        return send(200, 'text/html', gzipSync(page('Zipped', '<p>compressed body</p>')), {
          'content-encoding': 'gzip',
        });
      case '/bomb':
        return send(200, 'text/html', gzipSync(new Uint8Array(60 * 1024 * 1024)), { 'content-encoding': 'gzip' });
      case '/echo':
        return send(200, 'text/html', page('Echo', `<p>token=${req.headers['x-token'] ?? 'none'}</p>`));
      case '/missing':
        return send(404, 'text/html', page('Not here', '<p>gone</p>'));
      case '/to-other-loopback':
        return send(302, 'text/plain', '', { location: `http://127.0.0.2:${port}/page.html` });
      case '/to-metadata':
        return send(302, 'text/plain', '', { location: 'http://169.254.169.254/latest/meta-data/' });
      case '/bad%E0%A4%A.pdf':
        return send(200, 'application/octet-stream', fixture('pdf/basic.pdf'));
      case '/slow':
        return; // never answers
      default:
        return send(404, 'text/plain', 'no');
    }
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  port = (site.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  site.closeAllConnections();
  await new Promise((r) => site.close(r));
  await engine.close();
});

const appWith = (config: ServerConfig = {}) => createApp(engine, { rateLimit: false, ...config });
const loopbackOnly = () => appWith({ scrape: { allowPrivateNetworks: ['127.0.0.1'] } });

async function scrape(app: ReturnType<typeof createApp>, body: unknown) {
  const res = await app.app.request('/v2/scrape', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    body: (await res.json()) as { success: boolean; data: ParseData; code?: string; error?: string },
  };
}

describe('POST /v2/scrape fetches and parses (loopback allowed by configuration)', () => {
  const app = loopbackOnly();

  it('parses an HTML page with sourceURL, url, statusCode and content type', async () => {
    const { status, body } = await scrape(app, { url: `${base}/page.html`, formats: ['markdown', 'links'] });
    expect(status).toBe(200);
    expect(body.data.markdown).toContain('# Hello page');
    expect(body.data.links).toContain(`${base}/next`);
    expect(body.data.metadata).toMatchObject({
      sourceURL: `${base}/page.html`,
      url: `${base}/page.html`,
      statusCode: 200,
      contentType: 'text/html',
      title: 'Hello page',
    });
  });

  it('follows redirects and reports the final url beside the requested one', async () => {
    const { body } = await scrape(app, { url: `${base}/go` });
    expect(body.data.markdown).toContain('# Hello page');
    expect(body.data.metadata.sourceURL).toBe(`${base}/go`);
    expect(body.data.metadata.url).toBe(`${base}/page.html`);
  });

  it('detects a PDF served as octet-stream from its bytes', async () => {
    const { body } = await scrape(app, { url: `${base}/doc`, parsers: [{ type: 'pdf', mode: 'fast' }] });
    expect(body.data.markdown).toContain('# Docmill Fixture');
    expect(body.data.metadata.contentType).toBe('application/pdf');
    expect(body.data.metadata.numPages).toBe(1);
  });

  it('reads a URL whose last path segment is not valid percent-encoding (no file name hint, no 500)', async () => {
    const { status, body } = await scrape(app, { url: `${base}/bad%E0%A4%A.pdf` });
    expect(status).toBe(200);
    expect(body.data.markdown).toContain('# Docmill Fixture');
  });

  it('decompresses gzip and stops a compressed bomb at the size limit', async () => {
    expect((await scrape(app, { url: `${base}/gz` })).body.data.markdown).toContain('compressed body');
    const bomb = await scrape(app, { url: `${base}/bomb` });
    expect(bomb.status).toBe(400);
    expect(bomb.body.error).toMatch(/exceeds the maximum size of 50MB/);
  });

  it('sends the headers option', async () => {
    const { body } = await scrape(app, { url: `${base}/echo`, headers: { 'x-token': 'abc123' } });
    expect(body.data.markdown).toContain('token=abc123');
  });

  it('refuses a header with a line break or control character, or a name that is not a token: 400, nothing sent', async () => {
    const before = hits.length;
    for (const headers of [
      { 'x-token': 'abc\r\nX-Injected: 1' },
      { 'x-token': 'abc\nx' },
      { 'x-token': 'nul\u0000' },
      { 'x token': 'v' },
      { 'x-token\r\nx-evil': 'v' },
    ]) {
      const { status, body } = await scrape(app, { url: `${base}/echo`, headers });
      expect(status, JSON.stringify(headers)).toBe(400);
      expect(body.code).toBe('BAD_REQUEST');
      expect(body.error).toMatch(/^Invalid option headers: /);
    }
    expect(hits.length).toBe(before);
  });

  it('reports an error page as statusCode with metadata.error', async () => {
    const { status, body } = await scrape(app, { url: `${base}/missing` });
    expect(status).toBe(200);
    expect(body.data.metadata.statusCode).toBe(404);
    expect(body.data.metadata.error).toBe('The page answered HTTP 404.');
    expect(body.data.markdown).toContain('# Not here');
  });

  it('caps redirects (500 SCRAPE_SITE_ERROR, as the hosted service reports a redirect loop)', async () => {
    const { status, body } = await scrape(app, { url: `${base}/loop` });
    expect(status).toBe(500);
    expect(body).toEqual({
      success: false,
      code: 'SCRAPE_SITE_ERROR',
      error: `${base}/loop could not be loaded: too many redirects (more than 5).`,
    });
  });

  it('times out with 408 SCRAPE_TIMEOUT', async () => {
    const { status, body } = await scrape(app, { url: `${base}/slow`, timeout: 1000 });
    expect(status).toBe(408);
    expect(body.code).toBe('SCRAPE_TIMEOUT');
  });

  it('refuses browser-only formats and options, bad URLs and bad options with 400', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ url: `${base}/page.html`, formats: [{ type: 'screenshot', fullPage: true }] }, /screenshot/],
      [{ url: `${base}/page.html`, formats: ['branding'] }, /branding/],
      [{ url: `${base}/page.html`, actions: [{ type: 'click', selector: 'a' }] }, /actions/],
      [{ url: `${base}/page.html`, waitFor: 500 }, /waitFor/],
      [{ url: 'ftp://example.com/a.pdf' }, /http or https/],
      [{ url: 'not a url' }, /http or https/],
      [{ url: `${base}/page.html`, onlyMainContent: 3 }, /onlyMainContent/],
    ];
    for (const [body, message] of cases) {
      const r = await scrape(app, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error).toMatch(message);
    }
  });

  it('accepts the cache fields the SDK sends (maxAge, storeInCache)', async () => {
    const { status } = await scrape(app, { url: `${base}/page.html`, maxAge: 172800000, storeInCache: true });
    expect(status).toBe(200);
  });
});

describe('SSRF: non-public addresses are refused, after DNS resolution and on every redirect', () => {
  it('refuses loopback by default without sending a request', async () => {
    const app = appWith();
    const before = hits.length;
    for (const url of [
      `${base}/page.html`,
      `http://localhost:${port}/page.html`,
      `http://[::1]:${port}/page.html`,
      `http://2130706433:${port}/page.html`,
      `http://0x7f.1:${port}/page.html`,
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:169.254.169.254]/latest/meta-data/',
      `http://[::ffff:0:127.0.0.1]:${port}/page.html`,
      'http://10.0.0.1/',
      'http://192.168.1.1/',
    ]) {
      const { status, body } = await scrape(app, { url });
      expect(status, url).toBe(400);
      expect(body.error, url).toMatch(/^Refusing to fetch .*which is not a public address/);
    }
    expect(hits.length).toBe(before);
  });

  it('checks every redirect hop: a redirect to another private address or to metadata is refused', async () => {
    const app = loopbackOnly();
    for (const path of ['/to-other-loopback', '/to-metadata']) {
      const { status, body } = await scrape(app, { url: `${base}${path}` });
      expect(status).toBe(400);
      expect(body.error).toMatch(/Refusing to fetch http:\/\/(127\.0\.0\.2|169\.254\.169\.254)/);
    }
  });

  it('checks what a name resolves to, and every address it has', async () => {
    const resolve = async (host: string) =>
      host === 'metadata.example.test'
        ? [{ address: '169.254.169.254', family: 4 }]
        : [
            { address: '127.0.0.1', family: 4 },
            { address: '10.1.2.3', family: 4 },
          ];
    const app = appWith({ scrape: { allowPrivateNetworks: ['127.0.0.1'], fetcher: createNodeFetcher({ resolve }) } });
    const meta = await scrape(app, { url: 'http://metadata.example.test/computeMetadata/v1/' });
    expect(meta.body.error).toMatch(/resolves to 169\.254\.169\.254 \(link-local \/ cloud metadata\)/);
    const before = hits.length;
    const mixed = await scrape(app, { url: `http://mixed.example.test:${port}/page.html` });
    expect(mixed.body.error).toMatch(/resolves to 10\.1\.2\.3 \(private\)/);
    expect(hits.length).toBe(before);
  });

  it('classifies addresses', () => {
    for (const ip of [
      '8.8.8.8',
      '1.1.1.1',
      '2606:4700:4700::1111',
      '93.184.216.34',
      '::ffff:8.8.8.8',
      '::ffff:0:8.8.8.8',
      '2002:808:808::1',
    ]) {
      expect(blockedReason(ip), ip).toBeUndefined();
    }
    const blocked: Array<[string, string]> = [
      ['127.0.0.1', 'loopback'],
      ['127.9.9.9', 'loopback'],
      ['10.20.30.40', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.0.10', 'private'],
      ['100.100.100.200', 'shared (CGNAT)'],
      ['169.254.169.254', 'link-local / cloud metadata'],
      ['0.0.0.0', 'unspecified'],
      ['::1', 'loopback'],
      ['::', 'unspecified'],
      ['fd00:ec2::254', 'unique local (private)'],
      ['fe80::1%eth0', 'link-local'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['64:ff9b::a9fe:a9fe', 'link-local / cloud metadata'],
      ['::ffff:0:127.0.0.1', 'loopback'],
      ['::ffff:0:a9fe:a9fe', 'link-local / cloud metadata'],
      ['::ffff:0:10.0.0.1', 'private'],
      ['2002:7f00:1::1', 'loopback'],
      ['2002:c0a8:101::', 'private'],
      ['64:ff9b:1::a00:1', 'local-use NAT64'],
      ['224.0.0.1', 'multicast'],
      ['garbage', 'not an IP address'],
    ];
    for (const [ip, why] of blocked) expect(blockedReason(ip), ip).toBe(why);
    expect(isAllowed('10.1.2.3', ['10.1.0.0/16'])).toBe(true);
    expect(isAllowed('10.2.0.1', ['10.1.0.0/16'])).toBe(false);
    expect(isAllowed('::1', ['::1'])).toBe(true);
    expect(isAllowed('127.0.0.1', false)).toBe(false);
    expect(isAllowed('127.0.0.1', true)).toBe(true);
  });
});

describe('TLS verification', () => {
  let tls: https.Server | undefined;
  let tlsBase = '';
  beforeAll(async () => {
    let pem: string;
    try {
      pem = execFileSync(
        'openssl',
        ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-days', '1', '-keyout', '-'],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
      );
    } catch {
      return;
    }
    const key = /-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----/.exec(pem)?.[0];
    const cert = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(pem)?.[0];
    tls = https.createServer({ key, cert }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(page('Secure', '<p>self-signed</p>'));
    });
    await new Promise<void>((r) => tls?.listen(0, '127.0.0.1', r));
    tlsBase = `https://127.0.0.1:${(tls.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    tls?.closeAllConnections();
    await new Promise((r) => (tls ? tls.close(r) : r(undefined)));
  });

  it('skips verification by default (v2 default) and verifies when skipTlsVerification is false', async (ctx) => {
    if (!tls) ctx.skip('openssl is not available to make a self-signed certificate');
    const app = loopbackOnly();
    expect((await scrape(app, { url: `${tlsBase}/` })).body.data.markdown).toContain('self-signed');
    const strict = await scrape(app, { url: `${tlsBase}/`, skipTlsVerification: false });
    expect(strict.status).toBe(500);
    expect(strict.body.code).toBe('SCRAPE_SSL_ERROR');
    expect(strict.body.error).toMatch(
      /^TLS failed while connecting to https:\/\/127\.0\.0\.1:\d+ \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED)/,
    );
    expect(strict.body.error).toContain('set skipTlsVerification: true');
  });

  it('a TLS handshake with a plain HTTP server is SCRAPE_SSL_ERROR even with verification off', async () => {
    const { status, body } = await scrape(loopbackOnly(), { url: `https://127.0.0.1:${port}/page.html` });
    expect(status).toBe(500);
    expect(body.code).toBe('SCRAPE_SSL_ERROR');
    expect(body.error).toMatch(/^TLS failed while connecting to https:\/\/127\.0\.0\.1:\d+ \((EPROTO|ERR_SSL_)/);
    expect(body.error).toContain('verification was already off');
  });
});

describe('fetch failures carry the hosted scrape codes (loopback only)', () => {
  /** A port on 127.0.0.1 that nothing listens on: bound once to learn a free number, then closed. */
  async function closedPort(): Promise<number> {
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const free = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    return free;
  }

  /** A site whose sockets `behave` decides: send part of a page then hang, or reset. */
  async function rawSite(behave: (socket: import('node:net').Socket) => void) {
    const server = (await import('node:net')).createServer(behave);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/page.html`,
      close: () => new Promise((r) => server.close(r)),
    };
  }
  const partialPage = 'HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 5000\r\n\r\n<html><body><p>half';

  it('connection refused is 500 SCRAPE_SITE_ERROR naming the cause', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/page.html`;
    const { status, body } = await scrape(loopbackOnly(), { url });
    expect(status).toBe(500);
    expect(body).toEqual({
      success: false,
      code: 'SCRAPE_SITE_ERROR',
      error: `${url} could not be loaded: the connection was refused (nothing accepts connections on that port) (ECONNREFUSED).`,
    });
  });

  it('a reset in the middle of the page is SCRAPE_SITE_ERROR', async () => {
    const site = await rawSite((socket) => {
      socket.once('data', () => socket.write(partialPage, () => socket.resetAndDestroy()));
    });
    try {
      const { status, body } = await scrape(loopbackOnly(), { url: site.url });
      expect(status).toBe(500);
      expect(body.code).toBe('SCRAPE_SITE_ERROR');
      expect(body.error).toMatch(/could not be loaded: .*\((ECONNRESET|ERR_STREAM_PREMATURE_CLOSE)\)\.$/);
    } finally {
      await site.close();
    }
  });

  it('a site that stops half-way through the page is 408 SCRAPE_TIMEOUT at the timeout', async () => {
    const sockets: import('node:net').Socket[] = [];
    const site = await rawSite((socket) => {
      sockets.push(socket);
      socket.once('data', () => socket.write(partialPage));
    });
    try {
      const started = Date.now();
      const { status, body } = await scrape(loopbackOnly(), { url: site.url, timeout: 1000 });
      expect(status).toBe(408);
      expect(body.code).toBe('SCRAPE_TIMEOUT');
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      for (const s of sockets) s.destroy();
      await site.close();
    }
  });

  it('a name that does not resolve is 200 with success false and SCRAPE_DNS_RESOLUTION_ERROR', async () => {
    // The resolver fails the way getaddrinfo does for an unknown name; nothing leaves 127.0.0.1.
    const resolve = async (host: string) => {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND', hostname: host });
    };
    const app = appWith({ scrape: { fetcher: createNodeFetcher({ resolve }) } });
    const { status, body } = await scrape(app, { url: 'http://no-such-host.invalid/a.html' });
    expect(status).toBe(200);
    expect(body.success).toBe(false);
    expect(body.code).toBe('SCRAPE_DNS_RESOLUTION_ERROR');
    expect(body.error).toMatch(/^DNS resolution failed for the host name "no-such-host\.invalid" \(ENOTFOUND\)/);
  });

  it('the official SDK surfaces the codes', async () => {
    const refusedPort = await closedPort();
    const resolve = async (host: string) =>
      host === 'no-such-host.invalid'
        ? Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }))
        : [{ address: '127.0.0.1', family: 4 }];
    const fetcher = createNodeFetcher({ resolve });
    const server = await startServer(createApp(engine, { scrape: { allowPrivateNetworks: ['127.0.0.1'], fetcher } }), {
      host: '127.0.0.1',
      port: 0,
    });
    try {
      const client = new Firecrawl({ apiKey: 'unused', apiUrl: server.url });
      await expect(client.scrape('http://no-such-host.invalid/')).rejects.toMatchObject({
        code: 'SCRAPE_DNS_RESOLUTION_ERROR',
        message: expect.stringContaining('no-such-host.invalid'),
      });
      await expect(client.scrape(`http://127.0.0.1:${refusedPort}/`)).rejects.toMatchObject({
        status: 500,
        code: 'SCRAPE_SITE_ERROR',
        message: expect.stringContaining('ECONNREFUSED'),
      });
    } finally {
      await server.close(2000);
    }
  });
});

describe('the official SDK scrape()', () => {
  it('scrapes through the real server', async () => {
    const server = await startServer(createApp(engine, { scrape: { allowPrivateNetworks: ['127.0.0.1'] } }), {
      host: '127.0.0.1',
      port: 0,
    });
    try {
      const client = new Firecrawl({ apiKey: 'unused', apiUrl: server.url });
      const doc = await client.scrape(`${base}/go`, { formats: ['markdown'] });
      expect(doc.markdown).toContain('# Hello page');
      expect(doc.metadata?.sourceURL).toBe(`${base}/go`);
      expect(doc.metadata?.url).toBe(`${base}/page.html`);
      expect(doc.metadata?.statusCode).toBe(200);
    } finally {
      await server.close(2000);
    }
  });
});
