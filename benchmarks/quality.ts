/**
 * `pnpm quality`: conversion quality against the corpus ground truth, per format, with the same
 * metrics the tests use (word-level text similarity, table neighbour-cell F1, heading F1).
 * Writes `benchmarks/results/quality.md`. Speed lives in `run.ts`; this is about correctness.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine, type ParseOptions, type PdfBackendName } from '@docmill/core';
import {
  headingF1,
  mean,
  tableNeighbourF1,
  textSimilarity,
  withoutSlideAdditions,
} from '../packages/core/test/helpers/metrics.ts';
import { corpusRoot, projectRoot } from './harness.ts';

interface Group {
  label: string;
  folder: string;
  exts: string[];
  /** Applied to our Markdown before scoring (what the ground truth leaves out by convention). */
  adjust?: (md: string) => string;
  /** Parse options other than the defaults (PDF fast mode). */
  options?: ParseOptions;
  /** An engine with another PDF backend. */
  pdfBackend?: PdfBackendName;
}

const groups: Group[] = [
  { label: 'pdf', folder: 'docling/pdf/sources', exts: ['.pdf'] },
  {
    label: 'pdf, fast mode',
    folder: 'docling/pdf/sources',
    exts: ['.pdf'],
    options: { parsers: [{ type: 'pdf', mode: 'fast' }] },
  },
  { label: 'pdf, pdf.js backend', folder: 'docling/pdf/sources', exts: ['.pdf'], pdfBackend: 'pdfjs' },
  { label: 'docx', folder: 'docling/docx/sources', exts: ['.docx'] },
  { label: 'pptx', folder: 'docling/pptx/sources', exts: ['.pptx'] },
  { label: 'xlsx/xlsm', folder: 'docling/xlsx/sources', exts: ['.xlsx', '.xlsm'] },
  { label: 'xls', folder: 'docling/xls/sources', exts: ['.xls'] },
  { label: 'odt', folder: 'docling/odf/sources', exts: ['.odt'] },
  { label: 'ods', folder: 'docling/odf/sources', exts: ['.ods'] },
  { label: 'odp', folder: 'docling/odf/sources', exts: ['.odp'] },
  {
    label: 'pptx, notes and Slide N out',
    folder: 'docling/pptx/sources',
    exts: ['.pptx'],
    adjust: withoutSlideAdditions,
  },
  { label: 'odp, notes and Slide N out', folder: 'docling/odf/sources', exts: ['.odp'], adjust: withoutSlideAdditions },
  { label: 'doc', folder: 'docling/doc/sources', exts: ['.doc'] },
  { label: 'ppt', folder: 'docling/ppt/sources', exts: ['.ppt'] },
  { label: 'epub', folder: 'docling/epub/sources', exts: ['.epub'] },
  { label: 'html', folder: 'docling/html/sources', exts: ['.html'] },
  { label: 'csv', folder: 'docling/csv/sources', exts: ['.csv'] },
];

const fmt = (v: number | null) => (v === null ? '—' : v.toFixed(3));

async function main(): Promise<void> {
  if (!existsSync(corpusRoot)) {
    console.log(`corpus not found at ${corpusRoot}: nothing to score`);
    return;
  }
  const engine = createEngine();
  const lines = [
    '## Conversion quality against the corpus ground truth',
    '',
    `${new Date().toISOString().slice(0, 10)}, Node ${process.version}, default options. Ground truth: Docling's reviewed`,
    'output (`docling/<fmt>/groundtruth`). Text: word-level 2·LCS/(|a|+|b|) after stripping Markdown; tables:',
    "F1 over each cell's right and lower neighbours; headings: F1 over heading texts, levels ignored.",
    'Slide decks are scored twice: as output, and without the speaker notes and `## Slide N` headings the',
    'issue asks for and the ground truth does not have.',
    '',
    '| format | files | text | tables | headings | errors |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const g of groups) {
    const dir = join(corpusRoot, g.folder);
    if (!existsSync(dir)) continue;
    const text: number[] = [];
    const tables: number[] = [];
    const headings: number[] = [];
    let errors = 0;
    const names = readdirSync(dir)
      .filter((n) => g.exts.some((e) => n.toLowerCase().endsWith(e)))
      .sort();
    for (const name of names) {
      const truthPath = [`${name}.md`, `${name.replace(/\.[^.]+$/, '')}.md`]
        .map((f) => join(dir, '..', 'groundtruth', f))
        .find(existsSync);
      if (!truthPath) continue;
      const truth = readFileSync(truthPath, 'utf8');
      let md = '';
      try {
        const use = g.pdfBackend ? createEngine({ pdf: { backend: g.pdfBackend } }) : engine;
        md =
          (await use.parse(new Uint8Array(readFileSync(join(dir, name))), g.options ?? {}, { filename: name }))
            .markdown ?? '';
      } catch {
        errors++;
      }
      if (g.adjust) md = g.adjust(md);
      text.push(textSimilarity(md, truth));
      const t = tableNeighbourF1(md, truth);
      if (t !== null) tables.push(t);
      const h = headingF1(md, truth);
      if (h !== null) headings.push(h);
    }
    if (!text.length) continue;
    const avg = (xs: number[]) => (xs.length ? mean(xs) : null);
    lines.push(
      `| ${g.label} | ${text.length} | ${fmt(avg(text))} | ${fmt(avg(tables))} | ${fmt(avg(headings))} | ${errors} |`,
    );
    console.log(lines[lines.length - 1]);
  }
  await engine.close();
  writeFileSync(join(projectRoot, 'benchmarks/results/quality.md'), `${lines.join('\n')}\n`);
}

await main();
