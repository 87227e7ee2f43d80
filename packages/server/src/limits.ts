import { DocmillError } from '@docmill/core';
import { HttpError } from './errors.ts';

/** Buckets kept before the full ones (idle long enough to be back at `burst`) are dropped. */
const MAX_BUCKETS = 10_000;

/**
 * Token buckets by key (an API key id, a client address): `burst` at once, refilled at
 * `perSecond`. The map stays bounded: past 10,000 buckets the refilled ones are forgotten.
 */
export class RateLimiter {
  readonly #buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    readonly perSecond: number,
    readonly burst: number,
    readonly now: () => number = Date.now,
    /** The 429's message, given the seconds to wait. */
    readonly refusal: (wait: number) => string = (wait) =>
      `Rate limit exceeded for this API key. Retry after ${wait} s.`,
  ) {}

  #bucket(key: string): { tokens: number; at: number } {
    const t = this.now();
    let b = this.#buckets.get(key);
    if (!b) {
      if (this.#buckets.size >= MAX_BUCKETS) this.#prune(t);
      b = { tokens: this.burst, at: t };
      this.#buckets.set(key, b);
    }
    b.tokens = Math.min(this.burst, b.tokens + ((t - b.at) / 1000) * this.perSecond);
    b.at = t;
    return b;
  }

  #prune(t: number): void {
    for (const [k, b] of this.#buckets) {
      if (b.tokens + ((t - b.at) / 1000) * this.perSecond >= this.burst) this.#buckets.delete(k);
    }
  }

  #refuse(tokens: number): HttpError {
    const wait = Math.max(1, Math.ceil((1 - tokens) / this.perSecond));
    return new HttpError(429, this.refusal(wait), { 'Retry-After': String(wait) });
  }

  /** Takes one token or throws 429 with the seconds until one is available. */
  take(key: string): void {
    const b = this.#bucket(key);
    if (b.tokens < 1) throw this.#refuse(b.tokens);
    b.tokens -= 1;
  }

  /** Throws the 429 while `key` has no token left, without taking one. */
  check(key: string): void {
    const b = this.#bucket(key);
    if (b.tokens < 1) throw this.#refuse(b.tokens);
  }

  /** Spends a token if there is one (counting an event that is answered anyway). */
  spend(key: string): void {
    const b = this.#bucket(key);
    b.tokens = Math.max(0, b.tokens - 1);
  }
}

export interface Admission {
  /** Milliseconds spent waiting for a slot (0 when one was free). */
  queuedMs: number;
  /** When the slot was granted. */
  startedAt: number;
  release(): void;
}

/**
 * Bounds how many requests hold a kind of slot at once. Requests over `concurrency` wait in a FIFO
 * of at most `maxQueue`; when it is full the request is refused with 429 at once rather than piling
 * up memory, and one that waits longer than `maxWaitMs` gets 429 too.
 */
export class Gate {
  #running = 0;
  readonly #waiting: Array<{ start: () => void; fail: (e: unknown) => void }> = [];
  /** Moving average of slot hold time, for an honest Retry-After. */
  #avgMs = 1000;

  constructor(
    readonly concurrency: number,
    readonly maxQueue: number,
    /** Longest wait for a slot before 429 (the request's own timeout is only known once read). */
    readonly maxWaitMs: number,
    /** What the slot is for, in the 429 messages: "parse", "upload". */
    readonly what: string,
  ) {}

  get running(): number {
    return this.#running;
  }
  get queued(): number {
    return this.#waiting.length;
  }

  async admit(signal: AbortSignal): Promise<Admission> {
    const asked = Date.now();
    if (this.#running >= this.concurrency) {
      if (this.#waiting.length >= this.maxQueue) {
        const wait = Math.max(1, Math.ceil(((this.#waiting.length + 1) * this.#avgMs) / this.concurrency / 1000));
        throw new HttpError(429, `The server is busy: the ${this.what} queue is full. Retry after ${wait} s.`, {
          'Retry-After': String(wait),
        });
      }
      await new Promise<void>((resolve, reject) => {
        const entry = { start: resolve, fail: reject };
        this.#waiting.push(entry);
        const leave = (reason: unknown) => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          const i = this.#waiting.indexOf(entry);
          if (i >= 0) this.#waiting.splice(i, 1);
          reject(reason);
        };
        const onAbort = () => leave(signal.reason);
        const timer = setTimeout(() => {
          const wait = Math.max(1, Math.ceil(this.#avgMs / 1000));
          leave(
            new HttpError(
              429,
              `The server is busy: no ${this.what} slot within ${this.maxWaitMs} ms. Retry after ${wait} s.`,
              { 'Retry-After': String(wait) },
            ),
          );
        }, this.maxWaitMs);
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
        entry.start = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          resolve();
        };
      });
    } else this.#running++;
    const started = Date.now();
    let released = false;
    return {
      queuedMs: started - asked,
      startedAt: started,
      release: () => {
        if (released) return;
        released = true;
        this.#avgMs = this.#avgMs * 0.8 + (Date.now() - started) * 0.2;
        const next = this.#waiting.shift();
        // The slot passes straight to the next waiter, so `running` stays counted.
        if (next) next.start();
        else this.#running--;
      },
    };
  }
}

/** Pages parsed per key against optional quotas; in memory, so per replica. */
export class PageQuotas {
  readonly #used = new Map<string, number>();

  used(keyId: string): number {
    return this.#used.get(keyId) ?? 0;
  }

  check(keyId: string, quota: number | undefined): void {
    if (quota === undefined) return;
    if (this.used(keyId) >= quota) {
      throw new HttpError(
        402,
        `Page quota exhausted: this API key has used ${this.used(keyId)} of its ${quota} pages. Payment or a larger quota is required.`,
      );
    }
  }

  add(keyId: string, pages: number): void {
    this.#used.set(keyId, this.used(keyId) + pages);
  }
}

export const deadlineError = (ms: number): DocmillError =>
  new DocmillError(408, 'SCRAPE_TIMEOUT', `The request did not finish within the ${ms} ms timeout.`);
