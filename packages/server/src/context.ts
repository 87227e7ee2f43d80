import type { Context } from 'hono';
import type { ParseEngine, ResolvedConfig } from './config.ts';
import type { KeyStore } from './keys.ts';
import type { Gate, PageQuotas, RateLimiter } from './limits.ts';

/** Per-request facts the routes record and the logging middleware reports. */
export interface RequestVars {
  requestId: string;
  keyId: string | null;
  pageQuota: number | undefined;
  bytes: number;
  pages: number;
  filename: string | undefined;
  username: string | null;
  /** The error body's `code`, for the log. */
  code: string | undefined;
  errorId: string | undefined;
  errorMessage: string | undefined;
}

export type AppEnv = { Variables: RequestVars };
export type Ctx = Context<AppEnv>;

/** Everything routes share; built once per app. */
export interface Services {
  engine: ParseEngine;
  config: ResolvedConfig;
  keys: Promise<KeyStore>;
  /** Requests whose body is being read or is held (bounds upload memory). */
  uploads: Gate;
  /** Parses running (bounds CPU); only requests holding an upload slot ask for one. */
  gate: Gate;
  quotas: PageQuotas;
  rate: RateLimiter | undefined;
  /** Missing or wrong keys per client address. */
  authFailures: RateLimiter | undefined;
  /** Set while shutting down: new API requests get 503, /health reports draining. */
  state: { draining: boolean; inFlight: number };
}
