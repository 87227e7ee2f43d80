/**
 * Resolves in a new task (not a microtask), without the clamping of `setTimeout(0)`. Long synchronous
 * work awaits it now and then so that timers, the parse timeout among them, get to run.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(null);
  });
}
