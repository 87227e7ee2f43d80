import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { createDocmillMcp, MCP_DEFAULTS, serveHttp, serveStdio } from '@docmill/mcp';
import { UsageError } from './args.ts';
import { makeEngine } from './engine.ts';
import type { CliIO } from './main.ts';
import { allowList, apiKeys, int } from './serve.ts';

export const mcpUsage = `Usage: docmill mcp [flags]      an MCP server with parse_document, chunk_document and list_formats

Over stdio by default (what desktop agents start); --http serves Streamable HTTP on /mcp.

Flags (environment variable in brackets):
  --root DIR                 a folder whose files may be read, repeatable; default: the working
                             directory. Roots the client announces narrow these, never widen them.
  --workers N                parse in N worker threads, default: cores − 1, at least 1 [DOCMILL_WORKERS]
  --max-result-chars N       characters one tool result may hold, default ${MCP_DEFAULTS.maxResultChars}
  --allow-private-networks   let url reach loopback/private/link-local addresses
                             [DOCMILL_SCRAPE_ALLOW_PRIVATE=1, or a list: 10.1.0.0/16,127.0.0.1]
  --http                     Streamable HTTP instead of stdio, endpoint /mcp
  --host H                   with --http: bind address, default 127.0.0.1 [DOCMILL_HOST]
  --port N                   with --http: port, default 3003 [DOCMILL_MCP_PORT]
  --keys-file PATH           with --http: API keys as for docmill serve [DOCMILL_API_KEYS_FILE, DOCMILL_API_KEYS]
  --no-auth                  with --http: serve a non-loopback host without keys

Logs are JSON lines, one per tool call: on stderr over stdio (stdout carries the protocol), on
stdout with --http.`;

export interface McpSetup {
  roots: string[];
  workers: number;
  maxResultChars: number;
  allowPrivateNetworks: boolean | string[];
  http?: { host: string; port: number; keys: ReturnType<typeof apiKeys>; noAuth: boolean };
}

export function parseMcpArgs(argv: string[], env: NodeJS.ProcessEnv): McpSetup {
  let v: ReturnType<typeof parseArgs<{ options: typeof flags }>>['values'];
  const flags = {
    root: { type: 'string', multiple: true },
    workers: { type: 'string' },
    'max-result-chars': { type: 'string' },
    'allow-private-networks': { type: 'boolean' },
    http: { type: 'boolean' },
    host: { type: 'string' },
    port: { type: 'string' },
    'keys-file': { type: 'string' },
    'no-auth': { type: 'boolean' },
  } as const;
  try {
    v = parseArgs({ args: argv, options: flags }).values;
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n${mcpUsage}`);
  }
  const setup: McpSetup = {
    roots: v.root ?? [],
    workers: int('--workers', v.workers ?? env.DOCMILL_WORKERS, Math.max(1, availableParallelism() - 1)),
    maxResultChars: int('--max-result-chars', v['max-result-chars'], MCP_DEFAULTS.maxResultChars),
    allowPrivateNetworks: allowList(v['allow-private-networks'] === true, env.DOCMILL_SCRAPE_ALLOW_PRIVATE),
  };
  if (setup.maxResultChars < 1) throw new UsageError('--max-result-chars must be at least 1.');
  const httpOnly = (['host', 'port', 'keys-file', 'no-auth'] as const).filter((k) => v[k] !== undefined);
  if (!v.http) {
    if (httpOnly.length) throw new UsageError(`--${httpOnly[0]} needs --http.`);
    return setup;
  }
  const host = v.host ?? env.DOCMILL_HOST ?? '127.0.0.1';
  const noAuth = v['no-auth'] === true;
  setup.http = {
    host,
    port: int('--port', v.port ?? env.DOCMILL_MCP_PORT, 3003),
    keys: noAuth ? [] : apiKeys(host, v['keys-file'] ?? env.DOCMILL_API_KEYS_FILE, env),
    noAuth,
  };
  return setup;
}

const line = (stream: NodeJS.WritableStream) => (record: object) => {
  stream.write(`${JSON.stringify(record)}\n`);
};

/**
 * `docmill mcp`: runs until the client closes stdin (stdio) or until SIGTERM/SIGINT (HTTP). Every
 * parse runs in the worker pool, so a cancelled call ends its worker.
 */
export async function mcp(argv: string[], io: CliIO): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout.write(`${mcpUsage}\n`);
    return 0;
  }
  const setup = parseMcpArgs(argv, process.env);
  const log = line(setup.http ? process.stdout : process.stderr);
  const engine = await makeEngine(setup.workers);
  try {
    let server: Awaited<ReturnType<typeof createDocmillMcp>>;
    try {
      server = await createDocmillMcp({
        engine,
        roots: setup.roots,
        cwd: io.cwd,
        maxResultChars: setup.maxResultChars,
        allowPrivateNetworks: setup.allowPrivateNetworks,
        log,
      });
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    if (!setup.http) {
      const session = await serveStdio(server);
      await session.closed;
      return 0;
    }
    const { host, port, keys, noAuth } = setup.http;
    const running = await serveHttp(server, { host, port, keys, allowNoAuth: noAuth, log });
    log({
      msg: 'listening',
      time: new Date().toISOString(),
      url: running.url,
      keys: keys.length,
      auth: keys.length > 0,
    });
    await new Promise<void>((resolve) => {
      process.once('SIGTERM', resolve);
      process.once('SIGINT', resolve);
    });
    await running.close();
    log({ msg: 'stopped', time: new Date().toISOString() });
    return 0;
  } finally {
    await engine.close();
  }
}
