import { createEngine, type Engine } from '@docmill/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusFile, corpusPairs, corpusSkipReason, hasCorpus } from '../../core/test/helpers/corpus.ts';
import { textSimilarity } from '../../core/test/helpers/metrics.ts';
import { NO_DEADLINE } from '../../core/test/helpers/timeouts.ts';
import { createOcrStage } from '../src/index.ts';
import { countingRenderer } from './counting.ts';

// A handful of pages (OCR is seconds per page); corpus-wide runs live in benchmarks/ocr.
let engine: Engine;
const renderer = countingRenderer();
beforeAll(() => {
  engine = createEngine({ stages: [createOcrStage({ workers: 2, openRenderer: renderer.open })] });
});
afterAll(async () => {
  await engine?.close();
});

const auto = { parsers: [{ type: 'pdf' as const, mode: 'auto' as const }], ...NO_DEADLINE };

describe.skipIf(!hasCorpus)(
  `OCR on the corpus${hasCorpus ? '' : ` (${corpusSkipReason})`}`,
  // vitest.config's bound, kept in view: a test here OCRs several documents, each allowed NO_DEADLINE.
  { timeout: 600_000 },
  () => {
    it('docling ocr sources, rotated ones included, read in ocr mode with mean similarity ≥ 0.90', async () => {
      const pairs = corpusPairs('docling/ocr/sources', '.pdf').filter((p) => p.truth !== undefined);
      expect(pairs.length).toBeGreaterThanOrEqual(4);
      expect(pairs.some((p) => p.name.includes('rotated_90'))).toBe(true);
      const scores = await Promise.all(
        pairs.map(async (p) => {
          const r = await engine.parse(
            corpusFile('docling/ocr/sources', p.name),
            { parsers: [{ type: 'pdf', mode: 'ocr' }], ...NO_DEADLINE },
            { filename: p.name },
          );
          expect(r.metadata.ocrPages).toBeGreaterThan(0);
          return textSimilarity(r.markdown ?? '', p.truth as string);
        }),
      );
      const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
      expect(mean).toBeGreaterThanOrEqual(0.9);
      expect(Math.min(...scores)).toBeGreaterThan(0.8);
    });

    it('a scanned medical report in auto mode yields its text', async () => {
      const r = await engine.parse(corpusFile('markitdown', 'MEDRPT-2024-PAT-3847_medical_report_scan.pdf'), auto);
      expect(r.metadata.ocrPages).toBe(3);
      for (const s of [
        'COMPREHENSIVE MEDICAL REPORT',
        'MEDRPT-2024-PAT-3847',
        'Jonathan Michael Harrison',
        'PAT-3847-2024',
        '| Blood Pressure | 142/88 mmHg | 120/80 mmHg | ELEVATED |',
        // The sparse Flag column stays in the lab table despite "Page 2 of 3" printed under it.
        '| Test | Result | Reference Range | Flag |',
        '| Glucose, Fasting | 118 mg/dL | 70-100 mg/dL | HIGH |',
        'persistent headaches',
        'Lisinopril',
      ]) {
        expect(r.markdown).toContain(s);
      }
    });

    it('an image-only table page in auto mode yields its cells, as a table from its rulings', async () => {
      const r = await engine.parse(corpusFile('pdfbench', 'unstructured_pdf_table-multi-row-column-cells.pdf'), auto);
      expect(r.metadata.ocrPages).toBe(1);
      // "Results" spans the last two columns; "Low Vision" holds two lines in its last two cells.
      expect(r.markdown).toMatch(/^\| Disability Category \|.*\| Results \| Results \|\n\| --- \| --- \|/);
      expect(r.markdown).toContain('| Accuracy | Time to complete |');
      expect(r.markdown).toContain('| Blind | 5 | 1 | 4 | 34.5%, n=1 | 1199 sec, n=1 |');
      expect(r.markdown).toContain(
        '| Low Vision | 5 | 2 | 3 | 98.3% n=2 (97.7%, n=3) | 1716 sec, n=3 (1934 sec, n=2) |',
      );
      expect(r.markdown).toContain('| Mobility | 3 | 3 | 0 | 95.4%, n=3 | 1416 sec, n=3 |');
      for (const s of [
        'Participants',
        'Low Vision',
        '98.3% n=2',
        '1716 sec, n=3',
        '(1934 sec, n=2)',
        'Dexterity',
        '1672.1 sec, n=4',
        'Mobility',
        '1416 sec, n=3',
      ]) {
        expect(r.markdown).toContain(s);
      }
    });

    it('a scanned table drawn in faint grey hairlines becomes a table', async () => {
      const r = await engine.parse(corpusFile('pdfbench', 'unstructured_pdf_single_table.pdf'), auto);
      expect(r.metadata.ocrPages).toBe(1);
      expect(r.markdown).toContain(
        '| Processing | total chunks | mean chunks per document (std) | tables mean (std) |',
      );
      expect(r.markdown).toContain('| Base 256 | 32,051 | 400.64 (242.04) | N/A |');
      expect(r.markdown).toContain('| Chipper | 20,843 | 260.57 (145.80) | 96.20 (57.53) |');
    });

    it('a text PDF in auto mode renders and OCRs nothing', async () => {
      const before = renderer.count();
      const r = await engine.parse(corpusFile('markitdown', 'test.pdf'), auto);
      expect(renderer.count()).toBe(before);
      expect(r.metadata.ocrPages).toBe(0);
      expect((r.markdown ?? '').length).toBeGreaterThan(500);
    });

    it("markitdown's jpg parses with the image parser", async () => {
      const r = await engine.parse(
        corpusFile('markitdown', 'test.jpg'),
        { parsers: ['image'], ...NO_DEADLINE },
        { filename: 'test.jpg' },
      );
      expect(r.metadata.ocrPages).toBe(1);
      expect(r.metadata.numPages).toBe(1);
      expect(r.markdown).toContain('AutoGen: Enabling Next-Gen LLM');
      expect(r.markdown).toContain('Applications via Multi-Agent Conversation');
      expect(r.markdown).toContain('Microsoft Research');
    });
  },
);
