import type { Engine } from '@docmill/core';
import type { ApiKey } from './keys.ts';
import type { CrawlParams } from './schemas.ts';
import type { Fetcher } from './scrape/types.ts';

/** What the server needs of an engine: in-process, pool-backed or remote, anything with `parse`. */
export type ParseEngine = Pick<Engine, 'parse'>;

/** One structured log record per request (never document content). */
export interface RequestLog {
  level: 'info' | 'warn' | 'error';
  msg: 'request';
  time: string;
  requestId: string;
  keyId: string | null;
  method: string;
  path: string;
  status: number;
  code?: string;
  /** Request body bytes received. */
  bytes: number;
  pages: number;
  durationMs: number;
  /** Only without zeroDataRetention. */
  filename?: string;
  /** For 500s: the id the client got and what actually happened. */
  errorId?: string;
  errorMessage?: string;
}

export interface AuditEvent {
  msg: 'audit';
  time: string;
  requestId: string;
  keyId: string | null;
  action: string;
  status: number;
  username: string | null;
}

export interface ServerConfig {
  /** Accepted keys; empty means no authentication (the CLI allows that only on loopback or with --no-auth). */
  keys?: ApiKey[];
  /** Upload limit of /v2/parse and of fetched scrape bodies (contract: 50 MB). */
  maxFileBytes?: number;
  /** Limit for JSON request bodies (scrape, params-preview). */
  maxJsonBytes?: number;
  /** Parses running at once; more wait in the queue. */
  concurrency?: number;
  /**
   * Requests whose body may be read or held at once (a parse needs its body first, so at least
   * `concurrency`); they bound upload memory. A slow upload holds one of these, never a parse slot.
   * Default: 4 × concurrency, at least 8.
   */
  maxUploads?: number;
  /** Requests allowed to wait (unread) for an upload slot; beyond it 429. */
  maxQueue?: number;
  /** Longest wait for an upload or a parse slot before 429 (default 60 s). */
  maxQueueWaitMs?: number;
  /**
   * A request body may pause at most this long, and this is the grace before `minBodyRate`
   * applies (default 10 s). Past either rule: 408, and everything the request held is freed.
   */
  bodyTimeoutMs?: number;
  /** Bytes per second a body must average after its first `bodyTimeoutMs` (default 64 KiB/s). */
  minBodyRate?: number;
  /** Per-key token bucket, or false to disable. */
  rateLimit?: { perSecond: number; burst: number } | false;
  /**
   * Requests with a missing or wrong key allowed per client address (token bucket); past it every
   * API request from that address is 429 until the bucket refills, whatever key it carries, so
   * keys cannot be guessed quickly. Only with keys configured; false disables.
   */
  authFailureLimit?: { perSecond: number; burst: number } | false;
  /** Receives one record per request. Default: nothing is logged. */
  log?: (record: RequestLog) => void;
  /** When set, one audit event per authenticated API request (SIEM-style). */
  audit?: (event: AuditEvent) => void;
  scrape?: ScrapeConfig;
  /**
   * Derives crawl options from a prompt with a model (the summary/JSON issue's provider); without it
   * /v2/crawl/params-preview uses the documented deterministic rules.
   */
  paramsPreview?: (url: string, prompt: string) => Promise<Partial<CrawlParams>>;
  /** Shown in /health and the OpenAPI document. */
  version?: string;
}

export interface ScrapeConfig {
  /**
   * Non-public addresses /v2/scrape may fetch: `true` for all (tests, intranet deployments) or a
   * list of addresses and CIDR ranges. Default: none (loopback, private, link-local, metadata refused).
   */
  allowPrivateNetworks?: boolean | string[];
  maxRedirects?: number;
  /** Replaces the Node fetcher (other runtimes, tests). */
  fetcher?: Fetcher;
}

export interface ResolvedConfig {
  keys: ApiKey[];
  maxFileBytes: number;
  maxJsonBytes: number;
  concurrency: number;
  maxUploads: number;
  maxQueue: number;
  maxQueueWaitMs: number;
  body: { timeoutMs: number; minBytesPerSecond: number };
  rateLimit: { perSecond: number; burst: number } | false;
  authFailureLimit: { perSecond: number; burst: number } | false;
  log: (record: RequestLog) => void;
  audit: ((event: AuditEvent) => void) | undefined;
  scrape: { allowPrivateNetworks: boolean | string[]; maxRedirects: number; fetcher: Fetcher | undefined };
  paramsPreview: ServerConfig['paramsPreview'];
  version: string;
}

export const DEFAULTS = {
  maxFileBytes: 50 * 1024 * 1024,
  maxJsonBytes: 1024 * 1024,
  concurrency: 2,
  maxQueue: 64,
  maxQueueWaitMs: 60_000,
  bodyTimeoutMs: 10_000,
  minBodyRate: 64 * 1024,
  rateLimit: { perSecond: 10, burst: 20 },
  authFailureLimit: { perSecond: 1, burst: 10 },
  maxRedirects: 5,
} as const;

/** Uploads read or held at once unless configured: room for slow clients beside the parses. */
export const defaultMaxUploads = (concurrency: number): number => Math.max(8, 4 * concurrency);

export function resolveConfig(c: ServerConfig): ResolvedConfig {
  const positive = (name: string, v: number | undefined, d: number) => {
    if (v === undefined) return d;
    if (!Number.isInteger(v) || v < 0) throw new RangeError(`${name} must be a non-negative integer, got ${v}.`);
    return v;
  };
  const concurrency = Math.max(1, positive('concurrency', c.concurrency, DEFAULTS.concurrency));
  return {
    keys: c.keys ?? [],
    maxFileBytes: positive('maxFileBytes', c.maxFileBytes, DEFAULTS.maxFileBytes),
    maxJsonBytes: positive('maxJsonBytes', c.maxJsonBytes, DEFAULTS.maxJsonBytes),
    concurrency,
    maxUploads: Math.max(concurrency, positive('maxUploads', c.maxUploads, defaultMaxUploads(concurrency))),
    body: {
      timeoutMs: Math.max(1, positive('bodyTimeoutMs', c.bodyTimeoutMs, DEFAULTS.bodyTimeoutMs)),
      minBytesPerSecond: Math.max(1, positive('minBodyRate', c.minBodyRate, DEFAULTS.minBodyRate)),
    },
    maxQueue: positive('maxQueue', c.maxQueue, DEFAULTS.maxQueue),
    maxQueueWaitMs: positive('maxQueueWaitMs', c.maxQueueWaitMs, DEFAULTS.maxQueueWaitMs),
    rateLimit: c.rateLimit === undefined ? { ...DEFAULTS.rateLimit } : c.rateLimit,
    authFailureLimit: c.authFailureLimit === undefined ? { ...DEFAULTS.authFailureLimit } : c.authFailureLimit,
    log: c.log ?? (() => {}),
    audit: c.audit,
    scrape: {
      allowPrivateNetworks: c.scrape?.allowPrivateNetworks ?? false,
      maxRedirects: positive('scrape.maxRedirects', c.scrape?.maxRedirects, DEFAULTS.maxRedirects),
      fetcher: c.scrape?.fetcher,
    },
    paramsPreview: c.paramsPreview,
    version: c.version ?? '0.1.0',
  };
}
