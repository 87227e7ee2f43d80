/**
 * `pnpm bench:ocr`: OCR throughput and accuracy, docmill against native tesseract in the same run,
 * and the CLI's folder throughput with 1 and 2 workers. Writes benchmarks/results/ocr.md.
 *
 * - Pages: every page of ../shared/corpus/docling/ocr/sources plus two scanned corpus PDFs, rendered
 *   once at 300 dpi through core's PDF backend (images decoded as the OCR stage does). Each tool
 *   reads exactly these pixels: docmill through its pool (1 and 2 workers, models loaded before
 *   timing), tesseract 5 (Debian `tesseract-ocr`, installed here when missing) from PGM files, one
 *   process per page with OMP_THREAD_LIMIT=1, so each is one core.
 * - Accuracy: word similarity (core's test metric) to the docling ground truth where it exists.
 * - Folder: `docmill parse <pdfbench> --out <tmp> --workers 1` then `--workers 2`, timed in turn.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeImage, type Gray, OCR_TASK_URL, type OcrPage, type OcrTaskInput, openRenderer } from '@docmill/ocr';
import { createPool } from '@docmill/workers';
import { Bench } from 'tinybench';
import { textSimilarity } from '../../packages/core/test/helpers/metrics.ts';
import { corpusRoot, projectRoot } from '../harness.ts';

interface Page {
  name: string;
  img: Gray;
  dpi: number;
  truth?: string;
}

function ensureTesseract(): string {
  const found = () => {
    try {
      return execFileSync('sh', ['-c', 'command -v tesseract'], { encoding: 'utf8' }).trim();
    } catch {
      return '';
    }
  };
  let bin = found();
  if (!bin && process.getuid?.() === 0) {
    console.log('installing tesseract-ocr (apt-get)…');
    execFileSync(
      'sh',
      ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tesseract-ocr'],
      {
        stdio: 'inherit',
      },
    );
    bin = found();
  }
  if (!bin)
    throw new Error(
      'native tesseract is missing and could not be installed (needs root: apt-get install tesseract-ocr)',
    );
  return bin;
}

async function loadPages(): Promise<Page[]> {
  const dir = join(corpusRoot, 'docling/ocr/sources');
  const gtDir = join(corpusRoot, 'docling/ocr/groundtruth');
  const files = readdirSync(dir)
    .sort()
    .map((f) => join(dir, f));
  files.push(
    join(corpusRoot, 'markitdown/MEDRPT-2024-PAT-3847_medical_report_scan.pdf'),
    join(corpusRoot, 'pdfbench/unstructured_pdf_table-multi-row-column-cells.pdf'),
  );
  const pages: Page[] = [];
  for (const f of files) {
    const bytes = new Uint8Array(readFileSync(f));
    const base = f.split('/').pop() as string;
    const gt = join(gtDir, base.replace(/\.[^.]+$/, '.md'));
    const truth = existsSync(gt) ? readFileSync(gt, 'utf8') : undefined;
    if (base.endsWith('.pdf')) {
      const r = await openRenderer(bytes);
      for (let n = 1; n <= r.pageCount(); n++) {
        pages.push({ name: `${base}#${n}`, img: await r.render(n, 300), dpi: 300, ...(truth ? { truth } : {}) });
      }
      await r.close();
    } else {
      const mime = base.endsWith('.png') ? 'image/png' : 'image/jpeg';
      for (const [i, fr] of decodeImage(bytes, mime, 100e6).entries()) {
        if (fr.image.kind === 'gray') pages.push({ name: `${base}#${i + 1}`, img: fr.image, dpi: fr.dpi ?? 0 });
      }
    }
  }
  return pages;
}

const pageText = (p: OcrPage): string => p.lines.map((l) => l.words.map((w) => w.text).join(' ')).join('\n');

async function docmill(workers: number, pages: Page[]) {
  const pool = createPool({ size: workers, tasks: { ocr: OCR_TASK_URL } });
  const input = (p: Page): OcrTaskInput => ({
    // The task cleans its raster in place and the buffer moves to the worker: every run gets a copy.
    image: { kind: 'gray', width: p.img.width, height: p.img.height, data: p.img.data.slice() },
    dpi: p.dpi,
    languages: ['eng'],
    orientation: true,
  });
  const runPage = (p: Page) => {
    const i = input(p);
    return pool.run<OcrPage>('ocr', i, { transfer: [(i.image as Gray).data.buffer as ArrayBuffer] });
  };
  // Models load once per worker, outside the timing.
  await Promise.all(Array.from({ length: workers }, (_, k) => runPage(pages[k % pages.length] as Page)));
  const texts = new Map<string, string>();
  return {
    name: `docmill, ${workers} worker${workers > 1 ? 's' : ''}`,
    texts,
    async run() {
      const out = await Promise.all(pages.map((p) => runPage(p)));
      for (const [i, r] of out.entries()) texts.set((pages[i] as Page).name, pageText(r.value));
    },
    close: () => pool.close(),
  };
}

function native(bin: string, pages: Page[]) {
  const dir = mkdtempSync(join(tmpdir(), 'docmill-bench-ocr-'));
  const files = pages.map((p, i) => {
    const f = join(dir, `${i}.pgm`);
    const head = Buffer.from(`P5\n${p.img.width} ${p.img.height}\n255\n`);
    writeFileSync(
      f,
      Buffer.concat([head, Buffer.from(p.img.data.buffer, p.img.data.byteOffset, p.img.data.byteLength)]),
    );
    return f;
  });
  const texts = new Map<string, string>();
  const one = (f: string, dpi: number) =>
    new Promise<string>((resolve, reject) => {
      const args = [f, '-', ...(dpi ? ['--dpi', String(dpi)] : [])];
      const child = spawn(bin, args, {
        env: { ...process.env, OMP_THREAD_LIMIT: '1' },
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      let s = '';
      child.stdout.on('data', (d) => {
        s += d;
      });
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve(s) : reject(new Error(`tesseract exited ${code}`))));
    });
  return {
    name: 'tesseract 5 (native, 1 thread)',
    texts,
    async run() {
      for (const [i, f] of files.entries()) texts.set((pages[i] as Page).name, await one(f, (pages[i] as Page).dpi));
    },
    close: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

function cliFolder(workers: number, out: string): number {
  const t0 = performance.now();
  execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      join(projectRoot, 'packages/cli/src/bin.ts'),
      'parse',
      join(corpusRoot, 'pdfbench'),
      '--out',
      out,
      '--workers',
      String(workers),
    ],
    { cwd: projectRoot, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 24 },
  );
  return (performance.now() - t0) / 1000;
}

async function main(): Promise<void> {
  if (!existsSync(join(corpusRoot, 'docling/ocr/sources'))) {
    console.log('[ocr] corpus not found: skipped');
    return;
  }
  const bin = ensureTesseract();
  const version = execFileSync(bin, ['--version'], { encoding: 'utf8' }).split('\n')[0];
  const pages = await loadPages();
  console.log(`[ocr] ${pages.length} pages rendered at 300 dpi; ${version}`);
  const tools = [await docmill(1, pages), await docmill(2, pages), native(bin, pages)];
  const bench = new Bench({ iterations: 1, time: 0, warmupIterations: 0, warmupTime: 0 });
  for (const t of tools) bench.add(t.name, () => t.run());
  await bench.run();
  const rows = bench.tasks.map((task, i) => {
    const t = tools[i] as (typeof tools)[number];
    const ms = task.result && 'latency' in task.result ? task.result.latency.mean : Number.NaN;
    const sims = pages.filter((p) => p.truth).map((p) => textSimilarity(t.texts.get(p.name) ?? '', p.truth as string));
    return {
      name: t.name,
      seconds: ms / 1000,
      pps: pages.length / (ms / 1000),
      sim: sims.reduce((a, b) => a + b, 0) / (sims.length || 1),
    };
  });
  for (const t of tools) await t.close();
  const agree = (() => {
    const a = tools[0]?.texts;
    const b = tools[2]?.texts;
    const s = pages.map((p) => textSimilarity(a?.get(p.name) ?? '', b?.get(p.name) ?? ''));
    return s.reduce((x, y) => x + y, 0) / s.length;
  })();

  const out = mkdtempSync(join(tmpdir(), 'docmill-bench-folder-'));
  const w1 = cliFolder(1, join(out, 'w1'));
  const w2 = cliFolder(2, join(out, 'w2'));
  rmSync(out, { recursive: true, force: true });

  const nativeRow = rows[2] as (typeof rows)[number];
  const lines = [
    '# OCR',
    '',
    `${pages.length} pages (docling/ocr sources, MEDRPT scan, pdfbench table scan) rendered once at 300 dpi; every tool reads the same pixels. ${cpus().length} cores, ${cpus()[0]?.model ?? ''}; ${version}. Generated by \`pnpm bench:ocr\` (${new Date().toISOString().slice(0, 10)}).`,
    '',
    '| tool | seconds | pages/s | × native per core | similarity to ground truth |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...rows.map((r, i) => {
      const cores = i === 1 ? 2 : 1;
      return `| ${r.name} | ${r.seconds.toFixed(1)} | ${r.pps.toFixed(3)} | ${(r.pps / cores / nativeRow.pps).toFixed(2)} | ${r.sim.toFixed(3)} |`;
    }),
    '',
    `Similarity is the mean over the ${pages.filter((p) => p.truth).length} pages with ground truth (rotated ones included: docmill turns them upright, native tesseract reads them as given). docmill and native agree at ${agree.toFixed(3)} mean word similarity over all pages.`,
    '',
    '## Folder throughput',
    '',
    '| command | seconds | × --workers 1 |',
    '| --- | ---: | ---: |',
    `| \`docmill parse pdfbench --out … --workers 1\` | ${w1.toFixed(1)} | 1.00 |`,
    `| \`docmill parse pdfbench --out … --workers 2\` | ${w2.toFixed(1)} | ${(w1 / w2).toFixed(2)} |`,
    '',
  ];
  const file = join(projectRoot, 'benchmarks/results/ocr.md');
  writeFileSync(file, lines.join('\n'));
  console.log(lines.join('\n'));
}

await main();
