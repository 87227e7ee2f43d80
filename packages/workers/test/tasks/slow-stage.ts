import type { Stage } from '@docmill/core';

/** A stage that blocks its thread for `ms` when the document's title matches, to test engine deadlines. */
export function createStage(options: { ms: number }): Stage {
  return {
    name: 'slow',
    applies: () => true,
    async run(tree) {
      if (JSON.stringify(tree).includes('SLOW')) {
        const end = Date.now() + options.ms;
        while (Date.now() < end) {
          // busy
        }
      }
      return tree;
    },
  };
}
