import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import {
  type ApiKey,
  createApp,
  DEFAULTS,
  type ParseEngine,
  parseKeyFile,
  parseKeyList,
  type ServerConfig,
} from '@docmill/server';
import { isLoopbackHost, startServer } from '@docmill/server/node';
import { UsageError } from './args.ts';
import { makeEngine } from './engine.ts';
import { checkClusterNames, checkRedisUrl } from './queue-flags.ts';

export const serveUsage = `Usage: docmill serve [flags]     serve POST /v2/parse, /v2/scrape, … over HTTP

Flags (environment variable in brackets):
  --host H                   bind address, default 127.0.0.1 [DOCMILL_HOST]
  --port N                   port, default 3002 [DOCMILL_PORT, PORT]
  --keys-file PATH           API keys: "id:key" lines or a JSON [{id, key, pageQuota}] [DOCMILL_API_KEYS_FILE]
                             keys may also come as a comma-separated list [DOCMILL_API_KEYS]
  --no-auth                  serve without keys on a non-loopback host (refused otherwise)
  --workers N                parse in N worker threads (OCR included), default: cores − 1, at least 1;
                             0 parses on the server's own thread [DOCMILL_WORKERS]
  --concurrency N            parses at once, default: the worker count (CPU count with --workers 0) [DOCMILL_CONCURRENCY]
  --max-uploads N            request bodies read or held at once (bounds upload memory), default:
                             4 × concurrency, at least 8 [DOCMILL_MAX_UPLOADS]
  --max-queue N              requests waiting unread for an upload slot before 429, default ${DEFAULTS.maxQueue} [DOCMILL_MAX_QUEUE]
  --max-queue-wait MS        longest wait for a slot before 429, default ${DEFAULTS.maxQueueWaitMs} [DOCMILL_MAX_QUEUE_WAIT]
  --body-timeout MS          longest pause in a request body, and the grace before --min-body-rate,
                             default ${DEFAULTS.bodyTimeoutMs}; past it 408 [DOCMILL_BODY_TIMEOUT]
  --min-body-rate B          bytes/s a body must average after that grace, default ${DEFAULTS.minBodyRate} [DOCMILL_MIN_BODY_RATE]
  --rate R --burst B         per-key token bucket, requests/s and burst, default ${DEFAULTS.rateLimit.perSecond}/${DEFAULTS.rateLimit.burst}; --rate 0 disables [DOCMILL_RATE, DOCMILL_BURST]
  --allow-private-networks   let /v2/scrape fetch loopback/private/link-local addresses
                             [DOCMILL_SCRAPE_ALLOW_PRIVATE=1, or a list: 10.1.0.0/16,127.0.0.1]
  --audit                    one audit event per API request (with auditMetadata.username) [DOCMILL_AUDIT=1]
  --shutdown-timeout MS      how long SIGTERM waits for in-flight requests, default 30000
  --queue-redis URL          hand parses to "docmill worker"s on this Redis instead of parsing here
                             [DOCMILL_QUEUE_REDIS_URL]; --queue NAME, default docmill [DOCMILL_QUEUE];
                             --queue-prefix P, as the workers' --prefix [DOCMILL_QUEUE_PREFIX]`;

export interface ServeSetup {
  host: string;
  port: number;
  /** Worker threads that parse; 0 parses in the server's own thread. */
  workers: number;
  shutdownMs: number;
  config: ServerConfig;
  /** Parses go to queue workers on this Redis instead of an in-process engine. */
  queue?: { redis: string; name: string; prefix?: string };
}

export const int = (name: string, v: string | undefined, d: number): number => {
  if (v === undefined || v === '') return d;
  if (!/^\d+$/.test(v)) throw new UsageError(`${name} must be a non-negative integer, got "${v}".`);
  return Number(v);
};

/** Flags over environment over defaults; refuses an unauthenticated non-loopback bind. */
export function parseServeArgs(argv: string[], env: NodeJS.ProcessEnv): ServeSetup {
  let v: Record<string, string | boolean | undefined>;
  try {
    v = parseArgs({
      args: argv,
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        'keys-file': { type: 'string' },
        'no-auth': { type: 'boolean' },
        workers: { type: 'string' },
        concurrency: { type: 'string' },
        'max-uploads': { type: 'string' },
        'max-queue': { type: 'string' },
        'body-timeout': { type: 'string' },
        'min-body-rate': { type: 'string' },
        'max-queue-wait': { type: 'string' },
        rate: { type: 'string' },
        burst: { type: 'string' },
        'allow-private-networks': { type: 'boolean' },
        audit: { type: 'boolean' },
        'shutdown-timeout': { type: 'string' },
        'queue-redis': { type: 'string' },
        queue: { type: 'string' },
        'queue-prefix': { type: 'string' },
      },
    }).values;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const str = (flag: string, ...vars: string[]) =>
    (v[flag] as string | undefined) ?? vars.map((k) => env[k]).find((x) => x !== undefined && x !== '');
  const host = str('host', 'DOCMILL_HOST') ?? '127.0.0.1';
  const port = int('--port', str('port', 'DOCMILL_PORT', 'PORT'), 3002);
  const noAuth = v['no-auth'] === true;
  const keys = noAuth ? [] : apiKeys(host, str('keys-file', 'DOCMILL_API_KEYS_FILE'), env);
  const rate = Number(str('rate', 'DOCMILL_RATE') ?? DEFAULTS.rateLimit.perSecond);
  if (!Number.isFinite(rate) || rate < 0) throw new UsageError('--rate must be a number ≥ 0.');
  const burst = int('--burst', str('burst', 'DOCMILL_BURST'), DEFAULTS.rateLimit.burst);
  // Parses run in worker threads by default, so one slow PDF never holds the event loop.
  const workers = int('--workers', str('workers', 'DOCMILL_WORKERS'), Math.max(1, availableParallelism() - 1));
  const config: ServerConfig = {
    keys,
    concurrency: int(
      '--concurrency',
      str('concurrency', 'DOCMILL_CONCURRENCY'),
      workers > 0 ? workers : availableParallelism(),
    ),
    maxQueue: int('--max-queue', str('max-queue', 'DOCMILL_MAX_QUEUE'), DEFAULTS.maxQueue),
    bodyTimeoutMs: int('--body-timeout', str('body-timeout', 'DOCMILL_BODY_TIMEOUT'), DEFAULTS.bodyTimeoutMs),
    minBodyRate: int('--min-body-rate', str('min-body-rate', 'DOCMILL_MIN_BODY_RATE'), DEFAULTS.minBodyRate),
    maxQueueWaitMs: int('--max-queue-wait', str('max-queue-wait', 'DOCMILL_MAX_QUEUE_WAIT'), DEFAULTS.maxQueueWaitMs),
    rateLimit: rate > 0 ? { perSecond: rate, burst: Math.max(1, burst) } : false,
    scrape: { allowPrivateNetworks: allowList(v['allow-private-networks'] === true, env.DOCMILL_SCRAPE_ALLOW_PRIVATE) },
  };
  const maxUploads = str('max-uploads', 'DOCMILL_MAX_UPLOADS');
  if (maxUploads !== undefined) config.maxUploads = int('--max-uploads', maxUploads, 0);
  const queueRedis = str('queue-redis', 'DOCMILL_QUEUE_REDIS_URL');
  if (queueRedis) checkRedisUrl('--queue-redis', queueRedis);
  // A Redis Cluster needs the workers' hash-tagged prefix here too.
  const queuePrefix = str('queue-prefix', 'DOCMILL_QUEUE_PREFIX');
  const queue = queueRedis
    ? {
        redis: queueRedis,
        name: str('queue', 'DOCMILL_QUEUE') ?? 'docmill',
        ...(queuePrefix ? { prefix: queuePrefix } : {}),
      }
    : undefined;
  if (queue) checkClusterNames(queue);
  return {
    host,
    port,
    workers,
    ...(queue ? { queue } : {}),
    shutdownMs: int('--shutdown-timeout', str('shutdown-timeout'), 30_000),
    config: { ...config, ...(v.audit === true || env.DOCMILL_AUDIT === '1' ? { audit: writeLine } : {}) },
  };
}

/**
 * The API keys of DOCMILL_API_KEYS and the keys file (`docmill serve`, `docmill mcp --http`); none
 * on a non-loopback host is refused (the caller skips this for --no-auth).
 */
export function apiKeys(host: string, file: string | undefined, env: NodeJS.ProcessEnv): ApiKey[] {
  const keys: ApiKey[] = [];
  if (env.DOCMILL_API_KEYS) keys.push(...parseKeyList(env.DOCMILL_API_KEYS));
  if (file) {
    try {
      keys.push(...parseKeyFile(readFileSync(file, 'utf8')));
    } catch (err) {
      throw new UsageError(`Cannot read keys file ${file}: ${(err as Error).message}`);
    }
  }
  if (keys.length === 0 && !isLoopbackHost(host)) {
    throw new UsageError(
      `Refusing to serve ${host} without API keys: set DOCMILL_API_KEYS or --keys-file, or pass --no-auth explicitly.`,
    );
  }
  return keys;
}

/** `1`/`true` allows every non-public address; otherwise a comma-separated list of addresses/CIDRs. */
export function allowList(flag: boolean, env: string | undefined): boolean | string[] {
  if (flag || env === '1' || env === 'true') return true;
  const list = (env ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  return list.length ? list : false;
}

function writeLine(record: object): void {
  process.stdout.write(`${JSON.stringify(record)}\n`);
}

/** `docmill serve`: JSON log lines on stdout; SIGTERM/SIGINT drain in-flight requests, then exit. */
export async function serve(argv: string[]): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${serveUsage}\n`);
    return;
  }
  const setup = parseServeArgs(argv, process.env);
  const { parser, close } = await parserFor(setup);
  const app = createApp(parser, { ...setup.config, log: writeLine });
  const server = await startServer(app, { host: setup.host, port: setup.port });
  const keys = setup.config.keys?.length ?? 0;
  writeLine({ msg: 'listening', time: new Date().toISOString(), url: server.url, keys, auth: keys > 0 });
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      writeLine({ msg: 'shutting down', time: new Date().toISOString(), signal, inFlight: app.inFlight });
      server
        .close(setup.shutdownMs)
        .then(close)
        .then(() => resolve());
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  writeLine({ msg: 'stopped', time: new Date().toISOString() });
}

/** With --queue-redis the parses go to queue workers: no engine (and no worker pool) here. */
async function parserFor(setup: ServeSetup): Promise<{ parser: ParseEngine; close: () => Promise<void> }> {
  if (setup.queue) {
    const { openParseQueue, queueEngine } = await import('@docmill/queue');
    const queue = openParseQueue(setup.queue);
    return { parser: queueEngine(queue), close: () => queue.close() };
  }
  const engine = await makeEngine(setup.workers);
  return { parser: engine, close: () => engine.close() };
}
