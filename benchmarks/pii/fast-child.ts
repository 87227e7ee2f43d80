/**
 * Times docmill's `fast` mode alone, in a process of its own: only core's PII heuristics are
 * loaded (no peers, no model worker), so the process's CPU time is the work of one core running
 * the heuristics on the calling thread. Run by run.ts as
 * `fast-child.ts <labelled|heldout|corpus> <warmup> <rounds>`; prints one JSON line of per-round
 * CPU and wall milliseconds.
 */
import { spanFinder } from '../../packages/core/src/stages/pii/find.ts';
import { BUCKETS } from './score.ts';
import { megabytes, type TextSet, texts } from './texts.ts';

export interface ChildTimes {
  mb: number;
  cpuMs: number[];
  wallMs: number[];
}

const [set = 'labelled', warmup = '3', rounds = '5'] = process.argv.slice(2);
const input = texts(set as TextSet);
const fast = spanFinder({ mode: 'fast', entities: [...BUCKETS], replaceStyle: 'tag' }, undefined);

const result: ChildTimes = { mb: megabytes(input), cpuMs: [], wallMs: [] };
for (let w = 0; w < Number(warmup); w++) await fast(input);
for (let r = 0; r < Number(rounds); r++) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await fast(input);
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  result.cpuMs.push((c.user + c.system) / 1000);
  result.wallMs.push(wall);
}
process.stdout.write(`${JSON.stringify(result)}\n`);
