import { registerModules } from './protocol.ts';

/** Id of the "parse" task in browser worker entries (a bundled app has no task file URL). */
export const PARSE_TASK_ID = 'docmill:parse';

/**
 * For a browser worker entry: makes the worker able to run the "parse" task (whole documents).
 * Another package's worker entry calls it too when its pool should parse documents as well.
 */
export function registerParseTask(): void {
  registerModules({ [PARSE_TASK_ID]: () => import('./parse-task-browser.ts') });
}
