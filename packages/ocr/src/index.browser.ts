// The browser entry (the `browser` export condition): the same API as index.ts, with OCR in Web
// Workers and tesseract.js's files taken from the app's own assets; no Node built-in reachable.
export { browserAssets } from './assets-browser.ts';
export { createOcrStage, OCR_STAGE_URL, OCR_TASK_URL, spawnOcrWorker } from './browser.ts';
export type { Frame } from './decode.ts';
export { decodeImage } from './decode.ts';
export type { Gray } from './raster.ts';
export type { PageRenderer } from './render.ts';
export { openRenderer } from './render.ts';
export type { OcrConfig } from './stage.ts';
export type { OcrLine, OcrPage, OcrTaskInput, OcrWord } from './task.ts';
export type { OcrAssets } from './tesseract.ts';
