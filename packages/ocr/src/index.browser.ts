// The browser entry (the `browser` export condition): the same API as index.ts, with OCR in Web
// Workers and tesseract.js's files taken from the app's own assets; no Node built-in reachable.
export { browserAssets } from './assets-browser.ts';
export { createOcrStage, OCR_STAGE_URL, OCR_TASK_URL } from './browser.ts';
export * from './common.ts';
