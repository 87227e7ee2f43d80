import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { InlineConfig } from 'vite';
import { launchChromium, serveFolder } from '../../core/test/helpers/browser.ts';

export interface BuiltApp {
  origin: string;
  browser: Browser;
  close(): Promise<void>;
}

/**
 * A Vite app built into a temporary folder, served from 127.0.0.1, and a headless Chromium to load
 * it: what the browser tests of this package start, and `close` stops (the folder is removed).
 */
export async function startBuiltApp(config: InlineConfig): Promise<BuiltApp> {
  const outDir = mkdtempSync(join(tmpdir(), 'docmill-app-'));
  const { build } = await import('vite');
  await build({ ...config, build: { ...config.build, outDir, emptyOutDir: true }, logLevel: 'silent' });
  const server = await serveFolder(outDir);
  const browser = await launchChromium();
  return {
    origin: server.origin,
    browser,
    async close() {
      await browser.close();
      await server.close();
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
