import type { Endpoint } from 'comlink';
import { registerParseTask } from './register-parse.ts';
import { serve } from './serve.ts';

// Entry of a pool worker as a module Web Worker; the tasks it can run are static imports.
registerParseTask();
serve(globalThis as unknown as Endpoint);
