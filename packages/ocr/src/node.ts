import { DocmillError, type Stage } from '@docmill/core';
import { createPool } from '@docmill/workers';
import { installedModelDir, nodeAssets, OcrLanguageError } from './assets-node.ts';
import { SCRIPT_LANGUAGES } from './languages.ts';
import { makeOcrStage, type OcrConfig } from './stage.ts';
import type { OcrTaskInput } from './task.ts';

const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

/** URL of the "ocr" task module (for a pool of your own: `createPool({ tasks: { ocr: OCR_TASK_URL } })`). */
export const OCR_TASK_URL: string = new URL(`./task${ext}`, import.meta.url).href;

/** The stage module the pooled engine builds in each worker (`createStage(options)`). */
export const OCR_STAGE_URL: string = new URL(`./stage-module${ext}`, import.meta.url).href;

/**
 * The OCR stage. PDF: `fast` never OCRs, `auto` OCRs exactly the pages whose text layer is
 * missing or garbled, `ocr` every page; pages are rendered at `dpi` and replaced by what OCR
 * reads. Images (the `image` parser): every frame is a page. Recognition runs in pool workers
 * (worker_threads), a page per task.
 */
export function createOcrStage(config: OcrConfig = {}): Stage & { close(): Promise<void> } {
  return makeOcrStage(config, {
    taskUrl: OCR_TASK_URL,
    createPool,
    assets: (c, languages) => {
      try {
        return nodeAssets(c.langPath, languages);
      } catch (err) {
        if (err instanceof OcrLanguageError) throw new DocmillError(400, 'BAD_REQUEST', err.message);
        throw err;
      }
    },
    scripts: (c) => {
      if (c.langPath) return undefined;
      const found: NonNullable<OcrTaskInput['scripts']> = {};
      for (const [script, candidates] of Object.entries(SCRIPT_LANGUAGES)) {
        const language = candidates.find((l) => installedModelDir(l));
        if (language) found[script] = { language, assets: nodeAssets(undefined, [language]) };
      }
      return found;
    },
  });
}
