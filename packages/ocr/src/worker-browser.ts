import { registerModules, serve } from '@docmill/workers';

// Entry of an OCR pool worker as a module Web Worker: the task is a static import, so the bundler
// puts it (and tesseract.js's glue) in this worker's chunk.
registerModules({ 'docmill:ocr': () => import('./task.ts') });
serve(globalThis as unknown as Parameters<typeof serve>[0]);
