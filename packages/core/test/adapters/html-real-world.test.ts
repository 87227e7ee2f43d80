import { describe, expect, it } from 'vitest';
import { parse } from '../../src/index.ts';
import { corpusFile, corpusSkipReason, fixture, hasCorpus } from '../helpers/corpus.ts';

/** Patterns of real-world pages that a lenient parser or a naive walk gets wrong (issue 17). */

const enc = (s: string) => new TextEncoder().encode(s);
const run = (bytes: Uint8Array, options: Record<string, unknown> = {}, filename = 'page.html') =>
  parse(bytes, options, { filename });

describe('html: malformed markup is built as a browser builds it', () => {
  it('keeps a table whose </CENTER> comes before its rows, with unclosed cells', async () => {
    const r = await run(fixture('html', 'malformed-table.html'));
    expect(r.markdown).toBe(
      [
        '## Chemical composition',
        '',
        '| C | Mn | Si | Cr | Ni | Mo | Fe |',
        '| --- | --- | --- | --- | --- | --- | --- |',
        '| 0.10 max | 0.50 max | 0.39 - 0.46 | 20.0 - 23.0 | 58.0 min | 8.0 - 10.0 | 5.0 max |',
        '| 0.05 | 0.20 | 0.40 | 21.5 | 61.0 | 9.0 | 3.9 |',
        '',
        'Typical values, weight per cent.',
        '',
        'Balance **nickel**.',
        '',
      ].join('\n'),
    );
    expect(r.metadata?.title).toBe('Alloy 625 data sheet');
  });
  it('applies the tree construction rules: p closed by a block, misnested inline marks, foster parenting', async () => {
    const md = (html: string) => run(enc(html)).then((r) => r.markdown);
    // A <div> cannot sit inside <p>: the paragraph ends before it.
    expect(await md('<p>one<div>two</div>three')).toBe('one\n\ntwo\n\nthree\n');
    // Misnested <b><i></b></i>: the adoption agency reopens the italic after the bold closes.
    const misnested = await run(enc('<p><b>a<i>x</b>y</i></p>'), { formats: ['html'] });
    expect(misnested.html).toBe('<p><b>a<i>x</i></b><i>y</i></p>');
    // Text directly inside <table> is moved in front of the table, not lost inside a row.
    expect(await md('<table>stray<tr><td>1</td><td>2</td></tr><tr><td>3</td><td>4</td></tr></table>')).toBe(
      'stray\n\n|  |  |\n| --- | --- |\n| 1 | 2 |\n| 3 | 4 |\n',
    );
  });
  it('reads XHTML empty elements as XML does: <title/> and <script/> do not swallow the page', async () => {
    const page =
      '<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title/>' +
      '<script type="text/javascript" src="a.js"/></head><body><p>Hi <a id="p5"/>there<br/>now</p>' +
      '<div class="x"/><p>Second</p><textarea/><p>Third</p></body></html>';
    expect((await run(enc(page), {}, 'chapter.xhtml')).markdown).toBe('Hi there  \nnow\n\nSecond\n\nThird\n');
  });
  it('keeps CSS selectors for includeTags and excludeTags working on the built DOM', async () => {
    const bytes = fixture('html', 'malformed-table.html');
    const only = await run(bytes, { includeTags: ['table[border] tr:nth-child(3)'] });
    // The row's cells are inline content once the table frame is not selected.
    expect(only.markdown).toBe('0.050.200.4021.561.09.03.9\n');
    const without = await run(bytes, { excludeTags: ['table[cellpadding="2"]'] });
    expect(without.markdown).not.toContain('58.0 min');
    expect(without.markdown).toContain('Typical values');
  });
});

describe('html: layout tables', () => {
  it('unwraps one-cell-per-row and block-holding frames, keeping the data table inside', async () => {
    const r = await run(fixture('html', 'layout-tables.html'));
    expect(r.markdown).toBe(
      [
        'Greenway Nurseries',
        '',
        '### Departments',
        '',
        '- Roses',
        '- Bulbs',
        '',
        '# Spring price list',
        '',
        'Prices include delivery.',
        '',
        'Orders close on 30 April.',
        '',
        '| Plant | Size | Price |',
        '| --- | --- | --- |',
        "| Rosa 'Gloire' | 2 l | 12.50 |",
        '| Tulip mix | 25 bulbs | 8.00 |',
        '',
        'Greenway Nurseries, Mill Lane',
        '',
      ].join('\n'),
    );
  });
  it('keeps one-column tables that have a header, and ordinary data tables', async () => {
    const md = (html: string) => run(enc(html)).then((r) => r.markdown);
    expect(await md('<table><tr><th>Members</th></tr><tr><td>Ann</td></tr><tr><td>Bo</td></tr></table>')).toBe(
      '| Members |\n| --- |\n| Ann |\n| Bo |\n',
    );
    expect(await md('<table><tr><td>Ann</td></tr><tr><td>Bo</td></tr></table>')).toBe('Ann\n\nBo\n');
    const lists = '<tr><td><ul><li>fast</li><li>small</li></ul></td><td><ul><li>new</li></ul></td></tr>';
    expect(await md(`<table><tr><th>Pros</th><th>Cons</th></tr>${lists}</table>`)).toBe(
      '| Pros | Cons |\n| --- | --- |\n| - fast<br>- small | - new |\n',
    );
    expect(await md(`<table>${lists}</table>`)).toBe('- fast\n- small\n\n- new\n');
    expect(await md('<table><tr><td><p>a</p></td><td>1</td></tr><tr><td>b</td><td>2</td></tr></table>')).toBe(
      '|  |  |\n| --- | --- |\n| a | 1 |\n| b | 2 |\n',
    );
  });
});

describe('html: a declared charset the bytes contradict', () => {
  it('decodes Windows-1252 bytes declared utf-8 instead of refusing them as binary', async () => {
    const r = await run(fixture('html', 'mislabelled-cp1252.html'));
    expect(r.markdown).toBe('# Café\n\nCrème costs 5 €, it’s für alle.\n');
    expect(r.metadata?.title).toBe('Café menu');
  });
  it('decodes Shift-JIS bytes declared utf-8', async () => {
    const r = await run(fixture('html', 'mislabelled-sjis.html'));
    expect(r.markdown).toBe('## 会議のお知らせ\n\n来週の月曜日に定例会議を行います。資料は事前に確認してください。\n');
  });
  it('decodes UTF-8 bytes declared iso-8859-1 without mojibake', async () => {
    const r = await run(fixture('html', 'mislabelled-utf8.html'));
    expect(r.markdown).toBe('Grüße aus Zürich – 20 °C, naïve café.\n');
    expect(r.metadata?.title).toBe('Zürich');
  });
  it.each([
    [
      'mislabelled-eucjp.html',
      '# 定例会議の議事録\n\n本日の会議では、来年度の予算と新しい事務所の場所について話し合いました。次回は来週の水曜日です。\n',
      'The page declares the encoding utf-8 but its bytes are euc-jp; it was read as euc-jp.',
    ],
    [
      'mislabelled-gbk.html',
      '# 关于会议的通知\n\n本周五下午三点在二楼会议室召开全体员工大会，请大家准时参加。会议内容包括年度工作总结和明年的计划。\n',
      'The page declares the encoding shift_jis but its bytes are gb18030; it was read as gb18030.',
    ],
    [
      'mislabelled-koi8r.html',
      '# Годовой отчёт\n\nВ этом году компания открыла два новых офиса и увеличила число сотрудников. Подробности в приложении.\n',
      'The page declares the encoding windows-1252 but its bytes are koi8-r; it was read as koi8-r.',
    ],
    [
      'mislabelled-utf16.html',
      '# Grüße aus Zürich\n\nDie Straße führt über die Brücke – 20 °C, naïve café.\n',
      'The page declares the encoding windows-1252 but its bytes are utf-16le; it was read as utf-16le.',
    ],
  ])('decodes %s by what its bytes are, and says which encoding it used', async (name, markdown, warning) => {
    // Before: EUC-JP under utf-8 and GBK under shift_jis were refused as "binary data, not a web
    // page"; KOI8-R under windows-1252 came out as accented Latin; none said what happened.
    const r = await parse(fixture('html', name), {}, { filename: name });
    expect(r.markdown).toBe(markdown);
    expect(r.warning).toBe(warning);
  });

  it('still follows a declaration the bytes agree with', async () => {
    expect((await run(fixture('html', 'cp1252.html'))).markdown).toContain('Crème');
  });
});

describe.skipIf(!hasCorpus)(`html: mislabelled real text${hasCorpus ? '' : ` (${corpusSkipReason})`}`, () => {
  it('reads the Shift-JIS text of test_mskanji.csv inside a page declaring utf-8', async () => {
    const sjis = corpusFile('markitdown', 'test_mskanji.csv');
    const head = enc('<html><head><meta charset="utf-8"></head><body><pre>');
    const tail = enc('</pre></body></html>');
    const page = new Uint8Array([...head, ...sjis, ...tail]);
    const md = (await run(page)).markdown ?? '';
    expect(md).toContain('名前,年齢,住所');
    expect(md).toContain('佐藤太郎,30,東京');
    expect(md).not.toContain('\ufffd');
  });
});

describe('headings carried by CSS only', () => {
  it('infers levels from a <style> element in a page without h1–h6', async () => {
    const r = await run(fixture('html', 'css-headings.html'));
    expect(r.markdown).toBe(
      [
        '# Quarterly report',
        '',
        '## Summary',
        '',
        'Revenue grew in every region this quarter, led by the northern stores.',
        '',
        'Costs stayed flat; the new warehouse opens in March.',
        '',
        '## Outlook',
        '',
        'We expect the same pace next quarter, with two more stores opening in the south.',
        '',
        '### Risks',
        '',
        'Supply of the main product line depends on a single factory.',
        '',
      ].join('\n'),
    );
  });
  it('infers them from the stylesheets an EPUB links, per chapter, leaving body-size bold alone', async () => {
    const r = await parse(fixture('epub', 'css-headings.epub'), {}, { filename: 'book.epub' });
    const md = r.markdown ?? '';
    expect(md.match(/^#+ .*$/gm)).toEqual([
      '# Chapter One: The Harbour',
      '## The Fishermen',
      '# Chapter Two: The Storm',
    ]);
    expect(md).toContain('\nBold words at body size are emphasis, not a heading.\n');
    // A subtitle set only slightly larger, in regular weight, stays a paragraph.
    expect(md).toContain('\nLate autumn\n');
  });
  it('leaves pages that have heading elements as the author wrote them', async () => {
    const page = '<style>.big{font-size:30px}</style><h2>Real</h2><p class="big">Large lead</p><p>Body text here.</p>';
    expect((await run(enc(page))).markdown).toBe('## Real\n\nLarge lead\n\nBody text here.\n');
  });
  it('ignores remote stylesheets of web pages and survives hostile CSS', async () => {
    const hostile = `<style>${'@media x{'.repeat(5000)}.t{font-size:40px}${'}'.repeat(5000)}/* open comment ${'a{b:c}'.repeat(200000)}</style>`;
    const page = `${hostile}<link rel="stylesheet" href="https://cdn.example/site.css"><p class="t">Title?</p><p>Body text of the page.</p>`;
    expect((await run(enc(page))).markdown).toBe('Title?\n\nBody text of the page.\n');
  });
});
