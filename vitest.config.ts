import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'benchmarks/test/**/*.test.ts', 'scripts/test/**/*.test.ts'],
    // Bounds that end a hung test, not timings: on a shared 2-core machine under load the heaviest
    // tests (OCR, the 619-page novel, browser builds) run ten times their idle time. A test whose
    // subject is time sets its own bound; others keep these.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
