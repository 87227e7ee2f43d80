import type { Stage } from '@docmill/core';

/**
 * Test stage: blocks its thread for `ms` when the document mentions SLOW (engine deadlines), and
 * ends its worker thread abruptly when it mentions CRASH (an injected native crash).
 */
export function createStage(options: { ms: number }): Stage {
  return {
    name: 'slow',
    applies: () => true,
    async run(tree) {
      if (JSON.stringify(tree).includes('CRASH')) process.exit(70);
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
