import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildPackages } from './build.ts';
import { pnpmCommand, publishablePackages } from './packages.ts';
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
 * LlamaIndex's `@llamaindex/env` has optional peers (gpt-tokenizer ^2.5, @huggingface/transformers
 * ^3.5) older than the versions docmill installs (core's gpt-tokenizer, pii's transformers). From
 * the npm registry, npm then nests those older versions under it; the offline registry holds only
 * what the workspace installed, so the consumer points those optional peers (which the docmill
 * reader never loads) at docmill's versions instead.
 */
function llamaIndexPeers(packages: ReturnType<typeof publishablePackages>): Record<string, Record<string, string>> {
  const dep = (pkg: string, name: string) =>
    (packages.find((p) => p.name === pkg)?.manifest.dependencies as Record<string, string> | undefined)?.[name];
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

/**
 * Builds and packs every publishable package into `dir`, then installs the tarballs with npm into a
 * fresh project, resolving third-party dependencies from an offline registry that serves only what
 * the workspace has installed. The result is what a user gets from `npm install docmill`: dist
 * files and published manifests, no TypeScript loader. The caller closes the registry.
 */
export async function installPublished(dir: string): Promise<PublishedInstall> {
  buildPackages();
  const tarballs = join(dir, 'tarballs');
  const project = join(dir, 'project');
  const deps = join(dir, 'deps');
  for (const d of [tarballs, project, deps]) mkdirSync(d, { recursive: true });
  const packages = publishablePackages();
  const [cmd, pre] = pnpmCommand();
  for (const p of packages) await exec(cmd, [...pre, 'pack', '--pack-destination', tarballs], { cwd: p.dir });
  const registry = await startOfflineRegistry(
    packages.map((p) => p.dir),
    packages.map((p) => p.name),
    deps,
  );
  try {
    writeFileSync(
      join(project, 'package.json'),
      `${JSON.stringify({ name: 'consumer', private: true, type: 'module', overrides: llamaIndexPeers(packages) })}\n`,
    );
    writeFileSync(join(dir, '.npmrc'), `registry=${registry.url}\naudit=false\nfund=false\n`);
    // Optional dependencies (pdf.js's native canvas, 32 MB) are left out, as packing them would
    // double the install's time. Without it pdf.js cannot load in Node (DOMMatrix), so what is
    // installed here parses PDFs with PDFium only: no pdf.js backend and no pdf.js fallback.
    const tgz = readdirSync(tarballs).map((f) => join(tarballs, f));
    await exec(
      'npm',
      [
        'install',
        '--registry',
        registry.url,
        '--userconfig',
        join(dir, '.npmrc'),
        '--cache',
        join(dir, 'npm-cache'),
        '--ignore-scripts',
        '--omit=optional',
        ...tgz,
      ],
      {
        cwd: project,
        env: {
          ...cleanEnv(dir),
          npm_config_proxy: DEAD,
          npm_config_https_proxy: DEAD,
          npm_config_noproxy: '127.0.0.1',
        },
      },
    );
  } catch (err) {
    await registry.close();
    throw err;
  }
  return { project, tarballs, registry };
}
