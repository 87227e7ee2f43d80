import type { Endpoint } from 'comlink';

/** The part of a worker_threads MessagePort/Worker that comlink needs. */
export interface NodePort {
  postMessage(message: unknown, transfer?: readonly unknown[]): void;
  on(event: 'message', listener: (data: unknown) => void): unknown;
  off(event: 'message', listener: (data: unknown) => void): unknown;
  start?: () => void;
}

type Listener = EventListenerOrEventListenerObject;

/**
 * worker_threads delivers the message itself where the DOM delivers an event carrying it; comlink
 * speaks the DOM's shape, so each listener is wrapped once and remembered for removal.
 */
export function nodeEndpoint(port: NodePort): Endpoint {
  const wrapped = new WeakMap<Listener, (data: unknown) => void>();
  return {
    postMessage: (message: unknown, transfer?: Transferable[]) => port.postMessage(message, transfer),
    addEventListener(_type: string, listener: Listener) {
      const fn = (data: unknown) => {
        const ev = { data } as MessageEvent;
        if (typeof listener === 'function') listener(ev);
        else listener.handleEvent(ev);
      };
      wrapped.set(listener, fn);
      port.on('message', fn);
    },
    removeEventListener(_type: string, listener: Listener) {
      const fn = wrapped.get(listener);
      if (fn) {
        port.off('message', fn);
        wrapped.delete(listener);
      }
    },
    start: () => port.start?.(),
  };
}
