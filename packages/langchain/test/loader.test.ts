import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DocmillError } from '@docmill/core';
import { DirectoryLoader } from '@langchain/classic/document_loaders/fs/directory';
import { BaseDocumentLoader } from '@langchain/core/document_loaders/base';
import { Document } from '@langchain/core/documents';
import { beforeAll, describe, expect, it } from 'vitest';
import { readmeBlock } from '../../../scripts/readme.ts';
import { encryptedFixtures, fixtureDocuments, runSnippet } from '../../loaders/test/readme-run.ts';
import { DocmillLoader, docmillLoaders } from '../src/index.ts';

const fixtures = resolve(import.meta.dirname, '../../../fixtures');
const f = (p: string) => join(fixtures, p);

describe("LangChain's DirectoryLoader with DocmillLoader over fixtures/", () => {
  let docs: Document[];
  const skipped: string[] = [];
  beforeAll(async () => {
    const loaders = docmillLoaders({ maxTokens: 256, onError: (file) => skipped.push(file) });
    docs = await new DirectoryLoader(fixtures, loaders, true, 'ignore').load();
  }, 300_000);

  it('returns LangChain Documents, one per chunk, of every document it can open', () => {
    expect(docs.every((d) => d instanceof Document)).toBe(true);
    const sources = new Set(docs.map((d) => d.metadata.source));
    const missing = fixtureDocuments().filter((p) => !sources.has(f(p)) && !skipped.includes(f(p)));
    expect(missing).toEqual(['pdf/blank.pdf']); // no text, so no chunk
    // The encrypted fixtures are the ones skipped.
    expect(skipped.map((s) => s.slice(fixtures.length + 1)).sort()).toEqual(encryptedFixtures());
    for (const d of docs) {
      expect(d.metadata.tokens).toBeLessThanOrEqual(256);
      expect(d.id).toBe(`${d.metadata.source}#${d.metadata.chunkId}`);
    }
  });

  it('gives each chunk its source, headings, chunk id, token count and pages/sheet/chapter', () => {
    const report = docs.filter((d) => d.metadata.source === f('docx/basic.docx'));
    expect(report.map((d) => d.metadata.chunkId)).toEqual(report.map((_, i) => `c${i + 1}`));
    const plans = report.find((d) => d.pageContent.includes('Hire staff'));
    expect(plans?.metadata).toMatchObject({
      source: f('docx/basic.docx'),
      title: 'Field report',
      contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      headings: ['Summary', 'Plans'],
      chunkType: expect.any(String),
      tokens: expect.any(Number),
    });
    const pdf = docs.find((d) => d.metadata.source === f('pdf/running.pdf'));
    expect(pdf?.metadata.pages).toEqual([1, 2, 3]);
    const sheet = docs.find((d) => d.metadata.source === f('sheet/basic.xls'));
    expect(sheet?.metadata).toMatchObject({ sheet: 'Sales', headings: ['Sales'], chunkType: 'table' });
    const book = docs.find((d) => d.metadata.source === f('epub/basic.epub'));
    expect(book?.metadata).toMatchObject({ chapter: 1, chapterTitle: 'One: Beginnings' });
    const slide = docs.find((d) => d.metadata.source === f('pptx/basic.pptx'));
    expect(slide?.metadata.pages).toEqual([1]);
  });

  it('puts the part of the heading path a chunk does not start with in front of it', () => {
    const plans = docs.find((d) => d.metadata.source === f('docx/basic.docx') && d.pageContent.includes('Hire staff'));
    expect(plans?.pageContent).toMatch(/^Summary\n\n## Plans\n\n1\. Hire staff/);
  });
});

describe('DocmillLoader', () => {
  it('is a BaseDocumentLoader; load() is lazyLoad() collected', async () => {
    const loader = new DocmillLoader(f('docx/basic.docx'), { maxTokens: 64 });
    expect(loader).toBeInstanceOf(BaseDocumentLoader);
    const streamed: Document[] = [];
    for await (const d of loader.lazyLoad()) streamed.push(d);
    expect(streamed.length).toBeGreaterThan(3);
    expect(await loader.load()).toEqual(streamed);
  });

  it('document mode: one Document per file with the document metadata', async () => {
    const [doc] = await new DocmillLoader(f('docx/basic.docx'), { mode: 'document' }).load();
    expect(doc?.pageContent.startsWith('# Field report\n')).toBe(true);
    expect(doc?.metadata).toEqual({
      source: f('docx/basic.docx'),
      title: 'Field report',
      description: 'Fixture for the docx adapter',
      language: 'en-GB',
      keywords: 'fixture, docx',
      author: 'Ada Writer',
      numPages: 2,
      contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    });
  });

  it('takes a Buffer or a Blob with a file name, and a folder', async () => {
    const csv = readFileSync(f('csv/comma.csv'));
    const fromBuffer = await new DocmillLoader(csv, { filename: 'comma.csv' }).load();
    expect(fromBuffer[0]?.metadata).toMatchObject({ source: 'comma.csv', contentType: 'text/csv', chunkType: 'table' });
    const fromBlob = await new DocmillLoader(new Blob([csv]), { filename: 'comma.csv' }).load();
    expect(fromBlob.map((d) => d.pageContent)).toEqual(fromBuffer.map((d) => d.pageContent));
    const folder = await new DocmillLoader(f('epub'), { mode: 'document' }).load();
    const epubs = fixtureDocuments()
      .filter((p) => p.startsWith('epub/'))
      .sort();
    expect(folder.map((d) => d.metadata.source)).toEqual(epubs.map(f));
    expect(folder.every((d) => d.pageContent.length > 0)).toBe(true);
  });

  it('throws the engine error for a file it cannot read, unless onError takes it', async () => {
    const err = await new DocmillLoader(f('pdf/encrypted.pdf')).load().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DocmillError);
    expect((err as DocmillError).status).toBe(400);
    await expect(new DocmillLoader(f('nope.pdf')).load()).rejects.toThrow(/No such file or folder/);
    const seen: string[] = [];
    expect(await new DocmillLoader(f('pdf/encrypted.pdf'), { onError: (s) => seen.push(s) }).load()).toEqual([]);
    expect(seen).toEqual([f('pdf/encrypted.pdf')]);
  });

  it('refuses a folder over maxFiles rather than cutting it silently', async () => {
    await expect(new DocmillLoader(f('pdf'), { maxFiles: 3 }).load()).rejects.toThrow(/more than 3 documents/);
  });

  it('maps every accepted extension, in both cases, for DirectoryLoader', () => {
    const map = docmillLoaders();
    expect(Object.keys(map)).toEqual(expect.arrayContaining(['.pdf', '.PDF', '.docx', '.DOCX', '.epub', '.csv']));
    expect(map['.pdf']?.('x.pdf')).toBeInstanceOf(DocmillLoader);
  });
});

describe('README: LangChain.js', () => {
  it('runs as printed', async () => {
    const code = readmeBlock('LangChain.js', 'js');
    const { stdout, stderr } = await runSnippet(code, resolve(import.meta.dirname, '..'));
    expect(stderr).toBe('');
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^\d+ \{$/);
    expect(stdout).toContain("headings: [ 'Summary', 'Plans' ]");
    expect(stdout).toContain(`source: '${f('docx/basic.docx')}'`);
    const m = /^(\d+) chunks of (\d+) files; (\d+) skipped$/m.exec(stdout);
    expect(m).not.toBeNull();
    // Every fixture document is loaded or skipped, but pdf/blank.pdf, which has no text to chunk.
    expect(Number(m?.[2]) + Number(m?.[3])).toBe(fixtureDocuments().length - 1);
    const epubs = fixtureDocuments().filter((p) => p.startsWith('epub/'));
    const titles = lines.slice(-epubs.length);
    expect(titles).toHaveLength(epubs.length);
    for (const t of titles) expect(t).toMatch(/^\S.* [1-9]\d*$/);
    expect(titles[0]).toMatch(/^A Small Book \d+$/);
  }, 300_000);
});
