export type { Frame } from './decode.ts';
export { decodeImage } from './decode.ts';
export type { Gray } from './raster.ts';
export type { PageRenderer } from './render.ts';
export { openRenderer } from './render.ts';
export type { OcrConfig } from './stage.ts';
export { createOcrStage, OCR_STAGE_URL, OCR_TASK_URL } from './stage.ts';
export type { OcrLine, OcrPage, OcrTaskInput, OcrWord } from './task.ts';
