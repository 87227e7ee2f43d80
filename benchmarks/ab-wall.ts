/**
 * Wall-clock A/B of docmill's fast PDF parse in two checkouts, in one process: each file is parsed
 * by one engine and then the other, round after round (the first round warms up and is not
 * counted). A sanity check beside `instructions.ts`: on a shared machine the order alone moves the
 * ratio by several per cent, so run it both ways round.
 *
 * Usage: npx tsx benchmarks/ab-wall.ts <checkout A> <checkout B> [rounds, default 4]
 * Prints pages/s of each and B ÷ A; the first checkout named parses each file first.
 */
import { join, resolve } from 'node:path';
import { readCorpus } from './harness.ts';
import { pageCount } from './suites/pdf.ts';

const [a, b, rounds = '4'] = process.argv.slice(2);
if (a === undefined || b === undefined) throw new Error('usage: ab-wall.ts <checkout A> <checkout B> [rounds]');
type Core = typeof import('@docmill/core');
const engineOf = async (root: string) =>
  ((await import(join(resolve(root), 'packages/core/src/index.ts'))) as Core).createEngine({});
const engines = [await engineOf(a), await engineOf(b)];
const inputs = readCorpus('pdfbench', ['.pdf']);
let pages = 0;
for (const f of inputs) pages += await pageCount(f.bytes);
const options = { timeout: 300000, parsers: [{ type: 'pdf' as const, mode: 'fast' as const }] };

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
