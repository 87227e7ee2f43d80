import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { InlineConfig, Plugin } from 'vite';
import { launchChromium, recordRequests, serveFolder } from '../../core/test/helpers/browser.ts';
import { projectRoot } from '../../core/test/helpers/corpus.ts';
import { copyAssets } from '../copy-assets.ts';

export interface BuiltApp {
  origin: string;
  /** The built folder. */
  dir: string;
  browser: Browser;
  close(): Promise<void>;
}

/**
 * A Vite app built into a temporary folder, served from 127.0.0.1, and a headless Chromium to load
 * it: what the browser tests of this package start, and `close` stops (the folder is removed).
 */
export async function startBuiltApp(config: InlineConfig): Promise<BuiltApp> {
  const outDir = mkdtempSync(join(tmpdir(), 'docmill-app-'));
  let server: Awaited<ReturnType<typeof serveFolder>> | undefined;
  let browser: Browser;
  try {
    const { build } = await import('vite');
    await build({ ...config, build: { ...config.build, outDir, emptyOutDir: true }, logLevel: 'silent' });
    server = await serveFolder(outDir);
    browser = await launchChromium();
  } catch (err) {
    // A failed start leaves nothing behind: no server, no built folder.
    await server?.close();
    rmSync(outDir, { recursive: true, force: true });
    throw err;
  }
  return {
    origin: server.origin,
    dir: outDir,
    browser,
    async close() {
      await browser.close();
      await server.close();
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}

/** The generated test NER model's folder (fixtures/scripts/make-pii-model.ts). */
export const TEST_MODEL = join(projectRoot, 'fixtures/pii/ner-model');

/** The test model served by the app's own origin under `folder/`, as an app serves its model. */
export function testModelAssets(folder: string): Plugin {
  const files = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx'];
  return copyAssets(folder, Object.fromEntries(files.map((f) => [f, join(TEST_MODEL, f)])));
}

/** A new page of the app at `path`, with every request it makes and every uncaught page error. */
export async function openPage(
  app: BuiltApp,
  path: string,
): Promise<{ page: Page; requests: string[]; errors: string[] }> {
  const page = await app.browser.newPage();
  const requests = recordRequests(page);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${app.origin}/${path}`);
  return { page, requests, errors };
}
