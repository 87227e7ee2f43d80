import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { extname, join, relative } from 'node:path';
import { ACCEPTED_EXTENSIONS, type Engine, type ParseOptions, toDocmillError } from '@docmill/core';
import { readFileInput } from '@docmill/core/platform/node';

export interface FolderSummary {
  files: number;
  pages: number;
  errors: number;
  seconds: number;
}

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await listFiles(p)));
    else if ((ACCEPTED_EXTENSIONS as readonly string[]).includes(extname(e.name).toLowerCase())) out.push(p);
  }
  return out;
}

function bar(done: number, total: number, width = 28): string {
  const filled = total ? Math.round((done / total) * width) : width;
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`;
}

/**
 * Converts every accepted file under `src` into `out/<same path>.md`, with progress on stderr;
 * `concurrency` documents are in flight at once (one per worker of a pooled engine).
 */
export async function convertFolder(
  engine: Engine,
  src: string,
  out: string,
  options: ParseOptions,
  concurrency = 1,
): Promise<FolderSummary> {
  const files = await listFiles(src);
  const t0 = performance.now();
  let pages = 0;
  let errors = 0;
  let done = 0;
  let next = 0;
  const tty = process.stderr.isTTY;
  const one = async (file: string): Promise<void> => {
    const rel = relative(src, file);
    try {
      const { bytes, hints } = await readFileInput(file);
      const data = await engine.parse(bytes, options, hints);
      pages += typeof data.metadata.numPages === 'number' ? data.metadata.numPages : 1;
      const target = join(out, `${rel}.md`);
      await mkdir(join(target, '..'), { recursive: true });
      await writeFile(target, data.markdown ?? '');
    } catch (err) {
      errors++;
      const e = toDocmillError(err);
      process.stderr.write(`${tty ? '\r\x1b[K' : ''}error ${rel}: ${e.status} ${e.code} ${e.message}\n`);
    }
    done++;
    process.stderr.write(
      tty ? `\r${bar(done, files.length)} ${rel.slice(0, 40)}\x1b[K` : `${bar(done, files.length)} ${rel}\n`,
    );
  };
  const lane = async (): Promise<void> => {
    while (next < files.length) await one(files[next++] as string);
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, lane));
  if (tty) process.stderr.write('\n');
  const seconds = (performance.now() - t0) / 1000;
  const s = await stat(out).catch(() => undefined);
  if (!s) await mkdir(out, { recursive: true });
  return { files: files.length, pages, errors, seconds };
}
