import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ParseData } from '@docmill/core';
import { afterAll, describe, expect, it } from 'vitest';
import { documentFiles, formatsFor, recordsOf } from '../src/index.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('documentFiles', () => {
  it('lists documents by extension in a stable order, files before sub-folders, links to folders not followed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docmill-loaders-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'a/deeper'), { recursive: true });
    for (const p of ['b.PDF', 'a.docx', 'notes.txt', 'a/z.csv', 'a/deeper/x.epub', 'README'])
      writeFileSync(join(dir, p), '');
    symlinkSync(join(dir, 'a'), join(dir, 'loop'));
    symlinkSync(join(dir, 'a.docx'), join(dir, 'c.docx'));
    expect((await documentFiles(dir)).map((p) => p.slice(dir.length + 1))).toEqual([
      'a.docx',
      'b.PDF',
      'c.docx',
      'a/z.csv',
      'a/deeper/x.epub',
    ]);
    expect((await documentFiles(dir, { recursive: false })).length).toBe(3);
    expect((await documentFiles(dir, { maxDepth: 1 })).length).toBe(4);
    await expect(documentFiles(dir, { maxFiles: 4 })).rejects.toThrow(/more than 4 documents/);
  });
});

describe('recordsOf', () => {
  const data: ParseData = {
    markdown: '# T\n\nx',
    metadata: { title: 'T', numPages: 2, contentType: 'application/pdf', error: null, language: '' },
    warning: null,
    chunks: [
      { id: 'c1', text: '# T', tokens: 2, headings: ['T'], type: 'text', pages: [1] },
      { id: 'c2', text: 'x', tokens: 1, headings: ['T'], type: 'text', pages: [2], bbox: [] },
    ],
  };

  it('one record per chunk: the heading path in front, provenance in metadata', () => {
    expect(recordsOf(data, 'doc.pdf')).toEqual([
      {
        id: 'doc.pdf#c1',
        text: '# T',
        metadata: {
          source: 'doc.pdf',
          title: 'T',
          contentType: 'application/pdf',
          chunkId: 'c1',
          chunkIndex: 0,
          tokens: 2,
          headings: ['T'],
          chunkType: 'text',
          pages: [1],
        },
      },
      {
        id: 'doc.pdf#c2',
        text: 'T\n\nx',
        metadata: expect.objectContaining({ chunkId: 'c2', chunkIndex: 1, pages: [2] }),
      },
    ]);
    expect(recordsOf(data, 'doc.pdf', { contextualize: false })[1]?.text).toBe('x');
  });

  it('one record per document, with its metadata minus empty values', () => {
    expect(recordsOf(data, 'doc.pdf', { mode: 'document' })).toEqual([
      {
        id: 'doc.pdf',
        text: '# T\n\nx',
        metadata: { source: 'doc.pdf', title: 'T', numPages: 2, contentType: 'application/pdf' },
      },
    ]);
  });

  it('asks the engine for what the mode needs', () => {
    expect(formatsFor({ mode: 'document' })).toEqual(['markdown']);
    expect(formatsFor({ maxTokens: 128, tokenizer: 'cl100k_base' })).toEqual([
      { type: 'chunks', maxTokens: 128, tokenizer: 'cl100k_base' },
    ]);
  });
});
