import { createReadStream, readFileSync } from 'node:fs';
import { extname } from 'node:path';
import type { Plugin } from 'vite';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
};

/**
 * Files a library loads by URL at run time, out of the bundler's sight: copied from node_modules
 * into `folder/` of the build (and served there in dev), so the page fetches them from its own
 * origin and never a CDN. `files`: name in the folder → file on disk.
 */
export function copyAssets(folder: string, files: Record<string, string>): Plugin {
  return {
    name: `docmill-assets:${folder}`,
    configureServer(server) {
      server.middlewares.use(`/${folder}`, (req, res, next) => {
        const path = files[(req.url ?? '').replace(/^\//, '').split('?')[0] ?? ''];
        if (!path) return next();
        res.setHeader('content-type', TYPES[extname(path)] ?? 'application/octet-stream');
        createReadStream(path).pipe(res);
      });
    },
    generateBundle() {
      for (const [name, path] of Object.entries(files)) {
        this.emitFile({ type: 'asset', fileName: `${folder}/${name}`, source: readFileSync(path) });
      }
    },
  };
}
