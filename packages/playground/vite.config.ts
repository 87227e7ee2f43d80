import { defineConfig } from 'vite';
import { ocrAssets, piiAssets } from './ocr-assets.ts';

/**
 * A static app: `vite build` writes `dist/` with relative URLs (host it under any path). PDFium's
 * glue asks for its wasm by `new URL('pdfium.wasm', import.meta.url)`; Vite copies that file into
 * `dist/assets`, so the page fetches it from its own origin. OCR's pool workers are found the same
 * way (`new Worker(new URL(…, import.meta.url))`); tesseract.js's and onnxruntime-web's files are
 * copied by the plugins below (the PII model itself is the app's to serve: `?model=`). The
 * dev server's dependency pre-bundling would move the glue away from its wasm, so that package is
 * served as is.
 */
export default defineConfig({
  base: './',
  server: { host: '127.0.0.1', strictPort: false },
  preview: { host: '127.0.0.1' },
  optimizeDeps: { exclude: ['@embedpdf/pdfium'] },
  plugins: [ocrAssets(), piiAssets()],
  // linkedom's bundled CSS parser (core's HTML DOM in Web Workers) has a direct `eval` on a path
  // docmill never takes (it reads no style sheet through the DOM); rolldown warns about it once per
  // worker bundle, nested workers (built with the top-level options) included.
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 2048,
    rolldownOptions: { checks: { eval: false } },
  },
  worker: { format: 'es', rolldownOptions: { checks: { eval: false } } },
});
