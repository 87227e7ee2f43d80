import net from 'node:net';
import type { ParseData } from '@docmill/core';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import type { ParseEngine, RequestLog } from '../src/config.ts';
import { startServer } from '../src/node.ts';

/** An engine whose parses finish when the test says so. */
function heldEngine() {
  const waiting: Array<() => void> = [];
  const engine: ParseEngine = {
    parse: () =>
      new Promise<ParseData>((resolve) =>
        waiting.push(() => resolve({ markdown: 'done', metadata: { numPages: 1, error: null }, warning: null })),
      ),
  };
  return {
    engine,
    waiting,
    finish: () => {
      for (const f of waiting.splice(0)) f();
    },
  };
}

const BOUNDARY = 'drain-boundary';
const upload = (name: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}.html"\r\n\r\n<p>${name}</p>\r\n--${BOUNDARY}--\r\n`;
const parseRequest = (name: string) => {
  const body = upload(name);
  return `POST /v2/parse HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
};

/** HTTP/1.1 responses in the order they came on one socket, until the server closes it. */
function responsesOn(socket: net.Socket): Promise<Array<{ status: number; head: string; body: string }>> {
  let raw = '';
  socket.on('data', (d) => {
    raw += d.toString('latin1');
  });
  return new Promise((resolve) =>
    socket.on('close', () => {
      const out: Array<{ status: number; head: string; body: string }> = [];
      let rest = raw;
      while (rest.startsWith('HTTP/1.1 ')) {
        const end = rest.indexOf('\r\n\r\n');
        const head = rest.slice(0, end);
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
        out.push({ status: Number(head.slice(9, 12)), head, body: rest.slice(end + 4, end + 4 + length) });
        rest = rest.slice(end + 4 + length);
      }
      resolve(out);
    }),
  );
}

describe('draining on shutdown keeps listening until in-flight requests are delivered', () => {
  it('answers new requests and /health with 503 + Connection: close, delivers pipelined in-flight answers, then stops', async () => {
    const held = heldEngine();
    const logs: RequestLog[] = [];
    const app = createApp(held.engine, { rateLimit: false, concurrency: 2, log: (r) => logs.push(r) });
    const server = await startServer(app, { host: '127.0.0.1', port: 0 });
    let closing: Promise<void> | undefined;
    try {
      // Two parses pipelined on one kept-alive socket, both in flight.
      const socket = net.connect(server.port, '127.0.0.1');
      socket.on('error', () => undefined);
      const answered = responsesOn(socket);
      socket.write(parseRequest('first') + parseRequest('second'));
      for (let i = 0; held.waiting.length < 2; i++) {
        if (i > 1000) throw new Error('the pipelined parses never started');
        await new Promise((r) => setTimeout(r, 10));
      }

      closing = server.close(30_000);
      // Still listening: a new client is told to go elsewhere, on a connection that is then closed.
      const health = await fetch(`${server.url}/health`);
      expect(health.status).toBe(503);
      expect(health.headers.get('connection')).toBe('close');
      expect(await health.json()).toMatchObject({ status: 'draining', running: 2 });
      const refused = await fetch(`${server.url}/v2/parse`, { method: 'POST' });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('connection')).toBe('close');
      expect(refused.headers.get('retry-after')).toBe('1');

      held.finish();
      const got = await answered;
      expect(got.map((r) => r.status)).toEqual([200, 200]);
      expect(got.map((r) => JSON.parse(r.body).data.markdown)).toEqual(['done', 'done']);
      await closing;
      closing = undefined;
      // Stopped: nothing listens any more.
      await expect(fetch(`${server.url}/health`)).rejects.toThrow();
      expect(logs.filter((l) => l.path === '/v2/parse').map((l) => l.status)).toEqual([503, 200, 200]);
    } finally {
      held.finish();
      await (closing ?? server.close(1000));
    }
  });
});
