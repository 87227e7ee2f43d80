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

/** Polls `cond` every 25 ms until it holds; throws after `ms`. */
export async function until(cond: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}
