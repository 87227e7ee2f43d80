import mammoth from 'mammoth';
import { parseOffice } from 'officeparser';
import TurndownService from 'turndown';
import { type BenchInput, readCorpus, type Suite } from '../harness.ts';
import { docmillTool } from './docmill.ts';

const asInputs = (files: { name: string; bytes: Uint8Array }[]): BenchInput[] =>
  files.map((f) => ({ ...f, units: f.bytes.byteLength }));

const officeparser = {
  name: 'officeparser',
  ours: false,
  async run(i: BenchInput) {
    const ast = (await parseOffice(Buffer.from(i.bytes))) as unknown as { toText?: () => string };
    return ast.toText?.();
  },
};

export const docxSuite: Suite = {
  name: 'docx',
  title: 'DOCX → Markdown, MB/s',
  unit: 'MB',
  baseline: 'mammoth+turndown',
  iterations: 3,
  async inputs() {
    return asInputs([...readCorpus('docling/docx/sources', ['.docx']), ...readCorpus('markitdown', ['.docx'])]);
  },
  async tools() {
    const td = new TurndownService({ headingStyle: 'atx' });
    return [
      docmillTool('docmill'),
      {
        name: 'mammoth+turndown',
        ours: false,
        run: async (i) => td.turndown((await mammoth.convertToHtml({ buffer: Buffer.from(i.bytes) })).value),
      },
      officeparser,
    ];
  },
};

export const xlsxSuite: Suite = {
  name: 'xlsx',
  title: 'XLSX → Markdown, MB/s',
  unit: 'MB',
  baseline: 'officeparser',
  iterations: 3,
  async inputs() {
    return asInputs([
      ...readCorpus('docling/xlsx/sources', ['.xlsx', '.xlsm']),
      ...readCorpus('markitdown', ['.xlsx']),
    ]);
  },
  async tools() {
    return [docmillTool('docmill'), officeparser];
  },
};
