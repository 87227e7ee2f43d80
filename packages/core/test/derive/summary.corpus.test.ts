import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from '../../src/index.ts';
import { corpusRoot, corpusSkipReason, hasCorpus } from '../helpers/corpus.ts';
import { NO_DEADLINE } from '../helpers/timeouts.ts';

/**
 * The offline summary of real papers keeps their lead claims and stays within 15 % of the
 * document's Markdown. Key phrases are compared with whitespace squeezed, so line-joining
 * differences between PDF backends do not matter.
 */
const papers = [
  {
    file: 'pdfbench/unstructured_pdf_multi-column.pdf',
    name: 'Dense Passage Retrieval (full paper, two columns)',
    claims: [
      'retrieval can be practically implemented using dense representations alone',
      'outperforms a strong Lucene-BM25',
    ],
  },
  {
    file: 'pdfbench/unstructured_pdf_multi-column-2p.pdf',
    name: 'Dense Passage Retrieval (first two pages)',
    claims: ['dense representations alone', 'absolute in terms of top-20 passage retrieval accuracy'],
  },
  {
    file: 'pdfbench/unstructured_pdf_layout-parser-paper-fast.pdf',
    name: 'LayoutParser (first pages)',
    claims: ['This paper introduces LayoutParser, an open-source library', 'community platform for sharing'],
  },
];

const squeeze = (s: string) => s.replace(/\s+/g, ' ');
const present = hasCorpus && papers.every((p) => existsSync(join(corpusRoot, p.file)));

describe.skipIf(!present)(`offline summary of corpus papers (${present ? 'present' : corpusSkipReason})`, () => {
  for (const p of papers) {
    it(`${p.name}: lead claims, ≤ 15 % of its length, deterministic`, async () => {
      const bytes = new Uint8Array(readFileSync(join(corpusRoot, p.file)));
      const data = await parse(bytes, { formats: ['summary', 'markdown'], ...NO_DEADLINE }, { filename: 'paper.pdf' });
      const summary = squeeze(data.summary ?? '');
      for (const claim of p.claims) expect(summary).toContain(claim);
      expect(summary.length).toBeGreaterThan(200);
      expect(summary.length).toBeLessThanOrEqual(0.15 * (data.markdown ?? '').length);
      const again = await parse(bytes, { formats: ['summary'] }, { filename: 'paper.pdf' });
      expect(again.summary).toBe(data.summary);
    });
  }
});
