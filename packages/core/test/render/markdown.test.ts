import { describe, expect, it } from 'vitest';
import { renderHtml, renderMarkdown } from '../../src/index.ts';
import {
  blockquote,
  cell,
  code,
  heading,
  image,
  link,
  list,
  listItem,
  paragraph,
  root,
  row,
  table,
  text,
} from '../../src/tree/build.ts';
import type { Block } from '../../src/tree/types.ts';

const md = (...blocks: Block[]) => renderMarkdown(root(blocks));

describe('markdown renderer', () => {
  it('renders ATX headings, paragraphs and inline marks', () => {
    expect(
      md(
        heading(1, 'Title'),
        heading(3, [text('Sub '), { type: 'emphasis', children: [text('part')] }]),
        paragraph([
          { type: 'strong', children: [text('bold ')] },
          text('and '),
          { type: 'strikethrough', children: [text('gone')] },
          text(' H'),
          { type: 'subscript', children: [text('2')] },
          text('O x'),
          { type: 'superscript', children: [text('2')] },
          text(' '),
          { type: 'inlineCode', value: 'a`b' },
          text(' '),
          link('https://example.com/a b', 'site', 'The site'),
        ]),
      ),
    ).toBe(
      '# Title\n\n### Sub *part*\n\n**bold** and ~~gone~~ H<sub>2</sub>O x<sup>2</sup> ``a`b`` [site](<https://example.com/a b> "The site")\n',
    );
  });

  it("keeps the blanks at a link label's edges outside the brackets, as words' separators", () => {
    // A PDF line's separating blank can fall inside a link's run ("at" / " site" at a line join).
    expect(
      md(
        paragraph([
          text('visit at'),
          link('https://a.example/', ' site '),
          text('or call'),
          link('https://b.example/', 'b'),
        ]),
      ).trim(),
    ).toBe('visit at [site](https://a.example/) or call[b](https://b.example/)');
  });

  it('marks a text holding a long run of blanks inside in linear time', { timeout: 60_000 }, () => {
    // Edge blanks were once found by a lazy pattern, which retried the inner run at every
    // position: minutes for this text (no-break spaces survive whitespace folding).
    const inner = `a${'\u00a0'.repeat(200_000)}b`;
    const out = md(paragraph([{ type: 'strong', children: [text(inner)] }, link('https://a.example/', inner)]));
    expect(out.startsWith('**a')).toBe(true);
    expect(out.includes('b**[a')).toBe(true);
    expect(out.trim().endsWith('b](https://a.example/)')).toBe(true);
  });

  it('escapes text that would otherwise become markup', () => {
    expect(md(paragraph('# not a heading')).trim()).toBe('\\# not a heading');
    expect(md(paragraph('- not a list')).trim()).toBe('\\- not a list');
    expect(md(paragraph('1. not a list either')).trim()).toBe('1\\. not a list either');
    expect(md(paragraph('> not a quote')).trim()).toBe('\\> not a quote');
    expect(md(paragraph('a *star* [link](x) <b> snake_case _under_ `tick`')).trim()).toBe(
      'a \\*star\\* \\[link](x) \\<b> snake_case \\_under\\_ \\`tick\\`',
    );
    // Every underscore of a run: "\\__\\__" would leave unescaped ones free to pair up as emphasis.
    expect(md(paragraph('Name: ______ date a__b _x')).trim()).toBe('Name: \\_\\_\\_\\_\\_\\_ date a\\_\\_b \\_x');
    expect(md(paragraph('---')).trim()).toBe('\\---');
    expect(md(paragraph('AT&T &amp; co')).trim()).toBe('AT&T &amp;amp; co');
  });

  it('merges adjacent runs with the same mark', () => {
    expect(
      md(
        paragraph([
          { type: 'strong', children: [text('a')] },
          { type: 'strong', children: [text('b')] },
        ]),
      ),
    ).toBe('**ab**\n');
  });

  it('joins code spans side by side, and a link a page break split, into one', () => {
    const later = { ...link('https://example.com/', [text('here')]), data: { continuedOn: { page: 2 } } };
    expect(
      md(
        paragraph([
          text('Call '),
          { type: 'inlineCode', value: 'foo(' },
          { type: 'inlineCode', value: 'bar)' },
          text(' at '),
          link('https://example.com/', [text('click ')]),
          later,
          text(' or '),
          link('https://example.com/', [text('there')]),
        ]),
      ),
    ).toBe('Call `foo(bar)` at [click here](https://example.com/) or [there](https://example.com/)\n');
    // Links that only touch stay two (a redaction may have given them one placeholder target).
    expect(md(paragraph([link('tel:<PHONE>', [text('one')]), link('tel:<PHONE>', [text('two')])]))).toBe(
      '[one](<tel:%3CPHONE%3E>)[two](<tel:%3CPHONE%3E>)\n',
    );
  });

  it('renders nested lists with start numbers and task items', () => {
    const nested = list(false, [listItem([paragraph('inner')])]);
    expect(
      md(
        list(true, [listItem([paragraph('three'), nested]), listItem([paragraph('four')])], 3),
        list(false, [listItem([paragraph('done')], true), listItem([paragraph('todo')], false)]),
      ),
    ).toBe('3. three\n   - inner\n4. four\n\n- [x] done\n- [ ] todo\n');
  });

  it('renders GFM tables: header row, spans repeated, pipes escaped, breaks as <br>', () => {
    const t = table([
      row([cell('Name', { header: true }), cell('Q1–Q2', { header: true, colSpan: 2 })]),
      row([cell('a|b', { rowSpan: 2 }), cell('1'), cell([paragraph('x'), paragraph('y')])]),
      row([cell('2'), cell([paragraph([text('l1'), { type: 'break' }, text('l2')])])]),
    ]);
    expect(md(t)).toBe(
      '| Name | Q1–Q2 | Q1–Q2 |\n| --- | --- | --- |\n| a\\|b | 1 | x<br>y |\n| a\\|b | 2 | l1<br>l2 |\n',
    );
  });

  it('gives a table without a header row an empty header row', () => {
    expect(md(table([row([cell('a'), cell('b')])]))).toBe('|  |  |\n| --- | --- |\n| a | b |\n');
  });

  it('renders code fences longer than any fence inside, and quotes', () => {
    expect(md(code('x = 1\n```\ny', 'py'))).toBe('````py\nx = 1\n```\ny\n````\n');
    expect(md(blockquote([paragraph('one'), paragraph('two')]))).toBe('> one\n>\n> two\n');
  });

  it('removes base64 images by default and keeps alt text', () => {
    const img = image('a chart', { url: 'data:image/png;base64,AAAA' });
    expect(md(img)).toBe('![a chart](<Base64-Image-Removed>)\n');
    expect(renderMarkdown(root([img]), { removeBase64Images: false })).toBe('![a chart](data:image/png;base64,AAAA)\n');
    expect(md(image('embedded', { ref: 'word/media/image1.png' }))).toBe('![embedded](<Base64-Image-Removed>)\n');
  });

  it('never emits more than one blank line and drops empty blocks', () => {
    expect(md(paragraph(''), paragraph('a'), paragraph('   '), paragraph('b'))).toBe('a\n\nb\n');
  });

  it('renders footnotes', () => {
    expect(
      md(paragraph([text('Claim'), { type: 'footnoteReference', identifier: '1' }]), {
        type: 'footnoteDefinition',
        identifier: '1',
        children: [paragraph('Source.')],
      }),
    ).toBe('Claim[^1]\n\n[^1]: Source.\n');
  });
});

describe('html renderer', () => {
  it('keeps rowspan/colspan and escapes text', () => {
    const t = table([
      row([cell('h', { header: true, colSpan: 2 })]),
      row([cell('<a>', { rowSpan: 2 }), cell('1')]),
      row([cell('2')]),
    ]);
    expect(renderHtml(root([heading(2, 'T & U'), t]))).toBe(
      '<h2>T &amp; U</h2>\n<table><thead><tr><th colspan="2">h</th></tr></thead><tbody><tr><td rowspan="2">&lt;a&gt;</td><td>1</td></tr><tr><td>2</td></tr></tbody></table>',
    );
  });
});
