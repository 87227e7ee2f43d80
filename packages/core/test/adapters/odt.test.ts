import { readFileSync } from 'node:fs';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { parse, parseTree } from '../../src/index.ts';
import type { Block, Image } from '../../src/tree/types.ts';
import { corpusPairs, corpusSkipReason, fixture, hasCorpus } from '../helpers/corpus.ts';
import { errorOf } from '../helpers/errors.ts';
import { headingF1, headingsOf, mean, tableNeighbourF1, tablesOf, textSimilarity } from '../helpers/metrics.ts';

const md = async (bytes: Uint8Array, filename: string, options = {}) =>
  (await parse(bytes, options, { filename })).markdown ?? '';

const FIXTURE_MD = [
  '# Field report',
  '',
  '# Summary',
  '',
  'Revenue grew **strongly** in *Q3*, not ~~Q2~~. Run `make report` or read [the report](https://example.com/report).[^1]',
  '',
  'E = mc<sup>2</sup> and H<sub>2</sub>O. Spaced out  ',
  'next line continues.',
  '',
  '## Plans',
  '',
  '1. Hire staff',
  '2. Open office',
  '   - Berlin',
  '   - Lisbon',
  '',
  'Between the lists.',
  '',
  '3. Sign lease',
  '',
  '1. Restarted',
  '',
  '7. Jumped to seven',
  '',
  '- Risks',
  '  1. Budget',
  '  2. Timing',
  '',
  '| Region | Q1 | Q2 |',
  '| --- | --- | --- |',
  '| North and South | North and South | 12 |',
  '| West | 5 | 6 |',
  '| West | 7 | 8 |',
  '',
  '![Company logo](<Base64-Image-Removed>)',
  '',
  'See box:',
  '',
  'Boxed text',
  '',
  '```',
  'let x = 1;',
  'let y = 2;',
  '```',
  '',
  '## Appendix',
  '',
  'Closing words.[^i]',
  '',
  '[^1]: Audited figures.',
  '',
  '[^i]: An endnote.',
  '',
].join('\n');

async function odt(content: string, extra: Record<string, string> = {}): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file('mimetype', 'application/vnd.oasis.opendocument.text', { compression: 'STORE' });
  zip.file('META-INF/manifest.xml', extra['META-INF/manifest.xml'] ?? '<manifest:manifest xmlns:manifest="m"/>');
  if (content) zip.file('content.xml', content);
  for (const [k, v] of Object.entries(extra)) if (k !== 'META-INF/manifest.xml') zip.file(k, v);
  return zip.generateAsync({ type: 'uint8array' });
}

const body = (inner: string) =>
  `<office:document-content xmlns:office="o" xmlns:text="t" xmlns:table="tb"><office:body><office:text>${inner}</office:text></office:body></office:document-content>`;

describe('odt adapter: monospaced faces', () => {
  it('takes a face declared of variable pitch for prose, whatever its name, and one declared fixed for code', async () => {
    const ns =
      'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"';
    const face = (name: string, pitch: string) =>
      `<style:font-face style:name="${name}" svg:font-family="'${name}'" style:font-pitch="${pitch}"/>`;
    const style = (name: string, font: string) =>
      `<style:style style:name="${name}" style:family="paragraph"><style:text-properties style:font-name="${font}"/></style:style>`;
    const content = `<office:document-content ${ns}><office:font-face-decls>${face('American Typewriter', 'variable')}${face('Liberation Mono', 'fixed')}</office:font-face-decls><office:automatic-styles>${style('P1', 'American Typewriter')}${style('P2', 'Liberation Mono')}</office:automatic-styles><office:body><office:text><text:p text:style-name="P1">Dear Ann,</text:p><text:p text:style-name="P1">Thank you for the flowers.</text:p><text:p text:style-name="P2">x = f(y);</text:p></office:text></office:body></office:document-content>`;
    expect(await md(await odt(content), 'letter.odt')).toBe(
      'Dear Ann,\n\nThank you for the flowers.\n\n```\nx = f(y);\n```\n',
    );
  });
});

describe('odt adapter: fixture', () => {
  const bytes = fixture('odt', 'basic.odt');

  it('renders headings, lists with restarts, merged cells, notes, frames and code exactly', async () => {
    expect(await md(bytes, 'basic.odt')).toBe(FIXTURE_MD);
  });

  it('leaves out tracked deletions, annotations and page headers/footers by default', async () => {
    const out = await md(bytes, 'basic.odt');
    for (const hidden of ['Deleted words', 'Check this claim', 'ACME Corp', 'Page footer'])
      expect(out).not.toContain(hidden);
  });

  it('puts master-page headers first and footers last when onlyMainContent is false', async () => {
    const out = await md(bytes, 'basic.odt', { onlyMainContent: false });
    expect(out.startsWith('ACME Corp confidential\n\n# Field report')).toBe(true);
    expect(out.endsWith('[^i]: An endnote.\n\n*Page footer*\n')).toBe(true);
  });

  it('reads meta.xml', async () => {
    const { metadata } = await parse(bytes, {}, { filename: 'basic.odt' });
    expect(metadata).toMatchObject({
      title: 'Field report',
      description: 'Fixture for the ODF adapters',
      language: 'en-GB',
      keywords: 'fixture, odf',
      author: 'Ada Writer',
      numPages: 2,
    });
  });

  it('keeps images as references, or data URIs when base64 images are wanted', async () => {
    const { tree } = await parseTree(bytes, {}, { filename: 'basic.odt' });
    const para = tree.children.find(
      (b): b is Extract<Block, { type: 'paragraph' }> => b.type === 'paragraph' && b.children[0]?.type === 'image',
    );
    const img = para?.children[0] as Image;
    expect(img).toMatchObject({ alt: 'Company logo', ref: 'Pictures/logo.png', mime: 'image/png' });
    const out = await md(bytes, 'basic.odt', { removeBase64Images: false });
    expect(out).toContain('![Company logo](data:image/png;base64,iVBORw0KGgo');
  });
});

describe('odt adapter: structure', () => {
  it('takes headings from paragraph styles with a default outline level', async () => {
    const styles =
      '<office:document-styles xmlns:office="o" xmlns:style="s"><office:styles><style:style style:name="H2" style:family="paragraph" style:default-outline-level="3"/></office:styles></office:document-styles>';
    const out = await md(
      await odt(body('<text:p text:style-name="H2">Deep</text:p><text:p>Body</text:p>'), { 'styles.xml': styles }),
      'x.odt',
    );
    expect(out).toBe('### Deep\n\nBody\n');
  });

  it('continues numbering through continue-list and nests bare items under the previous list', async () => {
    const styles =
      '<office:document-styles xmlns:office="o" xmlns:style="s" xmlns:text="t"><office:styles><text:list-style style:name="N"><text:list-level-style-number text:level="1" style:num-format="1"/></text:list-style></office:styles></office:document-styles>';
    const content = body(
      '<text:list text:style-name="N" xml:id="a"><text:list-item><text:p>one</text:p></text:list-item></text:list>' +
        '<text:list text:style-name="N"><text:list-item><text:p>other</text:p></text:list-item></text:list>' +
        '<text:list text:style-name="N" text:continue-list="a"><text:list-item><text:p>two</text:p></text:list-item></text:list>' +
        '<text:list><text:list-item><text:list><text:list-item><text:p>child</text:p></text:list-item></text:list></text:list-item></text:list>',
    );
    expect(await md(await odt(content, { 'styles.xml': styles }), 'x.odt')).toBe(
      '1. one\n\n1. other\n\n2. two\n   - child\n',
    );
  });

  it('lifts outline-numbered headings out of their list wrappers', async () => {
    const content = body(
      '<text:list><text:list-item><text:h text:outline-level="1">Intro</text:h><text:list><text:list-item><text:h text:outline-level="2">Scope</text:h></text:list-item></text:list></text:list-item></text:list><text:p>Body</text:p>',
    );
    expect(await md(await odt(content), 'x.odt')).toBe('# Intro\n\n## Scope\n\nBody\n');
  });

  it('marks declared header rows and skips covered cells that spans reach', async () => {
    const content = body(
      '<table:table><table:table-header-rows><table:table-row><table:table-cell><text:p>A</text:p></table:table-cell><table:table-cell><text:p>B</text:p></table:table-cell></table:table-row></table:table-header-rows>' +
        '<table:table-row><table:table-cell table:number-columns-spanned="2"><text:p>wide</text:p></table:table-cell><table:covered-table-cell/></table:table-row>' +
        '<table:table-row><table:table-cell><text:p>x</text:p></table:table-cell><table:table-cell><table:table><table:table-row><table:table-cell><text:p>in</text:p></table:table-cell></table:table-row></table:table></table:table-cell></table:table-row>' +
        '<table:table-row table:number-rows-repeated="40"><table:table-cell table:number-columns-repeated="2"/></table:table-row></table:table>',
    );
    expect(await md(await odt(content), 'x.odt')).toBe('| A | B |\n| --- | --- |\n| wide | wide |\n| x | in |\n');
  });

  it("gives blocks and chunks the pages of LibreOffice's soft page breaks, a paragraph's later part its own", async () => {
    const words = (from: number, n: number) => Array.from({ length: n }, (_, i) => `word${from + i}`).join(' ');
    const turn = '<text:soft-page-break/>';
    const content = body(
      '<text:sequence-decls/><text:h text:outline-level="1">Report</text:h>' +
        `<text:p>${words(0, 40)} ${turn}<text:a xlink:href="https://example.com/">${words(40, 10)}</text:a> ${words(50, 30)}</text:p>` +
        `${turn}<text:p>${words(80, 10)}</text:p>` +
        // Headings that open a page after the break inside them start on that page.
        `<text:h text:outline-level="2">${turn}Later</text:h><text:p>Closing paragraph.</text:p>`,
    ).replace('xmlns:text="t"', 'xmlns:text="t" xmlns:xlink="x"');
    const data = await parse(
      await odt(content),
      { formats: ['markdown', { type: 'chunks', maxTokens: 24 }], parsers: [{ type: 'pdf', blocks: true }] },
      { filename: 'paged.odt' },
    );
    expect(data.blocks?.map((g) => [g.kind, g.pageNumber, g.items.map((i) => i.content.slice(0, 9))])).toEqual([
      ['page', 1, ['# Report', 'word0 wor']],
      ['page', 3, ['word80 wo']],
      ['page', 4, ['## Later', 'Closing p']],
    ]);
    const long = data.blocks?.[0]?.items[1];
    expect(long?.continued?.map((p) => [p.pageNumber, long.content.slice(p.offset, (p.offset ?? 0) + 15)])).toEqual([
      [2, '[word40 word41 '],
    ]);
    const pagesOf = (w: string) =>
      data.chunks?.filter((c) => new RegExp(`\\b${w}\\b`).test(c.text)).map((c) => c.pages) ?? [];
    expect(pagesOf('word0')).toEqual([[1]]);
    expect(pagesOf('word60')).toEqual([[2]]);
    expect(pagesOf('word85')).toEqual([[3]]);
    expect(pagesOf('Closing')).toEqual([[4]]);
    // Without soft page breaks (other writers) there are no pages to give.
    const plain = await parse(
      await odt(body('<text:p>Only text.</text:p>')),
      { formats: [{ type: 'chunks', maxTokens: 24 }] },
      { filename: 'flat.odt' },
    );
    expect(plain.chunks?.map((c) => c.pages)).toEqual([undefined]);
  });

  it('gives the paragraphs of a section and the rows of a table over pages their own pages', async () => {
    const turn = '<text:soft-page-break/>';
    const row = (a: string, b: string) =>
      `<table:table-row><table:table-cell><text:p>${a}</text:p></table:table-cell><table:table-cell><text:p>${b}</text:p></table:table-cell></table:table-row>`;
    const content = body(
      '<text:section text:name="Intro"><text:p>First page of the section.</text:p>' +
        `${turn}<text:p>Second page of the section.</text:p></text:section>` +
        `<table:table><table:table-header-rows>${row('Item', 'Note')}</table:table-header-rows>` +
        `${row('alpha', 'first')}${turn}${row('beta', 'second')}${row('gamma', 'third')}</table:table>`,
    );
    const data = await parse(
      await odt(content),
      { formats: ['markdown'], parsers: [{ type: 'pdf', blocks: true }] },
      { filename: 'sections.odt' },
    );
    expect(data.blocks?.map((g) => [g.pageNumber, g.items.map((i) => i.content.split('\n')[0])])).toEqual([
      [1, ['First page of the section.']],
      [2, ['Second page of the section.', '| Item | Note |']],
    ]);
    const table = data.blocks?.[1]?.items[1];
    // The table starts on page two after the section; the break between its rows opens page three.
    expect(table?.continued?.map((p) => [p.pageNumber, table.content.split('\n')[p.line]])).toEqual([
      [3, '| beta | second |'],
    ]);
    const split = await parse(
      await odt(body(`<text:p>Before.</text:p><table:table>${row('a', '1')}${turn}${row('b', '2')}</table:table>`)),
      { formats: ['markdown'], parsers: [{ type: 'pdf', blocks: true }] },
      { filename: 'rows.odt' },
    );
    const rows = split.blocks?.[0]?.items[1];
    expect(rows?.continued?.map((p) => [p.pageNumber, rows.content.split('\n')[p.line]])).toEqual([[2, '| b | 2 |']]);
  });

  it('gives the items of a list over pages their own pages, nested ones too', async () => {
    const turn = '<text:soft-page-break/>';
    const item = (t: string, inner = '') => `<text:list-item><text:p>${t}</text:p>${inner}</text:list-item>`;
    const content = body(
      '<text:p>Steps.</text:p><text:list>' +
        item('Unpack the parts.') +
        // LibreOffice writes the break inside the paragraph an item starts with.
        item(
          `${turn}Fix the plate.`,
          `<text:list>${item('Use the long screws.')}${item(`${turn}Check it is level.`)}</text:list>`,
        ) +
        item('Switch on.') +
        '</text:list>',
    );
    const data = await parse(
      await odt(content),
      { formats: ['markdown', { type: 'chunks', maxTokens: 16 }], parsers: [{ type: 'pdf', blocks: true }] },
      { filename: 'list.odt' },
    );
    const list = data.blocks?.[0]?.items[1];
    const lines = list?.content.split('\n') ?? [];
    expect(list?.continued?.map((p) => [p.pageNumber, lines[p.line]])).toEqual([
      [2, '- Fix the plate.'],
      [3, '  - Check it is level.'],
    ]);
    expect(data.chunks?.find((c) => c.text.includes('Switch on'))?.pages).toEqual([3]);
  });

  it('refuses encrypted, incomplete and malformed packages with a clear 400', async () => {
    const encrypted = await odt(body('<text:p>secret</text:p>'), {
      'META-INF/manifest.xml':
        '<manifest:manifest xmlns:manifest="m"><manifest:file-entry manifest:full-path="content.xml"><manifest:encryption-data/></manifest:file-entry></manifest:manifest>',
    });
    const e1 = await errorOf(parse(encrypted, {}, { filename: 'x.odt' }));
    expect(e1.status).toBe(400);
    expect(e1.message).toMatch(/password|encrypt/i);
    const e2 = await errorOf(parse(await odt(''), {}, { filename: 'x.odt' }));
    expect([e2.status, e2.message]).toEqual([400, expect.stringMatching(/content\.xml/)]);
    const e3 = await errorOf(parse(await odt('<office:document-content><office:body>'), {}, { filename: 'x.odt' }));
    expect(e3.status).toBe(400);
    const e4 = await errorOf(
      parse(
        await odt(body('').replace('office:text', 'office:spreadsheet').replace('office:text', 'office:spreadsheet')),
        {},
        { filename: 'x.odt' },
      ),
    );
    expect(e4.message).toMatch(/office:text/);
  });
});

describe.skipIf(!hasCorpus)(`odt adapter: docling corpus (${hasCorpus ? 'present' : corpusSkipReason})`, () => {
  const pairs = corpusPairs('docling/odf/sources', '.odt');

  it('finds the corpus files', () => {
    expect(pairs.map((p) => p.name)).toEqual(['text_document_01.odt', 'text_document_02.odt', 'text_document_03.odt']);
  });

  const convert = async (name: string) => {
    const pair = pairs.find((p) => p.name === name);
    if (!pair) throw new Error(`missing ${name}`);
    return { out: await md(new Uint8Array(readFileSync(pair.path)), name), truth: pair.truth ?? '' };
  };

  it('text_document_01: headings in order, nested list merged, inline marks', async () => {
    const { out } = await convert('text_document_01.odt');
    expect(headingsOf(out)).toEqual([
      'title',
      'subtitle',
      'heading level 1 0',
      'heading level 2 a',
      'heading level 2 b',
    ]);
    expect(out).toContain('2. numbered list 2\n   - bullet list 2.1\n   - bullet list 2.2\n     - bullet list 2.2.1');
    expect(out).toContain('3. numbered list 3\n   - bullet list 3.0.1');
    expect(out).toContain('**Lorem Ipsum is not simply random text**');
    expect(out).toContain('~~The Extremes of Good and Evil~~');
    expect(out).toContain('X<sup>2</sup> + Y<sub>2</sub> = Z');
  });

  it('text_document_02: merged cells and the chart data table', async () => {
    const { out } = await convert('text_document_02.odt');
    const [merged, chart] = tablesOf(out);
    expect(merged?.[1]).toEqual([
      'merged row',
      'merged row',
      'cell 1.3',
      'cell 1.4',
      'cell 1.5',
      'cell 1.6',
      'cell 1.7',
    ]);
    expect(merged?.[2]).toEqual(['', '', 'merged cell 2x2', 'merged cell 2x2', '', 'merged column', '']);
    expect(chart?.[0]).toEqual(['', 'column 1', 'column 2', 'column 3']);
    expect(chart?.[4]).toEqual(['row 4', '4.3', '9.02', '6.2']);
    expect(out).toContain('![Bar chart]');
  });

  it('text_document_03: rich cells, nested tables, pictures and lists in cells', async () => {
    const { out } = await convert('text_document_03.odt');
    const tables = tablesOf(out);
    expect(tables).toHaveLength(7);
    expect(tables[0]?.[2]).toEqual([
      'this is a list - a first - a second - a third',
      'this is a formatted list - b first - b second - b third',
    ]);
    expect(tables[1]?.[3]?.[0]).toBe('a b c cell 1 cell 2 cell 3');
    expect(tables[2]?.[2]).toEqual(['only text', 'owner avatar']);
    expect(headingsOf(out)[0]).toBe('table with rich cells');
    expect(out).toContain('After table with **bold**, underline, ~~strikethrough~~, and *italic* formatting');
  });

  it("text_document_03: the page LibreOffice's layout started at 'Lists with same numId'", async () => {
    const name = 'text_document_03.odt';
    const bytes = new Uint8Array(
      readFileSync(corpusPairs('docling/odf/sources').find((p) => p.name === name)?.path ?? ''),
    );
    const data = await parse(
      bytes,
      { formats: ['markdown'], parsers: [{ type: 'pdf', blocks: true }] },
      { filename: name },
    );
    const first = (page: number) => data.blocks?.find((g) => g.pageNumber === page)?.items[0]?.content;
    expect(data.blocks?.map((g) => g.pageNumber)).toEqual([1, 2]);
    expect(first(1)).toBe('## Table with rich cells');
    expect(first(2)).toBe('## Lists with same numId in different cells');
  });

  it('meets the format targets (text ≥ 0.93, tables ≥ 0.85, headings ≥ 0.9)', async () => {
    const scores = await Promise.all(
      pairs.map(async (p) => {
        const { out, truth } = await convert(p.name);
        return {
          text: textSimilarity(out, truth),
          table: tableNeighbourF1(out, truth),
          heading: headingF1(out, truth),
        };
      }),
    );
    expect(mean(scores.map((s) => s.text))).toBeGreaterThanOrEqual(0.93);
    expect(mean(scores.map((s) => s.table))).toBeGreaterThanOrEqual(0.85);
    expect(mean(scores.map((s) => s.heading))).toBeGreaterThanOrEqual(0.9);
  });
});
