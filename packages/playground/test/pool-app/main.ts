import { OCR_STAGE_URL, spawnOcrWorker } from '@docmill/ocr';
import { createEngine as createPiiEngine, PII_STAGE_URL, spawnPiiWorker } from '@docmill/pii';
import { createPool, createPooledEngine } from '@docmill/workers';
import { NO_DEADLINE } from '../../../core/test/helpers/timeouts.ts';

/**
 * A page for the pool test: whole documents parsed by `@docmill/workers`' own Web Worker, as a
 * bundler emits it from the package's browser entry.
 */

interface Outcome {
  markdown?: string;
  limited?: boolean;
  error?: { status: number; code: string };
  progress: number;
}

async function runPool(
  files: { name: string; b64: string; timeout?: number; options?: Record<string, unknown> }[],
): Promise<Outcome[]> {
  // A stage module the worker imports by URL from this origin; it holds its thread on SLOW documents.
  const slow = { url: new URL('./stages/slow-stage.js', location.href).href, options: { ms: 60_000 } };
  const engine = createPooledEngine({ workers: 1, stages: [slow] });
  try {
    // All at once into one worker: every file after the first waits in the pool's queue.
    return await Promise.all(
      files.map(async (f): Promise<Outcome> => {
        const bytes = Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0));
        let progress = 0;
        try {
          const r = await engine.parse(
            bytes,
            { ...f.options, ...(f.timeout ? { timeout: f.timeout } : {}) },
            {
              filename: f.name,
              onProgress: () => {
                progress++;
              },
            },
          );
          return { markdown: r.markdown ?? '', limited: r.metadata.concurrencyLimited === true, progress };
        } catch (err) {
          const e = err as { status: number; code: string };
          return { error: { status: e.status, code: e.code }, progress };
        }
      }),
    );
  } finally {
    // How many workers the pool started: a replacement shows up here.
    document.body.dataset.started = String(engine.pool.stats().started);
    await engine.close();
  }
}

/**
 * A whole scan parsed in a pool of OCR workers, the OCR stage built inside each worker; with more
 * than one worker, the idle ones read pages the parsing worker lends them.
 */
async function runOcrPool(
  b64: string,
  name: string,
  size: number,
): Promise<{ markdown: string; ocrPages: unknown; started: number }> {
  const engine = createPooledEngine({
    pool: createPool({ size, spawn: spawnOcrWorker }),
    // Absolute: inside the worker, a relative URL would resolve against the worker's script.
    stages: [{ url: OCR_STAGE_URL, options: { assets: new URL('./tesseract/', location.href).href } }],
  });
  try {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const options = name.endsWith('.pdf')
      ? { parsers: [{ type: 'pdf' as const, mode: 'auto' as const }], ...NO_DEADLINE }
      : { parsers: ['image' as const], ...NO_DEADLINE };
    const r = await engine.parse(bytes, options, { filename: name });
    return { markdown: r.markdown ?? '', ocrPages: r.metadata.ocrPages, started: engine.pool.stats().started };
  } finally {
    await engine.pool.close();
    await engine.close();
  }
}

/**
 * A document redacted in `aggressive` mode by `@docmill/pii`'s browser entry: the model in a Web
 * Worker of its own, fetched from `model` (a folder of this origin), onnxruntime-web from `onnx/`.
 */
async function runPii(
  b64: string,
  name: string,
  model: string,
): Promise<{ markdown?: string; error?: { status: number; code: string; message: string } }> {
  const engine = createPiiEngine({ pii: { model } });
  try {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const r = await engine.parse(bytes, { redactPII: { mode: 'aggressive' }, ...NO_DEADLINE }, { filename: name });
    return { markdown: r.markdown ?? '' };
  } catch (err) {
    const e = err as { status: number; code: string; message: string };
    return { error: { status: e.status, code: e.code, message: e.message } };
  } finally {
    await engine.close();
  }
}

/** The same, parsed whole in one PII Web Worker whose pooled engine builds the PII stage itself. */
async function runPiiPool(b64: string, name: string, model: string): Promise<string> {
  const engine = createPooledEngine({
    pool: createPool({ size: 1, spawn: spawnPiiWorker }),
    // Absolute: inside the worker, a relative URL would resolve against the worker's script.
    stages: [
      {
        url: PII_STAGE_URL,
        options: { model: new URL(model, location.href).href, assets: new URL('./onnx/', location.href).href },
      },
    ],
  });
  try {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const r = await engine.parse(bytes, { redactPII: { mode: 'aggressive' }, ...NO_DEADLINE }, { filename: name });
    return r.markdown ?? '';
  } finally {
    await engine.pool.close();
    await engine.close();
  }
}

Object.assign(window, { runPool, runOcrPool, runPii, runPiiPool });
document.body.dataset.ready = 'yes';
