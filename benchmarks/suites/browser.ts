import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ParseOptions } from '@docmill/core';
import type { Browser, Page } from 'playwright-core';
import { bundleCore, CHROMIUM, launchChromium, serveFolder } from '../../packages/core/test/helpers/browser.ts';
import { type BenchInput, type BenchTool, corpusRoot } from '../harness.ts';

/**
 * docmill inside Debian's Chromium, timed from Node in the same run as the Node tools: core is
 * bundled for browsers (esbuild, as in the conformance test), served from 127.0.0.1 with the corpus
 * folder beside it, and each `run` asks the page to parse one file. The page fetches a file once
 * (during the warm-up pass) and keeps its bytes, so the rounds time the parse in the page plus one
 * small CDP round trip, not the transfer of the bytes.
 */

const HARNESS = `
import { createEngine } from './core.js';
const engine = createEngine();
const cache = new Map();
window.benchParse = async (name, options) => {
  let bytes = cache.get(name);
  if (!bytes) {
    bytes = new Uint8Array(await (await fetch('corpus/' + encodeURIComponent(name))).arrayBuffer());
    cache.set(name, bytes);
  }
  // A copy per call, as the Node tools get: a backend may detach the buffer it is given.
  const out = await engine.parse(new Uint8Array(bytes), options, { filename: name });
  return (out.markdown ?? '').length;
};
`;

interface Session {
  page: Page;
  close(): Promise<void>;
}

let session: Promise<Session> | undefined;

async function startSession(corpusFolder: string): Promise<Session> {
  const dir = mkdtempSync(join(tmpdir(), 'docmill-bench-browser-'));
  await bundleCore(dir);
  writeFileSync(join(dir, 'harness.js'), HARNESS);
  writeFileSync(join(dir, 'index.html'), '<!DOCTYPE html><script type="module" src="harness.js"></script>');
  symlinkSync(join(corpusRoot, corpusFolder), join(dir, 'corpus'));
  const server = await serveFolder(dir);
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    const page = await browser.newPage();
    await page.goto(`${server.origin}/index.html`);
    await page.waitForFunction(() => 'benchParse' in window);
    const b = browser;
    return {
      page,
      async close() {
        await b.close();
        await server.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await browser?.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** True when Debian's Chromium is installed; the suite leaves the browser rows out otherwise. */
export const hasChromium = CHROMIUM !== undefined;

/** docmill parsing in a Chromium page; one browser is shared by every such tool of the run. */
export function chromiumTool(name: string, corpusFolder: string, options: ParseOptions): BenchTool {
  return {
    name,
    ours: true,
    // Node's RSS says nothing about the browser's memory.
    skipRss: true,
    async run(input: BenchInput) {
      session ??= startSession(corpusFolder);
      const { page } = await session;
      type Run = { benchParse(n: string, o: ParseOptions): Promise<number> };
      return page.evaluate(([n, o]) => (window as unknown as Run).benchParse(n, o), [
        input.name,
        { timeout: 300000, ...options },
      ] as const);
    },
    async close() {
      const s = session;
      session = undefined;
      await (await s)?.close();
    },
  };
}
