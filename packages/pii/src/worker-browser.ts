import { registerModules, registerParseTask, serve } from '@docmill/workers';
import { NER_TASK_ID, PII_STAGE_ID } from './task-ids.ts';

// Entry of a PII pool worker as a module Web Worker. Its tasks are static imports, so the bundler
// puts them (transformers.js and onnxruntime-web's glue) in this worker's chunk: "pii-ner" for the
// model of an engine's PII stage, and "parse" with the PII stage module for a pooled engine.
registerModules({
  [NER_TASK_ID]: () => import('./task.ts'),
  [PII_STAGE_ID]: () => import('./stage-module.ts'),
});
registerParseTask();
serve(globalThis as unknown as Parameters<typeof serve>[0]);
