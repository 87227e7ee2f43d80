import { describe, expect, it } from 'vitest';
import { corpusFile, corpusSkipReason, fixture, hasCorpus } from '../helpers/corpus.ts';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';
import { NO_DEADLINE } from '../helpers/timeouts.ts';

const fast = { parsers: [{ type: 'pdf' as const, mode: 'fast' as const }] };
const bench = (name: string) => corpusFile('pdfbench', name);
/** Heading lines of Markdown, emphasis marks dropped. */
const headings = (md: string) =>
  md
    .split('\n')
    .filter((l) => /^#{1,6} /.test(l))
    .map((l) => l.replace(/[*_]/g, ''));

describe.each(pdfBackends)('pdf adapter: real-world patterns on fixtures (%s)', (backend) => {
  const { parse } = engineFor(backend);

  it('keeps compound hyphens at line ends and removes the ones that break a word', async () => {
    const md = (await parse(fixture('pdf-patterns', 'hyphens.pdf'), fast, { filename: 'hyphens.pdf' })).markdown ?? '';
    expect(md).toContain('We train the dual-encoder on retrieval data in a high-dimensional space');
    expect(md).toContain('beating a Lucene-BM25 baseline on information needs and retrieval quality');
  });

  it('composes an accent drawn over its letter into one character (NFC)', async () => {
    const md = (await parse(fixture('pdf-patterns', 'accents.pdf'), fast, { filename: 'accents.pdf' })).markdown ?? '';
    expect(md.trim()).toBe('Kurt G\u00f6del proved it.');
  });

  it('keeps a two-line title one heading and author or affiliation lines text', async () => {
    const md =
      (await parse(fixture('pdf-patterns', 'front-matter.pdf'), fast, { filename: 'paper.pdf' })).markdown ?? '';
    expect(headings(md)).toEqual(['# Dense Retrieval for Open Question Answering', '## 1 Introduction']);
    expect(md.replace(/[*\\]/g, '')).toContain('Jane Doe, John Roe, Ann Poe University of Somewhere');
  });

  it('splits the rows of a table ruled only at its header and bottom', async () => {
    const md = (await parse(fixture('pdf-patterns', 'paper-table.pdf'), {}, { filename: 'table.pdf' })).markdown ?? '';
    expect(md).toContain(
      [
        '| Dataset | Base | Large | Notes |',
        '| --- | --- | --- | --- |',
        '| PubLayNet | F / M | M | Modern scientific papers |',
        '| PRImA | M | - | Scanned magazines and reports |',
        '| Newspaper | F | - | US newspapers |',
        '| TableBank | F | F | Table regions |',
      ].join('\n'),
    );
  });

  it('reads two columns of bulleted lists as lists, not as a table', async () => {
    const md =
      (await parse(fixture('pdf-patterns', 'bullet-columns.pdf'), {}, { filename: 'lists.pdf' })).markdown ?? '';
    expect(md).not.toContain('|');
    expect(md).toContain('- Ensuring standards and efficiency in development');
    expect(md).toContain('- Collaboration and responsibilities');
  });

  it('keeps the narrow columns under a spanning header apart', async () => {
    const md = (await parse(fixture('pdf-patterns', 'span-table.pdf'), fast, { filename: 'span.pdf' })).markdown ?? '';
    expect(md).toContain('|  | NQ | TQA | WQ | TREC |');
    expect(md).toContain('| BM25 | 59.1 | 66.9 | 55.0 | 70.9 |');
    expect(md).toContain('| Hybrid | 76.6 | 79.8 | 71.0 | 85.2 |');
  });

  it('keeps numbers that share a baseline together instead of pairing them with the next row', async () => {
    const md = (await parse(fixture('pdf-patterns', 'number-rows.pdf'), fast, { filename: 'rows.pdf' })).markdown ?? '';
    expect(md.trim().split(/\n+/)).toEqual(['200.01 1', '400.01 3', '600.01 5', '800.01 7']);
  });
});

describe.skipIf(!hasCorpus).each(pdfBackends)(
  `pdf adapter: real-world patterns on the corpus (${hasCorpus ? 'present' : corpusSkipReason}, %s)`,
  (backend) => {
    const { parse } = engineFor(backend);
    const read = async (name: string) =>
      (await parse(bench(name), { ...fast, ...NO_DEADLINE }, { filename: name })).markdown ?? '';

    it('decides each line-end hyphen from the document (multi-column paper)', async () => {
      const md = await read('unstructured_pdf_multi-column.pdf');
      for (const w of ['dual-encoder', 'high-dimensional', 'open-domain', 'Lucene-BM25']) expect(md).toContain(w);
      for (const w of ['dualencoder', 'highdimensional', 'opendomain', 'Lucene- BM25']) expect(md).not.toContain(w);
      // Words broken by justification are still joined.
      expect(md).not.toMatch(/\bretrie-val\b|\binforma-tion\b/);
    });

    it('composes TeX accents in author names', async () => {
      const md = await read('unstructured_pdf_multi-column.pdf');
      expect(md).toContain('Barlas O\u011fuz');
      expect(md).not.toMatch(/O\u02d8gu|Oguz \u02d8/);
      expect(md).toContain('Baudi\u0161 and \u0160ediv');
    });

    it('keeps author and affiliation lines of a paper out of the headings', async () => {
      const md = await read('unstructured_pdf_multi-column.pdf');
      const hs = headings(md);
      expect(hs[0]).toBe('# Dense Passage Retrieval for Open-Domain Question Answering');
      expect(hs.some((h) => /Karpukhin|University|@/.test(h))).toBe(false);
      expect(hs).toContain('### Abstract');
      expect(md).toContain('University of Washington Princeton University');
    });

    it('reads a contents page whose dot leaders outnumber its letters as text, not as a page to OCR', async () => {
      const { createEngine } = await import('../../src/index.ts');
      const name = 'unstructured_pdf_failure-after-repair.pdf';
      const r = await createEngine({ pdf: { backend } }).parseTree(bench(name), NO_DEADLINE, { filename: name });
      const info = r.output.pageInfo ?? {};
      expect(Object.keys(info)).toHaveLength(76);
      expect(Object.entries(info).filter(([, c]) => c.text !== 'text')).toEqual([]);
      const md = await read(name);
      // The entries are read from the text layer: a row of the contents table.
      expect(md).toContain('\n| How common is breast cancer? | 9 |\n');
    });

    it('makes answer boxes printed as C1 control characters list markers, never text', async () => {
      const file = corpusFile('docling', 'pdf', 'sources', 'table_mislabeled_as_picture.pdf');
      const md = (await parse(file, fast, { filename: 'form.pdf' })).markdown ?? '';
      expect(md).toContain('- They work in parallel to State funded private practitioners');
      expect(md).toContain('- Not applicable, there is no institutional legal aid provider');
      expect(md).not.toMatch(/[\u0080-\u009f]/);
    });

    it('keeps a title set over two lines in two styles one heading', async () => {
      const md = await read('unstructured_pdf_invalid-pdf-structure-pdfminer-one-page.pdf');
      const h1 = headings(md).filter((h) => h.startsWith('# '));
      expect(h1).toEqual(['# Cybersecurity: Launching and Implementing the National Cybersecurity Strategy']);
    });

    it('gives each row of a paper table ruled at header and bottom only its own row', async () => {
      const name = 'unstructured_pdf_layout-parser-paper-with-table.pdf';
      const md = (await parse(bench(name), {}, { filename: name })).markdown ?? '';
      expect(md).toContain('| PubLayNet \\[38] | F / M | M | Layouts of modern scientific documents |');
      expect(md).toContain('| HJDataset \\[31] | F / M | - | Layouts of history Japanese documents |');
      expect(md).not.toContain('PubLayNet \\[38] PRImA');
    });

    it('reads the bulleted columns of a course outline as lists', async () => {
      const name = 'unstructured_pdf_list-item-example.pdf';
      const md = (await parse(bench(name), {}, { filename: name })).markdown ?? '';
      expect(md).not.toMatch(/\| ● \|/);
      expect(md).toContain('- Ensuring standards and efficiency in development');
      expect(md).toContain('- Which products should be developed and tested?');
    });

    it('keeps the WQ and TREC columns of a results table apart', async () => {
      const md = await read('unstructured_pdf_multi-column.pdf');
      expect(md).toContain('| None | BM25 | 59.1 | 66.9 | 55.0 | 70.9 | 68.8 |');
      expect(md).not.toContain('| WQ TREC |');
      expect(md).not.toContain('55.0 70.9');
    });

    it('pairs the numbers of a borderless number table by baseline', async () => {
      const md = await read('unstructured_pdf_all-number-table.pdf');
      const rows = md.trim().split(/\n+/);
      // Two columns of figures alone are a table (pdf-table-classes), a row per baseline.
      for (const row of ['| 200.01 | 1 |', '| 400.01 | 3 |', '| 1000.01 | 9 |', '| 1600.01 | 15 |'])
        expect(rows).toContain(row);
      expect(md).not.toMatch(/^\| 1 \| 400\.01|^\| 3 \| 600\.01/m);
    });

    it('decides each line-end hyphen from the document (novel)', async () => {
      const md = await read('unstructured_pdf_DA-619p.pdf');
      for (const w of ['never-changing', 'king-consort', 'wicked-looking']) expect(md).toContain(w);
      for (const w of ['neverchanging', 'kingconsort', 'wickedlooking']) expect(md).not.toContain(w);
    });
  },
);
