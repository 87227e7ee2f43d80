import { readFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { ACCEPTED_EXTENSIONS, createEngine, type Engine } from '@docmill/core';
import { createPooledEngine } from '@docmill/workers';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolLog } from '../src/config.ts';
import { createDocmillMcp, type RunningMcpHttp, serveHttp, serveStdio } from '../src/index.ts';
import { callTool, manyPagePdf, textOf } from './helpers.ts';

const fixtures = resolve(import.meta.dirname, '../../../fixtures');
const bytes = (p: string) => readFileSync(join(fixtures, p));

async function connect(url: string, opts: { headers?: Record<string, string>; roots?: string[] } = {}) {
  const client = new Client(
    { name: 'test', version: '1' },
    opts.roots ? { capabilities: { roots: { listChanged: true } } } : {},
  );
  if (opts.roots) {
    const roots = opts.roots.map((p) => ({ uri: `file://${p}` }));
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots }));
  }
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), opts.headers ? { requestInit: { headers: opts.headers } } : {}),
  );
  return client;
}
const call = callTool;

describe('the MCP server in-process, over Streamable HTTP with API keys', () => {
  let engine: Engine;
  let http: RunningMcpHttp;
  const logs: ToolLog[] = [];
  beforeAll(async () => {
    engine = createEngine();
    const mcp = await createDocmillMcp({ engine, roots: [fixtures], maxResultChars: 600, log: (r) => logs.push(r) });
    http = await serveHttp(mcp, {
      port: 0,
      keys: [
        { id: 'team-a', key: 'k-a' },
        { id: 'team-b', key: 'k-b' },
      ],
    });
  });
  afterAll(async () => {
    await http?.close();
    await engine?.close();
  });

  it('refuses a client without a valid key, as docmill serve does', async () => {
    await expect(connect(http.url)).rejects.toThrow(/401|Unauthorized/);
    await expect(connect(http.url, { headers: { Authorization: 'Bearer wrong' } })).rejects.toThrow(/401|Unauthorized/);
    const res = await fetch(http.url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect([res.status, res.headers.get('www-authenticate')]).toEqual([401, 'Bearer']);
  });

  it('answers only to a local Host and local web origins (DNS rebinding)', async () => {
    const headers = { Authorization: 'Bearer k-a', 'content-type': 'application/json' };
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} };
    const evil = await fetch(http.url, {
      method: 'POST',
      headers: { ...headers, origin: 'http://attacker.example' },
      body: JSON.stringify(init),
    });
    expect(evil.status).toBe(403);
    // fetch always sends the real Host; a raw request lies about it.
    const status = await new Promise<number>((done, fail) => {
      const { port } = new URL(http.url);
      const req = request(
        { host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { ...headers, host: 'rebound.example' } },
        (res) => {
          res.resume();
          done(res.statusCode ?? 0);
        },
      );
      req.once('error', fail);
      req.end(JSON.stringify(init));
    });
    expect(status).toBe(403);
  });

  it('binds a session to the key that opened it', async () => {
    const a = await connect(http.url, { headers: { Authorization: 'Bearer k-a' } });
    const sessionId = (a.transport as StreamableHTTPClientTransport).sessionId as string;
    expect(http.sessions).toBeGreaterThanOrEqual(1);
    const stolen = await fetch(http.url, {
      method: 'POST',
      headers: {
        Authorization: 'Bearer k-b',
        'mcp-session-id': sessionId,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(stolen.status).toBe(404);
    const r = await call(a, 'parse_document', { path: 'docx/basic.docx' });
    expect(textOf(r)).toContain('# Field report');
    expect(logs.at(-1)).toMatchObject({ tool: 'parse_document', keyId: 'team-a', sessionId, status: 200 });
    await a.close();
  });

  it('cuts a long result at the limit, at a line break, and says how to read the rest', async () => {
    const a = await connect(http.url, { headers: { Authorization: 'Bearer k-a' } });
    const r = await call(a, 'parse_document', { path: 'docx/basic.docx' });
    const data = r.structuredContent as {
      markdown: string;
      truncated: { limit: number; cuts: Array<{ field: string; returned: number; total: number }>; hint: string };
    };
    expect(data.markdown.length).toBeLessThanOrEqual(600);
    expect(data.markdown.endsWith('\n')).toBe(true);
    expect(data.truncated.cuts).toEqual([
      { field: 'markdown', returned: data.markdown.length, total: expect.any(Number), unit: 'characters' },
    ]);
    expect(data.truncated.hint).toContain('call chunk_document');
    expect(textOf(r)).toContain('[docmill: this result is cut to its limit of 600 characters (markdown ');
    // chunk_document continues where a result stops.
    const first = await call(a, 'chunk_document', { path: 'docx/basic.docx', maxTokens: 64 });
    const page = first.structuredContent as { chunks: unknown[]; next: number | null; totalChunks: number };
    expect(page.next).toBe(page.chunks.length);
    expect(page.chunks.length).toBeLessThan(page.totalChunks);
    await a.close();
  });

  it('takes a document as base64 data, and refuses bad base64 and a path and data together', async () => {
    const a = await connect(http.url, { headers: { Authorization: 'Bearer k-b' } });
    const data = bytes('csv/comma.csv').toString('base64');
    const r = await call(a, 'parse_document', { data, filename: 'comma.csv' });
    expect((r.structuredContent as { metadata: { contentType: string } }).metadata.contentType).toBe('text/csv');
    expect(textOf(await call(a, 'parse_document', { data: '%%%%', filename: 'x.csv' }))).toBe(
      '400 BAD_REQUEST: data is not valid base64.',
    );
    expect(textOf(await call(a, 'parse_document', { data, path: 'csv/comma.csv' }))).toBe(
      '400 BAD_REQUEST: Give exactly one of path, url or data, not path and data.',
    );
    const invalid = await call(a, 'parse_document', { path: 'csv/comma.csv', formats: ['screenshot'] });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toMatch(/Input validation error/);
    await a.close();
  });

  it('reads only inside the roots the client announces, within the server’s', async () => {
    const a = await connect(http.url, { headers: { Authorization: 'Bearer k-a' }, roots: [join(fixtures, 'csv')] });
    expect(textOf(await call(a, 'parse_document', { path: join(fixtures, 'csv/comma.csv') }))).toContain('|');
    const outside = await call(a, 'parse_document', { path: join(fixtures, 'docx/basic.docx') });
    expect(textOf(outside)).toBe(
      `400 BAD_REQUEST: ${join(fixtures, 'docx/basic.docx')} is outside the folders this server may read: ${join(fixtures, 'csv')}.`,
    );
    await a.close();
  });
});

describe('limits and list_formats', () => {
  it('lists every accepted extension once, by family, and refuses oversized arguments and sessions', async () => {
    const engine = createEngine();
    const mcp = await createDocmillMcp({ engine, roots: [fixtures] });
    const http = await serveHttp(mcp, { port: 0, maxSessions: 1 });
    try {
      const c = await connect(http.url);
      const r = await call(c, 'list_formats', {});
      const list = r.structuredContent as {
        families: Array<{ extensions: string[] }>;
        formats: Record<string, string>;
      };
      const listed = list.families.flatMap((f) => f.extensions).sort();
      expect(listed).toEqual([...ACCEPTED_EXTENSIONS].sort());
      expect(Object.keys(list.formats)).toEqual(expect.arrayContaining(['markdown', 'chunks', 'json']));
      expect(textOf(r)).toContain('Spreadsheets (.xlsx .xlsm .xlsb .xls .ods)');
      // A million-item argument list is refused before it is looked at.
      const huge = await c
        .callTool({ name: 'parse_document', arguments: { path: 'x.pdf', formats: Array(20_000).fill('markdown') } })
        .catch((e: Error) => e);
      expect(String(huge instanceof Error ? huge.message : textOf(huge as never))).toMatch(
        /more than the maximum of 10000 elements/,
      );
      // One session at most: a second client takes the idle one's place; the first must start over.
      const second = await connect(http.url);
      expect(http.sessions).toBe(1);
      await expect(call(c, 'list_formats', {})).rejects.toThrow(/404|Session not found/);
      // While the only session has a call in flight, a new one is refused.
      let started: () => void = () => {};
      const inFlight = new Promise<void>((r) => {
        started = r;
      });
      const busy = second.callTool(
        {
          name: 'parse_document',
          arguments: { data: Buffer.from(manyPagePdf(3000)).toString('base64'), filename: 'b.pdf', timeout: 300_000 },
        },
        undefined,
        { timeout: 300_000, onprogress: () => started() },
      );
      await inFlight;
      await expect(connect(http.url)).rejects.toThrow(/503|busy/);
      await busy;
      await second.close();
      await c.close().catch(() => undefined);
    } finally {
      await http.close();
      await engine.close();
    }
  });
});

describe('url: fetched through @docmill/server’s SSRF guard', () => {
  let site: Server;
  let siteUrl = '';
  let engine: Engine;
  beforeAll(async () => {
    site = createServer((req, res) => {
      if (req.url === '/hangs.pdf') return; // never answers: the call's timeout must end it
      if (req.url === '/report.docx') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.end(bytes('docx/basic.docx'));
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    engine = createEngine();
  });
  afterAll(async () => {
    site.closeAllConnections();
    await new Promise((r) => site.close(r));
    await engine.close();
  });

  it('refuses loopback and private addresses unless the operator allows them', async () => {
    for (const allow of [false, true]) {
      const mcp = await createDocmillMcp({ engine, roots: [fixtures], allowPrivateNetworks: allow });
      const http = await serveHttp(mcp, { port: 0 });
      try {
        const c = await connect(http.url);
        const r = await call(c, 'parse_document', { url: `${siteUrl}/report.docx` });
        if (allow) {
          const data = r.structuredContent as { markdown: string; metadata: Record<string, unknown> };
          expect(data.markdown).toContain('# Field report');
          expect(data.metadata.sourceURL).toBe(`${siteUrl}/report.docx`);
          expect(textOf(await call(c, 'parse_document', { url: `${siteUrl}/missing.pdf` }))).toBe(
            `400 BAD_REQUEST: ${siteUrl}/missing.pdf answered HTTP 404.`,
          );
          // One deadline covers the fetch and the parse.
          expect(textOf(await call(c, 'parse_document', { url: `${siteUrl}/hangs.pdf`, timeout: 1000 }))).toBe(
            '408 SCRAPE_TIMEOUT: Parsing did not finish within the 1000 ms timeout.',
          );
        } else {
          expect(textOf(r)).toMatch(
            /^400 BAD_REQUEST: Refusing to fetch http:\/\/127\.0\.0\.1:\d+: it resolves to 127\.0\.0\.1 \(loopback\)/,
          );
          const metadata = await call(c, 'parse_document', { url: 'http://169.254.169.254/latest/meta-data/' });
          expect(textOf(metadata)).toMatch(/link-local \/ cloud metadata/);
        }
        await c.close();
      } finally {
        await http.close();
      }
    }
  });
});

describe('cancellation with the worker pool', () => {
  it('a cancelled call ends the worker that was parsing; the next parse starts a fresh one', async () => {
    const engine = createPooledEngine({ workers: 1 });
    const dir = resolve(import.meta.dirname, '../../..');
    const long = manyPagePdf(20_000);
    const logs: ToolLog[] = [];
    const mcp = await createDocmillMcp({ engine, roots: [dir], log: (r) => logs.push(r) });
    const http = await serveHttp(mcp, { port: 0 });
    try {
      const c = await connect(http.url);
      const controller = new AbortController();
      const pending = c.callTool(
        {
          name: 'parse_document',
          arguments: { data: Buffer.from(long).toString('base64'), filename: 'long.pdf', timeout: 300_000 },
        },
        undefined,
        { signal: controller.signal, timeout: 300_000, onprogress: () => controller.abort('stop') },
      );
      await expect(pending).rejects.toThrow();
      while (!logs.some((l) => l.code === 'CANCELLED')) await new Promise((r) => setTimeout(r, 20));
      expect(engine.pool.stats()).toMatchObject({ busy: 0, started: 1 });
      const next = await call(c, 'parse_document', { path: 'fixtures/pdf/basic.pdf' });
      expect(textOf(next)).toContain('# Docmill Fixture');
      // The cancelled parse's worker was ended: this parse needed a new one.
      expect(engine.pool.stats()).toMatchObject({ busy: 0, started: 2 });
      await c.close();
    } finally {
      await http.close();
      await engine.close();
    }
  }, 180_000);
});

describe('stdio framing', () => {
  it('answers a message over the size limit with an error and goes on with the next', async () => {
    const engine = createEngine();
    const mcp = await createDocmillMcp({ engine, roots: [fixtures], maxFileBytes: 3000 });
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    const session = await serveStdio(mcp, { stdin, stdout });
    const send = (m: object) => stdin.write(`${JSON.stringify(m)}\n`);
    send({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    // Over the limit (3000 bytes of file as base64, plus 1 MB), in several writes.
    const huge = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"parse_document","arguments":{"data":"${'A'.repeat(1_100_000)}"}}}\n`;
    for (let i = 0; i < huge.length; i += 65_536) stdin.write(huge.slice(i, i + 65_536));
    send({ jsonrpc: '2.0', id: 8, method: 'tools/list' });
    const replies = async () => {
      while (!out.includes('"id":8')) await new Promise((r) => setTimeout(r, 10));
      return out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { id?: number; error?: { message: string }; result?: { tools?: unknown[] } });
    };
    const all = await replies();
    expect(all.find((m) => m.id === 7)?.error?.message).toMatch(
      /^The message exceeds \d+ bytes; send large files by path\.$/,
    );
    expect(all.find((m) => m.id === 8)?.result?.tools).toHaveLength(3);
    stdin.end();
    await session.closed;
    await engine.close();
  });
});
