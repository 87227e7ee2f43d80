import type { ParseEngine } from '@docmill/server';
import type { Fetcher } from '@docmill/server/node';

/** One record per tool call (never document content). */
export interface ToolLog {
  level: 'info' | 'warn' | 'error';
  msg: 'tool';
  time: string;
  tool: string;
  /** The HTTP transport's session; absent over stdio. */
  sessionId?: string;
  /** Bearer key id over HTTP when keys are set. */
  keyId?: string;
  /** Where the document came from. */
  source?: 'path' | 'url' | 'data';
  status: number;
  code?: string;
  bytes: number;
  pages: number;
  durationMs: number;
  /** For 500s: the id the client got and what actually happened. */
  errorId?: string;
  errorMessage?: string;
}

export interface McpConfig {
  /** In-process, pooled or remote: anything with the engine's `parse`. */
  engine: ParseEngine;
  /**
   * Folders files may be read from (absolute or relative to `cwd`). Default: `cwd`. Roots a client
   * announces narrow these, never widen them.
   */
  roots?: string[];
  cwd?: string;
  /** Largest document read from a path, fetched from a URL or sent as data. Default 50 MB. */
  maxFileBytes?: number;
  /** Characters of outputs one tool result may hold; the rest is cut with a note on paging. Default 80,000. */
  maxResultChars?: number;
  /** Non-public addresses `url` may reach: `true` for all, or addresses and CIDR ranges. Default none. */
  allowPrivateNetworks?: boolean | string[];
  /** Replaces the SSRF-guarded Node fetcher of `@docmill/server` (tests, other runtimes). */
  fetcher?: Fetcher;
  /** Receives one record per tool call. Default: nothing is logged. */
  log?: (record: ToolLog) => void;
  /** Shown to clients in the server's implementation info. */
  version?: string;
}

export interface ResolvedMcpConfig {
  engine: ParseEngine;
  maxFileBytes: number;
  maxResultChars: number;
  allowPrivateNetworks: boolean | string[];
  maxRedirects: number;
  fetcher: Fetcher | undefined;
  log: (record: ToolLog) => void;
  version: string;
}

export const MCP_DEFAULTS = {
  maxFileBytes: 50 * 1024 * 1024,
  maxResultChars: 80_000,
  maxRedirects: 5,
  /** Array items and object keys one call's arguments may hold (a `formats` list of a million is refused). */
  maxToolInputElements: 10_000,
} as const;

export function resolveMcpConfig(c: McpConfig): ResolvedMcpConfig {
  const positive = (name: string, v: number | undefined, d: number) => {
    if (v === undefined) return d;
    if (!Number.isInteger(v) || v < 1) throw new RangeError(`${name} must be a positive integer, got ${v}.`);
    return v;
  };
  return {
    engine: c.engine,
    maxFileBytes: positive('maxFileBytes', c.maxFileBytes, MCP_DEFAULTS.maxFileBytes),
    maxResultChars: positive('maxResultChars', c.maxResultChars, MCP_DEFAULTS.maxResultChars),
    allowPrivateNetworks: c.allowPrivateNetworks ?? false,
    maxRedirects: MCP_DEFAULTS.maxRedirects,
    fetcher: c.fetcher,
    log: c.log ?? (() => {}),
    version: c.version ?? '0.1.0',
  };
}
