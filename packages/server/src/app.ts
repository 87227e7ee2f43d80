import { DocmillError, withPasswordHint } from '@docmill/core';
import { Hono } from 'hono';
import { type ParseEngine, type RequestLog, resolveConfig, type ServerConfig } from './config.ts';
import type { AppEnv, Ctx, Services } from './context.ts';
import { HttpError, PARSE_PASSWORD_HINT, SCRAPE_PASSWORD_HINT, ScrapeFailure, unknownError } from './errors.ts';
import { createKeyStore } from './keys.ts';
import { Gate, PageQuotas, RateLimiter } from './limits.ts';
import { capLogRecord } from './log-fields.ts';
import { openApiDocument } from './openapi.ts';
import { crawlPreviewRoute, deepResearchRoute } from './routes/misc.ts';
import { parseRoute } from './routes/parse.ts';
import { scrapeRoute } from './routes/scrape.ts';

export interface DocmillApp {
  app: Hono<AppEnv>;
  /** Web-standard entry: `(request) => response`, for any runtime adapter. */
  fetch: (request: Request) => Response | Promise<Response>;
  /**
   * Stops admitting API requests (503 + Connection: close, /health too) and resolves when the
   * in-flight ones have finished: true, or false at the timeout.
   */
  drain(timeoutMs?: number): Promise<boolean>;
  readonly inFlight: number;
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** The error's answer; its code (when the body carries one) goes to the request log. */
function errorResponse(c: Ctx, err: unknown): Response {
  if (err instanceof HttpError) {
    for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
    return c.json(err.toJSON(), err.status);
  }
  if (err instanceof DocmillError && err.status !== 500) {
    c.set('code', err.code);
    const hint = c.req.path.startsWith('/v2/parse') ? PARSE_PASSWORD_HINT : SCRAPE_PASSWORD_HINT;
    return c.json(withPasswordHint(err, hint).toJSON(), err.status as 400);
  }
  if (err instanceof ScrapeFailure) {
    c.set('code', err.code);
    return c.json(err.toJSON(), err.status);
  }
  // Unexpected: the client gets an id, the log gets the message; no stack leaves the process.
  c.set('code', 'UNKNOWN_ERROR');
  const errorId = c.get('requestId');
  c.set('errorId', errorId);
  const cause = err instanceof DocmillError && err.cause !== undefined ? err.cause : err;
  c.set('errorMessage', cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause));
  return c.json(unknownError(errorId).toJSON(), 500);
}

/**
 * The docmill HTTP adapter as a Hono app over Web-standard Request/Response; `engine` is anything
 * with the core engine's `parse` (in-process, worker pool, remote).
 */
export function createApp(engine: ParseEngine, config: ServerConfig = {}): DocmillApp {
  const cfg = resolveConfig(config);
  const s: Services = {
    engine,
    config: cfg,
    keys: createKeyStore(cfg.keys),
    uploads: new Gate(cfg.maxUploads, cfg.maxQueue, cfg.maxQueueWaitMs, 'upload'),
    // Its waiters already hold upload slots, so their number is bounded there.
    gate: new Gate(cfg.concurrency, Number.POSITIVE_INFINITY, cfg.maxQueueWaitMs, 'parse'),
    quotas: new PageQuotas(),
    rate: cfg.rateLimit ? new RateLimiter(cfg.rateLimit.perSecond, cfg.rateLimit.burst) : undefined,
    authFailures: cfg.authFailureLimit
      ? new RateLimiter(
          cfg.authFailureLimit.perSecond,
          cfg.authFailureLimit.burst,
          Date.now,
          (wait) => `Too many requests with a missing or wrong API key from this address. Retry after ${wait} s.`,
        )
      : undefined,
    state: { draining: false, inFlight: 0 },
  };
  const app = new Hono<AppEnv>();
  const idle: Array<() => void> = [];

  app.use(async (c, next) => {
    const started = performance.now();
    const given = c.req.header('x-request-id');
    const requestId = given && REQUEST_ID.test(given) ? given : crypto.randomUUID();
    c.set('requestId', requestId);
    c.set('keyId', null);
    c.set('bytes', 0);
    c.set('pages', 0);
    c.set('username', null);
    // Only a request that arrives while draining closes its connection: one already in flight
    // may have others pipelined behind it on the same socket, whose answers must still go out.
    const arrivedDraining = s.state.draining;
    s.state.inFlight++;
    try {
      await next();
    } finally {
      s.state.inFlight--;
      setFinalHeader(c, 'x-request-id', requestId);
      if (arrivedDraining) setFinalHeader(c, 'Connection', 'close');
      const status = c.res.status;
      const record: RequestLog = {
        level: status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info',
        msg: 'request',
        time: new Date().toISOString(),
        requestId,
        keyId: c.get('keyId'),
        method: c.req.method,
        path: c.req.path,
        status,
        bytes: c.get('bytes'),
        pages: c.get('pages'),
        durationMs: Math.round(performance.now() - started),
      };
      const code = c.get('code');
      if (code) record.code = code;
      const filename = c.get('filename');
      if (filename) record.filename = filename;
      const errorId = c.get('errorId');
      if (errorId) {
        record.errorId = errorId;
        record.errorMessage = c.get('errorMessage');
      }
      cfg.log(capLogRecord(record));
      if (cfg.audit && isApiPath(c.req.path)) {
        cfg.audit(
          capLogRecord({
            msg: 'audit',
            time: record.time,
            requestId,
            keyId: record.keyId,
            action: `${c.req.method} ${c.req.path}`,
            status,
            username: c.get('username'),
          }),
        );
      }
      if (s.state.inFlight === 0) for (const done of idle.splice(0)) done();
    }
  });

  app.use('/v1/*', guard(s));
  app.use('/v2/*', guard(s));

  parseRoute(app, s);
  scrapeRoute(app, s);
  crawlPreviewRoute(app, s);
  deepResearchRoute(app);

  let openapi: Record<string, unknown> | undefined;
  app.get('/openapi.json', (c) => {
    openapi ??= openApiDocument(cfg.version);
    return c.json(openapi);
  });

  app.get('/health', (c) =>
    c.json(
      {
        status: s.state.draining ? 'draining' : 'ok',
        version: cfg.version,
        running: s.gate.running,
        queued: s.gate.queued + s.uploads.queued,
        uploads: s.uploads.running,
      },
      s.state.draining ? 503 : 200,
    ),
  );

  app.notFound((c) => c.json({ success: false, error: `Not found: ${c.req.method} ${c.req.path}` }, 404));
  app.onError((err, c) => errorResponse(c, err));

  return {
    app,
    fetch: (request) => app.fetch(request),
    get inFlight() {
      return s.state.inFlight;
    },
    drain(timeoutMs = 30_000) {
      s.state.draining = true;
      if (s.state.inFlight === 0) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), timeoutMs);
        idle.push(() => {
          clearTimeout(timer);
          resolve(true);
        });
      });
    },
  };
}

/**
 * Sets a header on the finished response in place. Hono's `c.header()` after the handler rebuilds
 * the Response around its body stream, so @hono/node-server would stream every JSON answer instead
 * of writing it in one piece; its stream-error path is the one that prints to the console ("The
 * user aborted a request.") when a client has gone. Immutable headers fall back to the rebuild.
 */
function setFinalHeader(c: Ctx, name: string, value: string): void {
  try {
    c.res.headers.set(name, value);
  } catch {
    c.header(name, value);
  }
}

/**
 * The peer's address when the Node adapter passes its socket (`env.incoming`); one shared bucket
 * on runtimes that do not. Behind a load balancer every client has the balancer's address.
 */
function clientAddress(c: Ctx): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? 'unknown';
}

const isApiPath = (path: string) => path.startsWith('/v1/') || path.startsWith('/v2/');

/** Draining, authentication and the per-key rate limit, in that order, for every API route. */
function guard(s: Services) {
  return async (c: Ctx, next: () => Promise<void>) => {
    if (s.state.draining) {
      c.header('Connection', 'close');
      throw new HttpError(503, 'The server is shutting down; retry on another replica.', { 'Retry-After': '1' });
    }
    const store = await s.keys;
    if (store.size > 0) {
      // Refused before the key is looked at: an answer that depended on it would be an oracle.
      const client = clientAddress(c);
      s.authFailures?.check(client);
      const m = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '');
      const found = m ? await store.match(m[1] as string) : undefined;
      if (!found) {
        s.authFailures?.spend(client);
        c.header('WWW-Authenticate', 'Bearer');
        throw new HttpError(401, m ? 'Unauthorized: invalid API key.' : 'Unauthorized: missing Bearer API key.');
      }
      c.set('keyId', found.id);
      c.set('pageQuota', found.pageQuota);
    }
    s.rate?.take(c.get('keyId') ?? 'anonymous');
    await next();
  };
}
