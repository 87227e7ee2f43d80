import type { ParseProgress, ProgressUnit } from '../adapters/types.ts';

/**
 * Wraps the caller's progress callback for one stage. The callback is the host's code running in
 * the middle of our parse: whatever it throws is dropped, so a broken progress bar cannot fail
 * or corrupt a document.
 */
export function progressReporter(
  onProgress: ((p: ParseProgress) => void) | undefined,
  stage: string,
): ((done: number, total: number, unit: ProgressUnit) => void) | undefined {
  if (!onProgress) return undefined;
  return (done, total, unit) => {
    try {
      onProgress({ stage, done, total, unit });
    } catch {
      // Deliberately ignored: see above.
    }
  };
}
