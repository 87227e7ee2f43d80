/**
 * Test stage loaded by URL inside the pool's Web Worker: holds its thread for `ms` when the
 * document mentions SLOW, so a request's deadline ends a running worker whatever the machine's
 * speed (a large document's parse time is not a deadline a test can rely on).
 */
export function createStage(options) {
  return {
    name: 'slow',
    applies: () => true,
    async run(tree) {
      if (JSON.stringify(tree).includes('SLOW')) {
        const end = Date.now() + options.ms;
        while (Date.now() < end) {
          // busy: a worker that never yields is what the deadline must end
        }
      }
      return tree;
    },
  };
}
