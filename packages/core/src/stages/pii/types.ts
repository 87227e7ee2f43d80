import type { PiiEntity } from '../../options/schema.ts';

export type { PiiEntity };

/** A detected piece of PII in one text, by UTF-16 offsets (end exclusive). */
export interface PiiSpan {
  start: number;
  end: number;
  entity: PiiEntity;
  /**
   * True when the match carries its own proof (email syntax, Luhn, mod-97, a known key prefix, PEM,
   * JWT) or comes from the model: `accurate` mode keeps only these besides model spans.
   */
  validated: boolean;
  /** Which detector produced it, for evaluation and debugging. */
  source: 'pattern' | 'lexicon' | 'model';
}

/**
 * A token-classification model behind a small seam: core only knows it takes texts and returns
 * spans. `@docmill/pii` implements it with a local ONNX model run in a worker.
 */
export interface PiiModel {
  detect(texts: readonly string[], signal?: AbortSignal): Promise<PiiSpan[][]>;
  close?(): Promise<void>;
}

/** Engine-level PII configuration (`createEngine({ pii })`). */
export interface PiiConfig {
  /** Needed by the `accurate` (default) and `aggressive` modes; `fast` runs without it. */
  model?: PiiModel;
}
