import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { resolve } from 'node:path';
import { createEngine, type ParseData, type ParseHints } from '@docmill/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import type { ParseEngine, RequestLog, ServerConfig } from '../src/config.ts';
import { type RunningServer, startServer } from '../src/node.ts';
import { watchStalls } from './loop-stall.ts';

// Uploads from slow, flooding and odd clients against a real server on 127.0.0.1. The engine only
// fingerprints what it was given, so the tests are about the HTTP layer, not about parsing.

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/**
 * Answers with the SHA-256 and size of the bytes it got, and remembers the hints. It hashes 1 MB
 * at a time with turns of the event loop between, so the engine itself never holds the loop.
 */
function fingerprintEngine(seen: ParseHints[] = []): ParseEngine {
  return {
    async parse(input, _options, hints) {
      seen.push({ ...hints });
      const bytes = input as Uint8Array;
      const hash = createHash('sha256');
      for (let at = 0; at < bytes.byteLength; at += 1 << 20) {
        hash.update(bytes.subarray(at, at + (1 << 20)));
        await new Promise((r) => setTimeout(r, 0));
      }
      return {
        markdown: `${bytes.byteLength} ${hash.digest('hex')}`,
        metadata: { numPages: 1, error: null },
        warning: null,
      };
    },
  };
}

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close(5000);
  server = undefined;
});

async function serve(config: ServerConfig, engine: ParseEngine = fingerprintEngine()): Promise<RunningServer> {
  server = await startServer(createApp(engine, { rateLimit: false, ...config }), { host: '127.0.0.1', port: 0 });
  return server;
}

const BOUNDARY = 'docmill-test-boundary';
const TYPE = `multipart/form-data; boundary=${BOUNDARY}`;
function multipart(file: Uint8Array | string, filename = 'a.html', extra = ''): Buffer {
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"${extra}\r\n\r\n`),
    Buffer.from(file),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

type Answer = { status: number; body: { data: ParseData; error: string; code: string } };

async function upload(url: string, body: Buffer, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${url}/v2/parse`, {
    method: 'POST',
    body: new Uint8Array(body),
    headers: { 'content-type': TYPE, ...headers },
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

/**
 * POST /v2/parse over a plain socket. fetch() copies a body synchronously before sending (27 MB:
 * ≈ 30–80 ms here), which would count as a stall of the server sharing this event loop.
 */
function rawUpload(port: number, body: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const got: Buffer[] = [];
    socket.on('error', () => undefined); // the server may close while the rest is still being sent
    socket.on('data', (d) => {
      got.push(d);
      const text = Buffer.concat(got).toString('utf8');
      const head = text.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(text)?.[1] ?? Number.NaN);
      if (head < 0 || Buffer.byteLength(text.slice(head + 4)) < length) return;
      socket.destroy();
      resolve({ status: Number(text.slice(9, 12)), body: JSON.parse(text.slice(head + 4)) as Answer['body'] });
    });
    socket.on('close', () => reject(new Error(`closed without a full answer: ${Buffer.concat(got)}`)));
    socket.write(
      `POST /v2/parse HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${TYPE}\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    socket.write(body);
  });
}

const health = async (url: string) =>
  (await (await fetch(`${url}/health`)).json()) as { running: number; queued: number; uploads: number };

async function until(what: string, ok: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * A raw client that sends the request head and the first `prefix` bytes of `body`, then one byte
 * every `everyMs` (or nothing more with `everyMs: 0`). `closed` resolves, with what the server
 * answered, once the server has closed the connection.
 */
function trickle(port: number, body: Buffer, prefix: number, everyMs: number) {
  const socket = net.connect(port, '127.0.0.1');
  let answer = '';
  let sent = prefix;
  let timer: ReturnType<typeof setInterval> | undefined;
  socket.on('data', (d) => {
    answer += d.toString('latin1');
  });
  socket.on('error', () => undefined);
  socket.write(
    `POST /v2/parse HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${TYPE}\r\nContent-Length: ${body.length}\r\n\r\n`,
  );
  socket.write(body.subarray(0, prefix));
  if (everyMs > 0) {
    timer = setInterval(() => {
      if (sent < body.length && socket.writable) socket.write(body.subarray(sent, ++sent));
    }, everyMs);
  }
  // This client never closes its socket: 'close' is the server's doing.
  const closed = new Promise<string>((resolve) =>
    socket.on('close', () => {
      clearInterval(timer);
      resolve(answer);
    }),
  );
  return {
    closed,
    get answer() {
      return answer;
    },
  };
}

describe('a slow upload holds no parse slot', () => {
  it('other clients parse meanwhile; the trickling upload gets 408 and everything it held is freed', async () => {
    // One parse slot, as with `--workers 1`.
    const s = await serve({ concurrency: 1, bodyTimeoutMs: 1500, minBodyRate: 4096, maxQueueWaitMs: 30_000 });
    const slowBody = multipart('x'.repeat(10_000));
    const slow = trickle(s.port, slowBody, 200, 100);
    const stalled = trickle(s.port, slowBody, 5_000, 0);
    // Both are in the server (reading their bodies; a parse slot would count them as running/queued).
    await until('both slow uploads admitted', async () => {
      const h = await health(s.url);
      return (h.uploads ?? 0) + h.running + h.queued === 2;
    });

    const doc = '<h1>Fast client</h1>';
    for (let i = 0; i < 3; i++) {
      const fast = await upload(s.url, multipart(doc));
      expect(fast.status).toBe(200);
      expect(fast.body.data.markdown).toBe(`${doc.length} ${sha(Buffer.from(doc))}`);
    }
    // Neither slow upload has been answered while the fast ones went through.
    expect(slow.answer).toBe('');
    expect(stalled.answer).toBe('');

    for (const c of [slow, stalled]) {
      const answer = await c.closed;
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(answer).toContain('"code":"SCRAPE_TIMEOUT"');
      expect(answer).toContain('The request body arrived too slowly');
    }
    expect(await health(s.url)).toMatchObject({ running: 0, queued: 0, uploads: 0 });
  });

  it('a JSON body that stalls is a 408 too', { timeout: 30_000 }, async () => {
    const app = createApp(fingerprintEngine(), { rateLimit: false, bodyTimeoutMs: 300 });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"url": "http://exa'));
      },
    });
    const res = await app.app.request('/v2/scrape', {
      method: 'POST',
      body,
      duplex: 'half',
      headers: { 'content-type': 'application/json' },
    } as RequestInit);
    expect(res.status).toBe(408);
    expect(((await res.json()) as { error: string }).error).toMatch(/may pause at most 300 ms/);
  });
});

describe('multipart bodies are parsed incrementally: no upload holds the event loop', () => {
  it('a 450,000-part flood is a 400 naming the limit; /health answers throughout; no stall over 50 ms', {
    timeout: 120_000,
  }, async () => {
    const s = await serve({ concurrency: 2 });
    const part = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="x"\r\n\r\ny\r\n`;
    const flood = (n: number) => Buffer.from(`${part.repeat(n)}--${BOUNDARY}--\r\n`);
    const bodies = { huge: flood(450_000), many: flood(10_000) };
    // Content that keeps the boundary search busiest: CRs, and boundary prefixes that do not finish.
    const tricky = Buffer.from(`\r\r\n--${BOUNDARY.slice(0, -1)}\r\n-\r`.repeat(400_000));
    const big = Buffer.alloc(40 * 1024 * 1024, 'docmill ');
    const uploads = [bodies.huge, bodies.many, multipart(tricky, 'tricky.html'), multipart(big, 'big.html')];
    // Hashed before watching: a synchronous hash of 40 MB in the test would be a stall of its own.
    const expected = [`${tricky.length} ${sha(tricky)}`, `${big.length} ${sha(big)}`];

    const watch = watchStalls();
    let pinging = true;
    const pings: number[] = [];
    const pinger = (async () => {
      while (pinging) {
        pings.push((await fetch(`${s.url}/health`)).status);
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
    try {
      const answers = await Promise.all(uploads.map((b) => rawUpload(s.port, b)));
      expect(answers.map((a) => [a.status, a.body.error ?? a.body.data.markdown])).toEqual([
        [400, 'The form has more than 100 parts (the limit).'],
        [400, 'The form has more than 100 parts (the limit).'],
        [200, expected[0]],
        [200, expected[1]],
      ]);
    } finally {
      pinging = false;
      await pinger;
    }
    const stalls = watch.stop();
    expect(pings.length).toBeGreaterThan(0);
    expect(pings.every((p) => p === 200)).toBe(true);
    expect(stalls.busyMs, JSON.stringify(stalls)).toBeLessThan(50);
  });
});

describe('a client that goes away mid-upload', () => {
  it('is logged as a 400, not as a server error, and frees its upload slot', { timeout: 30_000 }, async () => {
    const logs: RequestLog[] = [];
    const s = await serve({ log: (r) => logs.push(r) });
    const body = multipart('x'.repeat(100_000));
    const socket = net.connect(s.port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(
      `POST /v2/parse HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${TYPE}\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    socket.write(body.subarray(0, 5_000));
    await until('the upload admitted', async () => (await health(s.url)).uploads === 1);
    socket.destroy();
    const parses = () => logs.filter((l) => l.path === '/v2/parse');
    await until('the request logged', async () => parses().length === 1);
    expect(parses()[0]).toMatchObject({ status: 400, code: 'BAD_REQUEST', level: 'warn' });
    expect(await health(s.url)).toMatchObject({ uploads: 0, running: 0 });
  });
});

describe('what clients put in a form', () => {
  it('filename* (RFC 5987) names the file; boundary text inside the file is content', async () => {
    const logs: RequestLog[] = [];
    const seen: ParseHints[] = [];
    const s = await serve({ log: (r) => logs.push(r) }, fingerprintEngine(seen));
    const content = `<p>--${BOUNDARY} is not a boundary here</p>\n--${BOUNDARY}--\n<p>nor there</p>`;
    const r = await upload(
      s.url,
      multipart(content, 'fallback.bin', "; filename*=UTF-8''%E2%82%AC%20r%C3%A9sum%C3%A9.html"),
    );
    expect(r.status).toBe(200);
    expect(r.body.data.markdown).toBe(`${Buffer.byteLength(content)} ${sha(Buffer.from(content))}`);
    expect(seen[0]?.filename).toBe('€ résumé.html');
    expect(logs[0]?.filename).toBe('€ résumé.html');
  });
});

describe('a document password over HTTP', () => {
  const pdf = readFileSync(resolve(import.meta.dirname, '../../../fixtures/pdf/encrypted.pdf'));
  const secret = 'docmill';
  const wrong = 'Sw0rdf1sh-NOT-the-password';

  it('opens an encrypted PDF from the password field or the X-Docmill-Password header; a wrong one is a 400 that does not echo it', async () => {
    const logs: RequestLog[] = [];
    const engine = createEngine();
    try {
      const s = await serve({ log: (r) => logs.push(r) }, engine);
      const withField = (password: string) => {
        const fd = new FormData();
        fd.append('password', password);
        fd.append('file', new Blob([new Uint8Array(pdf)]), 'locked.pdf');
        return fetch(`${s.url}/v2/parse`, { method: 'POST', body: fd });
      };
      const field = await withField(secret);
      expect(field.status).toBe(200);
      expect(((await field.json()) as { data: ParseData }).data.markdown).toContain('Locked Fixture');
      const header = await upload(s.url, multipart(pdf, 'locked.pdf'), { 'x-docmill-password': secret });
      expect(header.status).toBe(200);
      expect(header.body.data.markdown).toContain('Locked Fixture');

      const answers = [
        await withField(wrong),
        await fetch(`${s.url}/v2/parse`, {
          method: 'POST',
          body: new Uint8Array(multipart(pdf, 'locked.pdf')),
          headers: { 'content-type': TYPE, 'x-docmill-password': wrong },
        }),
      ];
      for (const res of answers) {
        const text = await res.text();
        expect(res.status).toBe(400);
        expect(JSON.parse(text)).toMatchObject({ success: false, code: 'BAD_REQUEST' });
        expect(text).not.toContain(wrong);
        expect(JSON.stringify([...res.headers])).not.toContain(wrong);
      }
      const none = await upload(s.url, multipart(pdf, 'locked.pdf'));
      expect(none.status).toBe(400);
      expect(logs.map((l) => l.status)).toEqual([200, 200, 400, 400, 400]);
      expect(JSON.stringify(logs)).not.toMatch(new RegExp(`${wrong}|${secret}`));
    } finally {
      await engine.close();
    }
  });
});
