/**
 * Which docmill the office benchmark measures: by default core's `tsc` build (`packages/core/dist`,
 * what an npm user runs), brought up to date here once per run (child processes inherit the mark);
 * with `BENCH_OFFICE_CORE=src`, its TypeScript source through tsx, whose esbuild output wraps named
 * closures (`__name`) and ran the XLSX set 5.8 % slower. Imported before the engine is loaded.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '../harness.ts';

export const CORE_BUILD: 'src' | 'dist' = process.env.BENCH_OFFICE_CORE === 'src' ? 'src' : 'dist';

if (CORE_BUILD === 'dist' && !process.env.BENCH_OFFICE_CORE_BUILT) {
  execFileSync(
    process.execPath,
    [
      join(projectRoot, 'node_modules/typescript/bin/tsc'),
      '-b',
      join(projectRoot, 'packages/core/tsconfig.build.json'),
    ],
    { cwd: projectRoot, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  process.env.BENCH_OFFICE_CORE_BUILT = '1';
}
