import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { ACCEPTED_EXTENSIONS, DocmillError } from '@docmill/core';

export interface FolderLimits {
  /** Descend into sub-folders (default true). Symbolic links to folders are never followed. */
  recursive?: boolean;
  /** Most documents one folder may hold (default 10,000): more is refused, not cut silently. */
  maxFiles?: number;
  /** Deepest sub-folder level read (default 32). */
  maxDepth?: number;
}

const accepted = new Set<string>(ACCEPTED_EXTENSIONS);

/** The file has an extension docmill reads (`.pdf`, `.DOCX`, …). */
export const isDocumentName = (name: string) => accepted.has(extname(name).toLowerCase());

/**
 * Every document under `dir` (by extension), in a stable order (names sorted, a folder's files
 * before its sub-folders), so the same folder always loads the same way.
 */
export async function documentFiles(dir: string, limits: FolderLimits = {}): Promise<string[]> {
  const maxFiles = limits.maxFiles ?? 10_000;
  const maxDepth = limits.maxDepth ?? 32;
  const out: string[] = [];
  const walk = async (d: string, depth: number) => {
    const entries: Dirent[] = (await readdir(d, { withFileTypes: true })).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    const folders: string[] = [];
    for (const e of entries) {
      const p = join(d, e.name);
      if (e.isDirectory()) folders.push(p);
      else if (isDocumentName(e.name) && (e.isFile() || (e.isSymbolicLink() && (await isFile(p))))) {
        if (out.length >= maxFiles) {
          throw new DocmillError(400, 'BAD_REQUEST', `${dir} holds more than ${maxFiles} documents (maxFiles).`);
        }
        out.push(p);
      }
    }
    if (limits.recursive === false || depth >= maxDepth) return;
    for (const f of folders) await walk(f, depth + 1);
  };
  await walk(dir, 0);
  return out;
}

const isFile = (p: string) =>
  stat(p).then(
    (s) => s.isFile(),
    () => false,
  );
