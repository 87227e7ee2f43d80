import { createReadStream, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
// An app outside this workspace imports '@docmill/ocr/assets' (built JavaScript); here the
// package's source is TypeScript, which Vite bundles into the config only by relative path.
import { ocrAssetFiles } from '../ocr/src/assets-node.ts';

const nodeOnly = fileURLToPath(new URL('./src/node-only.ts', import.meta.url));

/**
 * tesseract.js loads its worker script, its wasm core and the models by URL at run time, out of
 * the bundler's sight. This copies them from node_modules into `tesseract/` of the build (and
 * serves them there in dev), so OCR fetches them from the page's own origin and never a CDN.
 */
function ocrAssets(): Plugin {
  const files = ocrAssetFiles();
  return {
    name: 'docmill-ocr-assets',
    configureServer(server) {
      server.middlewares.use('/tesseract', (req, res, next) => {
        const path = files[(req.url ?? '').replace(/^\//, '').split('?')[0] ?? ''];
        if (!path) return next();
        res.setHeader('content-type', path.endsWith('.js') ? 'text/javascript' : 'application/octet-stream');
        createReadStream(path).pipe(res);
      });
    },
    generateBundle() {
      for (const [name, path] of Object.entries(files)) {
        this.emitFile({ type: 'asset', fileName: `tesseract/${name}`, source: readFileSync(path) });
      }
    },
  };
}

/**
 * A static app: `vite build` writes `dist/` with relative URLs (host it under any path). PDFium's
 * glue asks for its wasm by `new URL('pdfium.wasm', import.meta.url)`; Vite copies that file into
 * `dist/assets`, so the page fetches it from its own origin. OCR's pool workers are found the same
 * way (`new Worker(new URL(…, import.meta.url))`), and tesseract.js's files are copied above. The
 * dev server's dependency pre-bundling would move the glue away from its wasm, so that package is
 * served as is. Core's Node HTML backend (parse5 + linkedom) is never called in a browser and is
 * left out.
 */
export default defineConfig({
  base: './',
  server: { host: '127.0.0.1', strictPort: false },
  preview: { host: '127.0.0.1' },
  resolve: { alias: { linkedom: nodeOnly, parse5: nodeOnly } },
  optimizeDeps: { exclude: ['@embedpdf/pdfium'] },
  plugins: [ocrAssets()],
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 2048 },
  worker: { format: 'es' },
});
