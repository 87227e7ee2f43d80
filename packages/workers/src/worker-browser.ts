import type { Endpoint } from 'comlink';
import { serve } from './serve.ts';

// Entry of a pool worker as a module Web Worker.
serve(globalThis as unknown as Endpoint);
