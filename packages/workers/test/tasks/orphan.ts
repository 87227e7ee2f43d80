import type { TaskContext } from '../../src/protocol.ts';

/**
 * Lends one unit of task `task` (input `unit`) and then ends without waiting for it: `exit`
 * ends the thread as a native crash would, else the task returns whether the unit was taken.
 */
export async function run(input: { task: string; unit: unknown; exit?: boolean }, ctx: TaskContext) {
  const got = await ctx.offload?.(input.task, input.unit);
  if (input.exit) process.exit(3);
  return { lent: Boolean(got) };
}
