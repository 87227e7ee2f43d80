/**
 * The onnxruntime-web build transformers.js's web bundle runs on CPU (its default pair: the
 * asyncify build of the wasm runtime and its ES module glue).
 */
export const ORT_FILES = {
  mjs: 'ort-wasm-simd-threaded.asyncify.mjs',
  wasm: 'ort-wasm-simd-threaded.asyncify.wasm',
} as const;
