import { adapter as csv } from '../../core/src/adapters/csv/index.ts';

/**
 * A CSV adapter for tests that stop parses: it holds each document `hold` picks (all by default)
 * until the parse's signal aborts, then rejects with the signal's reason; 20 s without an abort is
 * a failure of the code under test. Others parse as usual.
 */
export function heldCsv(hold: (text: string) => boolean = () => true) {
  const state = { started: 0, aborts: [] as unknown[] };
  const adapter: typeof csv = {
    ...csv,
    parse(bytes, ctx) {
      if (!hold(new TextDecoder().decode(bytes))) return csv.parse(bytes, ctx);
      state.started++;
      return new Promise((_, reject) => {
        const t = setTimeout(() => reject(new Error('should have been stopped')), 20_000);
        ctx.signal?.addEventListener(
          'abort',
          () => {
            clearTimeout(t);
            state.aborts.push(ctx.signal?.reason);
            reject(ctx.signal?.reason);
          },
          { once: true },
        );
      });
    },
  };
  return { adapter, state };
}

/**
 * A CSV adapter whose parses wait for `release()` and then parse as usual: a test decides when
 * jobs finish (say, while Redis is away).
 */
export function gatedCsv() {
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const state = { started: 0, finished: 0 };
  const adapter: typeof csv = {
    ...csv,
    async parse(bytes, ctx) {
      state.started++;
      await gate;
      const parsed = await csv.parse(bytes, ctx);
      state.finished++;
      return parsed;
    },
  };
  return { adapter, state, release: () => open() };
}

/** Polls `cond` every 25 ms until it holds; throws after `ms`. */
export async function until(cond: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * `p`'s value, or 'timed out' after `ms`: a test asserts on it and goes on to its cleanup, where a
 * bare await would hang until the test's own timeout and skip the cleanup.
 */
export async function within<T>(p: Promise<T>, ms: number): Promise<T | 'timed out'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'timed out'>((resolve) => {
    timer = setTimeout(() => resolve('timed out'), ms);
  });
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}
