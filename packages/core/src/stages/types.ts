import type { AdapterOutput, ParseProgress } from '../adapters/types.ts';
import type { FileKind } from '../detect.ts';
import type { ResolvedOptions } from '../options/normalize.ts';
import type { Root } from '../tree/types.ts';

/**
 * Capacity beside the thread a document parses on (a pooled engine's idle workers). A stage whose
 * work comes in independent units (OCR pages) offers one: `null` when nothing is idle right now
 * (the stage does it itself), else the unit's result, computed elsewhere. `task` names a task
 * module (URL or registered id) the workers can load; `input` is copied, never moved.
 */
export type Offload = (task: string, input: unknown) => Promise<{ result: Promise<unknown> } | null>;

export interface StageContext {
  kind: FileKind;
  bytes: Uint8Array;
  options: ResolvedOptions;
  signal: AbortSignal;
  warn(message: string): void;
  /** What the adapter returned besides the tree (PDF page classes for OCR). */
  adapterOutput: AdapterOutput;
  /** The caller's progress callback (`hints.onProgress`), for stages with long work (OCR pages). */
  onProgress?: ((progress: ParseProgress) => void) | undefined;
  /** The caller's spare capacity (`hints.offload`), when it has any. */
  offload?: Offload | undefined;
}

/**
 * A tree-to-tree step between adapters and renderers (OCR, PII redaction). `applies` decides from
 * the options whether it runs; a stage that must run but cannot fails the request (fail closed).
 */
export interface Stage {
  readonly name: string;
  /** Set by a stage that redacts PII, so the engine knows `redactPII` can be honoured. */
  readonly redacts?: boolean;
  /** Set by a stage that OCRs pages without a usable text layer. */
  readonly ocr?: boolean;
  /** Throws before any parsing when the stage cannot honour the options (fail closed, fail fast). */
  validate?(options: ResolvedOptions): void;
  applies(ctx: StageContext): boolean;
  run(tree: Root, ctx: StageContext): Promise<Root>;
  /** Releases what the stage holds (worker pools, models); `engine.close()` calls it. */
  close?(): Promise<void>;
}
