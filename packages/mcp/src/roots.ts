import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DocmillError } from '@docmill/core';

/** A folder files may be read from: as given (absolute) and with its symbolic links resolved. */
export interface Root {
  path: string;
  real: string;
}

/** `child` is `parent` or lies below it (both absolute and normalized). */
export function isInside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

const refused = (message: string) => new DocmillError(400, 'BAD_REQUEST', message);

/** Resolves the operator's `--root` folders; a root that does not exist is a configuration error. */
export async function resolveRoots(dirs: readonly string[], cwd: string): Promise<Root[]> {
  const roots: Root[] = [];
  for (const dir of dirs) {
    const path = resolve(cwd, dir);
    let real: string;
    try {
      real = await realpath(path);
    } catch {
      throw new Error(`The root folder ${path} does not exist.`);
    }
    roots.push({ path, real });
  }
  return roots;
}

/**
 * The roots a client announces (`file://` URIs) narrow the operator's roots and never widen them:
 * the result holds each client root that lies inside an operator root, and each operator root that
 * lies inside a client root. A client therefore cannot reach a file the operator did not allow.
 */
export async function narrowRoots(operator: readonly Root[], clientUris: readonly string[]): Promise<Root[]> {
  const client: Root[] = [];
  for (const uri of clientUris) {
    if (!uri.startsWith('file:')) continue;
    let path: string;
    try {
      path = fileURLToPath(uri);
    } catch {
      continue;
    }
    // A client root that does not exist holds no files.
    const real = await realpath(path).catch(() => undefined);
    if (real) client.push({ path, real });
  }
  const out: Root[] = [];
  for (const c of client) if (operator.some((o) => isInside(c.real, o.real))) out.push(c);
  for (const o of operator) if (client.some((c) => isInside(o.real, c.real)) && !out.includes(o)) out.push(o);
  return out;
}

const describeRoots = (roots: readonly Root[]) =>
  roots.length ? roots.map((r) => r.path).join(', ') : '(none: the client announced roots outside the server’s)';

/**
 * Where `requested` may be read from, or a 400 saying why not. A relative path is taken from the
 * first root. The path must lie inside a root as written (checked before the file system is asked
 * anything, so nothing is learnt about files outside) and again once every symbolic link on it is
 * resolved (so a link inside a root cannot lead out of it).
 */
export async function locate(requested: string, roots: readonly Root[]): Promise<string> {
  const first = roots[0];
  if (!first) throw refused(`No file can be read: ${describeRoots(roots)}.`);
  if (requested.includes('\0')) throw refused('The path contains a NUL character.');
  const path = resolve(first.path, requested);
  if (!roots.some((r) => isInside(path, r.path) || isInside(path, r.real))) {
    throw refused(`${requested} is outside the folders this server may read: ${describeRoots(roots)}.`);
  }
  let real: string;
  try {
    real = await realpath(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw refused(
      code === 'ENOENT' || code === 'ENOTDIR' ? `No such file: ${requested}` : `Cannot read ${requested} (${code}).`,
    );
  }
  if (!roots.some((r) => isInside(real, r.real))) {
    throw refused(
      `${requested} leads through a symbolic link to a file outside the folders this server may read: ${describeRoots(roots)}.`,
    );
  }
  return real;
}
