import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, stdioServer, textOf } from '../../packages/mcp/test/helpers.ts';
import { cleanEnv, installPublished, offlineEnv } from '../install-published.ts';
import { publishablePackages, workspaceRoot } from '../packages.ts';
import { readmeBlock } from '../readme.ts';
import type { OfflineRegistry } from './registry.ts';

const exec = promisify(execFile);
const fixture = (p: string) => join(workspaceRoot, 'fixtures', p);
/**
 * Build, 7 packs and an npm install take 2–3 minutes on an idle 2-core machine and several times
 * that under load: the bound is there to end a hung install, not to time it.
 */
const SETUP_TIMEOUT = 20 * 60_000;
/** A second npm install (transformers.js and onnxruntime, 430 MB unpacked) or an OCR run. */
const STEP_TIMEOUT = 10 * 60_000;

const consumerMjs = `import { readFile } from 'node:fs/promises';
import { parse } from '@docmill/core';

for (const file of process.argv.slice(2)) {
  const data = await parse(await readFile(file), {}, { filename: file });
  process.stdout.write(\`=== \${file}\\n\${data.markdown}\\n\`);
}
`;

const consumerTs = `import { createEngine, DocmillError, type ParseData, type ParseOptions, parse } from '@docmill/core';
import { readFileInput } from '@docmill/core/platform/node';
import { selectAll } from '@docmill/core/tree';

const options: ParseOptions = { formats: ['markdown', 'links'], parsers: [{ type: 'pdf', mode: 'fast' }] };
const { bytes, hints } = await readFileInput('doc.pdf');
const data: ParseData = await parse(bytes, options, hints);
const markdown: string | undefined = data.markdown;
const pages: number | undefined = data.metadata.numPages;
const engine = createEngine({ limits: { maxCellsPerSheet: 10 } });
const { tree } = await engine.parseTree(bytes, {}, hints);
const headings: number = selectAll(tree, 'heading').length;
// @ts-expect-error an unknown format is a type error: proves the published types are not \`any\`
await parse(bytes, { formats: ['screenshots-please'] });
try {
  await engine.parse(new Uint8Array(0));
} catch (err) {
  if (err instanceof DocmillError) console.log(err.status, err.code, markdown, pages, headings);
}
`;

const browserTs = `import { parse } from '@docmill/core';
import { browserAssets, createOcrStage, OCR_STAGE_URL } from '@docmill/ocr';
import { createPool, createPooledEngine, webWorkerSpawn } from '@docmill/workers';

const stage = createOcrStage({ workers: 1, assets: '/static/tesseract/' });
const assets = browserAssets('/static/tesseract/');
const spawn = webWorkerSpawn(() => new Worker(new URL('./worker.js', import.meta.url), { type: 'module' }));
const engine = createPooledEngine({ pool: createPool({ spawn }), stages: [{ url: OCR_STAGE_URL, options: { assets } }] });
// A browser entry's task ids are literal types, not the Node entry's file URL strings.
const id: 'docmill:ocr-stage' = OCR_STAGE_URL;
export { engine, id, parse, stage };
`;

/** Every import specifier the published packages offer Node (their `exports` keys). */
function publishedEntries(): string[] {
  return publishablePackages().flatMap((p) => {
    const published = p.manifest.publishConfig as { exports?: Record<string, unknown> } | undefined;
    const exports = published?.exports ?? (p.manifest.exports as Record<string, unknown> | undefined) ?? {};
    return Object.keys(exports)
      .filter((k) => k !== './package.json')
      .map((k) => (k === '.' ? p.name : `${p.name}/${k.slice(2)}`));
  });
}

describe('published packages', () => {
  let dir = '';
  let registry: OfflineRegistry | undefined;
  let setup: Promise<unknown> | undefined;
  /** Ends the setup's processes when the setup is cut short (its hook timed out, the run stopped). */
  const stop = new AbortController();
  const env = () => cleanEnv(dir);
  /** `node <args>` in the installed project, as its user would run it. */
  const node = (...args: string[]) => exec(process.execPath, args, { cwd: join(dir, 'project'), env: env() });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'docmill-pack-'));
    const installing = installPublished(dir, { signal: stop.signal });
    setup = installing;
    const installed = await installing;
    registry = installed.registry;
    const project = installed.project;
    copyFileSync(fixture('pdf/basic.pdf'), join(project, 'doc.pdf'));
    // The README's examples read these names from the working directory.
    copyFileSync(fixture('pdf/scanned.pdf'), join(project, 'scan.pdf'));
    copyFileSync(fixture('pii/letter.html'), join(project, 'letter.html'));
    for (const [name, code] of readmeExamples()) {
      writeFileSync(join(project, `${name}.mjs`), code);
      writeFileSync(join(project, `${name}.ts`), code);
    }
    writeFileSync(join(project, 'consumer.mjs'), consumerMjs);
    writeFileSync(join(project, 'consumer.ts'), consumerTs);
    // Every package's every entry, imported by name: new packages are checked without edits here.
    const entries = publishedEntries();
    writeFileSync(join(project, 'entries.mjs'), entries.map((e) => `await import('${e}');\n`).join(''));
    // CommonJS callers: Node 20.19+ loads our ES modules through require() (no top-level await in them).
    writeFileSync(
      join(project, 'entries.cjs'),
      `${entries.map((e) => `require('${e}');\n`).join('')}const { parse } = require('@docmill/core');
const bytes = new Uint8Array(require('node:fs').readFileSync(process.argv[2]));
parse(bytes, {}, { filename: 'basic.docx' }).then((d) => process.stdout.write(d.markdown));
`,
    );
    writeFileSync(
      join(project, 'entries.ts'),
      entries.map((e, i) => `import * as entry${i} from '${e}';\nvoid entry${i};\n`).join(''),
    );
    // A bundler app under the browser condition: the browser entries' own declarations, which
    // name what only they export (browserAssets), and Web Worker types from the DOM lib.
    writeFileSync(join(project, 'browser.ts'), browserTs);
    writeFileSync(
      join(project, 'tsconfig.browser.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'esnext',
          moduleResolution: 'bundler',
          customConditions: ['browser'],
          target: 'es2022',
          lib: ['es2022', 'dom'],
          // A browser app has no Node types: the browser declarations must not need them.
          types: [],
          strict: true,
          noEmit: true,
        },
        files: ['browser.ts'],
      }),
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          strict: true,
          noEmit: true,
        },
        files: ['consumer.ts', 'entries.ts', ...readmeExamples().map(([name]) => `${name}.ts`)],
      }),
    );
  }, SETUP_TIMEOUT);

  afterAll(async () => {
    // A setup still running (its hook timed out) is stopped and awaited before its folder goes, so
    // nothing writes into a folder being removed and the timeout is the one failure reported.
    stop.abort();
    await setup?.catch(() => undefined);
    await registry?.close();
    if (dir && !process.env.KEEP_PACK) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  }, 120_000);

  it('installs every publishable package with npm from a registry that holds only the workspace install', () => {
    expect(publishablePackages().map((p) => p.name)).toEqual(expect.arrayContaining(['@docmill/core', 'docmill']));
    expect(registry?.downloaded).toEqual(expect.arrayContaining(['jszip@3.10.2', 'pdfjs-dist@5.6.205']));
    // A plain `npm install` (scripts and optional dependencies on) succeeded with no host but the
    // registry: nothing installed runs a downloading install script. onnxruntime-node would (it
    // fetches GPU libraries from nuget.org and fails the whole install), so it is not there.
    const installed = (name: string) => existsSync(join(dir, 'project/node_modules', name, 'package.json'));
    expect(installed('@huggingface/transformers')).toBe(false);
    expect(installed('onnxruntime-node')).toBe(false);
    expect(installed('@napi-rs/canvas')).toBe(true); // optional dependencies are installed
  });

  it('each tarball holds dist, README.md, LICENSE and package.json only, with an MIT license', async () => {
    const tarballs = join(dir, 'tarballs');
    for (const file of readdirSync(tarballs)) {
      const { stdout } = await exec('tar', ['-tzf', join(tarballs, file)]);
      const entries = stdout.trim().split('\n');
      expect(entries, file).toEqual(
        expect.arrayContaining(['package/README.md', 'package/LICENSE', 'package/package.json']),
      );
      const others = entries.filter((e) => !/^package\/(dist\/.+|README\.md|LICENSE|package\.json)$/.test(e));
      expect(others, file).toEqual([]);
      expect(
        entries.some((e) => /\.test\.|\.tsbuildinfo$|\/src\//.test(e)),
        file,
      ).toBe(false);
      expect(entries.filter((e) => e.endsWith('.d.ts')).length, file).toBeGreaterThan(0);
      const { stdout: manifest } = await exec('tar', ['-xzOf', join(tarballs, file), 'package/package.json']);
      expect(JSON.parse(manifest).license, file).toBe('MIT');
    }
    expect(readdirSync(tarballs)).toHaveLength(publishablePackages().length);
  });

  it('plain Node imports every entry of every published package', async () => {
    expect(publishedEntries()).toEqual(expect.arrayContaining(['@docmill/core', '@docmill/core/platform/node']));
    const { stdout, stderr } = await node('entries.mjs');
    expect(stdout + stderr).toBe(''); // importing a library prints nothing
  });

  it('a CommonJS script require()s every entry and parses with @docmill/core', async () => {
    const { stdout, stderr } = await node('entries.cjs', fixture('docx/basic.docx'));
    expect(stderr).toBe('');
    expect(stdout).toContain('Revenue grew **strongly** in *Q3*');
  });

  it('a plain node script imports @docmill/core and prints Markdown of a DOCX, a PDF and an HTML page', async () => {
    const files = [fixture('docx/basic.docx'), 'doc.pdf', fixture('html/malformed-table.html')];
    const { stdout } = await node('consumer.mjs', ...files);
    expect(stdout).toContain('# Field report');
    expect(stdout).toContain('Revenue grew **strongly** in *Q3*');
    expect(stdout).toContain('# Docmill Fixture');
    expect(stdout).toContain('- Second item');
    // Through '#html-dom' as published: parse5 + linkedom's worker build.
    expect(stdout).toContain('| 0.05 | 0.20 | 0.40 | 21.5 | 61.0 | 9.0 | 3.9 |');
  });

  it('tsc --noEmit (strict) type-checks consumers against the published types: nodenext, and a bundler under the browser condition', {
    timeout: STEP_TIMEOUT,
  }, async () => {
    // A TypeScript project for Node has Node's types; the plain install above did not need them.
    const types = JSON.parse(readFileSync(join(workspaceRoot, 'node_modules/@types/node/package.json'), 'utf8'));
    await exec('npm', ['install', '--save-dev', `@types/node@${types.version}`], {
      cwd: join(dir, 'project'),
      env: offlineEnv(dir),
    });
    const tsc = join(workspaceRoot, 'node_modules/typescript/bin/tsc');
    // Both at once: two programs over the same declarations, one per core.
    const results = await Promise.all(
      ['tsconfig.json', 'tsconfig.browser.json'].map((config) =>
        exec(process.execPath, [tsc, '-p', config], { cwd: join(dir, 'project') }).then(
          () => ({ config, stdout: '' }),
          (e: { stdout: string }) => ({ config, stdout: e.stdout || 'failed' }),
        ),
      ),
    );
    expect(results).toEqual([
      { config: 'tsconfig.json', stdout: '' },
      { config: 'tsconfig.browser.json', stdout: '' },
    ]);
    // Every published entry's declarations (the MCP SDK's and the frameworks' among them) take
    // about a minute to check on a busy 2-core machine: STEP_TIMEOUT leaves room for that.
  });

  it('the browser entries never reach Node built-ins or platform/node', () => {
    const installed = (name: string) => join(dir, 'project/node_modules', name);
    const core = JSON.parse(readFileSync(join(installed('@docmill/core'), 'package.json'), 'utf8'));
    expect(core.exports['./platform/node'].browser).toBeNull();
    // Core's parse5 + linkedom DOM: Node's, and Web Workers' through './html-dom'; pages get none.
    const dom = core.imports['#html-dom'];
    expect(dom).toEqual({
      browser: './dist/adapters/html/dom-browser.js',
      default: './dist/adapters/html/dom-parse5.js',
    });
    for (const f of Object.values(dom) as string[])
      expect(existsSync(join(installed('@docmill/core'), f)), f).toBe(true);
    expect(readFileSync(join(installed('@docmill/core'), dom.browser), 'utf8')).not.toMatch(/\bimport\b|\bfrom\s/);
    const ocr = JSON.parse(readFileSync(join(installed('@docmill/ocr'), 'package.json'), 'utf8'));
    expect(ocr.exports['./assets'].browser).toBeNull();
    const pii = JSON.parse(readFileSync(join(installed('@docmill/pii'), 'package.json'), 'utf8'));
    expect(pii.exports['./assets'].browser).toBeNull();
    /** Files reached from `file` by relative imports and by worker URLs (`new URL('./x.js', import.meta.url)`). */
    const walk = (start: string): Set<string> => {
      const reached = new Set<string>();
      const visit = (file: string) => {
        if (reached.has(file)) return;
        reached.add(file);
        const source = readFileSync(file, 'utf8');
        for (const m of source.matchAll(/(?:from|import\(|new URL\()\s*['"]([^'"]+)['"]/g)) {
          const spec = m[1] as string;
          expect(spec, `${file} imports ${spec}`).not.toMatch(/^node:|platform\/node|assets-node/);
          if (spec.startsWith('.')) visit(join(dirname(file), spec));
        }
      };
      visit(start);
      return reached;
    };
    const browserEntry = (name: string, manifest: { exports: Record<string, Record<string, string>> }) => {
      const dot = manifest.exports['.'] as Record<string, string | Record<string, string>> | undefined;
      const browser = dot?.browser;
      const entry = typeof browser === 'object' ? browser.default : (browser ?? dot?.default);
      return join(installed(name), entry as string);
    };
    expect(walk(browserEntry('@docmill/core', core)).size).toBeGreaterThan(50); // adapters through lazy imports
    const workers = JSON.parse(readFileSync(join(installed('@docmill/workers'), 'package.json'), 'utf8'));
    // The browser condition carries the browser entry's own declarations.
    for (const [name, manifest] of [
      ['@docmill/workers', workers],
      ['@docmill/ocr', ocr],
      ['@docmill/pii', pii],
    ] as const) {
      expect(manifest.exports['.'].browser, name).toEqual({
        types: './dist/index.browser.d.ts',
        default: './dist/index.browser.js',
      });
      for (const f of Object.values(manifest.exports['.'].browser as Record<string, string>))
        expect(existsSync(join(installed(name), f)), `${name} ${f}`).toBe(true);
    }
    const inWorkers = walk(browserEntry('@docmill/workers', workers));
    const inOcr = walk(browserEntry('@docmill/ocr', ocr));
    // The Web Worker entries (and the tasks they register) are part of what a bundler takes in.
    expect([...inWorkers].map((f) => basename(f))).toEqual(
      expect.arrayContaining(['worker-browser.js', 'parse-task.js']),
    );
    expect([...inOcr].map((f) => basename(f))).toEqual(
      expect.arrayContaining(['worker-browser.js', 'task.js', 'tesseract.js']),
    );
    expect([...walk(browserEntry('@docmill/pii', pii))].map((f) => basename(f))).toEqual(
      expect.arrayContaining(['worker-browser.js', 'task.js', 'runner.js', 'stage-module.js']),
    );
  });

  it('npx docmill parse prints Markdown, with paths relative to the caller', async () => {
    const { stdout } = await exec('npx', ['--no', 'docmill', 'parse', 'doc.pdf'], {
      cwd: join(dir, 'project'),
      env: env(),
    });
    expect(stdout).toContain('# Docmill Fixture\n\nThe quick brown fox');
  });

  it("the README's PII fast-mode example runs as printed", async () => {
    const { stdout, stderr } = await node('pii-fast.mjs');
    expect(stderr).toBe('');
    expect(stdout).toContain('Dear <PERSON>,');
    expect(stdout).toContain('reach her at <EMAIL> or on <PHONE>.');
    expect(stdout).toContain('| <PERSON> | <LOCATION> | <FINANCIAL> |');
    expect(stdout).not.toMatch(/Lovelace|555-2671|4111/);
  });

  it("the README's OCR example runs as printed: in-thread OCR workers, then a pooled engine", {
    timeout: STEP_TIMEOUT,
  }, async () => {
    const { stdout, stderr } = await node('ocr.mjs');
    expect(stderr).toBe('');
    expect(stdout).toContain('| Washers | W-33 | 900 | $0.02 |');
    expect(stdout).toContain('This second page has a real text layer.');
    expect(stdout.endsWith(' 1\n1\n')).toBe(true); // one page OCR'd (page 2 has text), by both engines
  });

  it("a PII model names the install command until transformers.js is added, then runs: the README's command works offline", {
    timeout: STEP_TIMEOUT,
  }, async () => {
    const project = join(dir, 'project');
    // The README's model example, pointed at the generated test model instead of bert-base-NER.
    const model = readmeBlock('Configuring a model', 'ts').replace('/models/bert-base-NER', fixture('pii/ner-model'));
    writeFileSync(join(project, 'pii-model.mjs'), model);
    const before = await node('pii-model.mjs').then(
      () => '',
      (e: { stderr: string }) => e.stderr,
    );
    expect(before).toContain('PII model failed, so nothing is returned unredacted');
    expect(before).toContain('ONNXRUNTIME_NODE_INSTALL=skip npm i @huggingface/transformers@4.3.1');
    const command = readmeBlock('Install', 'sh')
      .split('\n')
      .find((l) => l.includes('@huggingface/transformers'))
      ?.replace(/\s+#.*$/, '');
    expect(command).toBe('ONNXRUNTIME_NODE_INSTALL=skip npm i @huggingface/transformers@4.3.1');
    // Scripts on, as printed; onnxruntime-node's postinstall reads the variable and skips its download.
    await exec('sh', ['-c', command as string], { cwd: project, env: offlineEnv(dir), maxBuffer: 16 << 20 });
    expect(existsSync(join(project, 'node_modules/onnxruntime-node/package.json'))).toBe(true);
    const { stdout } = await node('pii-model.mjs');
    // The generated model knows these names; core's self-validating patterns take the email.
    expect(stdout).toContain('<PERSON> met <PERSON> in <LOCATION>');
    expect(stdout).toContain('<EMAIL>');
    expect(stdout).not.toMatch(/Lovelace|Turing/);
  });
  it("the README's MCP client config starts the installed docmill mcp, which parses inside its root only", async () => {
    const config = JSON.parse(readmeBlock('MCP server', 'json')) as {
      mcpServers: { docmill: { command: string; args: string[] } };
    };
    const entry = config.mcpServers.docmill;
    // The one change from the printed config: the example folder becomes a real one.
    const docs = join(dir, 'Documents');
    mkdirSync(docs);
    copyFileSync(fixture('docx/basic.docx'), join(docs, 'report.docx'));
    const args = entry.args.map((a) => (a === '/Users/you/Documents' ? docs : a));
    expect(args).toContain(docs);
    const childEnv = Object.fromEntries(Object.entries(env()).filter((e): e is [string, string] => e[1] !== undefined));
    const served = await stdioServer({ command: entry.command, args, env: childEnv }, join(dir, 'project'));
    try {
      const { tools } = await served.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['chunk_document', 'list_formats', 'parse_document']);
      expect(textOf(await callTool(served.client, 'parse_document', { path: 'report.docx' }))).toContain(
        'Revenue grew **strongly** in *Q3*',
      );
      const outside = await callTool(served.client, 'parse_document', { path: join(dir, 'project', 'doc.pdf') });
      expect(outside.isError).toBe(true);
    } finally {
      await served.close();
    }
  }, 120_000);
});

/** The README examples run in the installed project, by file name: [name, code]. */
function readmeExamples(): [string, string][] {
  return [
    ['ocr', readmeBlock('OCR and workers', 'ts', 0)],
    ['pii-fast', readmeBlock('PII redaction', 'ts', 0)],
  ];
}
