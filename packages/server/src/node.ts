import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { DocmillApp } from './app.ts';

export interface RunningServer {
  /** `http://host:port` actually bound (port 0 picks a free one). */
  url: string;
  port: number;
  /**
   * Graceful stop: stop accepting connections, answer new API requests on open connections with
   * 503, wait for in-flight requests (up to `timeoutMs`), then close what is left.
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
          const closed = new Promise<void>((done) => server.close(() => done()));
          if ('closeIdleConnections' in server) server.closeIdleConnections();
          await app.drain(timeoutMs);
          if ('closeAllConnections' in server) server.closeAllConnections();
          await closed;
        },
      });
    });
    server.once('error', reject);
  });
}
