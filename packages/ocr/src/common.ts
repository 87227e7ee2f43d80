// What the Node and the browser entries both export.
export type { Frame } from './decode.ts';
export { decodeImage } from './decode.ts';
export type { OcrAssets } from './ocr-assets.ts';
export type { Gray } from './raster.ts';
export type { PageRenderer } from './render.ts';
export { openRenderer } from './render.ts';
export { spawnOcrWorker } from './spawn-browser.ts';
export type { OcrConfig } from './stage.ts';
export type { OcrLine, OcrPage, OcrTaskInput, OcrWord } from './task.ts';
