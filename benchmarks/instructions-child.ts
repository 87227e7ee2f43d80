/**
 * Child of `instructions.ts`, run under callgrind: imports the engine of one checkout, parses every
 * input once in fast mode and calls `fsync` between parses. The parent starts callgrind with
 * `--dump-before=uv_fs_fsync`, so each parse's instructions land in a dump of their own, apart from
 * start-up (module loading, PDFium's wasm compile, the warm-up parse) and from exit.
 *
 * Usage: node --single-threaded --import tsx instructions-child.ts <checkout root> <max pages, 0 for all> <pdf>...
 */
import { closeSync, fsyncSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Under callgrind a parse runs some fifty times slower than natively, and slower still on a busy
// machine: the engine's wall-clock deadline (at most five minutes) cut the longest files short, and
// their counts with them, silently. The child's clock runs a thousand times slow instead, and so do
// timers of a second or more (deadlines); shorter ones (yields to the event loop) are left as set.
const SLOW = 1000;
const realNow = Date.now;
const started = realNow();
Date.now = () => started + (realNow() - started) / SLOW;
const realSetTimeout = globalThis.setTimeout;
globalThis.setTimeout = ((fn: () => void, ms?: number, ...rest: unknown[]) =>
  realSetTimeout(fn, (ms ?? 0) >= 1000 ? Math.min((ms ?? 0) * SLOW, 2 ** 31 - 1) : ms, ...rest)) as typeof setTimeout;

const [root, max, ...files] = process.argv.slice(2);
if (root === undefined || files.length === 0)
  throw new Error('usage: instructions-child.ts <root> <max pages> <pdf>...');

const core = (await import(join(root, 'packages/core/src/index.ts'))) as typeof import('@docmill/core');
const engine = core.createEngine({});
const maxPages = Number(max) || undefined;
const options = { timeout: 300000, parsers: [{ type: 'pdf' as const, mode: 'fast' as const, maxPages }] };
const parse = async (file: string): Promise<string> => {
  try {
    const r = await engine.parse(new Uint8Array(readFileSync(file)), options, { filename: file });
    return `ok ${r.markdown?.length ?? 0}`;
  } catch (e) {
    return `error ${(e as Error).message.slice(0, 60)}`;
  }
};

const marker = openSync(join(tmpdir(), `docmill-instructions-${process.pid}`), 'w');
// The first input once, uncounted: lazily loaded modules and PDFium's first page belong to start-up.
await parse(files[0] as string);
fsyncSync(marker);
for (const file of files) {
  const outcome = await parse(file);
  fsyncSync(marker);
  process.stdout.write(`${outcome}\n`);
}
closeSync(marker);
await engine.close();
