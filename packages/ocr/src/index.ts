export { nodeAssets } from './assets-node.ts';
export * from './common.ts';
export { createOcrStage, OCR_STAGE_URL, OCR_TASK_URL } from './node.ts';
