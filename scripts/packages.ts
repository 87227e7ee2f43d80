import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The workspace root (this file lives in `<root>/scripts`). */
export const workspaceRoot = resolve(import.meta.dirname, '..');

export interface PublishablePackage {
  name: string;
  version: string;
  dir: string;
  manifest: Record<string, unknown>;
}

/**
 * Every package under `packages/` that is not private: these are built and packed. Discovered,
 * not listed, so a package added on another branch is picked up at merge time.
 */
export function publishablePackages(root = workspaceRoot): PublishablePackage[] {
  const base = join(root, 'packages');
  const out: PublishablePackage[] = [];
  for (const entry of readdirSync(base, { withFileTypes: true })) {
    const file = join(base, entry.name, 'package.json');
    if (!entry.isDirectory() || !existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    if (manifest.private === true) continue;
    out.push({ name: String(manifest.name), version: String(manifest.version), dir: join(base, entry.name), manifest });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** The caller's pnpm when run under a pnpm script, else the same pinned one the README uses. */
export function pnpmCommand(): [string, string[]] {
  const viaScript = process.env.npm_execpath;
  if (viaScript && /pnpm\.c?js$/.test(viaScript)) return [process.execPath, [viaScript]];
  return ['npx', ['-y', 'pnpm@10']];
}
