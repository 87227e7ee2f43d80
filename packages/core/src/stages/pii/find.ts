import { DocmillError, throwIfAborted } from '../../errors.ts';
import type { RedactOptions } from '../../options/normalize.ts';
import { intervalAt } from '../../util/intervals.ts';
import { detectHeuristic } from './detect.ts';
import { loadNameLexicon } from './lexicon.ts';
import type { SpanFinder } from './redact-tree.ts';
import { resolveSpans } from './resolve.ts';
import { MODEL_MISSING } from './stage.ts';
import type { PiiEntity, PiiModel, PiiSpan } from './types.ts';

/**
 * Builds the span finder for one request's options. `fast`: heuristics; `aggressive`: model plus
 * heuristics; `accurate`: model plus only those pattern matches that prove themselves.
 */
export function spanFinder(opts: RedactOptions, model: PiiModel | undefined, signal?: AbortSignal): SpanFinder {
  const entities = new Set<PiiEntity>(opts.entities);
  return async (texts) => {
    const needNames = opts.mode !== 'accurate' && (entities.has('PERSON') || entities.has('LOCATION'));
    const lex = needNames ? await loadNameLexicon() : undefined;
    let modelSpans: PiiSpan[][] = [];
    if (opts.mode !== 'fast') {
      if (!model)
        throw new DocmillError(400, 'PARSE_UNSUPPORTED_OPTIONS', `redactPII mode "${opts.mode}" ${MODEL_MISSING}`);
      try {
        modelSpans = await model.detect(texts, signal);
      } catch (err) {
        if (signal?.aborted) throw signal.reason;
        const why = err instanceof Error ? err.message : String(err);
        throw new DocmillError(500, 'UNKNOWN_ERROR', `PII model failed, so nothing is returned unredacted: ${why}`, {
          cause: err,
        });
      }
    }
    const heuristic = texts.map((): PiiSpan[] => []);
    let scanned = 0;
    for (const batch of batches(texts)) {
      // Let the timeout's timer fire on long documents: the scan itself is synchronous.
      scanned += batch.text.length;
      if (scanned > YIELD_CHARS) {
        scanned = 0;
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      throwIfAborted(signal);
      for (const s of detectHeuristic(batch.text, entities, lex)) {
        if (opts.mode === 'accurate' && !s.validated) continue;
        const part = intervalAt(
          batch.parts,
          s.start,
          (p) => p.offset,
          (p) => p.offset + p.length,
        );
        if (!part) continue;
        const end = Math.min(s.end, part.offset + part.length);
        if (end <= s.start) continue;
        // The span is fresh from the detectors: move it into its unit's coordinates in place.
        s.start -= part.offset;
        s.end = end - part.offset;
        heuristic[part.index]?.push(s);
      }
    }
    return texts.map((_, i) => {
      const own = heuristic[i] ?? [];
      const fromModel = modelSpans[i]?.filter((s) => entities.has(s.entity));
      return resolveSpans(fromModel?.length ? [...own, ...fromModel] : own);
    });
  };
}

// Units are often tiny (table cells, list items): scanning them one by one costs more in fixed
// per-call work than in matching. They are scanned in batches joined by a separator no detector
// matches across (a newline around a control character); a span is clipped to its own unit.
const SEPARATOR = '\n\u0003\n';
const BATCH_CHARS = 16_384;
const YIELD_CHARS = 262_144;

interface Part {
  index: number;
  offset: number;
  length: number;
}

function batches(texts: readonly string[]): { text: string; parts: Part[] }[] {
  const out: { text: string; parts: Part[] }[] = [];
  let pieces: string[] = [];
  let parts: Part[] = [];
  let size = 0;
  const flush = () => {
    if (parts.length) out.push({ text: pieces.join(SEPARATOR), parts });
    pieces = [];
    parts = [];
    size = 0;
  };
  texts.forEach((text, index) => {
    if (size > 0 && size + text.length > BATCH_CHARS) flush();
    parts.push({ index, offset: size, length: text.length });
    pieces.push(text);
    size += text.length + SEPARATOR.length;
  });
  flush();
  return out;
}
