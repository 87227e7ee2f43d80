import { createEngine, type Engine, llmConfigFromEnv } from '@docmill/core';

/**
 * How `workers` threads serve a command. Many documents (a folder, a server, a queue worker): each
 * document parses, OCR included, in a worker thread of its own, N at a time. One document: it
 * parses here and its scanned pages go to N OCR threads, so one long scan uses every thread rather
 * than one (a whole-document worker would read its pages one after another).
 */
export type EngineShape = { pooled: true; workers: number } | { pooled: false; ocrWorkers?: number };

export function engineShape(workers: number | undefined, oneDocument: boolean): EngineShape {
  if (!workers) return { pooled: false };
  return oneDocument ? { pooled: false, ocrWorkers: workers } : { pooled: true, workers };
}

/**
 * The OCR stage is always there, so `auto` (the default) reads scanned pages and `ocr` reads every
 * page. summary/json use a model only when DOCMILL_LLM_BASE_URL and DOCMILL_LLM_MODEL name one.
 */
export async function makeEngine(workers: number | undefined, oneDocument = false): Promise<Engine> {
  const { createOcrStage, OCR_STAGE_URL } = await import('@docmill/ocr');
  const llm = llmConfigFromEnv(process.env);
  const shape = engineShape(workers, oneDocument);
  if (!shape.pooled) {
    const ocr = createOcrStage(shape.ocrWorkers !== undefined ? { workers: shape.ocrWorkers } : {});
    return createEngine({ stages: [ocr], ...(llm ? { llm } : {}) });
  }
  const { createPooledEngine } = await import('@docmill/workers');
  return createPooledEngine({ workers: shape.workers, stages: [{ url: OCR_STAGE_URL }], ...(llm ? { llm } : {}) });
}
