import type { TaskContext } from '../../src/protocol.ts';

/** Reports one progress step per item and returns what it got plus the thread it ran on. */
export async function run(input: { items: string[] }, ctx: TaskContext) {
  const { isMainThread, threadId } = await import('node:worker_threads');
  for (let i = 0; i < input.items.length; i++) {
    ctx.onProgress?.({ stage: 'echo', done: i + 1, total: input.items.length, unit: 'parts' });
  }
  return { items: input.items, isMainThread, threadId };
}
