#!/usr/bin/env node
import { stat } from 'node:fs/promises';
import { createEngine, DocmillError, type Engine, toDocmillError } from '@docmill/core';
import { readFileInput } from '@docmill/core/platform/node';
import { parseCli, UsageError, usage } from './args.ts';
import { convertFolder } from './folder.ts';

/**
 * The OCR stage is always there, so `auto` (the default) reads scanned pages and `ocr` reads every
 * page. With --workers each document is parsed, OCR included, in its own worker thread.
 */
async function makeEngine(workers: number | undefined): Promise<Engine> {
  const { createOcrStage, OCR_STAGE_URL } = await import('@docmill/ocr');
  if (workers === undefined) return createEngine({ stages: [createOcrStage()] });
  const { createPooledEngine } = await import('@docmill/workers');
  return createPooledEngine({ workers, stages: [{ url: OCR_STAGE_URL }] });
}

/** Exit codes: 0 ok, 1 the request was at fault (4xx), 2 anything else. */
function fail(err: unknown): never {
  const e = err instanceof UsageError ? new DocmillError(400, 'BAD_REQUEST', err.message) : toDocmillError(err);
  process.stderr.write(`${JSON.stringify(e.toJSON())}\n`);
  process.exit(e.status >= 400 && e.status < 500 ? 1 : 2);
}

async function main(argv: string[]): Promise<void> {
  const cmd = parseCli(argv);
  if (cmd.help || !cmd.command) {
    process.stdout.write(`${usage}\n`);
    return;
  }
  if (cmd.command !== 'parse') throw new UsageError(`Unknown command "${cmd.command}".\n${usage}`);
  if (!cmd.target) throw new UsageError(`Missing file.\n${usage}`);
  const engine = await makeEngine(cmd.workers);
  try {
    const st = await stat(cmd.target).catch(() => undefined);
    if (!st) throw new DocmillError(400, 'BAD_REQUEST', `No such file or folder: ${cmd.target}`);
    if (st.isDirectory()) {
      if (!cmd.out) throw new UsageError('Converting a folder needs --out <dir>.');
      const s = await convertFolder(engine, cmd.target, cmd.out, cmd.options, cmd.workers ?? 1);
      const rate = s.seconds > 0 ? (s.pages / s.seconds).toFixed(1) : '-';
      process.stderr.write(
        `files: ${s.files}  pages: ${s.pages}  errors: ${s.errors}  time: ${s.seconds.toFixed(1)} s  pages/s: ${rate}\n`,
      );
      if (s.errors) process.exitCode = 1;
      return;
    }
    const { bytes, hints } = await readFileInput(cmd.target);
    const data = await engine.parse(bytes, cmd.options, hints);
    if (cmd.json) process.stdout.write(`${JSON.stringify({ success: true, data }, null, 2)}\n`);
    else process.stdout.write(data.markdown ?? '');
  } finally {
    await engine.close();
  }
}

main(process.argv.slice(2)).then(() => {
  // pdf.js and worker pools may keep handles open; the CLI is done once output is written.
  process.stdout.write('', () => process.exit(process.exitCode ?? 0));
}, fail);
