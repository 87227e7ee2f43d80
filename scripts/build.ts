import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { publishablePackages, workspaceRoot } from './packages.ts';

/**
 * Builds every publishable package to `dist/` with `tsc -b` over their tsconfig.build.json files in
 * one run: project references order the packages and make a dependent compile against its
 * dependency's emitted `.d.ts` instead of its sources.
 */
export function buildPackages(opts: { clean?: boolean } = {}): void {
  const projects = publishablePackages().map((p) => {
    const config = join(p.dir, 'tsconfig.build.json');
    if (!existsSync(config)) throw new Error(`${p.name} is publishable but has no tsconfig.build.json`);
    if (opts.clean) rmSync(join(p.dir, 'dist'), { recursive: true, force: true });
    return config;
  });
  const tsc = createRequire(join(workspaceRoot, 'package.json')).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-b', ...projects], { stdio: 'inherit' });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  buildPackages({ clean: process.argv.includes('--clean') });
}
