import { execFile, execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { publishablePackages, workspaceRoot } from './packages.ts';

/**
 * The `tsc -b` run that builds every publishable package to `dist/`, over their tsconfig.build.json
 * files in one run: project references order the packages and make a dependent compile against its
 * dependency's emitted `.d.ts` instead of its sources.
 */
function buildArgs(opts: { clean?: boolean }): string[] {
  const projects = publishablePackages().map((p) => {
    const config = join(p.dir, 'tsconfig.build.json');
    if (!existsSync(config)) throw new Error(`${p.name} is publishable but has no tsconfig.build.json`);
    if (opts.clean) rmSync(join(p.dir, 'dist'), { recursive: true, force: true });
    return config;
  });
  const tsc = createRequire(join(workspaceRoot, 'package.json')).resolve('typescript/bin/tsc');
  return [tsc, '-b', ...projects];
}

export function buildPackages(opts: { clean?: boolean } = {}): void {
  execFileSync(process.execPath, buildArgs(opts), { stdio: 'inherit' });
}

/** The same build without blocking the event loop, stopped (its tsc killed) when `signal` aborts. */
export async function buildPackagesAsync(opts: { clean?: boolean; signal?: AbortSignal } = {}): Promise<void> {
  await promisify(execFile)(process.execPath, buildArgs(opts), { signal: opts.signal, maxBuffer: 16 << 20 });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  buildPackages({ clean: process.argv.includes('--clean') });
}
