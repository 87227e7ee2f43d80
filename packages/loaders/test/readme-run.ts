import { execFile } from 'node:child_process';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { ACCEPTED_EXTENSIONS } from '@docmill/core';
import { workspaceRoot } from '../../../scripts/packages.ts';

/**
 * Runs a README snippet exactly as printed, as a user's ES module run from the repository root.
 * The file sits in `packageDir` so that the package's own name and its dev dependencies (the
 * frameworks) resolve as they would in a project that installed them.
 */
export async function runSnippet(code: string, packageDir: string): Promise<{ stdout: string; stderr: string }> {
  const file = join(packageDir, `.readme-snippet-${process.pid}-${Date.now()}.mjs`);
  writeFileSync(file, code);
  const tsx = pathToFileURL(join(workspaceRoot, 'node_modules/tsx/dist/loader.mjs')).href;
  try {
    return await promisify(execFile)(process.execPath, ['--import', tsx, file], {
      cwd: workspaceRoot,
      maxBuffer: 16 << 20,
    });
  } finally {
    rmSync(file, { force: true });
  }
}

/** Documents under fixtures/ (by extension), listed by Node's own recursive readdir, not the loaders' walk. */
export function fixtureDocuments(): string[] {
  const exts = new Set<string>(ACCEPTED_EXTENSIONS);
  return readdirSync(join(workspaceRoot, 'fixtures'), { recursive: true, encoding: 'utf8' }).filter((f) =>
    exts.has(extname(f).toLowerCase()),
  );
}

/** The fixtures that need a password (named so by the fixture scripts): loaders skip them. */
export function encryptedFixtures(): string[] {
  return fixtureDocuments()
    .filter((f) => /password|encrypted/.test(f))
    .sort();
}
