import * as Comlink from 'comlink';
import { nodeEndpoint } from './node-endpoint.ts';
import type { WorkerApi } from './protocol.ts';

/** One live worker as the pool sees it, whatever the platform. */
export interface SpawnedWorker {
  api: Comlink.Remote<WorkerApi>;
  /** Calls back once if the worker dies on its own (crash, out of memory, process.exit in a task); returns an unsubscribe. */
  onCrash(cb: (reason: string) => void): () => void;
  terminate(): Promise<void>;
}

export type Spawn = () => Promise<SpawnedWorker>;

const isNode = typeof globalThis.process === 'object' && typeof globalThis.process?.versions?.node === 'string';

/**
 * The worker entry beside this module. From source (vitest, tsx) it is a .ts file, which
 * worker_threads can only run with a TypeScript loader; built, it is plain .js.
 */
function entryUrl(name: 'worker-node' | 'worker-browser'): URL {
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`./${name}${ext}`, import.meta.url);
}

export const defaultSpawn: Spawn = isNode ? spawnNode : spawnBrowser;

async function spawnNode(): Promise<SpawnedWorker> {
  const { Worker } = await import('node:worker_threads');
  const url = entryUrl('worker-node');
  const worker = new Worker(url.pathname.endsWith('.ts') ? await tsBootstrap(url) : url, {
    eval: url.pathname.endsWith('.ts'),
    // A library never writes to the console: what tasks (or tesseract's wasm) print is drained.
    stdout: true,
    stderr: true,
  });
  worker.stdout.resume();
  worker.stderr.resume();
  let terminating = false;
  const crashCbs: ((reason: string) => void)[] = [];
  let crashed = false;
  const crash = (reason: string) => {
    if (terminating || crashed) return;
    crashed = true;
    for (const cb of [...crashCbs]) cb(reason);
  };
  worker.on('error', (err) => crash(err instanceof Error ? err.message : String(err)));
  worker.on('exit', (code) => crash(`the worker exited with code ${code}`));
  const api = Comlink.wrap<WorkerApi>(nodeEndpoint(worker));
  return {
    api,
    onCrash: (cb) => subscribe(crashCbs, cb),
    async terminate() {
      terminating = true;
      api[Comlink.releaseProxy]();
      await worker.terminate();
    },
  };
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

async function spawnBrowser(): Promise<SpawnedWorker> {
  const worker = new Worker(entryUrl('worker-browser'), { type: 'module' });
  let terminating = false;
  const crashCbs: ((reason: string) => void)[] = [];
  worker.addEventListener('error', (ev) => {
    if (terminating) return;
    ev.preventDefault();
    for (const cb of [...crashCbs]) cb(ev.message || 'the worker failed');
  });
  const api = Comlink.wrap<WorkerApi>(worker);
  return {
    api,
    onCrash: (cb) => subscribe(crashCbs, cb),
    async terminate() {
      terminating = true;
      api[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}

function subscribe<T>(list: T[], cb: T): () => void {
  list.push(cb);
  return () => {
    const i = list.indexOf(cb);
    if (i >= 0) list.splice(i, 1);
  };
}
