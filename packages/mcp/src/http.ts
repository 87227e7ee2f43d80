import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ApiKey, createKeyStore } from '@docmill/server';
import { isLoopbackHost } from '@docmill/server/node';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { DocmillMcp, SessionInfo } from './server.ts';
import { messageLimit } from './stdio.ts';

export interface HttpOptions {
  host?: string;
  port?: number;
  /** Bearer keys, as `docmill serve` takes them; none: no authentication (loopback only, unless `allowNoAuth`). */
  keys?: ApiKey[];
  /** Serve a non-loopback address without keys (refused otherwise). */
  allowNoAuth?: boolean;
  /**
   * Sessions open at once (default 64). A new one beyond it closes the least recently used idle
   * session; only when every session has a request in flight is it refused with 503.
   */
  maxSessions?: number;
  /** A session without a request for this long is closed. Default 30 minutes. */
  sessionIdleMs?: number;
  /** One JSON line per HTTP request that was refused before reaching MCP (auth, host, sessions). */
  log?: (record: Record<string, unknown>) => void;
}

export interface RunningMcpHttp {
  /** `http://host:port/mcp`. */
  url: string;
  port: number;
  readonly sessions: number;
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  keyId: string | undefined;
  lastSeen: number;
  /** POSTs of the session being answered (a tool call streams until its result). */
  inFlight: number;
}

const LOCAL_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The host name of a Host or Origin value, without port. */
function hostnameOf(value: string): string | undefined {
  try {
    return new URL(value.includes('://') ? value : `http://${value}`).hostname;
  } catch {
    return undefined;
  }
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

const rpcError = (message: string, code = -32000) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

/**
 * `docmill mcp --http`: MCP's Streamable HTTP transport on `/mcp`, one MCP server per session (so
 * a client's cancellation and roots reach the call they belong to). With keys, every request needs
 * `Authorization: Bearer <key>`, checked by @docmill/server's key store, and a session is bound to
 * the key that opened it. On a loopback address, Host and Origin must be local too, so a web page
 * cannot reach the server through DNS rebinding.
 */
export async function serveHttp(mcp: DocmillMcp, opts: HttpOptions = {}): Promise<RunningMcpHttp> {
  const host = opts.host ?? '127.0.0.1';
  const keys = opts.keys ?? [];
  if (keys.length === 0 && !isLoopbackHost(host) && !opts.allowNoAuth) {
    throw new Error(`Refusing to serve MCP on ${host} without API keys: give keys, or allow it explicitly.`);
  }
  const store = await createKeyStore(keys);
  const maxSessions = opts.maxSessions ?? 64;
  const idleMs = opts.sessionIdleMs ?? 30 * 60_000;
  const log = opts.log ?? (() => {});
  const loopback = isLoopbackHost(host);
  const sessions = new Map<string, Session>();
  const maxBody = messageLimit(mcp.config.maxFileBytes);

  const refuse = (res: ServerResponse, req: IncomingMessage, status: number, message: string, headers = {}) => {
    log({ msg: 'refused', time: new Date().toISOString(), method: req.method, path: req.url, status, reason: message });
    json(res, status, rpcError(message), headers);
  };

  const end = async (id: string) => {
    const s = sessions.get(id);
    if (!s) return;
    sessions.delete(id);
    await s.server.close().catch(() => undefined);
  };

  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, s] of sessions) if (now - s.lastSeen > idleMs) void end(id);
    },
    Math.min(idleMs, 60_000),
  );
  sweep.unref();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/mcp')
      return json(res, 404, { error: `Not found: ${req.method} ${path}. The MCP endpoint is /mcp.` });
    if (loopback) {
      const h = hostnameOf(req.headers.host ?? '');
      if (!h || !LOCAL_NAMES.has(h))
        return refuse(res, req, 403, 'Forbidden: this server answers only to a local Host.');
      const origin = req.headers.origin;
      if (origin && !LOCAL_NAMES.has(hostnameOf(origin) ?? '')) {
        return refuse(res, req, 403, 'Forbidden: requests from web pages of other origins are refused.');
      }
    }
    let keyId: string | undefined;
    if (store.size > 0) {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
      const found = m ? await store.match(m[1] as string) : undefined;
      if (!found) {
        return refuse(res, req, 401, m ? 'Unauthorized: invalid API key.' : 'Unauthorized: missing Bearer API key.', {
          'WWW-Authenticate': 'Bearer',
        });
      }
      keyId = found.id;
    }
    const given = req.headers['mcp-session-id'];
    if (typeof given === 'string') {
      const s = sessions.get(given);
      // Another key's session is as unknown as an expired one.
      if (!s || s.keyId !== keyId) return refuse(res, req, 404, 'Session not found: initialize a new one.');
      // Most recently used last: the map's order is the eviction order.
      sessions.delete(given);
      sessions.set(given, s);
      s.lastSeen = Date.now();
      // A GET is the session's standing notification stream, open for as long as the client is:
      // only POSTs (calls being answered) make a session busy.
      const call = req.method === 'POST' ? 1 : 0;
      s.inFlight += call;
      try {
        await s.transport.handleRequest(req, res);
      } finally {
        s.inFlight -= call;
      }
      if (req.method === 'DELETE') await end(given);
      return;
    }
    if (req.method !== 'POST')
      return refuse(res, req, 400, 'Bad Request: no session; POST an initialize request first.');
    if (sessions.size >= maxSessions) {
      // Clients often leave without ending their session: the least recently used idle one makes room.
      const idle = [...sessions].find(([, x]) => x.inFlight === 0);
      if (!idle) {
        return refuse(res, req, 503, `All ${maxSessions} sessions are busy; retry later.`, { 'Retry-After': '5' });
      }
      await end(idle[0]);
    }
    // A new transport per initialize; if the message was anything else the transport answers 400
    // and never gets a session id, and it is dropped.
    let server: McpServer | undefined;
    const info: SessionInfo = keyId ? { keyId } : {};
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: maxBody,
      onsessioninitialized: (id) => {
        info.sessionId = id;
        sessions.set(id, { transport, server: server as McpServer, keyId, lastSeen: Date.now(), inFlight: 0 });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    server = mcp.createServer(info);
    await server.connect(transport);
    await transport.handleRequest(req, res);
    if (!transport.sessionId) await server.close();
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      log({ msg: 'error', time: new Date().toISOString(), error: err instanceof Error ? err.message : String(err) });
      if (!res.headersSent) json(res, 500, rpcError('Internal error', -32603));
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(opts.port ?? 3003, host, () => resolve());
  });
  const info = http.address() as AddressInfo;
  const shown = info.family === 'IPv6' ? `[${info.address}]` : info.address;
  return {
    url: `http://${shown}:${info.port}/mcp`,
    port: info.port,
    get sessions() {
      return sessions.size;
    },
    async close() {
      clearInterval(sweep);
      await Promise.all([...sessions.keys()].map(end));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
