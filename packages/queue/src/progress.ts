import type { ParseProgress } from '@docmill/core';

/** Default gap between two progress writes of one job: a 600-page PDF costs tens of writes, not 600. */
export const PROGRESS_INTERVAL_MS = 250;

// The throttle lives in core, shared with the other hosts that forward progress (the MCP server).
export { type ProgressThrottle, throttleProgress } from '@docmill/core';

const UNITS = new Set(['pages', 'slides', 'sheets', 'parts']);

/** Progress read back from Redis is someone else's JSON: only well-formed events reach a callback. */
export function isParseProgress(x: unknown): x is ParseProgress {
  if (typeof x !== 'object' || x === null) return false;
  const p = x as Record<string, unknown>;
  return (
    typeof p.stage === 'string' &&
    typeof p.done === 'number' &&
    typeof p.total === 'number' &&
    typeof p.unit === 'string' &&
    UNITS.has(p.unit)
  );
}
