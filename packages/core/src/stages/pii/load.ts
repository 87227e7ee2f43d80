/**
 * The PII detectors and the tree redaction, loaded on first use: a parse that never sets
 * `redactPII` never downloads or evaluates them (libphonenumber-js's metadata is most of their
 * weight in a browser bundle).
 */
let heuristics: Promise<typeof import('./heuristics.ts')> | undefined;

export function loadHeuristics(): Promise<typeof import('./heuristics.ts')> {
  heuristics ??= import('./heuristics.ts');
  return heuristics;
}
