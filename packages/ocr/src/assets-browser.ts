import type { OcrAssets } from './ocr-assets.ts';

/**
 * Browser assets from one folder URL (see `ocrAssetFiles` for its files), resolved against the
 * page: tesseract.js's own worker resolves nothing, so every path it gets must be absolute.
 * `langPath` points other languages elsewhere.
 */
export function browserAssets(base: string | URL | undefined, langPath?: string): OcrAssets {
  const page = (globalThis as { location?: { href: string } }).location?.href;
  const root = new URL(String(base ?? './tesseract/'), page);
  const at = (name: string) => new URL(name, root.href.endsWith('/') ? root : `${root.href}/`).href;
  const folder = at('.').replace(/\/$/, '');
  return {
    langPath: langPath ? new URL(langPath, page).href.replace(/\/$/, '') : folder,
    osdPath: folder,
    workerPath: at('worker.min.js'),
    corePath: at('tesseract-core-simd-lstm.wasm.js'),
    legacyCorePath: at('tesseract-core-simd.wasm.js'),
  };
}
