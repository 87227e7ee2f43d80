import { EventEmitter } from 'node:events';
import { DocmillError } from '@docmill/core';
import type { RedisClient } from './connection.ts';

export interface LinkBounds {
  /** How long a client that never reached Redis waits for it (unless it is refused at once). */
  connectTimeoutMs: number;
  /** How long a client rides out the loss of a Redis it had reached before it answers 503. */
  outageTimeoutMs: number;
}

/**
 * Errors that say at once that no Redis will answer at this address: nothing listens, no such
 * host, or Redis refused our credentials. Waiting the connect timeout out would change nothing.
 */
const REFUSALS = new Set(['ECONNREFUSED', 'ENOTFOUND']);
const AUTH_REPLY = /^(WRONGPASS|NOAUTH|NOPERM)\b/;

/** The 503 for an error that says Redis will not serve us, or undefined for one worth waiting out. */
function refusal(err: Error & { code?: string }): DocmillError | undefined {
  if (AUTH_REPLY.test(err.message)) return unavailable(`Redis refused the credentials (${err.message}).`);
  if (err.code !== undefined && REFUSALS.has(err.code)) return unavailable(`Cannot reach Redis (${err.message}).`);
  return undefined;
}

/**
 * The state of a client's Redis connections, shared by everything that must decide whether to
 * wait for Redis or answer 503. ioredis reconnects on its own; this only keeps the clock:
 * - never reached: refused → 503 at once; silent → 503 after `connectTimeoutMs`;
 * - lost after it was reached (a restart, a failover): callers wait, and once the loss has lasted
 *   `outageTimeoutMs`, 'outage' is emitted and callers get a 503 at once until Redis is back. A
 *   link that never reached Redis counts its outage from its opening.
 * Emits 'up' whenever every connection is ready again (a reconnect), 'outage' and 'refused' with
 * the 503. One set of listeners per connection, whatever the number of callers: a folder of files
 * waiting for Redis must not pile listeners onto it.
 */
export class RedisLink extends EventEmitter {
  private reached = false;
  private lastReason = '';
  private refusal: DocmillError | undefined;
  /** Down from its opening until Redis is first reached. */
  private down = true;
  private outageTimer: NodeJS.Timeout | undefined;
  private gaveUp: DocmillError | undefined;
  /** Counts losses: a command that failed while this changed failed because Redis went away. */
  losses = 0;
  private readonly unhook: (() => void)[] = [];
  /** `whenUp` callers, kept here rather than as listeners: there may be any number of them. */
  private readonly waiting = new Set<(err?: DocmillError) => void>();

  constructor(
    private readonly clients: readonly RedisClient[],
    private readonly bounds: LinkBounds,
  ) {
    super();
    for (const c of clients) {
      const onReady = () => this.update();
      const onClose = () => this.update();
      const onError = (err: Error) => {
        this.lastReason = err.message;
        const refused = this.reached ? undefined : refusal(err);
        if (refused) {
          this.refusal = refused;
          this.announce('refused', refused);
        }
      };
      c.on('ready', onReady);
      c.on('close', onClose);
      c.on('end', onClose);
      c.on('error', onError);
      this.unhook.push(() => {
        c.off('ready', onReady);
        c.off('close', onClose);
        c.off('end', onClose);
        c.off('error', onError);
      });
    }
    this.startOutageClock();
    this.update();
  }

  /** Every connection is ready now. */
  get up(): boolean {
    return this.clients.every((c) => c.status === 'ready');
  }

  /** The 503 a caller gets now, or undefined while it may still wait. */
  get failure(): DocmillError | undefined {
    return this.up ? undefined : (this.refusal ?? this.gaveUp);
  }

  /**
   * Resolves once every connection is ready; rejects with a 503 when Redis refused us before we
   * ever reached it, never answered within `connectTimeoutMs` (from this call), or has been lost
   * for `outageTimeoutMs`.
   */
  whenUp(): Promise<void> {
    if (this.up) return Promise.resolve();
    const now = this.failure;
    if (now) return Promise.reject(now);
    return new Promise<void>((resolve, reject) => {
      const settle = (err?: DocmillError) => {
        clearTimeout(timer);
        this.waiting.delete(settle);
        if (err) reject(err);
        else resolve();
      };
      const ms = this.bounds.connectTimeoutMs;
      // Only while Redis was never reached: a lost one is bounded by the outage clock instead.
      const timer = setTimeout(() => {
        if (!this.reached) {
          const why = this.lastReason ? ` (${this.lastReason})` : '';
          settle(unavailable(`Redis did not answer within ${ms} ms${why}.`));
        }
      }, ms);
      this.waiting.add(settle);
    });
  }

  /** Tells the link's listeners and settles every `whenUp` caller: `err` is the 503 they get. */
  private announce(event: 'up' | 'outage' | 'refused', err?: DocmillError): void {
    for (const settle of [...this.waiting]) settle(err);
    this.emit(event, err);
  }

  private update(): void {
    if (this.up) {
      if (!this.down) return;
      this.down = false;
      this.reached = true;
      this.refusal = undefined;
      this.gaveUp = undefined;
      clearTimeout(this.outageTimer);
      this.outageTimer = undefined;
      this.announce('up');
      return;
    }
    if (this.down) return;
    this.down = true;
    this.losses++;
    this.startOutageClock();
  }

  private startOutageClock(): void {
    const ms = this.bounds.outageTimeoutMs;
    this.outageTimer = setTimeout(() => {
      this.outageTimer = undefined;
      if (this.up) return;
      const why = this.lastReason ? ` (${this.lastReason})` : '';
      this.gaveUp = unavailable(`Redis has been unreachable for ${ms} ms${why}; gave up waiting for it.`);
      this.announce('outage', this.gaveUp);
    }, ms);
  }

  close(): void {
    for (const settle of [...this.waiting]) settle(unavailable('The queue handle was closed.'));
    clearTimeout(this.outageTimer);
    this.outageTimer = undefined;
    for (const u of this.unhook.splice(0)) u();
  }
}

/** 503: Redis is unreachable. The message gives ioredis's reason but never the URL (it may hold a password). */
function unavailable(message: string): DocmillError {
  return new DocmillError(503, 'UNKNOWN_ERROR', message);
}
