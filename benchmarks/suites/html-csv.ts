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

export const csvSuite: Suite = {
  name: 'csv',
  title: 'CSV → Markdown table, MB/s',
  unit: 'MB',
  baseline: 'naive split',
  iterations: 20,
  async inputs() {
    return asInputs([...readCorpus('docling/csv/sources', ['.csv']), ...readCorpus('markitdown', ['.csv'])]);
  },
  async tools() {
    const dec = new TextDecoder();
    return [
      docmillTool('docmill'),
      { name: 'naive split', ours: false, run: async (i) => naiveCsv(dec.decode(i.bytes)) },
    ];
  },
};
