import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Chunk, chunkSchema, createEngine, type ParseData, type ParseOptions } from '../../src/index.ts';
import { contextOverBudget, offsetErrors, overBudget, wordCoverage } from '../helpers/chunks.ts';
import { corpusFile, corpusPairs, corpusRoot, fixture, hasCorpus } from '../helpers/corpus.ts';
import { docx, W } from '../helpers/docx-build.ts';

const engine = createEngine();

const options = (maxTokens: number, extra: ParseOptions = {}): ParseOptions => ({
  formats: ['markdown', { type: 'chunks', maxTokens }],
  parsers: [{ type: 'pdf', mode: 'fast', blocks: true }],
  ...extra,
});

/** Parses with chunks and blocks, and checks what holds for every format: budget, words, offsets, schema, blocks. */
async function chunked(bytes: Uint8Array, filename: string, maxTokens = 64): Promise<ParseData & { chunks: Chunk[] }> {
  const data = await engine.parse(bytes, options(maxTokens), { filename });
  const chunks = data.chunks ?? [];
  const markdown = data.markdown ?? '';
  expect(chunks.length, filename).toBeGreaterThan(0);
  expect(overBudget(chunks, maxTokens), filename).toEqual([]);
  expect(contextOverBudget(chunks, maxTokens), filename).toEqual([]);
  const cov = wordCoverage(markdown, chunks);
  expect(cov.missing, filename).toEqual([]);
  expect(offsetErrors(markdown, chunks), filename).toEqual([]);
  // Every field as the exported schema documents it, and no field it does not.
  expect(
    chunks.flatMap((c) => chunkSchema.safeParse(c).error?.issues ?? []),
    filename,
  ).toEqual([]);
  // Every block id a chunk names is a block of data.blocks; every block with text is in a chunk.
  const ids = new Set((data.blocks ?? []).flatMap((g) => g.items.map((i) => i.id)));
  const named = new Set(chunks.flatMap((c) => c.blocks ?? []));
  for (const id of named) expect(ids.has(id), `${filename}: ${id}`).toBe(true);
  for (const g of data.blocks ?? [])
    for (const item of g.items)
      if (item.content.trim() && item.type !== 'thematicBreak')
        expect(named.has(item.id), `${filename}: ${item.id}`).toBe(true);
  // Same bytes, same options: the same chunks.
  const again = await engine.parse(bytes, options(maxTokens), { filename });
  expect(again.chunks).toEqual(chunks);
  return { ...data, chunks };
}

describe('chunks of every format family', () => {
  it('PDF: pages and a box per page, blocks from the page view', async () => {
    const { chunks, blocks } = await chunked(fixture('pdf', 'basic.pdf'), 'basic.pdf', 32);
    expect(blocks?.[0]).toMatchObject({ kind: 'page', pageNumber: 1, width: 612, height: 792 });
    for (const c of chunks) {
      expect(c.pages).toEqual([1]);
      expect(c.bbox?.[0]?.page).toBe(1);
      const [x0, y0, x1, y1] = c.bbox?.[0]?.bbox ?? [];
      expect(x0).toBeLessThan(x1 as number);
      expect(y0).toBeLessThan(y1 as number);
    }
    expect(chunks[0]?.headings).toEqual(['Docmill Fixture']);
  });

  it('PDF: a table continued over two pages gives each part the pages of its own rows', async () => {
    const { chunks, blocks } = await chunked(fixture('pdf', 'continued.pdf'), 'continued.pdf', 40);
    const table = blocks?.flatMap((g) => g.items).find((i) => i.type === 'table');
    expect(table?.continued?.[0]).toMatchObject({ pageNumber: 2 });
    const parts = chunks.filter((c) => c.type === 'table');
    expect(parts.length).toBeGreaterThan(1);
    const header = (table?.content ?? '').split('\n').slice(0, 2).join('\n');
    for (const p of parts) expect(p.text.includes(header)).toBe(true);
    expect(parts[0]?.pages).toContain(1);
    expect(parts.at(-1)?.pages).toEqual([2]);
    expect(parts.at(-1)?.bbox?.map((b) => b.page)).toEqual([2]);
  });

  it('DOCX: pages from the page breaks Word rendered, none without them', async () => {
    const run = (t: string, brk = false) =>
      `<w:p><w:r>${brk ? '<w:lastRenderedPageBreak/>' : ''}<w:t>${t}</w:t></w:r></w:p>`;
    const cell = (t: string, brk: boolean) => `<w:tc>${run(t, brk)}</w:tc>`;
    const body = [
      '<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Report</w:t></w:r></w:p>',
      run('First page text.'),
      // Word marks a row split over pages in each of its cells: still one break.
      `<w:tbl><w:tr>${cell('h1', false)}${cell('h2', false)}</w:tr><w:tr>${cell('a', true)}${cell('b', true)}</w:tr></w:tbl>`,
      run('Second page text.'),
      // A paragraph that runs over into page three: it starts on two, what follows is on three.
      `<w:p><w:r><w:t>Ends on page two</w:t></w:r><w:r><w:lastRenderedPageBreak/><w:t> and goes on.</w:t></w:r></w:p>`,
      run('Third page text.'),
    ].join('');
    const styles = `<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style></w:styles>`;
    const bytes = await docx(body, { 'word/styles.xml': styles });
    const data = await engine.parse(bytes, options(16), { filename: 'paged.docx' });
    expect(data.blocks?.map((g) => [g.kind, g.pageNumber, g.items.length])).toEqual([
      ['page', 1, 3],
      ['page', 2, 2],
      ['page', 3, 1],
    ]);
    const pagesOf = (s: string) => data.chunks?.find((c) => c.text.includes(s))?.pages;
    expect(pagesOf('First page')).toEqual([1]);
    expect(pagesOf('Second page')).toContain(2);
    expect(pagesOf('Ends on page two')).toEqual([2, 3]);
    expect(pagesOf('Third page')).toContain(3);
    expect(pagesOf('Third page')).not.toContain(1);
    const plain = await chunked(fixture('docx', 'basic.docx'), 'basic.docx');
    expect(plain.chunks.every((c) => c.pages === undefined)).toBe(true);
    expect(plain.blocks?.map((g) => g.kind)).toEqual(['document']);
    expect(plain.chunks.find((c) => c.text.includes('Hire staff'))?.headings).toEqual(['Summary', 'Plans']);
  });

  it('DOCX: a paragraph Word ran over page breaks gives each part its page', async () => {
    const words = (from: number, n: number) => Array.from({ length: n }, (_, i) => `word${from + i}`).join(' ');
    const r = (t: string, props = '') => `<w:r>${props}<w:t xml:space="preserve">${t}</w:t></w:r>`;
    const turn = '<w:r><w:lastRenderedPageBreak/></w:r>';
    const body = [
      `<w:p>${r('Opening paragraph on page one.')}</w:p>`,
      // Word marks one break in each run it falls in: marks with no text between are one break.
      `<w:p>${r(`${words(0, 40)} `)}${turn}${turn}${r(words(40, 40), '<w:rPr><w:b/></w:rPr>')}<w:r><w:footnoteReference w:id="2"/></w:r>${r(' ')}${turn}${r(words(80, 40))}</w:p>`,
      `<w:p>${r('Closing paragraph.')}<w:r><w:endnoteReference w:id="2"/></w:r></w:p>`,
    ].join('');
    const note = (kind: string, t: string) =>
      `<w:${kind}s xmlns:w="${W}"><w:${kind} w:id="2"><w:p>${r(t)}</w:p></w:${kind}></w:${kind}s>`;
    const bytes = await docx(body, {
      'word/footnotes.xml': note('footnote', 'A footnote printed on page two.'),
      'word/endnotes.xml': note('endnote', 'An endnote printed after the text.'),
    });
    const data = await chunked(bytes, 'turns.docx', 24);
    const long = data.blocks?.flatMap((g) => g.items).find((i) => i.content.startsWith('word0 '));
    // Notes come last in reading order: the footnote on its reference's page, the endnote on the last.
    expect(data.blocks?.map((g) => [g.pageNumber, g.items.map((i) => i.content.slice(0, 12))])).toEqual([
      [1, ['Opening para', 'word0 word1 ']],
      [3, ['Closing para']],
      [2, ['[^1]: A foot']],
      [3, ['[^2]: An end']],
    ]);
    expect(long?.continued?.map((p) => [p.pageNumber, long.content.slice(p.offset, (p.offset ?? 0) + 8)])).toEqual([
      [2, '**word40'],
      [3, 'word80 w'],
    ]);
    const pagesOf = (w: string) => data.chunks.filter((c) => new RegExp(`\\b${w}\\b`).test(c.text)).map((c) => c.pages);
    expect(pagesOf('word0')).toEqual([[1]]);
    expect(pagesOf('word60')).toEqual([[2]]);
    expect(pagesOf('word119')).toEqual([[3]]);
    expect(pagesOf('Closing')).toEqual([[3]]);
    // The part that starts a page holds the words printed there, in one piece with its emphasis.
    expect(data.markdown).toContain(`word39 **${words(40, 40)}**[^1] word80`);
  });

  it('DOCX: a table Word laid out over pages, inside a content control, gives each row its page', async () => {
    const brk = '<w:lastRenderedPageBreak/>';
    const tc = (t: string, mark = '', after = false) =>
      `<w:tc><w:p><w:r>${after ? '' : mark}<w:t>${t}</w:t>${after ? mark : ''}</w:r></w:p></w:tc>`;
    const tr = (cells: string) => `<w:tr>${cells}</w:tr>`;
    const rows = [
      tr(tc('Item') + tc('Note')),
      tr(tc('alpha') + tc('first row')),
      // Opens page two: the break before the row's text.
      tr(tc('beta', brk) + tc('second row', brk)),
      // Split over pages two and three: a break after the text in each cell, and again in the next row.
      tr(tc('gamma', brk, true) + tc('third row', brk, true)),
      tr(tc('delta', brk) + tc('fourth row', brk)),
      tr(tc('epsilon') + tc('fifth row')),
    ].join('');
    const body = `<w:p><w:r><w:t>Before the table.</w:t></w:r></w:p><w:sdt><w:sdtContent><w:p><w:r><w:t>Inside the control.</w:t></w:r></w:p><w:tbl>${rows}</w:tbl></w:sdtContent></w:sdt><w:p><w:r><w:t>After the table.</w:t></w:r></w:p>`;
    const data = await chunked(await docx(body), 'rows.docx', 24);
    const table = data.blocks?.flatMap((g) => g.items).find((i) => i.type === 'table');
    const lines = table?.content.split('\n') ?? [];
    expect(table?.continued?.map((p) => [p.pageNumber, lines[p.line]])).toEqual([
      [2, '| beta | second row |'],
      [3, '| delta | fourth row |'],
    ]);
    expect(data.blocks?.map((g) => [g.pageNumber, g.items.map((i) => i.type)])).toEqual([
      [1, ['paragraph', 'paragraph', 'table']],
      [3, ['paragraph']],
    ]);
    const pagesOf = (s: string) => data.chunks.find((c) => c.text.includes(s))?.pages;
    expect(pagesOf('| alpha |')).toContain(1);
    expect(pagesOf('| epsilon |')).toContain(3);
    expect(pagesOf('| epsilon |')).not.toContain(1);
  });

  it('DOCX: a list Word laid out over pages gives the items on each page that page', async () => {
    const item = (t: string, level = 0, brk = false) =>
      `<w:p><w:pPr><w:numPr><w:ilvl w:val="${level}"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r>${brk ? '<w:lastRenderedPageBreak/>' : ''}<w:t>${t}</w:t></w:r></w:p>`;
    const body = [
      '<w:p><w:r><w:t>Steps to follow.</w:t></w:r></w:p>',
      item('Unpack the parts and check them against the list in the box.'),
      item('Fix the base plate to the wall with the four long screws.'),
      item('Hang the frame on the plate and tighten the locking nut.', 0, true),
      item('Check that the frame sits level before going on.', 1),
      item('Connect the power cable and switch on.', 1, true),
    ].join('');
    const levels = ['decimal', 'bullet']
      .map(
        (fmt, i) =>
          `<w:lvl w:ilvl="${i}"><w:start w:val="1"/><w:numFmt w:val="${fmt}"/><w:lvlText w:val="%1."/></w:lvl>`,
      )
      .join('');
    const numbering = `<w:numbering xmlns:w="${W}"><w:abstractNum w:abstractNumId="0">${levels}</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>`;
    const data = await chunked(await docx(body, { 'word/numbering.xml': numbering }), 'list.docx', 16);
    const list = data.blocks?.flatMap((g) => g.items).find((i) => i.type === 'list');
    const lines = list?.content.split('\n') ?? [];
    expect(list?.continued?.map((p) => [p.pageNumber, lines[p.line]])).toEqual([
      [2, '3. Hang the frame on the plate and tighten the locking nut.'],
      [3, '   - Connect the power cable and switch on.'],
    ]);
    const pagesOf = (s: string) => data.chunks.find((c) => c.text.includes(s))?.pages;
    expect(pagesOf('Unpack the parts')).toEqual([1]);
    expect(pagesOf('tighten the locking nut')).toContain(2);
    expect(pagesOf('Connect the power')).toEqual([3]);
  });

  it.skipIf(!hasCorpus)(
    "DOCX corpus: two tables over six pages, each part with its rows' pages (docx_rich_tables_01)",
    async () => {
      const name = 'docx_rich_tables_01.docx';
      const data = await chunked(corpusFile('docling', 'docx', 'sources', name), name, 256);
      const tables = data.blocks?.flatMap((g) => g.items).filter((i) => i.type === 'table') ?? [];
      const lineOf = (t: (typeof tables)[number], p: number) => t.content.split('\n')[p];
      // Rows Word's layout started a page with: the part from there on is on that page.
      expect(tables.map((t) => t.continued?.map((p) => [p.pageNumber, lineOf(t, p.line)?.split(' | ')[0]]))).toEqual([
        [
          [2, '| Author & Corporate Profiles'],
          [3, '| Terms and Definitions Clause'],
          [4, '| Annex Naming'],
        ],
        [
          [5, '| Bi-directional Reference Auditing'],
          [6, '| Percentage Symbol Clean-up'],
        ],
      ]);
      const parts = data.chunks.filter((c) => c.type === 'table');
      const pages = parts.flatMap((c) => c.pages ?? []);
      expect(pages[0]).toBe(1);
      expect(pages.at(-1)).toBe(6);
      expect(pages.every((p, i) => i === 0 || p >= (pages[i - 1] as number))).toBe(true);
      expect(parts.some((c) => c.pages?.length === 2)).toBe(true);
      expect(data.chunks.find((c) => c.text.includes('| Percentage Symbol Clean-up |'))?.pages).toContain(6);
    },
  );

  it.skipIf(!hasCorpus)(
    'Word and ODT corpus: the last page counted from recorded breaks is the page count the writer stored',
    async () => {
      const files = [
        ...corpusPairs('docling/docx/sources', '.docx'),
        ...corpusPairs('docling/odf/sources', '.odt'),
        { name: 'test.docx', path: join(corpusRoot, 'markitdown', 'test.docx') },
      ];
      const paged: string[] = [];
      for (const { name, path } of files) {
        const data = await engine.parse(
          new Uint8Array(readFileSync(path)),
          { formats: ['markdown'], parsers: [{ type: 'pdf', blocks: true }] },
          { filename: name },
        );
        const pages = (data.blocks ?? []).flatMap((g) =>
          g.kind === 'page'
            ? [g.pageNumber, ...g.items.flatMap((i) => (i.continued ?? []).map((p) => p.pageNumber))]
            : [],
        );
        if (!pages.length) continue;
        paged.push(name);
        expect(Math.max(...pages), name).toBe(data.metadata.numPages);
      }
      expect(paged.length).toBeGreaterThanOrEqual(11);
    },
  );

  it.skipIf(!hasCorpus)(
    'DOCX corpus: the AutoGen paper paragraph Word ran onto page two (markitdown/test.docx)',
    async () => {
      const data = await chunked(corpusFile('markitdown', 'test.docx'), 'test.docx', 128);
      const cut = data.blocks?.flatMap((g) => g.items).find((i) => i.continued);
      const at = cut?.continued?.[0]?.offset ?? -1;
      expect(cut?.continued?.map((p) => p.pageNumber)).toEqual([2]);
      expect(cut?.content.slice(at - 16, at + 27)).toBe('especially when configured with the correct');
      const pagesOf = (s: string) => data.chunks.find((c) => c.text.includes(s))?.pages;
      expect(pagesOf('configured with the correct')).toContain(2);
    },
  );

  it('slides (PPTX, PPT, ODP): slide numbers as pages, a chunk never spans two slides', async () => {
    for (const [dir, name] of [
      ['pptx', 'basic.pptx'],
      ['ppt', 'basic.ppt'],
      ['odp', 'basic.odp'],
    ] as const) {
      const { chunks, blocks } = await chunked(fixture(dir, name), name, 256);
      expect(
        blocks?.every((g) => g.kind === 'slide'),
        name,
      ).toBe(true);
      for (const c of chunks) expect(c.pages?.length, `${name} ${c.id}`).toBe(1);
      expect(new Set(chunks.map((c) => c.pages?.[0])).size, name).toBe(blocks?.length);
    }
  });

  it('sheets (XLSX, XLS, ODS-free fixtures) and CSV: the sheet name on every chunk, table header repeated', async () => {
    const { chunks } = await chunked(fixture('sheet', 'basic.xlsx'), 'basic.xlsx', 64);
    expect(chunks.map((c) => c.sheet)).toEqual(['Sales', 'Sales', 'Sales', 'Stock']);
    // The first table's header is a title spanning the columns: its column names go along.
    const sales = chunks.filter((c) => c.sheet === 'Sales' && c.text.includes('Quarterly sales'));
    expect(sales.length).toBe(2);
    for (const c of sales) expect(c.text).toContain('| Date | Region | Growth | Revenue |');
    const xls = await chunked(fixture('sheet', 'basic.xls'), 'basic.xls', 64);
    expect(xls.chunks.every((c) => typeof c.sheet === 'string')).toBe(true);
    const csv = await chunked(fixture('csv', 'comma.csv'), 'comma.csv', 40);
    expect(csv.chunks.length).toBeGreaterThan(1);
    for (const c of csv.chunks) {
      expect(c.sheet).toBe('comma');
      expect(c.text.startsWith('| Name | Comment | Amount |\n| --- | --- | --- |\n')).toBe(true);
    }
    expect(csv.blocks?.[0]).toMatchObject({ kind: 'sheet', name: 'comma' });
  });

  it('EPUB: chapter number and title, headings reset per chapter', async () => {
    const { chunks, blocks } = await chunked(fixture('epub', 'basic.epub'), 'basic.epub', 32);
    expect(blocks?.map((g) => [g.kind, g.pageNumber, g.name])).toEqual([
      ['chapter', 1, 'One: Beginnings'],
      ['chapter', 2, 'Two'],
      ['chapter', 3, undefined],
    ]);
    expect(chunks.map((c) => c.chapter)).toEqual(
      [...new Set(chunks.map((c) => c.chapter))]
        .sort()
        .flatMap((n) => chunks.filter((c) => c.chapter === n).map(() => n)),
    );
    const second = chunks.find((c) => c.chapter === 2);
    expect(second?.chapterTitle).toBe('Two');
    expect(second?.headings).toEqual([]);
  });

  it("ODT: pages from LibreOffice's soft page breaks, a paragraph's later part on its own page", async () => {
    const { chunks, blocks } = await chunked(fixture('odt', 'basic.odt'), 'basic.odt', 48);
    // Notes come last in reading order: the footnote on its reference's page, the endnote on the last.
    expect(blocks?.map((g) => [g.kind, g.pageNumber, g.items.at(-1)?.type])).toEqual([
      ['page', 1, 'paragraph'],
      ['page', 2, 'paragraph'],
      ['page', 1, 'footnoteDefinition'],
      ['page', 2, 'footnoteDefinition'],
    ]);
    expect(blocks?.slice(2).map((g) => g.items.map((i) => i.content))).toEqual([
      ['[^1]: Audited figures.'],
      ['[^i]: An endnote.'],
    ]);
    expect(chunks.find((c) => c.text.includes('An endnote'))?.pages).toContain(2);
    const cut = blocks?.[0]?.items.find((i) => i.continued);
    const at = cut?.continued?.[0]?.offset ?? -1;
    expect(cut?.continued?.map((p) => p.pageNumber)).toEqual([2]);
    expect(cut?.content.slice(at - 10, at + 10)).toBe('next line continues.');
    expect(chunks.find((c) => c.text.includes('next line continues'))?.pages).toEqual([1, 2]);
    expect(chunks.find((c) => c.text.includes('Hire staff'))?.headings).toEqual(['Summary', 'Plans']);
  });

  it('HTML, RTF, DOC: heading paths, one document group', async () => {
    for (const [dir, name] of [
      ['html', 'rich.html'],
      ['rtf', 'basic.rtf'],
      ['doc', 'basic.doc'],
      ['samples', 'quarterly-report.html'],
    ] as const) {
      const { chunks, blocks } = await chunked(fixture(dir, name), name, 48);
      expect(
        blocks?.map((g) => g.kind),
        name,
      ).toEqual(['document']);
      expect(
        chunks.some((c) => c.headings.length > 0),
        name,
      ).toBe(true);
      for (const c of chunks) expect(c.pages, name).toBeUndefined();
    }
  });
});

describe('the chunks format', () => {
  it('returns chunks without offsets when the Markdown is not asked for, and leaves other formats alone', async () => {
    const bytes = fixture('samples', 'quarterly-report.html');
    const only = await engine.parse(bytes, { formats: [{ type: 'chunks', maxTokens: 64 }] }, { filename: 'q.html' });
    expect(only.markdown).toBeUndefined();
    expect(only.chunks?.length).toBeGreaterThan(1);
    expect(only.chunks?.every((c) => c.startOffset === undefined && c.endOffset === undefined)).toBe(true);
    const withMd = await engine.parse(bytes, { formats: ['markdown', 'chunks'] }, { filename: 'q.html' });
    const plain = await engine.parse(bytes, { formats: ['markdown'] }, { filename: 'q.html' });
    expect(withMd.markdown).toBe(plain.markdown);
    expect(plain.chunks).toBeUndefined();
    // The plain string takes the defaults: 512 tokens, o200k_base.
    expect(withMd.chunks?.every((c) => c.tokens <= 512)).toBe(true);
  });

  it('cuts the redacted tree: redacted text never reaches a chunk', async () => {
    const html = new TextEncoder().encode(
      '<html><body><h1>Contacts</h1><p>Write to jane.doe@example.com or call +1 415 555 0100.</p></body></html>',
    );
    const data = await engine.parse(
      html,
      { formats: ['markdown', 'chunks'], redactPII: { mode: 'fast' } },
      { filename: 'c.html' },
    );
    const text = data.chunks?.map((c) => c.text).join('\n') ?? '';
    expect(text).toContain('<EMAIL>');
    expect(text).not.toContain('jane.doe');
  });

  it('refuses chunk settings out of range with 400 naming the field', async () => {
    const bytes = fixture('csv', 'comma.csv');
    await expect(
      engine.parse(bytes, { formats: [{ type: 'chunks', maxTokens: 4 }] }, { filename: 'a.csv' }),
    ).rejects.toMatchObject({ status: 400, code: 'BAD_REQUEST', message: expect.stringMatching(/maxTokens/) });
    await expect(
      engine.parse(bytes, { formats: [{ type: 'chunks', tokenizer: 'gpt2' as never }] }, { filename: 'a.csv' }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/tokenizer/) });
    await expect(
      engine.parse(bytes, { formats: [{ type: 'chunks', extra: 1 } as never] }, { filename: 'a.csv' }),
    ).rejects.toMatchObject({ status: 400 });
  });

  it('stops chunking at the timeout like any other work', async () => {
    const rows = Array.from({ length: 200_000 }, (_, i) => `${i},name ${i},${'x'.repeat(20)}`).join('\n');
    const started = Date.now();
    await expect(
      engine.parse(
        new TextEncoder().encode(rows),
        { formats: [{ type: 'chunks', maxTokens: 64 }], timeout: 1000 },
        {
          filename: 'big.csv',
        },
      ),
    ).rejects.toMatchObject({ status: 408, code: 'SCRAPE_TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);
});
