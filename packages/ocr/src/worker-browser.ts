import { registerModules, registerParseTask, serve } from '@docmill/workers';
import { OCR_STAGE_ID, OCR_TASK_ID } from './task-ids.ts';

// Entry of an OCR pool worker as a module Web Worker. Its tasks are static imports, so the bundler
// puts them (and tesseract.js's glue) in this worker's chunk: "ocr" (one page) for the OCR stage's
// pool, and "parse" with the OCR stage module for a pooled engine that parses whole documents.
registerModules({
  [OCR_TASK_ID]: () => import('./task.ts'),
  [OCR_STAGE_ID]: () => import('./stage-module-browser.ts'),
});
registerParseTask();
serve(globalThis as unknown as Parameters<typeof serve>[0]);
