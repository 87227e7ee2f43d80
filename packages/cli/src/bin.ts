#!/usr/bin/env node
import { callerDir, main } from './main.ts';

main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: callerDir(process.env, process.cwd()),
}).then(
  (code) => {
    // pdf.js and worker pools may keep handles open; the CLI is done once output is flushed.
    process.stdout.write('', () => process.exit(code));
  },
  (err: unknown) => {
    process.stderr.write(`docmill: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(2);
  },
);
