/**
 * The parse `timeout` for a test whose subject is not the timeout: the contract's maximum. The
 * 30 s default is a production bound, and a shared 2-core CI machine under load parses the
 * 619-page novel (pdf.js) in 30 s and more, ten times its idle time: such a test would fail with a
 * 408 that says nothing about what it checks. (Test-level bounds are vitest.config.ts's.)
 */
export const NO_DEADLINE = { timeout: 300_000 } as const;
