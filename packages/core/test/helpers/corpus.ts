import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
/** Project root (three levels above packages/core/test/helpers). */
export const projectRoot = resolve(here, '../../../..');
/** The shared corpus lives beside the project; absent on clones outside this workplace. */
export const corpusRoot = resolve(projectRoot, '../shared/corpus');
export const hasCorpus = existsSync(corpusRoot);
export const corpusSkipReason = `shared corpus not found at ${corpusRoot}; corpus tests skipped`;
if (!hasCorpus) console.warn(corpusSkipReason);

export const fixture = (...parts: string[]): Uint8Array =>
  new Uint8Array(readFileSync(join(projectRoot, 'fixtures', ...parts)));
export const corpusFile = (...parts: string[]): Uint8Array => new Uint8Array(readFileSync(join(corpusRoot, ...parts)));
export const corpusText = (...parts: string[]): string => readFileSync(join(corpusRoot, ...parts), 'utf8');

/** Source files of `docling/<fmt>/sources` (or any folder) with their ground truth when present. */
export function corpusPairs(folder: string, ext?: string): { name: string; path: string; truth: string | undefined }[] {
  const dir = join(corpusRoot, folder);
  if (!existsSync(dir)) return [];
  const gtDir = join(dir, '..', 'groundtruth');
  return readdirSync(dir)
    .filter((f) => !ext || f.toLowerCase().endsWith(ext))
    .sort()
    .map((name) => {
      const gt = [join(gtDir, `${name}.md`), join(gtDir, `${name.replace(/\.[^.]+$/, '')}.md`)].find(existsSync);
      return { name, path: join(dir, name), truth: gt ? readFileSync(gt, 'utf8') : undefined };
    });
}
