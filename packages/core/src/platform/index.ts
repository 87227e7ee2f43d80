/**
 * The platform seam: the only place core asks what runtime it is in. Node-only code lives in
 * `platform/node.ts`, which core never imports; hosts (CLI, HTTP, workers) import it themselves.
 */
export const isNode: boolean =
  typeof globalThis.process === 'object' && typeof globalThis.process?.versions?.node === 'string';
