/**
 * Wall-clock A/B of docmill's fast PDF parse in two checkouts, in one process: each file is parsed
 * by one engine and then the other, round after round (the first round warms up and is not
 * counted). A sanity check beside `instructions.ts`: on a shared machine the order alone moves the
 * ratio by several per cent, so run it both ways round. With `--apart <pairs>` each checkout runs
 * in a process of its own instead (a warm-up round, then the counted rounds), A and B alternating
 * `pairs` times: no engine shares a heap or compiled code with the other, and pdfbench's own
 * measure (a warm-up pass, then rounds) is what each process repeats.
 *
 * Usage: npx tsx benchmarks/ab-wall.ts <checkout A> <checkout B> [rounds, default 4] [--apart <pairs>]
 * Prints pages/s of each and B ÷ A; in one process, the first checkout named parses each file first.
 */
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { readCorpus } from './harness.ts';
import { pageCount } from './suites/pdf.ts';

const args = process.argv.slice(2);
const apartAt = args.indexOf('--apart');
const apart = apartAt >= 0 ? Number(args.splice(apartAt, 2)[1]) : 0;
const oneAt = args.indexOf('--one');
const one = oneAt >= 0;
if (one) args.splice(oneAt, 1);
const [a, b, rounds = '4'] = args;
if (a === undefined || (b === undefined && !one) || !(apart >= 0))
  throw new Error('usage: ab-wall.ts <checkout A> <checkout B> [rounds] [--apart <pairs>]');
type Core = typeof import('@docmill/core');
const engineOf = async (root: string) =>
  ((await import(join(resolve(root), 'packages/core/src/index.ts'))) as Core).createEngine({});
const inputs = readCorpus('pdfbench', ['.pdf']);
let pages = 0;
for (const f of inputs) pages += await pageCount(f.bytes);
const options = { timeout: 300000, parsers: [{ type: 'pdf' as const, mode: 'fast' as const }] };

if (one) {
  // A child of `--apart`: one checkout's counted seconds, on stdout alone.
  const engine = await engineOf(a);
  let counted = 0;
  for (let r = 0; r < Number(rounds); r++) {
    const t0 = performance.now();
    for (const f of inputs)
      await engine.parse(new Uint8Array(f.bytes), options, { filename: f.name }).catch(() => undefined);
    if (r) counted += (performance.now() - t0) / 1000;
  }
  await engine.close();
  console.log(counted);
  process.exit(0);
}
if (apart > 0) {
  const self = resolve(import.meta.dirname, 'ab-wall.ts');
  const runOne = (root: string): number =>
    Number(execFileSync(process.execPath, ['--import', 'tsx', self, root, '--one', rounds], { encoding: 'utf8' }));
  const totals = [0, 0];
  for (let p = 0; p < apart; p++) {
    const pair = [a, b as string].map(runOne);
    console.log(`pair ${p + 1}: A ${pair[0]?.toFixed(2)} s, B ${pair[1]?.toFixed(2)} s`);
    for (const k of [0, 1]) totals[k] = (totals[k] as number) + (pair[k] as number);
  }
  const [ta, tb] = totals as [number, number];
  const counted = pages * (Number(rounds) - 1) * apart;
  console.log(
    `apart: A ${(counted / ta).toFixed(1)} pages/s, B ${(counted / tb).toFixed(1)} pages/s, B ÷ A ${(ta / tb).toFixed(4)}`,
  );
  process.exit(0);
}
const engines = [await engineOf(a), await engineOf(b as string)];

const seconds = [0, 0];
for (let r = 0; r < Number(rounds); r++) {
  const round = [0, 0];
  for (const f of inputs) {
    for (const [k, engine] of engines.entries()) {
      const t0 = performance.now();
      await engine.parse(new Uint8Array(f.bytes), options, { filename: f.name }).catch(() => undefined);
      round[k] = (round[k] as number) + (performance.now() - t0) / 1000;
    }
  }
  const rate = round.map((s) => (pages / s).toFixed(1));
  console.log(`round ${r + 1}${r ? '' : ' (warm-up)'}: A ${rate[0]} pages/s, B ${rate[1]} pages/s`);
  if (r) for (const k of [0, 1]) seconds[k] = (seconds[k] as number) + (round[k] as number);
}
const [sa, sb] = seconds as [number, number];
console.log(
  `counted rounds: A ${((pages * (Number(rounds) - 1)) / sa).toFixed(1)} pages/s, B ${((pages * (Number(rounds) - 1)) / sb).toFixed(1)} pages/s, B ÷ A ${(sa / sb).toFixed(4)}`,
);
for (const e of engines) await e.close();
