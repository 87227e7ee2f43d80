import { connect } from 'node:net';
import { createEngine, type ParseData } from '@docmill/core';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../src/app.ts';
import type { ParseEngine } from '../src/config.ts';
import { startServer } from '../src/node.ts';
import { fixture } from './helpers.ts';

// Clients that go away mid-request must not make the Node listener write anything: the only
// output of `docmill serve` is its JSON log lines (the brief: no console output from a library).

const engine = createEngine();
afterAll(() => engine.close());

const BOUNDARY = 'quiet-boundary';
function multipartBody(filename: string, bytes: Uint8Array): Buffer {
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="options"\r\n\r\n{}\r\n`),
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

/** Raw HTTP/1.1 upload that writes `sent` bytes of the body, then drops the socket after `hangUpMs`. */
function abortedUpload(port: number, body: Buffer, sent: number, hangUpMs: number, afterFirstByte = false) {
  return new Promise<void>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `POST /v2/parse HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\n` +
          `Content-Length: ${body.length}\r\n\r\n`,
      );
      socket.write(body.subarray(0, sent));
      const hangUp = () =>
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, hangUpMs);
      if (afterFirstByte) socket.once('data', hangUp);
      else hangUp();
    });
    socket.on('error', () => resolve());
  });
}

/** Everything the process would print while `run` goes on: console calls and raw stdout/stderr writes. */
async function captureOutput(run: () => Promise<void>): Promise<string[]> {
  const out: string[] = [];
  const spies = (['log', 'info', 'warn', 'error', 'debug', 'trace'] as const).map((m) =>
    vi.spyOn(console, m).mockImplementation((...args: unknown[]) => {
      out.push(`console.${m}: ${args.map(String).join(' ')}`);
    }),
  );
  const writes = [process.stdout, process.stderr].map((stream) =>
    vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out.push(String(chunk));
      return true;
    }),
  );
  try {
    await run();
  } finally {
    for (const s of [...spies, ...writes]) s.mockRestore();
  }
  return out;
}

describe('the Node listener stays quiet when clients disconnect', () => {
  it('hands @hono/node-server buffered JSON, not a rebuilt stream (its stream-error path prints)', async () => {
    const server = await startServer(createApp(engine, { rateLimit: false }), { host: '127.0.0.1', port: 0 });
    try {
      const app = createApp(engine, { rateLimit: false });
      // startServer installed node-server's Response class; its buffered form keeps a 'cache' slot
      // that the listener writes with a single end(). A Response rebuilt around `.body` lost it.
      for (const path of ['/health', '/nope', '/v2/parse']) {
        const res = await app.fetch(
          new Request(`http://127.0.0.1${path}`, { method: path === '/v2/parse' ? 'POST' : 'GET' }),
        );
        const slots = Object.getOwnPropertySymbols(res).map((s) => s.description);
        expect(slots, path).toContain('cache');
        expect(res.headers.get('x-request-id'), path).toMatch(/^[\w-]{36}$/);
      }
    } finally {
      await server.close(2000);
    }
  });

  it('aborted uploads, parses and downloads print nothing but JSON log lines; the server keeps serving', async () => {
    const slowParse: ParseEngine = {
      parse: (bytes, options, hints) =>
        new Promise<ParseData>((resolve, reject) => {
          const t = setTimeout(() => engine.parse(bytes, options, hints).then(resolve, reject), 150);
          hints?.signal?.addEventListener('abort', () => {
            clearTimeout(t);
            reject(hints.signal?.reason);
          });
        }),
    };
    const log = (record: object) => process.stdout.write(`${JSON.stringify(record)}\n`);
    const app = createApp(slowParse, { rateLimit: false, log });
    const server = await startServer(app, { host: '127.0.0.1', port: 0 });
    const pdf = multipartBody('basic.pdf', fixture('pdf/basic.pdf'));
    // About 4 MB of Markdown comes back for this CSV, so a client can leave while it streams.
    const rows = Array.from({ length: 60_000 }, (_, i) => `${i},name ${i},${(i * 7) % 1000},some longer text ${i}`);
    const csv = multipartBody('big.csv', new TextEncoder().encode(`id,name,amount,note\n${rows.join('\n')}`));
    let health = 0;
    let markdown = '';
    try {
      const printed = await captureOutput(async () => {
        for (const [sent, hangUpMs] of [
          [0, 0],
          [40, 5],
          [pdf.length >> 1, 20],
          [pdf.length - 3, 50],
          [pdf.length, 30], // whole upload, gone while the parse runs
        ] as const) {
          await abortedUpload(server.port, pdf, sent, hangUpMs);
        }
        await abortedUpload(server.port, csv, csv.length, 0, true); // gone mid-download
        for (const delay of [1, 10, 60]) {
          const client = new AbortController();
          const form = new FormData();
          form.append('options', '{}');
          form.append('file', new Blob([fixture('pdf/basic.pdf') as Uint8Array<ArrayBuffer>]), 'basic.pdf');
          const res = fetch(`${server.url}/v2/parse`, { method: 'POST', body: form, signal: client.signal });
          setTimeout(() => client.abort(), delay);
          await res.then((r) => r.arrayBuffer()).catch(() => undefined);
        }
        for (let i = 0; i < 300 && app.inFlight > 0; i++) await new Promise((r) => setTimeout(r, 10));
        await new Promise((r) => setTimeout(r, 700)); // node-server's drain of unread bodies ends at 500 ms
        health = (await fetch(`${server.url}/health`)).status;
        const form = new FormData();
        form.append('options', '{}');
        form.append('file', new Blob([fixture('pdf/basic.pdf') as Uint8Array<ArrayBuffer>]), 'basic.pdf');
        const parsed = (await (await fetch(`${server.url}/v2/parse`, { method: 'POST', body: form })).json()) as {
          data: ParseData;
        };
        markdown = parsed.data.markdown ?? '';
      });
      const lines = printed.join('').split('\n').filter(Boolean);
      const foreign = lines.filter((l) => {
        try {
          return (JSON.parse(l) as { msg?: string }).msg !== 'request';
        } catch {
          return true;
        }
      });
      expect(foreign).toEqual([]);
      expect(lines.length).toBeGreaterThanOrEqual(10);
      expect(health).toBe(200);
      expect(markdown).toContain('# Docmill Fixture');
      expect(app.inFlight).toBe(0);
    } finally {
      await server.close(2000);
    }
  }, 60_000);
});
