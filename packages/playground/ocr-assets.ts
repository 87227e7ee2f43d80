import { createReadStream, readFileSync } from 'node:fs';
import type { Plugin } from 'vite';
// An app outside this workspace imports '@docmill/ocr/assets' (built JavaScript); here the
// package's source is TypeScript, which Vite bundles into the config only by relative path.
import { ocrAssetFiles } from '../ocr/src/assets-node.ts';

/**
 * tesseract.js loads its worker script, its wasm core and the models by URL at run time, out of
 * the bundler's sight. This copies them from node_modules into `tesseract/` of the build (and
 * serves them there in dev), so OCR fetches them from the page's own origin and never a CDN.
 */
export function ocrAssets(): Plugin {
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
