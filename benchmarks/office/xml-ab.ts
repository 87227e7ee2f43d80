/**
 * `XML_AB_BASE=<checkout> tsx benchmarks/office/xml-ab.ts [rounds]`: the XML reader of this tree
 * against another checkout's (a throwaway `git worktree add /tmp/base <commit>`), in one process,
 * over every XML part of the office benchmark's five sets. Alternating rounds (the order flips
 * each round), CPU time of the process per pass; prints per set the median ns per character of
 * each reader and the median of the per-round ratios this/base with its quartiles. Both readers
 * must build the same tree (or throw the same message) on every part, or the run stops.
 */
import { resolve } from 'node:path';
import { DEFAULT_LIMITS } from '../../packages/core/src/limits.ts';
import { readXml } from '../../packages/core/src/util/xml-reader.ts';
import { decodeUtf8, openZip } from '../../packages/core/src/util/zip.ts';

type Read = (xml: string, maxDepth: number, what: string) => unknown;

const baseDir = process.env.XML_AB_BASE;
if (!baseDir) throw new Error('XML_AB_BASE=<checkout of the base commit> is required');
const base: Read = (await import(resolve(baseDir, 'packages/core/src/util/xml-reader.ts'))).readXml;
const rounds = Number(process.argv[2] ?? 15);
// Only the sets' file lists are needed: no build of the engine (see core-build.ts).
process.env.BENCH_OFFICE_CORE ??= 'src';
const { officeSets } = await import('./sets.ts');

const outcome = (read: Read, xml: string): string => {
  try {
    return JSON.stringify(read(xml, 256, 'part'));
  } catch (err) {
    return `error: ${(err as Error).message}`;
  }
};

const sets: { name: string; parts: string[]; chars: number }[] = [];
for (const set of officeSets()) {
  const parts: string[] = [];
  for (const file of set.files) {
    const zip = await openZip(file.bytes, DEFAULT_LIMITS);
    for (const name of zip.names) {
      if (!/\.(xml|rels)$/i.test(name)) continue;
      const bytes = await zip.bytes(name);
      if (!bytes) continue;
      const xml = decodeUtf8(bytes);
      const tree = outcome(readXml, xml);
      if (tree !== outcome(base, xml)) throw new Error(`${set.name} ${file.name}!${name}: readers differ`);
      // A part both refuse (an encrypted one) is not timed.
      if (!tree.startsWith('error: ')) parts.push(xml);
    }
  }
  sets.push({ name: set.name, parts, chars: parts.reduce((n, p) => n + p.length, 0) });
}

function pass(read: Read, parts: string[], reps: number): number {
  const t = process.cpuUsage();
  for (let r = 0; r < reps; r++) for (const p of parts) read(p, 256, 'part');
  const d = process.cpuUsage(t);
  return (d.user + d.system) / reps;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const quartiles = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return [s[Math.floor(s.length / 4)], s[Math.floor((3 * s.length) / 4)]] as number[];
};

for (const set of sets) {
  // Passes of ≈ 100 ms, warmed up for a few seconds first.
  const once = pass(readXml, set.parts, 1) || 1;
  const reps = Math.max(1, Math.round(100_000 / once));
  for (let w = 0; w < 6; w++) {
    pass(readXml, set.parts, reps);
    pass(base, set.parts, reps);
  }
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let r = 0; r < rounds; r++) {
    if (r % 2) {
      ours.push(pass(readXml, set.parts, reps));
      theirs.push(pass(base, set.parts, reps));
    } else {
      theirs.push(pass(base, set.parts, reps));
      ours.push(pass(readXml, set.parts, reps));
    }
  }
  const ratios = ours.map((o, k) => o / (theirs[k] as number));
  const [q1, q3] = quartiles(ratios);
  const ns = (us: number) => ((us * 1000) / set.chars).toFixed(1);
  console.log(
    `${set.name}: ${set.parts.length} parts, ${set.chars} chars; ns/char this ${ns(median(ours))}, base ${ns(
      median(theirs),
    )}; this/base ${median(ratios).toFixed(3)} (${q1?.toFixed(3)}–${q3?.toFixed(3)})`,
  );
}
