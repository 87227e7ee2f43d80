import type { Endpoint } from 'comlink';
import { registerModules } from './protocol.ts';
import { serve } from './serve.ts';

// Entry of a pool worker as a module Web Worker; the tasks it can run are static imports.
registerModules({ 'docmill:parse': () => import('./parse-task.ts') });
serve(globalThis as unknown as Endpoint);
