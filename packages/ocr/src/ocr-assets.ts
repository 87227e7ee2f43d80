// Its own module so that declarations naming it (the browser entry's among them) do not pull in
// tesseract.js's types, which need Node's.

/**
 * Where tesseract.js finds what it loads. Node needs only the model folders (its worker and core
 * come from node_modules); a browser needs all of them as URLs of the app's own files, or
 * tesseract.js would fetch them from a CDN.
 */
export interface OcrAssets {
  /** Folder (Node path or URL) holding `<lang>.traineddata.gz` for the recognizer's languages. */
  langPath: string;
  /**
   * Node: languages whose model is in a folder of its own (each `@tesseract.js-data/<lang>` package
   * is one), language → folder; the rest are in `langPath`.
   */
  langPaths?: Record<string, string> | undefined;
  /** Folder holding `osd.traineddata.gz` (orientation detection). */
  osdPath: string;
  /** Browsers: tesseract.js's worker script (`worker.min.js`). */
  workerPath?: string | undefined;
  /** Browsers: the LSTM core script (`tesseract-core-simd-lstm.wasm.js`). */
  corePath?: string | undefined;
  /** Browsers: the core with the legacy engine OSD needs (`tesseract-core-simd.wasm.js`). */
  legacyCorePath?: string | undefined;
}
