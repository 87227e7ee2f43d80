import { DocmillError } from '@docmill/core';

/**
 * Blocks its thread like a long wasm OCR call does: only terminating the worker stops it.
 * `fail` throws a DocmillError instead; `exit` ends the thread as a native crash would.
 */
export function run(input: { ms: number; fail?: boolean; exit?: boolean }) {
  if (input.fail) throw new DocmillError(400, 'BAD_REQUEST', 'refused on purpose');
  if (input.exit) process.exit(3);
  const end = Date.now() + input.ms;
  while (Date.now() < end) {
    // busy
  }
  return { spun: input.ms };
}
