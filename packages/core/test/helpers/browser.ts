import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, extname, join, normalize, resolve } from 'node:path';
import { build, type Metafile } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { projectRoot } from './corpus.ts';

/**
 * Helpers for tests that run docmill in Debian's Chromium through playwright-core: bundle core for
 * the browser, serve a folder from 127.0.0.1 and start a headless Chromium that cannot reach
 * anything else. Everything they start is stopped by the returned `close`.
 */

export const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync);
export const chromiumSkipReason = 'chromium not installed (.ci/run installs it); browser test skipped';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.gz': 'application/gzip',
};

/** A static file server for one folder on a free loopback port. */
export async function serveFolder(root: string): Promise<{ origin: string; close: () => Promise<void> }> {
  const base = resolve(root);
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let file = normalize(join(base, path));
    if (!file.startsWith(base)) {
      res.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': MIME[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** Headless Debian Chromium with the flags verified on this machine. */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM as string,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    timeout: 300_000,
  });
}

/** Every URL the page requests, to prove what was (not) fetched. */
export function recordRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (r) => urls.push(r.url()));
  return urls;
}

/**
 * Bundles `@docmill/core` for browsers (ESM with code splitting, as an app bundler would) into
 * `outdir` as `core.js` plus lazily loaded chunks. PDFium's glue fetches `pdfium.wasm` beside the
 * chunk that holds it (`new URL('pdfium.wasm', import.meta.url)`); esbuild does not copy such
 * assets, so the wasm is put beside the chunks here, as Vite does in the playground.
 */
export async function bundleCore(outdir: string): Promise<Metafile> {
  const result = await build({
    entryPoints: { core: resolve(projectRoot, 'packages/core/src/index.ts') },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    outdir,
    metafile: true,
    minify: true,
    logLevel: 'silent',
  });
  const require = createRequire(resolve(projectRoot, 'packages/core/package.json'));
  copyFileSync(require.resolve('@embedpdf/pdfium/pdfium.wasm'), join(outdir, 'pdfium.wasm'));
  return result.metafile;
}

/** Core bundled for browsers with a page of test functions, served, and a Chromium to open it. */
export interface CoreHarness {
  meta: Metafile;
  origin: string;
  /** A new page of the harness, once `window[ready]` exists, with every request it makes. */
  openPage(ready: string): Promise<{ page: Page; requests: string[] }>;
  /** Output files (served names) of the bundle holding any input whose path matches. */
  outputsWith(test: RegExp): string[];
  close(): Promise<void>;
}

/**
 * `bundleCore` into a temporary folder beside `harness` (the page's module, which imports
 * `./core.js` itself: vitest would rewrite an import() inside page.evaluate), served from
 * 127.0.0.1, with Chromium. `close` stops both and removes the folder.
 */
export async function startCoreHarness(prefix: string, harness: string): Promise<CoreHarness> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const meta = await bundleCore(dir);
  writeFileSync(join(dir, 'harness.js'), harness);
  writeFileSync(
    join(dir, 'index.html'),
    '<!DOCTYPE html><html><body><script type="module" src="harness.js"></script></body></html>',
  );
  const server = await serveFolder(dir);
  const browser = await launchChromium();
  return {
    meta,
    origin: server.origin,
    async openPage(ready) {
      const page = await browser.newPage();
      const requests = recordRequests(page);
      await page.goto(`${server.origin}/index.html`);
      await page.waitForFunction((name) => name in window, ready);
      return { page, requests };
    },
    outputsWith: (test) =>
      Object.entries(meta.outputs)
        .filter(([, o]) => Object.keys(o.inputs).some((i) => test.test(i)))
        .map(([f]) => basename(f)),
    async close() {
      await browser.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
