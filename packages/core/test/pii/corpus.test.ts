import { describe, expect, it } from 'vitest';
import { parse } from '../../src/index.ts';
import { corpusFile, corpusSkipReason, hasCorpus } from '../helpers/corpus.ts';

const rowsOf = (md: string) =>
  md
    .trim()
    .split('\n')
    .map((l) =>
      l
        .slice(2, -2)
        .split(' | ')
        .map((c) => c.trim()),
    );

describe.skipIf(!hasCorpus)(
  `redactPII on corpus documents (${hasCorpus ? 'corpus present' : corpusSkipReason})`,
  () => {
    it('a customer table: name, place, phone and email columns become tags, the rest and the table shape stay', async () => {
      const data = await parse(
        corpusFile('docling/csv/sources/csv-comma.csv'),
        { formats: ['markdown'], redactPII: { mode: 'fast' } },
        { filename: 'csv-comma.csv' },
      );
      const rows = rowsOf(data.markdown ?? '');
      const head = rows[0] ?? [];
      expect(head).toContain('First Name');
      const col = (name: string) => head.indexOf(name);
      const body = rows.slice(2);
      expect(body.length).toBeGreaterThanOrEqual(5);
      for (const r of body) {
        expect(r).toHaveLength(head.length);
        expect(r[col('First Name')]).toBe('<PERSON>');
        expect(r[col('Last Name')]).toMatch(/^<PERSON>/);
        expect(r[col('City')]).toBe('<LOCATION>');
        expect(r[col('Country')]).toBe('<LOCATION>');
        expect(r[col('Phone 1')]).toBe('<PHONE>');
        expect(r[col('Phone 2')]).toBe('<PHONE>');
        expect(r[col('Email')]).toBe('<EMAIL>');
        expect(r[col('Subscription Date')]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(r[col('Website')]).toMatch(/^http/);
        expect(r[col('Index')]).toMatch(/^\d+$/);
      }
      expect(data.markdown).not.toMatch(/[\w.]+@[\w.]+\.\w+/);
    });
    it('a PDF invoice keeps its structure and loses its addresses and emails', async () => {
      const data = await parse(
        corpusFile('markitdown/REPAIR-2022-INV-001_multipage.pdf'),
        { formats: ['markdown', 'links'], redactPII: { mode: 'fast' } },
        { filename: 'invoice.pdf' },
      );
      const plain = await parse(
        corpusFile('markitdown/REPAIR-2022-INV-001_multipage.pdf'),
        { formats: ['markdown'] },
        {
          filename: 'invoice.pdf',
        },
      );
      expect(plain.markdown).toMatch(/@/);
      expect(data.markdown).not.toMatch(/[\w.]+@[\w.]+\.\w+/);
      expect(data.markdown).toContain('<EMAIL>');
      expect(JSON.stringify(data.links)).not.toMatch(/[\w.]+@[\w.]+\.\w+/);
      // Same headings and table rows as without redaction: a heading's level and a row's cell
      // count (a redacted label such as "Claim #" loses the '#' inside its cell, not its cell).
      const shape = (md: string) =>
        md
          .split('\n')
          .filter((l) => /^(#|\|)/.test(l))
          .map((l) => (l.startsWith('|') ? l.replace(/[^|]/g, '') : (/^#+/.exec(l)?.[0] ?? '')));
      expect(shape(data.markdown ?? '')).toEqual(shape(plain.markdown ?? ''));
    });
  },
);
