import { execFile } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';

interface Installed {
  manifest: Record<string, unknown> & { name: string; version: string };
  dir: string;
}

/** Where Node would find `dep` when required from the package in `dir` (pnpm's layout included). */
function resolveInstalled(dir: string, dep: string): string | undefined {
  for (let d = dir; ; d = dirname(d)) {
    const candidate = basename(d) === 'node_modules' ? join(d, dep) : join(d, 'node_modules', dep);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(d) === d) return undefined;
  }
}

/** Every third-party package reachable from `roots` in the workspace install, by name and version. */
function collectInstalled(roots: string[], own: Set<string>): Map<string, Map<string, Installed>> {
  const byName = new Map<string, Map<string, Installed>>();
  const seen = new Set<string>();
  const visit = (dir: string) => {
    const real = realpathSync(dir);
    if (seen.has(real)) return;
    seen.add(real);
    const manifest = JSON.parse(readFileSync(join(real, 'package.json'), 'utf8')) as Installed['manifest'];
    if (!own.has(manifest.name)) {
      const versions = byName.get(manifest.name) ?? new Map<string, Installed>();
      versions.set(manifest.version, { manifest, dir: real });
      byName.set(manifest.name, versions);
    }
    const deps = {
      ...(manifest.peerDependencies as object),
      ...(manifest.optionalDependencies as object),
      ...(manifest.dependencies as object),
    };
    for (const dep of Object.keys(deps)) {
      if (own.has(dep)) continue;
      // Optional and platform packages that were never installed stay unknown: npm skips them.
      const found = resolveInstalled(real, dep);
      if (found) visit(found);
    }
  };
  for (const root of roots) visit(root);
  return byName;
}

export interface OfflineRegistry {
  url: string;
  /** name@version of every tarball npm downloaded. */
  downloaded: string[];
  /** Package names npm asked for that the workspace does not have. */
  missing: string[];
  close(): Promise<void>;
}

/**
 * A registry on 127.0.0.1 that serves only packages already installed in the workspace, packed on
 * request from their installed folders. npm resolves versions against it exactly as it would
 * against the public registry, so the install proves the tarballs' dependency ranges hold, and
 * nothing leaves the machine.
 */
export async function startOfflineRegistry(roots: string[], own: string[], tarDir: string): Promise<OfflineRegistry> {
  const installed = collectInstalled(roots, new Set(own));
  const downloaded: string[] = [];
  const missing: string[] = [];
  const packing = new Map<string, Promise<string>>();
  const pack = (pkg: Installed) => {
    const key = `${pkg.manifest.name}@${pkg.manifest.version}`;
    let p = packing.get(key);
    if (!p) {
      const file = join(tarDir, `${key.replace(/[@/]/g, '_')}.tar`);
      // npm tarballs hold the package under `package/`; pnpm's store hard-links identical files,
      // and npm drops hard-link entries, so each one is stored as a plain file. Not gzipped: npm
      // reads plain tar too, and compressing 40 MB of pdf.js for a loopback transfer is wasted CPU.
      p = promisify(execFile)('tar', [
        '-cf',
        file,
        '--hard-dereference',
        '-C',
        pkg.dir,
        '--transform',
        's,^\\.,package,',
        '.',
      ]).then(() => file);
      packing.set(key, p);
    }
    return p;
  };
  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/').slice(1);
    const tar = /^-\/tar\/(.+)\/([^/]+)\.tgz$/.exec(path);
    if (tar) {
      const pkg = installed.get(tar[1] as string)?.get(tar[2] as string);
      if (!pkg) return void res.writeHead(404).end();
      downloaded.push(`${pkg.manifest.name}@${pkg.manifest.version}`);
      pack(pkg)
        .then((file) => readFile(file))
        .then(
          (bytes) => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(bytes),
          () => res.writeHead(500).end(),
        );
      return;
    }
    const versions = installed.get(path);
    if (!versions) {
      missing.push(path);
      return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    }
    const base = `http://${req.headers.host}/-/tar/${path}`;
    const entries = [...versions.values()].map((v) => [
      v.manifest.version,
      { ...v.manifest, dist: { tarball: `${base}/${v.manifest.version}.tgz` } },
    ]);
    const latest = [...versions.keys()].sort(compareVersions).at(-1);
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ name: path, 'dist-tags': { latest }, versions: Object.fromEntries(entries) }));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    downloaded,
    missing,
    // Packs still running when the install was stopped finish first, so nothing writes into the
    // folder the caller removes next.
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
      await Promise.allSettled(packing.values());
    },
  };
}

function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).map(Number);
  const pb = b.split(/[.-]/).map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}
