import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { type LayoutItem, type ParseData, parse, parseTree } from '../../src/index.ts';
import { selectAll } from '../../src/tree/walk.ts';
import { docx, W } from '../helpers/docx-build.ts';

/**
 * The pages Word (`w:lastRenderedPageBreak`) and LibreOffice (`text:soft-page-break`) record, in the
 * places their marks are hard to read: runs that are links or code, table rows split over pages,
 * equations, notes, typewriter paragraphs.
 */

const M = 'http://schemas.openxmlformats.org/officeDocument/2006/math';
const words = (from: number, n: number) => Array.from({ length: n }, (_, i) => `word${from + i}`).join(' ');
const BRK = '<w:lastRenderedPageBreak/>';
const run = (t: string, props = '', brk = false) =>
  `<w:r>${props ? `<w:rPr>${props}</w:rPr>` : ''}${brk ? BRK : ''}<w:t xml:space="preserve">${t}</w:t></w:r>`;
const para = (inner: string) => `<w:p>${inner}</w:p>`;
const cell = (inner: string) => `<w:tc>${para(inner)}</w:tc>`;
const row = (...cells: string[]) => `<w:tr>${cells.map(cell).join('')}</w:tr>`;

async function word(body: string, parts: Record<string, string> = {}): Promise<Uint8Array> {
  const bytes = await docx(body, parts);
  // The math namespace the equations need, beside the helper's placeholder prefixes.
  const zip = await JSZip.loadAsync(bytes);
  const doc = (await zip.file('word/document.xml')?.async('string')) ?? '';
  zip.file('word/document.xml', doc.replace('xmlns:m="m"', `xmlns:m="${M}"`));
  return zip.generateAsync({ type: 'uint8array' });
}

async function odt(inner: string): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file('mimetype', 'application/vnd.oasis.opendocument.text', { compression: 'STORE' });
  zip.file('META-INF/manifest.xml', '<manifest:manifest xmlns:manifest="m"/>');
  zip.file(
    'content.xml',
    `<office:document-content xmlns:office="o" xmlns:text="t" xmlns:table="tb" xmlns:xlink="x"><office:body><office:text>${inner}</office:text></office:body></office:document-content>`,
  );
  return zip.generateAsync({ type: 'uint8array' });
}

const read = (bytes: Uint8Array, filename: string): Promise<ParseData> =>
  parse(bytes, { formats: ['markdown'], parsers: [{ type: 'pdf', blocks: true }] }, { filename });

const items = (data: ParseData): (LayoutItem & { page: number })[] =>
  (data.blocks ?? []).flatMap((g) => g.items.map((i) => ({ ...i, page: g.pageNumber })));

/** Each later page's part of a block: its page and the text it starts with. */
const parts = (item: LayoutItem | undefined, length = 12) =>
  (item?.continued ?? []).map((p) => [
    p.pageNumber,
    p.offset === undefined ? item?.content.split('\n')[p.line] : item?.content.slice(p.offset, p.offset + length),
  ]);

describe('DOCX: rendered page breaks inside runs', () => {
  it('keeps a link or a code span whole in the Markdown when the page turns inside it', async () => {
    const link = `<w:hyperlink w:anchor="top">${run('click ')}${run('here now', '', true)}</w:hyperlink>`;
    const mono = '<w:rFonts w:ascii="Courier New" w:hAnsi="Courier New"/>';
    const body = [
      para(run('Intro text.')),
      para(`${run('Alpha ')}${link}${run(' and more.')}`),
      para(`${run('Code: ')}${run('foo(', mono)}${run('bar)', mono, true)}${run(' end.')}`),
    ].join('');
    const data = await read(await word(body), 'runs.docx');
    expect(data.markdown).toBe('Intro text.\n\nAlpha [click here now](#top) and more.\n\nCode: `foo(bar)` end.\n');
    const [, linked, coded] = items(data);
    expect(parts(linked)).toEqual([[2, 'here now](#t']]);
    expect(parts(coded)).toEqual([[3, 'bar)` end.']]);
  });

  it('gives a paragraph set in a typewriter face, equations and the parts after them their pages', async () => {
    const mono = '<w:rFonts w:ascii="Courier New" w:hAnsi="Courier New"/>';
    const eq = (t: string) => `<m:oMath><m:r><m:t>${t}</m:t></m:r></m:oMath>`;
    const body = [
      para(run('Intro.')),
      para(`${run(`${words(0, 30)} `, mono)}${run(words(30, 30), mono, true)}`),
      // The page turns inside the text before a display equation: the equation and what follows are on it.
      para(
        `${run(`${words(100, 20)} `)}${run(words(120, 20), '', true)}<m:oMathPara>${eq('a=b')}</m:oMathPara>${run('after the equation')}`,
      ),
      // An equation opens the paragraph; the page turns before the text after it.
      para(`${eq('E=mc^2')}${run(` ${words(200, 20)}`, '', true)}`),
      para(run('Closing.')),
    ].join('');
    const data = await read(await word(body), 'math.docx');
    const all = items(data);
    const typewriter = all.find((i) => i.content.startsWith('word0 '));
    expect(parts(typewriter)).toEqual([[2, 'word30 word3']]);
    expect(all.filter((i) => i.page === 3).map((i) => i.content.slice(0, 18))).toEqual([
      '$$\na=b\n$$',
      'after the equation',
      '$E=mc^2$ word200 w',
    ]);
    expect(parts(all.find((i) => i.content.startsWith('word100')))).toEqual([[3, 'word120 word']]);
    expect(parts(all.find((i) => i.content.startsWith('$E=mc^2$')))).toEqual([[4, 'word200 word']]);
    expect(all.at(-1)).toMatchObject({ content: 'Closing.', page: 4 });
  });

  it('keeps no page marks in headings or list items, where no part would use them', async () => {
    const body = `${para(run('Intro.'))}<w:p><w:pPr><w:outlineLvl w:val="0"/></w:pPr>${run('A long heading ')}${run('continued', '', true)}</w:p>${para(run('Body.'))}`;
    const { tree } = await parseTree(await word(body), {}, { filename: 'heading.docx' });
    const texts = selectAll(tree, 'text');
    expect(texts.map((t) => t.value).join('')).toContain('A long heading continued');
    expect(texts.filter((t) => t.data?.continuedOn)).toEqual([]);
    const data = await read(await word(body), 'heading.docx');
    expect(items(data).map((i) => [i.page, i.content])).toEqual([
      [1, 'Intro.'],
      [1, '# A long heading continued'],
      [2, 'Body.'],
    ]);
  });
});

describe('DOCX: table rows over pages', () => {
  it('counts a split row once, its cells and the row that goes on marked again', async () => {
    // Word marks a split row's break after the text in some cells and at the start of others, and
    // again at the start of the next row: one break.
    const split = `<w:tr>${cell(run('r1'))}${cell(`${run('top ')}${run('bottom', '', true)}`)}${cell(run('whole', '', true))}</w:tr>`;
    const body = [
      para(run('Before.')),
      `<w:tbl>${row(run('Item'), run('Note'), run('More'))}${split}${row(run('r2', '', true), run('x', '', true), run('y'))}${row(run('r3'), run('z'), run('w'))}</w:tbl>`,
      para(run('After.')),
    ].join('');
    const data = await read(await word(body), 'split.docx');
    const table = items(data).find((i) => i.type === 'table');
    expect(parts(table)).toEqual([[2, '| r2 | x | y |']]);
    expect(items(data).at(-1)).toMatchObject({ content: 'After.', page: 2 });
  });

  it('keeps a table whose first row is split on the page it starts on; consecutive split rows are two breaks', async () => {
    const splitRow = (a: string) =>
      `<w:tr>${cell(`${run(`${a} top `)}${run(`${a} bottom`, '', true)}`)}${cell(run('x'))}</w:tr>`;
    const body = [
      para(run('Before.')),
      `<w:tbl>${splitRow('r1')}${splitRow('r2')}${row(run('r3', '', true), run('z', '', true))}</w:tbl>`,
      para(run('After.')),
    ].join('');
    const data = await read(await word(body), 'rows.docx');
    const table = items(data).find((i) => i.type === 'table');
    expect(table?.page).toBe(1);
    expect(parts(table)).toEqual([
      [2, '| r2 top r2 bottom | x |'],
      [3, '| r3 | z |'],
    ]);
    expect(items(data).at(-1)).toMatchObject({ content: 'After.', page: 3 });
  });
});

describe('notes on the pages they are printed on', () => {
  it('DOCX: a footnote in a row on page two is there, the endnote after a table over pages on its last', async () => {
    const note = (kind: string, t: string) =>
      `<w:${kind}s xmlns:w="${W}"><w:${kind} w:id="2">${para(run(t))}</w:${kind}></w:${kind}s>`;
    const body = [
      para(`${run('Intro')}<w:r><w:endnoteReference w:id="2"/></w:r>`),
      `<w:tbl>${row(run('h1'), run('h2'))}${row(run('a'), run('b'))}${row(run('c', '', true), `${run('d', '', true)}<w:r><w:footnoteReference w:id="2"/></w:r>`)}</w:tbl>`,
    ].join('');
    const data = await read(
      await word(body, {
        'word/footnotes.xml': note('footnote', 'Footnote in a row on page two.'),
        'word/endnotes.xml': note('endnote', 'Endnote printed at the end.'),
      }),
      'notes.docx',
    );
    expect(
      items(data)
        .filter((i) => i.type === 'footnoteDefinition')
        .map((i) => [i.page, i.content]),
    ).toEqual([
      [2, '[^1]: Endnote printed at the end.'],
      [2, '[^2]: Footnote in a row on page two.'],
    ]);
  });

  it('ODT: a footnote in a row on page two, and the endnote after it, are on page two', async () => {
    const note = (cls: string, id: string, t: string) =>
      `<text:note text:id="${id}" text:note-class="${cls}"><text:note-citation>${id}</text:note-citation><text:note-body><text:p>${t}</text:p></text:note-body></text:note>`;
    const cellOf = (t: string) => `<table:table-cell><text:p>${t}</text:p></table:table-cell>`;
    const data = await read(
      await odt(
        `<text:p>Intro${note('endnote', 'i', 'An endnote.')}</text:p><table:table>` +
          `<table:table-row>${cellOf('a')}${cellOf('b')}</table:table-row><text:soft-page-break/>` +
          `<table:table-row>${cellOf('c')}${cellOf(`d${note('footnote', '1', 'Foot on page two.')}`)}</table:table-row></table:table>`,
      ),
      'notes.odt',
    );
    expect(
      items(data)
        .filter((i) => i.type === 'footnoteDefinition')
        .map((i) => [i.page, i.content]),
    ).toEqual([
      [2, '[^i]: An endnote.'],
      [2, '[^1]: Foot on page two.'],
    ]);
  });
});

describe('the page turning inside links, headings, list items and lifted headings', () => {
  const turn = '<text:soft-page-break/>';

  it('ODT: a link the page turns in twice starts two parts, the Markdown one link', async () => {
    const content =
      `<text:p>${words(0, 5)} <text:a xlink:href="https://example.com/">${words(5, 5)} ${turn}${words(10, 5)} ${turn}${words(15, 5)}</text:a> ${words(20, 5)}</text:p>` +
      `<text:h text:outline-level="1">Head <text:a xlink:href="https://h.example/">link ${turn}over</text:a> ${turn}more</text:h>` +
      '<text:p>After heading.</text:p>';
    const data = await read(await odt(content), 'twice.odt');
    expect(data.markdown).toBe(
      `${words(0, 5)} [${words(5, 15)}](https://example.com/) ${words(20, 5)}\n\n# Head [link over](https://h.example/) more\n\nAfter heading.\n`,
    );
    const [linked, head, after] = items(data);
    expect(parts(linked)).toEqual([
      [2, 'word10 word1'],
      [3, 'word15 word1'],
    ]);
    expect(head).toMatchObject({ page: 3 });
    expect(head?.continued).toBeUndefined();
    // The heading's own two turns: it runs from page three to five.
    expect(after).toMatchObject({ page: 5 });
  });

  it('DOCX: a heading whose link the page turns in stays one link', async () => {
    const body = `${para(run('Intro.'))}<w:p><w:pPr><w:outlineLvl w:val="0"/></w:pPr><w:hyperlink w:anchor="x">${run('Head ')}${run('ing', '', true)}</w:hyperlink></w:p>${para(run('After.'))}`;
    const data = await read(await word(body), 'heading-link.docx');
    expect(data.markdown).toBe('Intro.\n\n# [Head ing](#x)\n\nAfter.\n');
    expect(items(data).map((i) => i.page)).toEqual([1, 1, 2]);
  });

  it("ODT: a note in a list item is on its item's page; headings lifted out of a list keep their items' pages", async () => {
    const note = (id: string, t: string) =>
      `<text:note text:id="${id}" text:note-class="footnote"><text:note-citation>${id}</text:note-citation><text:note-body><text:p>${t}</text:p></text:note-body></text:note>`;
    const item = (inner: string) => `<text:list-item>${inner}</text:list-item>`;
    const content =
      `<text:p>Intro.</text:p><text:list>${item('<text:p>one</text:p>')}${item(`<text:p>${turn}two${note('1', 'Foot on two.')}</text:p>`)}</text:list>` +
      `<text:list>${item('<text:h text:outline-level="1">First</text:h><text:p>Body one.</text:p>')}${item(`<text:h text:outline-level="1">${turn}Second</text:h><text:p>Body two.</text:p>`)}</text:list>`;
    const data = await read(await odt(content), 'list-notes.odt');
    expect(items(data).map((i) => [i.page, i.content])).toEqual([
      [1, 'Intro.'],
      [1, '- one\n- two[^1]'],
      [2, '# First'],
      [2, 'Body one.'],
      [3, '# Second'],
      [3, 'Body two.'],
      [2, '[^1]: Foot on two.'],
    ]);
  });

  it('DOCX: an endnote after a list item the page turns in is on the last page', async () => {
    const numbering = `<w:numbering xmlns:w="${W}"><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="-"/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>`;
    const endnotes = `<w:endnotes xmlns:w="${W}"><w:endnote w:id="2">${para(run('The endnote.'))}</w:endnote></w:endnotes>`;
    const body = `${para(`${run('Intro')}<w:r><w:endnoteReference w:id="2"/></w:r>`)}<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr>${run('last item ')}${run('runs onto page two', '', true)}</w:p>`;
    const data = await read(
      await word(body, { 'word/numbering.xml': numbering, 'word/endnotes.xml': endnotes }),
      'end.docx',
    );
    expect(items(data).map((i) => [i.page, i.type])).toEqual([
      [1, 'paragraph'],
      [1, 'list'],
      [2, 'footnoteDefinition'],
    ]);
  });
});

describe('ODT: soft page breaks inside links and split rows', () => {
  it('starts a part inside a link where the page turns, and counts a row split in every cell once', async () => {
    const cellOf = (t: string) => `<table:table-cell><text:p>${t}</text:p></table:table-cell>`;
    const turn = '<text:soft-page-break/>';
    const content =
      `<text:p>${words(0, 30)} <text:a xlink:href="https://example.com/">${words(30, 5)} ${turn}${words(35, 5)}</text:a> ${words(40, 10)}</text:p>` +
      // LibreOffice writes a split row's break in every cell.
      `<table:table><table:table-row>${cellOf('h')}${cellOf('h2')}</table:table-row>` +
      `<table:table-row>${cellOf(`top a${turn}bottom a`)}${cellOf(`top b${turn}bottom b`)}</table:table-row>` +
      `<table:table-row>${cellOf('c')}${cellOf('d')}</table:table-row></table:table><text:p>After.</text:p>`;
    const data = await read(await odt(content), 'links.odt');
    const [linked, table, after] = items(data);
    expect(data.markdown).toContain(`[${words(30, 10)}](https://example.com/)`);
    expect(parts(linked, 8)).toEqual([[2, 'word35 w']]);
    expect(parts(table)).toEqual([[3, '| c | d |']]);
    expect(after).toMatchObject({ content: 'After.', page: 3 });
  });
});
