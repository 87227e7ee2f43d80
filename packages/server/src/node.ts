import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { DocmillApp } from './app.ts';

export interface RunningServer {
  /** `http://host:port` actually bound (port 0 picks a free one). */
  url: string;
  port: number;
  /**
   * Graceful stop: keep listening while draining (new API requests and /health answer 503 with
   * Connection: close), let in-flight requests finish and their answers go out (up to
   * `timeoutMs`), then stop listening and close what is left.
   */
  close(timeoutMs?: number): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
export const isLoopbackHost = (host: string): boolean => LOOPBACK.has(host) || /^127\./.test(host);

/** Thin Node adapter: @hono/node-server translates; everything else lives in the app. */
export function startServer(app: DocmillApp, opts: { host: string; port: number }): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, hostname: opts.host, port: opts.port }, (info: AddressInfo) => {
      const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
      resolve({
        url: `http://${host}:${info.port}`,
        port: info.port,
        async close(timeoutMs = 30_000) {
          const deadline = Date.now() + timeoutMs;
          // Listening on while draining: a client (or load balancer) gets a 503 it can act on,
          // not ECONNREFUSED, until nothing is in flight.
          await app.drain(timeoutMs);
          let done = false;
          const closed = new Promise<void>((resolve) =>
            server.close(() => {
              done = true;
              resolve();
            }),
          );
          // The app is done when a handler returns; Node may still be writing that answer, or an
          // answer pipelined behind it. Sweep idle keep-alive sockets until the server reports
          // closed, and cut what is left only at the deadline.
          while (!done && Date.now() < deadline) {
            if ('closeIdleConnections' in server) server.closeIdleConnections();
            await Promise.race([closed, new Promise((r) => setTimeout(r, 50))]);
          }
          if (!done && 'closeAllConnections' in server) server.closeAllConnections();
          await closed;
        },
      });
    });
    server.once('error', reject);
  });
}

// The SSRF-guarded fetcher of /v2/scrape, for other hosts of the engine that fetch URLs (the MCP server).
export { createNodeFetcher, type Resolve } from './scrape/node-fetcher.ts';
export type { Fetched, Fetcher, FetchRequest } from './scrape/types.ts';
