import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from '../../src/index.ts';
import { fixture, projectRoot } from '../helpers/corpus.ts';

/**
 * The HTML parser seam has two backends: parse5 replayed into linkedom (Node) and the native
 * DOMParser (browsers). The same fixtures through core bundled for the browser and run in real
 * Chromium must give the Markdown they give in Node.
 */

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync);
const skipReason = 'chromium not installed (.ci/run installs it); browser conformance skipped';
if (!CHROMIUM) console.warn(skipReason);

const CASES: Record<string, { file: [string, string]; options?: Record<string, unknown>; filename: string }> = {
  malformed: { file: ['html', 'malformed-table.html'], filename: 'page.html' },
  selected: {
    file: ['html', 'malformed-table.html'],
    options: { includeTags: ['table[border] tr:nth-child(3)'] },
    filename: 'page.html',
  },
  layout: { file: ['html', 'layout-tables.html'], filename: 'page.html' },
  cssHeadings: { file: ['html', 'css-headings.html'], filename: 'page.html' },
  mislabelled: { file: ['html', 'mislabelled-sjis.html'], filename: 'page.html' },
  mislabelledEucJp: { file: ['html', 'mislabelled-eucjp.html'], filename: 'page.html' },
  mislabelledGbk: { file: ['html', 'mislabelled-gbk.html'], filename: 'page.html' },
  mislabelledKoi8: { file: ['html', 'mislabelled-koi8r.html'], filename: 'page.html' },
  rich: { file: ['html', 'rich.html'], filename: 'page.html' },
  epub: { file: ['epub', 'css-headings.epub'], filename: 'book.epub' },
};

const ENTRY = `
import { parse } from ${JSON.stringify(resolve(projectRoot, 'packages/core/src/index.ts'))};
const out = {};
(async () => {
  for (const [name, c] of Object.entries(window.CASES)) {
    const bytes = Uint8Array.from(atob(c.b64), (ch) => ch.charCodeAt(0));
    try {
      out[name] = (await parse(bytes, c.options ?? {}, { filename: c.filename })).markdown ?? '';
    } catch (e) {
      out[name] = 'ERROR ' + e.message;
    }
  }
  const pre = document.createElement('pre');
  pre.id = 'result';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
`;

const dir = mkdtempSync(join(tmpdir(), 'docmill-browser-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function chromiumDom(url: string): Promise<string> {
  return new Promise((done, fail) => {
    execFile(
      CHROMIUM as string,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--allow-file-access-from-files',
        `--user-data-dir=${join(dir, 'profile')}`,
        '--virtual-time-budget=20000',
        '--dump-dom',
        url,
      ],
      { timeout: 300_000, maxBuffer: 32 << 20 },
      (err, stdout) => (err ? fail(err) : done(stdout)),
    );
  });
}

const unescapeHtml = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

describe.skipIf(!CHROMIUM)(`html in a browser (native DOMParser)${CHROMIUM ? '' : ` (${skipReason})`}`, () => {
  it('gives the Markdown Node gives, for every real-world fixture', async () => {
    const bundle = await build({
      stdin: { contents: ENTRY, resolveDir: projectRoot, loader: 'js' },
      bundle: true,
      platform: 'browser',
      format: 'iife',
      write: false,
      logLevel: 'silent',
    });
    writeFileSync(join(dir, 'bundle.js'), bundle.outputFiles[0]?.text ?? '');
    const cases = Object.fromEntries(
      Object.entries(CASES).map(([name, c]) => [
        name,
        { ...c, b64: Buffer.from(fixture(...c.file)).toString('base64') },
      ]),
    );
    writeFileSync(join(dir, 'cases.js'), `window.CASES = ${JSON.stringify(cases)};`);
    writeFileSync(
      join(dir, 'index.html'),
      '<!DOCTYPE html><html><body><script src="cases.js"></script><script src="bundle.js"></script></body></html>',
    );
    const dom = await chromiumDom(`file://${join(dir, 'index.html')}`);
    const json = /<pre id="result">([\s\S]*?)<\/pre>/.exec(dom)?.[1];
    expect(json, 'the bundle did not finish in Chromium').toBeDefined();
    const inBrowser = JSON.parse(unescapeHtml(json as string)) as Record<string, string>;
    for (const [name, c] of Object.entries(CASES)) {
      const inNode = (await parse(fixture(...c.file), c.options ?? {}, { filename: c.filename })).markdown;
      expect(inBrowser[name], name).toBe(inNode);
    }
    // The browser path really ran the conforming parse: the table survived the stray </CENTER>.
    expect(inBrowser.malformed).toContain('| C | Mn | Si | Cr | Ni | Mo | Fe |');
    // Chromium's TextDecoder, like Node's, sniffs the same encoding from the bytes.
    expect(inBrowser.mislabelledEucJp).toContain('# 定例会議の議事録');
  });
});
