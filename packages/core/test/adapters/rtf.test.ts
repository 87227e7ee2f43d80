import { describe, expect, it } from 'vitest';
import { hyperlinkOf } from '../../src/adapters/rtf/words.ts';
import { parse } from '../../src/index.ts';
import { fixture } from '../helpers/corpus.ts';
import { expectSurvivesDamage } from '../helpers/damage.ts';
import { errorOf } from '../helpers/errors.ts';

const md = async (bytes: Uint8Array | string, options = {}) =>
  (await parse(typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes, options, { filename: 'x.rtf' }))
    .markdown ?? '';

const BASIC_MD = [
  '# Café report',
  '',
  'Prices rose **strongly** in *Q3*, not ~~Q2~~. Euro: €; yen ¥; dash — done.',
  '',
  'E = mc<sup>2</sup> and H<sub>2</sub>O with a [the link](https://example.com/a) here.  ',
  'Next line.',
  '',
  '## Plans',
  '',
  '- First bullet',
  '  1. Nested number',
  '- Second bullet',
  '',
  '3. Third step',
  '4. Fourth step',
  '',
  'Japanese: 日本語.',
  '',
  '| Region | Totals | Totals |',
  '| --- | --- | --- |',
  '| Region | Q1 | Q2 |',
  '| North | 10 | **12** |',
  '',
  'After the table ![](<Base64-Image-Removed>) image.',
  '',
  'Last paragraph.',
  '',
].join('\n');

describe('rtf adapter: fixtures', () => {
  const basic = fixture('rtf', 'basic.rtf');

  it('renders headings, formatting, code pages, \\u escapes, a link, lists, a merged table and a picture exactly', async () => {
    expect(await md(basic)).toBe(BASIC_MD);
  });

  it('reads the info group into metadata', async () => {
    const { metadata } = await parse(basic, {}, { filename: 'basic.rtf' });
    expect(metadata).toMatchObject({
      title: 'Quarterly notes',
      author: 'Renée Writer',
      subject: 'Fixture',
      keywords: 'rtf, fixture',
    });
  });

  it('leaves out headers, hidden text, bookmarks and the duplicate non-shape picture', async () => {
    const out = await md(basic);
    expect(out).not.toContain('Running header');
    expect(out).not.toContain('hidden words');
    expect(out.match(/!\[/g)?.length).toBe(1);
  });

  it('keeps the PNG as a data URI when base64 images are wanted', async () => {
    const out = await md(basic, { removeBase64Images: false });
    expect(out).toContain('![](data:image/png;base64,iVBORw0KGgo=)');
  });

  it('reads nested tables and old-style \\pntext numbering', async () => {
    const out = await md(fixture('rtf', 'nested.rtf'));
    expect(out).toContain('| Outer A | Inner 1 \\| Inner 2 |');
    expect(out).toContain('| Outer C | Outer D |');
    expect(out).toContain('1. Old one\n2. Old two\n\n- Old bullet');
  });

  it('decodes a whole document in cp932 via \\ansicpg', async () => {
    const bytes = new Uint8Array([
      ...new TextEncoder().encode('{\\rtf1\\ansi\\ansicpg932 '),
      0x93,
      0xfa,
      0x96,
      0x7b,
      ...new TextEncoder().encode("\\'8c\\'ea\\par}"),
    ]);
    expect(await md(bytes)).toBe('日本語\n');
  });

  it('decodes raw cp1252 bytes and honours \\ucN skip counts', async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('{\\rtf1\\ansi '), 0x80, 0xe9, 0x20]);
    const tail = new TextEncoder().encode("{\\uc2\\u8220\\'93\\'93x}\\u8221?y\\par}");
    expect(await md(new Uint8Array([...bytes, ...tail]))).toBe('€é “x”y\n');
  });

  it('reads headings from stylesheet names and tables with horizontal/vertical merges', async () => {
    const doc = String.raw`{\rtf1{\stylesheet{\s3 heading 3;}}\pard\s3 Deep\par
\trowd\cellx1000\cellx2000\pard\intbl a\cell b\cell\row
\trowd\clvmgf\cellx1000\cellx2000\pard\intbl c\cell d\cell\row
\trowd\clvmrg\cellx1000\cellx2000\pard\intbl\cell e\cell\row}`;
    expect(await md(doc)).toBe('### Deep\n\n| a | b |\n| --- | --- |\n| c | d |\n| c | e |\n');
  });

  it('turns footnotes and endnotes into footnote definitions at the end', async () => {
    const doc = String.raw`{\rtf1\ansi Main text{\super\chftn}{\footnote\pard\plain{\super\chftn} The note {\i itself}.\par} continues.\par
Second{\super\chftn}{\footnote\ftnalt\pard\plain{\super\chftn} Endnote.}\par}`;
    expect(await md(doc)).toBe(
      'Main text[^1] continues.\n\nSecond[^2]\n\n[^1]: The note *itself*.\n\n[^2]: Endnote.\n',
    );
  });

  it('reads text boxes of shapes but not their properties', async () => {
    const doc = String.raw`{\rtf1\ansi Before.\par {\shp{\*\shpinst\shpleft0{\sp{\sn shapeType}{\sv 202}}{\shptxt \pard Boxed words\par}}}After.\par}`;
    expect(await md(doc)).toBe('Before.\n\nBoxed words\n\nAfter.\n');
  });

  it('keeps the number of numbered headings and resumes lists interrupted by prose', async () => {
    const doc = String.raw`{\rtf1{\stylesheet{\s1 heading 1;}}
{\*\listtable{\list{\listlevel\levelnfc0\levelstartat1}{\listlevel\levelnfc0\levelstartat1}\listid7}}
{\*\listoverridetable{\listoverride\listid7\ls1}}
\pard\s1\ls1{\listtext 1.\tab}Scope\par
\pard\ls1\ilvl1{\listtext 1.1\tab}First\par
\pard Prose between.\par
\pard\ls1\ilvl1{\listtext 1.2\tab}Second\par
\pard\ls1\ilvl1 Third\par}`;
    expect(await md(doc)).toBe('# 1 Scope\n\n1. First\n\nProse between.\n\n2. Second\n3. Third\n');
  });

  it('reads the Unicode twin of \\upr groups, not both', async () => {
    const doc = String.raw`{\rtf1\ansi{\info{\upr{\title Caf? ANSI}{\*\ud{\title Caf\u233? uni}}}}Body {\upr{x}{\*\ud{y}}} z\par}`;
    const res = await parse(new TextEncoder().encode(doc), {}, { filename: 'u.rtf' });
    expect(res.markdown).toBe('Body y z\n');
    expect(res.metadata.title).toBe('Café uni');
  });

  it('parses HYPERLINK field instructions', () => {
    expect(hyperlinkOf(' HYPERLINK "https://a.example/x" ')).toBe('https://a.example/x');
    expect(hyperlinkOf(' HYPERLINK \\l "_Toc1" ')).toBe('#_Toc1');
    expect(hyperlinkOf('HYPERLINK "http://b.example" \\o "tip"')).toBe('http://b.example');
    expect(hyperlinkOf('HYPERLINK http://c.example')).toBe('http://c.example');
    expect(hyperlinkOf(' PAGE ')).toBeUndefined();
  });

  it('refuses non-RTF input and absurd nesting with a 400', async () => {
    const notRtf = await errorOf(
      parse(new TextEncoder().encode('plain text, not rtf'), {}, { filename: 'x.rtf', kind: 'rtf' } as never),
    );
    expect(notRtf.status).toBe(400);
    const deep = await errorOf(
      parse(new TextEncoder().encode(`{\\rtf1 ${'{'.repeat(5000)}x`), {}, { filename: 'x.rtf' }),
    );
    expect(deep.status).toBe(400);
    expect(deep.message).toMatch(/nested/);
    const noise = new Uint8Array(4000).map((_, i) => (i * 7919 + 13) % 251);
    const binary = await errorOf(
      parse(new Uint8Array([...new TextEncoder().encode('{\\rtf1 '), ...noise]), {}, { filename: 'x.rtf' }),
    );
    expect(binary.message).toMatch(/binary/);
  });

  it('keeps the text of a truncated file with a warning', async () => {
    const res = await parse(basic.slice(0, basic.indexOf(0x4a /* J */)), {}, { filename: 'cut.rtf' });
    expect(res.markdown).toContain('- Second bullet');
    expect(res.warning).toMatch(/truncated/);
  });

  it.each(['basic.rtf', 'nested.rtf'])(
    'answers 200 truncated or bit-flipped copies of %s with a result or a DocmillError',
    async (name) => {
      await expectSurvivesDamage(fixture('rtf', name), 'damaged.rtf');
    },
  );
});

describe('rtf adapter: code in a monospaced face', () => {
  it('reads paragraphs wholly in a monospaced face with signs of code as one code block, its blanks and tabs kept', async () => {
    // As an editor copies a snippet: Menlo, indentation typed as blanks and tabs, a backslash before
    // the newline ending each paragraph, syntax colouring in bold.
    const rtf = [
      '{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0\\fswiss Helvetica;}{\\f1\\fmodern\\fcharset0 Menlo-Regular;}}',
      '\\pard\\f0 Install it, then run:\\par',
      '\\pard\\f1 {\\b def} greet(name):\\',
      '    if name:\\',
      '\\tab\\tab print(f"Hello, \\{name\\}")\\',
      '\\',
      '\\',
      'greet("world"){\\line}greet("again")\\par',
      '\\pard\\f0 That prints a greeting.\\par',
      '}',
    ].join('\n');
    expect(await md(rtf)).toBe(
      [
        'Install it, then run:',
        '',
        '```',
        'def greet(name):',
        '    if name:',
        '        print(f"Hello, {name}")',
        '',
        'greet("world")',
        'greet("again")',
        '```',
        '',
        'That prints a greeting.',
        '',
      ].join('\n'),
    );
  });

  it('keeps a snippet whole over a CJK string, a linked address and no-break blanks, the prose around it text', async () => {
    const rtf = [
      '{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0\\fswiss Helvetica;}{\\f1\\fmodern Menlo-Regular;}}',
      '\\pard\\f1 Install it, then run this.\\par',
      'def greet():\\par',
      '    print("\\u20320?\\u22909?")\\par',
      // A word processor links an address typed in a comment: the link's text is its address.
      '// see {\\field{\\*\\fldinst HYPERLINK "https://example.org/a"}{\\fldrslt https://example.org/a}}\\par',
      'if (a) \\{\\par',
      '\\~\\~\\~\\~b();\\par',
      '\\}\\par',
      'That is all there is to it.\\par',
      // A paragraph of CJK alone in the face is no code: its fixed width is the script's.
      '\\u26085?\\u26412?\\u35486?\\par',
      '}',
    ].join('\n');
    expect(await md(rtf)).toBe(
      [
        'Install it, then run this.',
        '',
        '```',
        'def greet():',
        '    print("你好")',
        '// see https://example.org/a',
        'if (a) {',
        '    b();',
        '}',
        '```',
        '',
        'That is all there is to it.',
        '',
        '日本語',
        '',
      ].join('\n'),
    );
  });

  it('keeps typewriter prose, headings, list items, links and table cells in a code face out of code blocks', async () => {
    const rtf = [
      // The whole document in Courier New, its default font: a letter, not a program.
      '{\\rtf1\\ansi\\deff1{\\fonttbl{\\f0\\fswiss Helvetica;}{\\f1\\fmodern\\fprq1 Courier New;}}',
      '{\\stylesheet{\\s0 Normal;}{\\s1\\outlinelevel0 heading 1;}}',
      '\\pard\\s1\\outlinelevel0 The parse(bytes) call\\par',
      '\\pard\\plain Dear Ms Lee,\\par',
      'Thank you for your letter of 3 May (ref. 123).\\par',
      'We will reply (in writing) within a week.\\par',
      'Jane Doe (Platform Team)\\par',
      'Jane Doe <jane@example.com>\\par',
      '(555) 123-4567\\par',
      '{\\listtext 1.\\tab}Run make(all) first\\par',
      '\\pard x = {\\field{\\*\\fldinst HYPERLINK "https://example.org/f"}{\\fldrslt f(y)}}\\par',
      '\\trowd\\cellx3000\\cellx6000\\pard\\intbl x = f(y);\\cell\\intbl return x;\\cell\\row',
      '\\pard\\par',
      '}',
    ].join('\n');
    expect(await md(rtf)).toBe(
      [
        '# The parse(bytes) call',
        '',
        'Dear Ms Lee,',
        '',
        'Thank you for your letter of 3 May (ref. 123).',
        '',
        'We will reply (in writing) within a week.',
        '',
        'Jane Doe (Platform Team)',
        '',
        'Jane Doe \\<jane@example.com>',
        '',
        '(555) 123-4567',
        '',
        '1. Run make(all) first',
        '',
        'x = [f(y)](https://example.org/f)',
        '',
        '| x = f(y); | return x; |',
        '| --- | --- |',
        '',
      ].join('\n'),
    );
  });

  it('reads a run in a fixed-pitch face among prose as inline code, and a paragraph wholly in one as text', async () => {
    const rtf = [
      '{\\rtf1\\ansi\\deff0',
      // Courier New by its family and pitch, Consolas by its name alone, MS Gothic fixed-width CJK.
      '{\\fonttbl{\\f0\\froman\\fcharset0\\fprq2 Times New Roman;}{\\f1\\fmodern\\fcharset0\\fprq1 Courier New;}',
      '{\\f2\\fnil\\fcharset0 Consolas;}{\\f3\\fnil\\fcharset0\\fprq2{\\*\\panose 020b0604020202020204}Arial;}',
      '{\\f4\\fmodern\\fcharset128\\fprq1 MS Gothic;}}',
      '\\pard\\plain\\f0 Call {\\f1 parse(bytes)} with the bytes, then read {\\f2\\b markdown}.\\par',
      '\\pard\\plain\\f1 Jane Doe, Platform Team\\par',
      '\\pard\\plain\\f3 Set in Arial, no code at all.\\par',
      '\\pard\\plain\\f0 Japanese: {\\f4 \\u35373?\\u23450?}.\\par',
      '}',
    ].join('\n');
    expect(await md(rtf)).toBe(
      [
        'Call `parse(bytes)` with the bytes, then read **`markdown`**.',
        '',
        'Jane Doe, Platform Team',
        '',
        'Set in Arial, no code at all.',
        '',
        'Japanese: 設定.',
        '',
      ].join('\n'),
    );
  });

  it('takes no fixed-width CJK face for code, reads the default font where runs name none, and a redefined font anew', async () => {
    const rtf = [
      '{\\rtf1\\ansi\\deff1',
      // Word marks MS Mincho modern and fixed-pitch; Courier is the default font; f3 is defined twice.
      '{\\fonttbl{\\f0\\froman\\fprq2 Times New Roman;}{\\f1\\fmodern\\fprq1 Courier}{\\f2\\fmodern\\fcharset128\\fprq1 MS Mincho;}',
      '{\\f3\\fmodern Courier;}{\\f3\\froman Georgia;}}',
      '{\\f0 Prose first,} then make all.\\par',
      '{\\f0 Click }{\\f2 <About bitcoin>}{\\f0  and read }{\\f3 Georgia}{\\f0  text.}\\par',
      'Jane Doe{\\field{\\*\\fldinst HYPERLINK "https://example.org/jane"}{\\fldrslt  profile}}\\par',
      '}',
    ].join('\n');
    const out = await md(rtf);
    expect(out).toContain('Prose first, `then make all.`');
    expect(out).toContain('Click \\<About bitcoin> and read Georgia text.');
    // Wholly in the default Courier, a link among it: a font choice.
    expect(out).toContain('Jane Doe [profile](https://example.org/jane)');
    expect(out).not.toContain('`Jane');
  });
});
