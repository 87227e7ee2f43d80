/**
 * `pnpm bench [suite…]`: runs tinybench suites and writes `benchmarks/results/<suite>.md` and `.svg`,
 * each figure beside the peers measured in the same run.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { Bench } from 'tinybench';
import type { Suite } from './harness.ts';
import { projectRoot } from './harness.ts';
import { markdownReport, type Row, svgChart } from './report.ts';
import { suites } from './suites/index.ts';

function peakRss(suite: string, tool: string): number | null {
  try {
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', join(projectRoot, 'benchmarks/rss.ts'), suite, tool],
      {
        encoding: 'utf8',
        cwd: projectRoot,
        stdio: ['ignore', 'pipe', 'inherit'],
        maxBuffer: 1 << 20,
      },
    );
    const m = /peakRssMB=(\d+(\.\d+)?)/.exec(out);
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

async function runSuite(suite: Suite): Promise<void> {
  const inputs = await suite.inputs();
  if (inputs.length === 0) {
    console.log(`[${suite.name}] corpus not found: skipped`);
    return;
  }
  const tools = await suite.tools();
  const totalUnits = inputs.reduce((a, b) => a + b.units, 0);
  const scale = suite.unit === 'MB' ? 1 / (1024 * 1024) : 1;
  const errors = new Map<string, string>();
  const pass = (tool: (typeof tools)[number]) => async () => {
    for (const input of inputs) {
      try {
        await tool.run(input);
      } catch (err) {
        // A tool that cannot read one file still gets timed on the rest; the report says so.
        if (!errors.has(tool.name)) errors.set(tool.name, `${input.name}: ${(err as Error).message?.slice(0, 80)}`);
      }
    }
  };
  console.log(
    `[${suite.name}] ${inputs.length} files, ${(totalUnits * scale).toFixed(suite.unit === 'MB' ? 2 : 0)} ${suite.unit}, ${tools.length} tools`,
  );
  // Each round is one tinybench run with every tool once, in an order rotated per round: a tool that
  // always ran last would pay for the heap and caches the others left behind (measured on pdf: the
  // same pdf.js text extraction inside unpdf ran at 0.81x when it came fourth).
  const rounds = suite.iterations ?? 3;
  const samples = new Map<string, number[]>(tools.map((t) => [t.name, []]));
  for (let r = 0; r < rounds; r++) {
    const bench = new Bench({ iterations: 1, time: 0, warmupIterations: r === 0 ? 1 : 0, warmupTime: 0 });
    for (let k = 0; k < tools.length; k++) {
      const tool = tools[(k + r) % tools.length] as (typeof tools)[number];
      bench.add(tool.name, pass(tool));
    }
    await bench.run();
    for (const t of bench.tasks) {
      const res = t.result;
      if (res && (res.state === 'completed' || res.state === 'aborted-with-statistics'))
        samples.get(t.name)?.push(res.period);
    }
  }
  const rate = (name: string): { rate: number | null; rme: number | null } => {
    const ms = samples.get(name) ?? [];
    if (!ms.length) return { rate: null, rme: null };
    const mean = ms.reduce((a, b) => a + b, 0) / ms.length;
    const sd = ms.length > 1 ? Math.sqrt(ms.reduce((a, b) => a + (b - mean) ** 2, 0) / (ms.length - 1)) : 0;
    // Relative margin of error at ~95% for the mean of the rounds.
    const rme = ms.length > 1 ? ((1.96 * sd) / Math.sqrt(ms.length) / mean) * 100 : null;
    return { rate: (totalUnits * scale) / (mean / 1000), rme };
  };
  const rss = new Map<string, number | null>();
  for (const t of tools) await t.close?.();
  if (suite.rssInput) for (const t of tools) if (!t.skipRss) rss.set(t.name, peakRss(suite.name, t.name));
  const base = rate(suite.baseline).rate;
  const baseRss = rss.get(suite.baseline) ?? null;
  const rows: Row[] = tools.map((t) => {
    const { rate: r, rme } = rate(t.name);
    const peak = rss.get(t.name) ?? null;
    const row: Row = {
      tool: t.name,
      ours: t.ours,
      rate: r,
      ratio: r !== null && base ? r / base : null,
      rme,
      peakRssMB: peak,
      rssRatio: peak !== null && baseRss ? peak / baseRss : null,
    };
    const e = errors.get(t.name);
    if (e) row.error = e;
    return row;
  });
  const report = {
    suite: suite.name,
    title: suite.title,
    unit: suite.unit,
    baseline: suite.baseline,
    corpus: `${inputs.length} files, ${(totalUnits * scale).toFixed(suite.unit === 'MB' ? 2 : 0)} ${suite.unit}${suite.rssInput ? `; RSS on ${suite.rssInput}` : ''}`,
    rows,
    when: new Date().toISOString().slice(0, 10),
    machine: `Node ${process.version}, ${cpus().length} cores`,
  };
  const md = markdownReport(report);
  writeFileSync(join(projectRoot, 'benchmarks/results', `${suite.name}.md`), md);
  writeFileSync(join(projectRoot, 'benchmarks/results', `${suite.name}.svg`), svgChart(report));
  console.log(md);
}

const wanted = process.argv.slice(2);
for (const s of suites) {
  if (wanted.length && !wanted.includes(s.name)) continue;
  await runSuite(s);
}
