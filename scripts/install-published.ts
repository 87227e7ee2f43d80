import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildPackagesAsync } from './build.ts';
import { pnpmCommand, publishablePackages, workspaceRoot } from './packages.ts';
import { type OfflineRegistry, startOfflineRegistry } from './test/registry.ts';

const exec = promisify(execFile);
/** Where any request that is not for the local registry goes: nowhere, so it fails the install. */
const DEAD = 'http://127.0.0.1:9';

/** A child env without the npm_config_* pnpm exports to scripts, so npm sees only our config. */
export function cleanEnv(home: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(npm_|pnpm_|INIT_CWD$|NODE_OPTIONS$)/i.test(k)),
  );
  return { ...env, HOME: home, npm_config_update_notifier: 'false' };
}

/**
 * The env npm runs with in the installed project: `cleanEnv` plus proxies that lead nowhere, so
 * the only host npm (or an install script honouring the proxy variables) reaches is the local
 * registry, which the project's own `.npmrc` names.
 */
export function offlineEnv(home: string): NodeJS.ProcessEnv {
  return {
    ...cleanEnv(home),
    npm_config_proxy: DEAD,
    npm_config_https_proxy: DEAD,
    npm_config_noproxy: '127.0.0.1',
  };
}

/**
 * LlamaIndex's `@llamaindex/env` has optional peers (gpt-tokenizer ^2.5, @huggingface/transformers
 * ^3.5) older than the versions docmill installs (core's gpt-tokenizer, pii's transformers). From
 * the npm registry, npm then nests those older versions under it; the offline registry holds only
 * what the workspace installed, so the consumer points those optional peers (which the docmill
 * reader never loads) at docmill's versions instead.
 */
function llamaIndexPeers(packages: ReturnType<typeof publishablePackages>): Record<string, Record<string, string>> {
  const dep = (pkg: string, name: string) => {
    const manifest = packages.find((p) => p.name === pkg)?.manifest;
    const ranges = { ...(manifest?.peerDependencies as object), ...(manifest?.dependencies as object) } as Record<
      string,
      string
    >;
    return ranges[name];
  };
  const peers: Record<string, string> = {};
  const tokenizer = dep('@docmill/core', 'gpt-tokenizer');
  const transformers = dep('@docmill/pii', '@huggingface/transformers');
  if (tokenizer) peers['gpt-tokenizer'] = tokenizer;
  if (transformers) peers['@huggingface/transformers'] = transformers;
  return { '@llamaindex/env': peers };
}

export interface PublishedInstall {
  /** An npm project (`<dir>/project`) with every publishable package installed from its tarball. */
  project: string;
  /** The packed tarballs (`<dir>/tarballs`). */
  tarballs: string;
  registry: OfflineRegistry;
}

export interface InstallOptions {
  /** Stops the build, the packs and npm (their processes are killed) and rejects. */
  signal?: AbortSignal;
}

/**
 * Builds and packs every publishable package into `dir`, then installs the tarballs with npm into a
 * fresh project, resolving third-party dependencies from an offline registry that serves only what
 * the workspace has installed. The install is a plain `npm install` of every tarball at once,
 * install scripts and optional dependencies included: what a user gets from `npm i` with only the
 * npm registry reachable. The project's `.npmrc` points at that registry, so later `npm i` commands
 * run in the project (with `offlineEnv`) resolve from it too. The caller closes the registry.
 */
export async function installPublished(dir: string, opts: InstallOptions = {}): Promise<PublishedInstall> {
  const { signal } = opts;
  await buildPackagesAsync({ signal });
  const tarballs = join(dir, 'tarballs');
  const project = join(dir, 'project');
  const deps = join(dir, 'deps');
  for (const d of [tarballs, project, deps]) mkdirSync(d, { recursive: true });
  const packages = publishablePackages();
  const [cmd, pre] = pnpmCommand();
  for (const p of packages) await exec(cmd, [...pre, 'pack', '--pack-destination', tarballs], { cwd: p.dir, signal });
  // Our packages' dependencies, and @types/node for the TypeScript consumers a test sets up.
  const registry = await startOfflineRegistry(
    [...packages.map((p) => p.dir), join(workspaceRoot, 'node_modules/@types/node')],
    packages.map((p) => p.name),
    deps,
  );
  try {
    writeFileSync(
      join(project, 'package.json'),
      `${JSON.stringify({ name: 'consumer', private: true, type: 'module', overrides: llamaIndexPeers(packages) })}\n`,
    );
    writeFileSync(
      join(project, '.npmrc'),
      `registry=${registry.url}\ncache=${join(dir, 'npm-cache')}\naudit=false\nfund=false\n`,
    );
    const tgz = readdirSync(tarballs).map((f) => join(tarballs, f));
    await exec('npm', ['install', ...tgz], { cwd: project, env: offlineEnv(dir), signal, maxBuffer: 16 << 20 });
  } catch (err) {
    await registry.close();
    throw err;
  }
  return { project, tarballs, registry };
}
