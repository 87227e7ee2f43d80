import type { Plugin } from 'vite';
// An app outside this workspace imports '@docmill/ocr/assets' (built JavaScript); here the
// package's source is TypeScript, which Vite bundles into the config only by relative path.
import { ocrAssetFiles } from '../ocr/src/assets-node.ts';
import { piiAssetFiles } from '../pii/src/assets-node.ts';
import { copyAssets } from './copy-assets.ts';

/** tesseract.js's worker script, wasm cores and models, in `tesseract/` of the build. */
export function ocrAssets(): Plugin {
  return copyAssets('tesseract', ocrAssetFiles());
}

/**
 * onnxruntime-web's wasm and glue for the PII model, in `onnx/` of the build (the default `assets`
 * of `@docmill/pii`'s browser entry); transformers.js would otherwise fetch them from a CDN.
 */
export function piiAssets(): Plugin {
  const copy = copyAssets('onnx', piiAssetFiles());
  return {
    ...copy,
    // onnxruntime-web's bundle also names its wasm by `new URL(…, import.meta.url)`, so Vite emits a
    // second 27 MB copy into assets/; the model always sets wasmPaths to onnx/, so it is never fetched.
    generateBundle(options, bundle, isWrite) {
      for (const name of Object.keys(bundle))
        if (/(^|\/)ort-wasm-simd-threaded\.asyncify-[\w-]+\.wasm$/.test(name)) delete bundle[name];
      return (copy.generateBundle as (this: unknown, ...a: unknown[]) => void).call(this, options, bundle, isWrite);
    },
  };
}
