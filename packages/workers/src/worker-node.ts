import { parentPort } from 'node:worker_threads';
import { nodeEndpoint } from './node-endpoint.ts';
import { serve } from './serve.ts';

// Entry of a pool worker under worker_threads.
if (parentPort) serve(nodeEndpoint(parentPort));
