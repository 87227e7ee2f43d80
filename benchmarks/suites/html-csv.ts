import TurndownService from 'turndown';
import { type BenchInput, readCorpus, type Suite } from '../harness.ts';
import { docmillTool } from './docmill.ts';

const asInputs = (files: { name: string; bytes: Uint8Array }[]): BenchInput[] =>
  files.map((f) => ({ ...f, units: f.bytes.byteLength }));

export const htmlSuite: Suite = {
  name: 'html',
  title: 'HTML → Markdown, MB/s',
  unit: 'MB',
  baseline: 'turndown',
  iterations: 5,
  async inputs() {
    return asInputs([
      ...readCorpus('docling/html/sources', ['.html', '.htm', '.xhtml']),
      ...readCorpus('markitdown', ['.html']),
    ]);
  },
  async tools() {
    const td = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
    const dec = new TextDecoder();
    return [
      docmillTool('docmill'),
      { name: 'turndown', ours: false, run: async (i) => td.turndown(dec.decode(i.bytes)) },
    ];
  },
};

/** Naive split-based CSV → pipe table: the floor any real CSV reader is measured against. */
function naiveCsv(text: string): string {
  return text
    .split(/\r?\n/)
    .filter(Boolean)
    .map((l) => `| ${l.split(',').join(' | ')} |`)
    .join('\n');
}

function generatedCsv(rows: number): Uint8Array {
  const lines = ['id,customer,amount,date,note'];
  for (let i = 0; i < rows; i++) {
    lines.push(
      `${i},Customer ${i % 977},${((i * 7919) % 100000) / 100},2024-${(i % 12) + 1}-${(i % 28) + 1},"note, ${i}"`,
    );
  }
  return new TextEncoder().encode(`${lines.join('\n')}\n`);
}

export const csvSuite: Suite = {
  name: 'csv',
  title: 'CSV → Markdown table, MB/s',
  unit: 'MB',
  baseline: 'naive split',
  iterations: 5,
  async inputs() {
    const corpus = [...readCorpus('docling/csv/sources', ['.csv']), ...readCorpus('markitdown', ['.csv'])];
    // The corpus files are a few KB each, which measures per-call overhead only; a generated
    // 50,000-row export (quoted fields, embedded commas) measures throughput.
    return corpus.length ? asInputs([...corpus, { name: 'generated-50k.csv', bytes: generatedCsv(50_000) }]) : [];
  },
  async tools() {
    const dec = new TextDecoder();
    return [
      docmillTool('docmill'),
      { name: 'naive split', ours: false, run: async (i) => naiveCsv(dec.decode(i.bytes)) },
    ];
  },
};
