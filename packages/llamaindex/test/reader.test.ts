import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Document, FileReader, MetadataMode } from '@llamaindex/core/schema';
import { FILE_EXT_TO_READER, SimpleDirectoryReader } from '@llamaindex/readers/directory';
import { beforeAll, describe, expect, it } from 'vitest';
import { readmeBlock } from '../../../scripts/readme.ts';
import { encryptedFixtures, fixtureDocuments, runSnippet } from '../../loaders/test/readme-run.ts';
import { DocmillReader, onlyDocuments } from '../src/index.ts';

const fixtures = resolve(import.meta.dirname, '../../../fixtures');
const f = (p: string) => join(fixtures, p);

describe("LlamaIndex's SimpleDirectoryReader with DocmillReader over fixtures/", () => {
  let docs: Document[];
  const skipped: string[] = [];
  beforeAll(async () => {
    const reader = new DocmillReader({ maxTokens: 256, onError: (file) => skipped.push(file) });
    docs = await new SimpleDirectoryReader(onlyDocuments).loadData({
      directoryPath: fixtures,
      fileExtToReader: reader.fileExtToReader(),
    });
  }, 300_000);

  it('returns LlamaIndex Documents, one per chunk, for every document it can open', () => {
    expect(docs.every((d) => d instanceof Document)).toBe(true);
    const sources = new Set(docs.map((d) => d.metadata.file_path));
    const missing = fixtureDocuments().filter((p) => !sources.has(f(p)) && !skipped.includes(f(p)));
    expect(missing).toEqual(['pdf/blank.pdf']); // no text, so no chunk
    // The encrypted fixtures are the ones skipped.
    expect(skipped.map((s) => s.slice(fixtures.length + 1)).sort()).toEqual(encryptedFixtures());
    for (const d of docs) {
      expect(d.metadata.tokens).toBeLessThanOrEqual(256);
      expect(d.id_).toBe(`${d.metadata.source}#${d.metadata.chunkId}`);
    }
  });

  it('gives each chunk the same metadata as the LangChain loader, plus file_path and file_name', () => {
    const plans = docs.find((d) => d.metadata.source === f('docx/basic.docx') && d.text.includes('Hire staff'));
    expect(plans?.metadata).toMatchObject({
      source: f('docx/basic.docx'),
      file_path: f('docx/basic.docx'),
      file_name: 'basic.docx',
      title: 'Field report',
      headings: ['Summary', 'Plans'],
      chunkId: expect.stringMatching(/^c\d+$/),
      tokens: expect.any(Number),
    });
    expect(docs.find((d) => d.metadata.source === f('pdf/running.pdf'))?.metadata.pages).toEqual([1, 2, 3]);
    expect(docs.find((d) => d.metadata.source === f('sheet/basic.xls'))?.metadata.sheet).toBe('Sales');
    expect(docs.find((d) => d.metadata.source === f('epub/basic.epub'))?.metadata.chapter).toBe(1);
  });

  it('keeps bookkeeping metadata out of what embedding models and LLMs see', () => {
    const plans = docs.find((d) => d.metadata.source === f('docx/basic.docx') && d.text.includes('Hire staff'));
    const embed = plans?.getContent(MetadataMode.EMBED) ?? '';
    expect(embed).toMatch(/^title: Field report\n\nSummary\n\n## Plans\n/);
    expect(embed).not.toMatch(/chunkId|tokens|file_path|source/);
    const llm = plans?.getContent(MetadataMode.LLM) ?? '';
    expect(llm).toContain('headings: Summary,Plans');
    expect(llm).not.toMatch(/chunkId|tokens|file_path/);
  });
});

describe('DocmillReader', () => {
  it('is a FileReader: bytes with a file name, and a path through the base class contract', async () => {
    const reader = new DocmillReader({ mode: 'document' });
    expect(reader).toBeInstanceOf(FileReader);
    const [fromBytes] = await reader.loadDataAsContent(new Uint8Array(readFileSync(f('csv/comma.csv'))), 'comma.csv');
    expect(fromBytes?.metadata).toMatchObject({ source: 'comma.csv', contentType: 'text/csv' });
    const [fromPath] = await reader.loadData(f('csv/comma.csv'));
    expect(fromPath?.text).toBe(fromBytes?.text);
  });

  it('reads a folder itself too, in name order', async () => {
    const docs = await new DocmillReader({ mode: 'document' }).loadData(f('epub'));
    const epubs = fixtureDocuments()
      .filter((p) => p.startsWith('epub/'))
      .sort();
    expect(docs.map((d) => d.metadata.file_path)).toEqual(epubs.map(f));
  });

  it('maps every extension docmill reads and keeps LlamaIndex’s own readers when spread over them', () => {
    const reader = new DocmillReader();
    const map = { ...FILE_EXT_TO_READER, ...reader.fileExtToReader() };
    expect(map.pdf).toBe(reader);
    expect(map.xlsb).toBe(reader);
    expect(map.txt).toBe(FILE_EXT_TO_READER.txt);
  });
});

describe('README: LlamaIndex.TS', () => {
  it('runs as printed', async () => {
    const code = readmeBlock('LlamaIndex.TS', 'js');
    const { stdout, stderr } = await runSnippet(code, resolve(import.meta.dirname, '..'));
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^\d+ \{\n {2}source: '.*\/fixtures\/pptx\/basic\.pptx',\n {2}title: 'Launch deck',/);
    expect(stdout).toContain("file_name: 'basic.pptx'");
    expect(stdout).toContain('pages: 1\ntitle: Launch deck\n\n# Launch plan\n');
    const m = /^(\d+) chunks of (\d+) files; (\d+) skipped$/m.exec(stdout);
    expect(Number(m?.[2]) + Number(m?.[3])).toBe(fixtureDocuments().length - 1); // but pdf/blank.pdf: no chunk
  }, 300_000);
});
