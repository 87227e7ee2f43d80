import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ORT_FILES } from './ort-files.ts';
import { isMissingTransformers, MISSING_TRANSFORMERS } from './transformers.ts';

const require = createRequire(import.meta.url);

/**
 * What a browser build must serve, in one folder, for the PII model in the browser: file name →
 * installed file (onnxruntime-web's wasm and its glue, the pair transformers.js would otherwise
 * fetch from a CDN). Copy them at build time (the playground's Vite config does) and give the
 * folder's URL as the model's `assets` (default `./onnx/` of the page).
 */
export function piiAssetFiles(): Record<string, string> {
  // Neither package exports its package.json: their Node entries sit in their dist folders.
  let transformers: string;
  try {
    transformers = dirname(require.resolve('@huggingface/transformers'));
  } catch (err) {
    if (isMissingTransformers(err)) throw new Error(MISSING_TRANSFORMERS, { cause: err });
    throw err;
  }
  const dist = dirname(createRequire(join(transformers, 'x.js')).resolve('onnxruntime-web'));
  return Object.fromEntries(Object.values(ORT_FILES).map((name) => [name, join(dist, name)]));
}
