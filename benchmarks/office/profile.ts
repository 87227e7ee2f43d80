/**
 * `tsx benchmarks/office/profile.ts [set…]`: where docmill's CPU goes on each office set. Samples
 * warm passes with V8's profiler (in-process, through the inspector) and sorts each sample's own
 * time into phases by the script it ran in (core's tsc build unless BENCH_OFFICE_CORE=src, see core-build.ts). The printed shares are of the samples that were not idle.
 */
import { Session } from 'node:inspector/promises';
import { officeSets, officeTools } from './sets.ts';

const REPS = Number(process.env.BENCH_OFFICE_PROFILE_REPS ?? 10);
/** Passes before sampling (env BENCH_OFFICE_PROFILE_WARM): V8 optimises over many calls (see run.ts). */
const WARM = Math.max(1, Number(process.env.BENCH_OFFICE_PROFILE_WARM ?? 1));

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

/** Phase of one sampled frame, first match wins. */
const PHASES: [string, (fn: string, url: string) => boolean][] = [
  ['idle', (fn) => fn === '(idle)'],
  ['GC', (fn) => fn === '(garbage collector)'],
  ['XML parsing in fast-xml-parser', (_, url) => url.includes('fast-xml-parser')],
  ['XML reading (util/xml-reader.ts)', (_, url) => /\/util\/xml-reader\.[jt]s/.test(url)],
  ['XML helpers: navigation, sections (util/xml.ts)', (_, url) => /\/util\/xml\.[jt]s/.test(url)],
  ['unzip: jszip/pako', (_, url) => /\/(jszip|pako|setimmediate|lie|immediate)\//.test(url)],
  [
    'unzip: zip reader and zlib (util/zip*.ts, node:zlib, fflate)',
    (fn, url) =>
      /\/util\/zip[^/]*\.[jt]s|\/platform\/inflate\.[jt]s|node:zlib|node:internal\/streams|\/fflate\//.test(url) ||
      /zlib|inflate|^writeSync$/i.test(fn),
  ],
  ['SheetJS', (_, url) => /\/@e965\/xlsx\//.test(url)],
  ['XLSX reader (adapters/sheet/xlsx*)', (_, url) => /\/adapters\/sheet\/xlsx[^/]*\.[jt]s/.test(url)],
  ['UTF-8 decoding', (fn) => /decode|TextDecoder/i.test(fn)],
  ['program (V8 and native, unattributed)', (fn) => fn === '(program)'],
  ['our adapters, tree, rendering, detection, other', () => true],
];

/**
 * How many of the busiest frames to list under the phase table (env BENCH_OFFICE_PROFILE_TOP); by
 * script rather than by function with BENCH_OFFICE_PROFILE_BY_FILE=1.
 */
const TOP = Number(process.env.BENCH_OFFICE_PROFILE_TOP ?? 0);

function shares(profile: Profile): { counts: Map<string, number>; frames: Map<string, number> } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const counts = new Map<string, number>();
  const frames = new Map<string, number>();
  for (const id of profile.samples) {
    const f = (byId.get(id) as ProfileNode).callFrame;
    const phase = (PHASES.find(([, test]) => test(f.functionName, f.url)) as [string, unknown])[0];
    counts.set(phase, (counts.get(phase) ?? 0) + 1);
    const where = f.url.replace(/^.*\/(node_modules|src|dist)\//, '');
    const key = process.env.BENCH_OFFICE_PROFILE_BY_FILE
      ? where || f.functionName
      : `${f.functionName || '(anonymous)'} ${where}`;
    frames.set(key, (frames.get(key) ?? 0) + 1);
  }
  return { counts, frames };
}

const wanted = process.argv.slice(2);
const tool = officeTools().docmill;
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });
for (const set of officeSets()) {
  if (wanted.length && !wanted.includes(set.name)) continue;
  // One file of the set only (env BENCH_OFFICE_PROFILE_FILE, part of its name).
  const only = process.env.BENCH_OFFICE_PROFILE_FILE;
  if (only) set.files = set.files.filter((f) => f.name.includes(only));
  if (!set.files.length) continue;
  for (let r = 0; r < WARM; r++) for (const f of set.files) await tool(f).catch(() => undefined);
  await session.post('Profiler.start');
  for (let r = 0; r < REPS; r++) for (const f of set.files) await tool(f).catch(() => undefined);
  const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
  const { counts, frames } = shares(profile);
  const busy = [...counts].filter(([k]) => k !== 'idle').reduce((n, [, v]) => n + v, 0);
  console.log(`[${set.name}] ${busy} samples`);
  for (const [phase] of PHASES) {
    const n = counts.get(phase) ?? 0;
    if (phase !== 'idle' && n) console.log(`  ${((n / busy) * 100).toFixed(1).padStart(5)} %  ${phase}`);
  }
  const top = [...frames].sort((a, b) => b[1] - a[1]).slice(0, TOP);
  for (const [frame, n] of top) console.log(`      ${((n / busy) * 100).toFixed(1).padStart(5)} %  ${frame}`);
}
session.disconnect();
