import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/corpus.ts';

/**
 * The package README's chunks example, run exactly as printed: in a folder of its own where
 * `@docmill/core` is this package, with a Word file named as the example names it.
 */
function readmeExample(): string {
  const readme = readFileSync(join(projectRoot, 'packages/core/README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Chunks for embedding'));
  const m = /```ts\n([\s\S]*?)```/.exec(section);
  if (!m) throw new Error('the README has no ts example under "Chunks for embedding"');
  return m[1] as string;
}

describe('packages/core/README.md', () => {
  it('runs the chunks example as printed, and it type-checks', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docmill-readme-chunks-'));
    try {
      mkdirSync(join(dir, 'node_modules', '@docmill'), { recursive: true });
      symlinkSync(join(projectRoot, 'packages/core'), join(dir, 'node_modules', '@docmill', 'core'), 'dir');
      copyFileSync(join(projectRoot, 'fixtures/docx/basic.docx'), join(dir, 'handbook.docx'));
      writeFileSync(join(dir, 'example.mts'), readmeExample());
      const tsx = pathToFileURL(join(projectRoot, 'node_modules/tsx/dist/loader.mjs')).href;
      const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', tsx, 'example.mts'], {
        cwd: dir,
      });
      expect(stderr).toBe('');
      const lines = stdout.trimEnd().split('\n');
      // One line per chunk: id, tokens, heading path, offsets; then the contextualized second chunk.
      const rows = lines.filter((l) => /^c\d+ \d+ /.test(l));
      expect(rows.length).toBeGreaterThan(1);
      for (const row of rows) expect(row).toMatch(/^c\d+ \d+ .* \d+ \d+$/);
      expect(rows.some((r) => r.includes('Summary > Plans'))).toBe(true);
      expect(lines.length).toBeGreaterThan(rows.length);
      // And it type-checks under the workspace's strict settings.
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          extends: join(projectRoot, 'tsconfig.base.json'),
          compilerOptions: { typeRoots: [join(projectRoot, 'node_modules/@types')] },
          // Core's sources come with one ambient declaration (pdf.js's worker module).
          files: ['example.mts', join(projectRoot, 'packages/core/src/adapters/pdf/backend/pdfjs-worker.d.ts')],
        }),
      );
      const tsc = join(projectRoot, 'node_modules/typescript/bin/tsc');
      const checked = await promisify(execFile)(process.execPath, [tsc, '-p', 'tsconfig.json', '--noEmit'], {
        cwd: dir,
      }).catch((err: { stdout: string }) => ({ stdout: err.stdout }));
      expect(checked.stdout).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
