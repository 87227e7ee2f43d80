/**
 * `pnpm bundle-sizes`: what a browser downloads, gzipped. Core is bundled as an app
 * bundler would (esbuild, ESM, code splitting, minified); the entry's own chunks are "core". Each
 * format family costs its adapter chunks beyond core, plus, in the last column, every chunk its
 * lazy imports can reach (some only on a path a browser seldom takes: PDF's pdf.js only when
 * PDFium cannot open a file). Prints Markdown.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { bundleCore } from '../packages/core/test/helpers/browser.ts';
import { projectRoot } from '../packages/core/test/helpers/corpus.ts';
import { ocrAssetFiles } from '../packages/ocr/src/assets-node.ts';
import { piiAssetFiles } from '../packages/pii/src/assets-node.ts';

const dir = mkdtempSync(join(tmpdir(), 'docmill-sizes-'));
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

/** Chunks loaded with `start`: static imports always, dynamic ones too when `lazy` is set. */
function closure(meta: Metafile, start: string, lazy: boolean): Set<string> {
  const seen = new Set<string>();
  const stack = [start];
  while (stack.length) {
    const o = stack.pop() as string;
    if (seen.has(o)) continue;
    seen.add(o);
    for (const i of meta.outputs[o]?.imports ?? []) {
      if (i.external) continue;
      if (i.kind === 'import-statement' || (lazy && i.kind === 'dynamic-import')) stack.push(i.path);
    }
  }
  return seen;
}

/**
 * A package's browser entry (and its Web Worker entry, which a bundler emits as a chunk of its
 * own) bundled as an app would, with `@docmill/core` left out: core is the table's first row, so
 * these rows are what the package adds to it. Returns [entry, static gzip, with lazy imports].
 */
async function packageRows(name: string, entries: Record<string, string>): Promise<string[][]> {
  const out = join(dir, name);
  const { metafile } = await build({
    entryPoints: Object.fromEntries(Object.values(entries).map((v, i) => [`entry${i}`, join(projectRoot, v)])),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    outdir: out,
    metafile: true,
    minify: true,
    external: ['@docmill/core'],
    logLevel: 'silent',
  });
  const gz = (o: string) => gzipSync(readFileSync(join(out, basename(o)))).length;
  const sum = (set: Iterable<string>) => [...set].filter((o) => o.endsWith('.js')).reduce((a, o) => a + gz(o), 0);
  return Object.entries(entries).map(([label, src]) => {
    const o = Object.keys(metafile.outputs).find((k) => metafile.outputs[k]?.entryPoint?.endsWith(src));
    if (!o) throw new Error(`no output for ${src}`);
    return [label, kb(sum(closure(metafile, o, false))), kb(sum(closure(metafile, o, true)))];
  });
}

try {
  const meta: Metafile = await bundleCore(dir);
  const gz = new Map<string, number>();
  for (const out of Object.keys(meta.outputs)) {
    if (!out.endsWith('.js')) continue;
    gz.set(out, gzipSync(readFileSync(join(dir, basename(out)))).length);
  }
  /** Chunks loaded with `out`: static imports always, dynamic ones too when `lazy` is set. */
  const sum = (set: Iterable<string>) => [...set].reduce((a, o) => a + (gz.get(o) ?? 0), 0);
  const entry = Object.keys(meta.outputs).find((o) => meta.outputs[o]?.entryPoint?.endsWith('core/src/index.ts'));
  if (!entry) throw new Error('no core entry in the bundle');
  const core = closure(meta, entry, false);
  const rows: string[][] = [['core (entry: detection, tree, renderers, options)', kb(sum(core)), '']];
  const families = Object.entries(meta.outputs)
    .filter(([, o]) => /core\/src\/adapters\/[\w-]+\/index\.ts$/.test(o.entryPoint ?? ''))
    .map(([out, o]) => [/adapters\/([\w-]+)\//.exec(o.entryPoint ?? '')?.[1] ?? out, out] as const)
    .sort(([a], [b]) => a.localeCompare(b));
  for (const [family, out] of families) {
    const own = (lazy: boolean) => [...closure(meta, out, lazy)].filter((o) => !core.has(o));
    rows.push([family, kb(sum(own(false))), kb(sum(own(true)))]);
  }
  // Browser bundles leave parse5 + linkedom out (pages use DOMParser); a Web Worker that parses
  // HTML installs them (`@docmill/core/html-dom`, done by @docmill/workers' browser parse task).
  rows.push(
    ...(await packageRows('html-dom', {
      'html in Web Workers (@docmill/core/html-dom: parse5 + linkedom)':
        'packages/core/src/adapters/html/dom-parse5.ts',
    })),
  );
  const wasm = gzipSync(readFileSync(join(dir, 'pdfium.wasm'))).length;
  rows.push(['pdfium.wasm (fetched on the first PDF)', '', kb(wasm)]);
  const derive = Object.keys(meta.outputs).find((o) => meta.outputs[o]?.entryPoint?.endsWith('derive/index.ts'));
  if (derive) {
    const own = (lazy: boolean) => [...closure(meta, derive, lazy)].filter((o) => !core.has(o));
    rows.push(['summary / json derivations', kb(sum(own(false))), kb(sum(own(true)))]);
  }
  // The chunker and its BPE encodings (ranks inside) load on the first request that asks for chunks.
  const chunker = Object.keys(meta.outputs).find((o) => meta.outputs[o]?.entryPoint?.endsWith('derive/chunks/run.ts'));
  if (chunker) {
    const own = (lazy: boolean) => [...closure(meta, chunker, lazy)].filter((o) => !core.has(o));
    rows.push(['chunks (the chunker; its tokenizer below)', kb(sum(own(false))), '']);
  }
  for (const name of ['o200k_base', 'cl100k_base']) {
    const enc = Object.keys(meta.outputs).find((o) =>
      meta.outputs[o]?.entryPoint?.endsWith(`gpt-tokenizer/esm/encoding/${name}.js`),
    );
    if (enc)
      rows.push([
        `chunks tokenizer ${name} (gpt-tokenizer, on the first chunks request)`,
        '',
        kb(sum([...closure(meta, enc, false)].filter((o) => !core.has(o)))),
      ]);
  }
  // PII redaction's detectors (libphonenumber-js among them) and its name lists (compromise) both load
  // on the first request that sets redactPII.
  const detectors = Object.keys(meta.outputs).find((o) =>
    meta.outputs[o]?.entryPoint?.endsWith('stages/pii/heuristics.ts'),
  );
  if (detectors) {
    const own = [...closure(meta, detectors, false)].filter((o) => !core.has(o));
    rows.push(['redactPII detectors (libphonenumber-js)', '', kb(sum(own))]);
  }
  const lexicon = Object.keys(meta.outputs).filter((o) =>
    Object.keys(meta.outputs[o]?.inputs ?? {}).some((i) => i.includes('/compromise/')),
  );
  if (lexicon.length)
    rows.push(['redactPII name lists (compromise)', '', kb(sum(lexicon.filter((o) => !core.has(o))))]);
  rows.push(
    ...(await packageRows('ocr', {
      '@docmill/ocr browser entry (stage, image decoders, worker pool; beyond core)':
        'packages/ocr/src/index.browser.ts',
      '@docmill/ocr Web Worker (OCR task, tesseract.js glue)': 'packages/ocr/src/worker-browser.ts',
    })),
  );
  // tesseract.js's own files, fetched from the app's folder by the first OCR'd page (OSD's only
  // when a page reads badly upright); the models ship gzipped and are counted as they are.
  for (const [file, path] of Object.entries(ocrAssetFiles())) {
    const bytes = readFileSync(path);
    const size = file.endsWith('.gz') ? bytes.length : gzipSync(bytes).length;
    // The legacy core and the OSD model serve orientation detection, which only a badly read page asks for.
    const when = /osd|simd\.wasm/.test(file) ? 'fetched by orientation detection' : 'fetched on the first OCR';
    rows.push([`tesseract/${file} (${when})`, '', kb(size)]);
  }
  rows.push(
    ...(await packageRows('pii', {
      '@docmill/pii browser entry (model client, worker pool; beyond core)': 'packages/pii/src/index.browser.ts',
      '@docmill/pii Web Worker (NER task, transformers.js + onnxruntime-web glue)':
        'packages/pii/src/worker-browser.ts',
    })),
  );
  // onnxruntime-web's own files, fetched from the app's folder when the model first loads.
  for (const [file, path] of Object.entries(piiAssetFiles()))
    rows.push([`onnx/${file} (fetched when the model loads)`, '', kb(gzipSync(readFileSync(path)).length)]);
  console.log('| part | gzip | with every lazy import |\n| --- | --- | --- |');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
