import { nodeEndpoint } from './node-endpoint.ts';
import { type SpawnedWorker, wrapWorker } from './spawn.ts';

/**
 * The worker entry beside this module. From source (vitest, tsx) it is a .ts file, which
 * worker_threads can only run with a TypeScript loader; built, it is plain .js.
 */
function entryUrl(): URL {
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`./worker-node${ext}`, import.meta.url);
}

/** A pool worker under worker_threads. */
export async function spawnNode(): Promise<SpawnedWorker> {
  const { Worker } = await import('node:worker_threads');
  const url = entryUrl();
  const worker = new Worker(url.pathname.endsWith('.ts') ? await tsBootstrap(url) : url, {
    eval: url.pathname.endsWith('.ts'),
    // A library never writes to the console: what tasks (or tesseract's wasm) print is drained.
    stdout: true,
    stderr: true,
  });
  worker.stdout.resume();
  worker.stderr.resume();
  const w = wrapWorker(nodeEndpoint(worker), () => worker.terminate());
  worker.on('error', (err) => w.crash(err instanceof Error ? err.message : String(err)));
  worker.on('exit', (code) => w.crash(`the worker exited with code ${code}`));
  return w.spawned;
}

/**
 * Source checkouts run the .ts entry. `--import tsx` in a worker's execArgv does not reach the
 * worker's own loader on Node 20, so a one-line bootstrap registers tsx's hooks in the worker and
 * then imports the entry.
 */
async function tsBootstrap(entry: URL): Promise<string> {
  const { createRequire } = await import('node:module');
  const { pathToFileURL } = await import('node:url');
  // require.resolve would pick tsx's CommonJS build; the worker needs the ESM one.
  const pkgPath = createRequire(import.meta.url).resolve('tsx/package.json');
  const { readFile } = await import('node:fs/promises');
  const pkg = JSON.parse(await readFile(pkgPath, 'utf8')) as {
    exports: Record<string, { import: { default: string } }>;
  };
  const api = new URL(pkg.exports['./esm/api']?.import.default ?? './dist/esm/api/index.mjs', pathToFileURL(pkgPath))
    .href;
  return `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); });`;
}
