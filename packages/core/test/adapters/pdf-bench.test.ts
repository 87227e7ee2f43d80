import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DocmillError } from '../../src/errors.ts';
import { parse } from '../../src/index.ts';
import { corpusFile, corpusRoot, corpusSkipReason, hasCorpus } from '../helpers/corpus.ts';
import { NO_DEADLINE } from '../helpers/timeouts.ts';

const dir = join(corpusRoot, 'pdfbench');
const files = existsSync(dir)
  ? readdirSync(dir)
      .filter((f) => f.endsWith('.pdf'))
      .sort()
  : [];

/** Files pdf.js cannot open at all; everything else must yield text. */
const refused = new Set(['unstructured_pdf_password.pdf']);

describe.skipIf(!hasCorpus)(
  `every pdfbench file parses or fails with a clear 400 (${hasCorpus ? 'corpus' : corpusSkipReason})`,
  () => {
    it.each(files)('%s', async (name) => {
      const bytes = corpusFile('pdfbench', name);
      const outcome = await parse(
        bytes,
        { parsers: [{ type: 'pdf', mode: 'fast' }], ...NO_DEADLINE },
        { filename: name },
      ).then(
        (r) => ({ ok: true as const, r }),
        (e: unknown) => ({ ok: false as const, e }),
      );
      if (!outcome.ok) {
        expect(outcome.e).toBeInstanceOf(DocmillError);
        expect((outcome.e as DocmillError).status).toBe(400);
        expect((outcome.e as DocmillError).message).toMatch(/PDF/);
        expect(refused.has(name), `${name} refused: ${(outcome.e as Error).message}`).toBe(true);
        return;
      }
      const { r } = outcome;
      expect(refused.has(name)).toBe(false);
      expect(r.metadata.numPages).toBe(r.metadata.totalPages);
      expect(r.metadata.numPages).toBeGreaterThan(0);
      expect(typeof r.markdown).toBe('string');
    });
  },
);
