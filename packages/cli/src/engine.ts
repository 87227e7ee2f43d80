import { createEngine, type Engine, llmConfigFromEnv } from '@docmill/core';

/**
 * The OCR stage is always there, so `auto` (the default) reads scanned pages and `ocr` reads every
 * page. With `workers` each document is parsed, OCR included, in its own worker thread. summary/json
 * use a model only when DOCMILL_LLM_BASE_URL and DOCMILL_LLM_MODEL name one.
 */
export async function makeEngine(workers: number | undefined): Promise<Engine> {
  const { createOcrStage, OCR_STAGE_URL } = await import('@docmill/ocr');
  const llm = llmConfigFromEnv(process.env);
  if (!workers) return createEngine({ stages: [createOcrStage()], ...(llm ? { llm } : {}) });
  const { createPooledEngine } = await import('@docmill/workers');
  return createPooledEngine({ workers, stages: [{ url: OCR_STAGE_URL }], ...(llm ? { llm } : {}) });
}
