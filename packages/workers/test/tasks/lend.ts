import type { TaskContext } from '../../src/protocol.ts';

/**
 * Offers one unit per item of `units` to the pool (task module `task`, input `{ items: [unit] }`
 * merged with `extra`) and reads the units nobody took itself; returns, per unit, the thread that
 * read it, and whether the pool gave the task `offload` at all.
 */
export async function run(input: { units: string[]; task: string; extra?: object }, ctx: TaskContext) {
  const { threadId } = await import('node:worker_threads');
  const taken = await Promise.all(
    input.units.map(async (u) => {
      const got = ctx.offload ? await ctx.offload(input.task, { items: [u], ...input.extra }) : null;
      if (!got) return { unit: u, threadId };
      const r = (await got.result) as { items: string[]; threadId: number };
      return { unit: r.items[0], threadId: r.threadId };
    }),
  );
  return { offered: ctx.offload !== undefined, threadId, taken };
}
