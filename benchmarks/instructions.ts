/**
 * Compares the CPU cost of docmill's fast PDF parse in two checkouts by counting instructions
 * (valgrind's callgrind), file by file over pdfbench.
 *
 * Why instructions, not seconds: on a shared 2-core machine two wall-clock runs of the same code
 * differ by ±7 % with their order alone (PDFium's wasm page loading varies between engines), which
 * hides any change smaller than that. Instruction counts of a single-threaded, predictable Node
 * (V8 compiles and collects on the main thread; seeds fixed) do not depend on the load. Totals
 * repeat (two runs of one checkout over the 58 files' first two pages: within 0.6 %); a small file's
 * count does not (up to 1.7×: collection and compilation land on whichever parse triggers them, and
 * a stopped clock did not change that), so read totals and big files. `--runs 2` shows the spread.
 * They do not see cache or memory effects.
 *
 * Usage: npx tsx benchmarks/instructions.ts <checkout A> <checkout B> [corpus folder, default pdfbench]
 *          [--runs n] [--cache dir] [--jobs n] [--max-pages n] [--only regexp]
 * Each checkout needs its node_modules. Prints one row per file and the B ÷ A ratios of pages per
 * instruction: over all pages (the big files dominate) and the geometric mean of per-file ratios.
 * A run of the whole pdfbench takes over 10 CPU minutes under callgrind: `--max-pages` parses only
 * each file's first pages (the two longest files are half of all pages), and with `--cache` the
 * counts of a checkout with no local changes are kept under its commit and not counted again.
 * `--only` counts the files whose names match, to follow one file's cost while changing it.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { corpusRoot, readCorpus } from './harness.ts';
import { pageCount } from './suites/pdf.ts';

/** Instructions per parse, in input order, from one callgrind run over all inputs. */
async function countInstructions(root: string, files: string[], maxPages: number): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), 'docmill-cg-'));
  try {
    const child = spawn(
      'valgrind',
      [
        '--tool=callgrind',
        '--dump-before=uv_fs_fsync',
        '--dump-instr=no',
        '--dump-line=no',
        `--callgrind-out-file=${join(dir, 'cg')}`,
        'node',
        // V8 compiles and collects on this thread, and sizes its heap by allocation, not by timing:
        // with its default heuristics a parse's count moved by up to a third between two runs.
        '--single-threaded',
        '--predictable',
        '--predictable-gc-schedule',
        '--hash-seed=1',
        '--random-seed=1',
        '--import',
        'tsx',
        join(import.meta.dirname, 'instructions-child.ts'),
        root,
        String(maxPages),
        ...files,
      ],
      { cwd: import.meta.dirname, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    const status = await new Promise<number | null>((done) => child.on('close', done));
    if (status !== 0) throw new Error(`callgrind on ${root} failed: ${stderr}`);
    // A parse cut short counts what it did before the cut: such a count is no parse's cost.
    const outcomes = stdout.trim().split('\n');
    const cut = outcomes.findIndex((o) => /timed out|timeout|aborted/i.test(o));
    if (cut >= 0) throw new Error(`${files[cut]} was cut short under callgrind: ${outcomes[cut]}`);
    // Dump 1 is start-up; dump k + 1 ends with the k-th parse.
    const total = (n: number): number => {
      const text = readFileSync(join(dir, `cg.${n}`), 'utf8');
      const m = /^totals: (\d+)/m.exec(text);
      if (!m) throw new Error(`no totals in dump ${n}`);
      return Number(m[1]);
    };
    const dumps = readdirSync(dir).filter((n) => /^cg\.\d+$/.test(n)).length;
    if (dumps !== files.length + 1) throw new Error(`${dumps} dumps for ${files.length} files`);
    return files.map((_, i) => total(i + 2));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `countInstructions`, kept in `cache` under the checkout's commit when it has no local changes. */
async function cachedCount(
  root: string,
  files: string[],
  maxPages: number,
  run: number,
  cache: string | undefined,
): Promise<number[]> {
  const git = (...a: string[]): string => execFileSync('git', ['-C', root, ...a], { encoding: 'utf8' }).trim();
  const clean = cache !== undefined && git('status', '--porcelain', '--untracked-files=no') === '';
  const set = createHash('sha1').update(files.join('\n')).digest('hex').slice(0, 8);
  const key = clean ? join(cache, `${git('rev-parse', 'HEAD')}-${set}-${maxPages}-${run}.json`) : undefined;
  if (key && existsSync(key)) return JSON.parse(readFileSync(key, 'utf8')) as number[];
  const counts = await countInstructions(root, files, maxPages);
  if (key && cache) {
    mkdirSync(cache, { recursive: true });
    writeFileSync(key, JSON.stringify(counts));
  }
  console.error(`${root} run ${run}: ${counts.reduce((s, x) => s + x, 0)} instructions`);
  return counts;
}

const geomean = (xs: number[]): number => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);
const sum = (xs: number[]): number => xs.reduce((s, x) => s + x, 0);

const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const runs = runsAt >= 0 ? Number(args.splice(runsAt, 2)[1]) : 1;
const jobsAt = args.indexOf('--jobs');
const jobs = jobsAt >= 0 ? Number(args.splice(jobsAt, 2)[1]) : 1;
const maxAt = args.indexOf('--max-pages');
const maxPages = maxAt >= 0 ? Number(args.splice(maxAt, 2)[1]) : 0;
const cacheAt = args.indexOf('--cache');
const cache = cacheAt >= 0 ? resolve(args.splice(cacheAt, 2)[1] as string) : undefined;
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? new RegExp(args.splice(onlyAt, 2)[1] as string) : undefined;
const [a, b, folder = 'pdfbench'] = args;
if (a === undefined || b === undefined)
  throw new Error('usage: instructions.ts <checkout A> <checkout B> [corpus folder]');
const inputs = readCorpus(folder, ['.pdf']).filter((f) => !only || only.test(f.name));
if (inputs.length === 0) throw new Error(`no PDF in ${folder} matches ${only}`);
const files = inputs.map((f) => join(corpusRoot, folder, f.name));
const pages = (await Promise.all(inputs.map((f) => pageCount(f.bytes)))).map((n) =>
  maxPages ? Math.min(n, maxPages) : n,
);

// Counts do not depend on the machine's load, so runs may share it (`--jobs`, default one at a time).
const tasks = Array.from(
  { length: 2 * runs },
  (_, k) => () => cachedCount(resolve(k % 2 ? b : a), files, maxPages, (k >> 1) + 1, cache),
);
const results: number[][] = [];
let next = 0;
const worker = async (): Promise<void> => {
  while (next < tasks.length) {
    const k = next++;
    results[k] = await (tasks[k] as () => Promise<number[]>)();
  }
};
await Promise.all(Array.from({ length: jobs }, worker));
const counts = { a: results.filter((_, k) => k % 2 === 0), b: results.filter((_, k) => k % 2 === 1) };
const [ia, ib] = [counts.a[0] as number[], counts.b[0] as number[]];

const row = (cells: (string | number)[]): string => `| ${cells.join(' | ')} |`;
const mega = (n: number): string => (n / 1e6).toFixed(1);
console.log(row(['file', 'pages', 'A Minstr', 'B Minstr', 'B ÷ A pages/instr']));
console.log(row(['---', '---', '---', '---', '---']));
inputs.forEach((f, i) => {
  console.log(
    row([f.name, pages[i] ?? 0, mega(ia[i] ?? 0), mega(ib[i] ?? 0), ((ia[i] ?? 0) / (ib[i] ?? 1)).toFixed(4)]),
  );
});
const perFile = ia.map((x, i) => x / (ib[i] ?? 1));
console.log(`\npages ${sum(pages)}; A ${mega(sum(ia))} M, B ${mega(sum(ib))} M instructions`);
console.log(
  `B ÷ A pages per instruction: over all pages ${(sum(ia) / sum(ib)).toFixed(4)}, geomean of files ${geomean(perFile).toFixed(4)}`,
);
// Repeat runs of the same checkout should agree; their spread bounds what the ratios can resolve.
for (const [name, rs] of Object.entries(counts)) {
  for (let r = 1; r < rs.length; r++) {
    const rerun = rs[r] as number[];
    const first = rs[0] as number[];
    const worst = Math.max(...rerun.map((x, i) => Math.abs(x / (first[i] ?? 1) - 1)));
    console.log(
      `${name} run ${r + 1} ÷ run 1: total ${(sum(rerun) / sum(first)).toFixed(5)}, worst file ${(worst * 100).toFixed(3)} %`,
    );
  }
}
