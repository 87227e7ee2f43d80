import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { parse, parseTree } from '../../src/index.ts';
import type { Image, Paragraph } from '../../src/tree/types.ts';
import { fixture } from '../helpers/corpus.ts';
import { expectSurvivesDamage } from '../helpers/damage.ts';
import { docx, W } from '../helpers/docx-build.ts';
import { errorOf } from '../helpers/errors.ts';
import { NO_DEADLINE } from '../helpers/timeouts.ts';

const md = async (bytes: Uint8Array, filename = 'x.docx', options = {}) =>
  (await parse(bytes, options, { filename })).markdown ?? '';

const FIXTURE_MD = [
  '# Field report',
  '',
  '# Summary',
  '',
  'Revenue grew **strongly** in *Q3*, not ~~Q2~~. Run `make report` or read [the report](https://example.com/report).[^1]',
  '',
  'E = mc<sup>2</sup> and H<sub>2</sub>O. Line  ',
  'two.',
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
  '   1. Deep',
  '',
  'Other list:',
  '',
  '- Risks',
  '  1. Budget',
  '  2. Timing',
  '',
  '5. Starts at five',
  '',
  '| Region | Q1 | Q2 |',
  '| --- | --- | --- |',
  '| North and South | North and South | 12 |',
  '| West | 5 | 12 |',
  '| West | 7 | in \\| side |',
  '',
  'See box:',
  '',
  'Boxed text',
  '',
  '- [x] Ship it',
  '- [ ] Celebrate',
  '',
  '![Company logo](<Base64-Image-Removed>)',
  '',
  'Page 3, [field link](https://example.com/f), 2024-01-02',
  '',
  'Ratio $\\frac{a}{b}$ holds.',
  '',
  '$$',
  'E=mc^{2}',
  '$$',
  '',
  '```',
  'let x = 1;',
  'let y = 2;',
  '```',
  '',
  '## Appendix',
  '',
  'Closing words, see [the summary](#_Toc1).[^2]',
  '',
  '[^1]: Audited figures.',
  '',
  '[^2]: An endnote.',
  '',
].join('\n');

describe('docx adapter: fixture', () => {
  const bytes = fixture('docx', 'basic.docx');

  it('renders headings, lists with restarts, merged cells, notes, boxes, fields and code exactly', async () => {
    expect(await md(bytes, 'basic.docx')).toBe(FIXTURE_MD);
  });

  it('is deterministic', async () => {
    expect(await md(bytes, 'basic.docx')).toBe(await md(bytes, 'basic.docx'));
  });

  it('leaves out tracked deletions, comments and page headers/footers by default', async () => {
    const out = await md(bytes, 'basic.docx');
    for (const hidden of ['Deleted words', 'Check this claim', 'ACME Corp', 'Page footer', 'PAGE', 'HYPERLINK'])
      expect(out).not.toContain(hidden);
  });

  it('puts page headers first and footers last when onlyMainContent is false', async () => {
    const out = await md(bytes, 'basic.docx', { onlyMainContent: false });
    expect(out.startsWith('ACME Corp confidential\n\n# Field report')).toBe(true);
    expect(out.endsWith('[^2]: An endnote.\n\n*Page footer*\n')).toBe(true);
  });

  it('reads docProps/core.xml and app.xml', async () => {
    const { metadata } = await parse(bytes, {}, { filename: 'basic.docx' });
    expect(metadata).toMatchObject({
      title: 'Field report',
      description: 'Fixture for the docx adapter',
      language: 'en-GB',
      keywords: 'fixture, docx',
      author: 'Ada Writer',
      numPages: 2,
    });
  });

  it('keeps images as references, or data URIs when base64 images are wanted', async () => {
    const { tree } = await parseTree(bytes, {}, { filename: 'basic.docx' });
    const para = tree.children.find((b): b is Paragraph => b.type === 'paragraph' && b.children[0]?.type === 'image');
    expect(para?.children[0] as Image).toMatchObject({
      alt: 'Company logo',
      ref: 'word/media/logo.png',
      mime: 'image/png',
    });
    expect((para?.children[0] as Image | undefined)?.url).toBeUndefined();
    const out = await md(bytes, 'basic.docx', { removeBase64Images: false });
    expect(out).toContain('![Company logo](data:image/png;base64,iVBORw0KGgo');
  });

  it('parses as .docm too', async () => {
    expect(await md(bytes, 'basic.docm')).toBe(FIXTURE_MD);
  });

  it('recovers a file cut short (no zip directory) from its complete parts, and says so', async () => {
    // Before: 400 'The file is not a readable zip container (truncated or damaged).'
    const res = await parse(fixture('docx', 'truncated.docx'), {}, { filename: 'truncated.docx' });
    expect(res.markdown).toBe(FIXTURE_MD);
    expect(res.warning).toMatch(/truncated \(its zip directory is missing\): 13 complete part/);
  });

  it('recovers the text before the cut of a file cut inside word/document.xml, with a warning', async () => {
    // Before: 400 'The file is not a Word document (no word/document.xml in the package).'
    const whole = fixture('docx', 'basic.docx');
    const name = new TextEncoder().encode('word/document.xml');
    const at = whole.findIndex((_, i) => name.every((b, j) => whole[i + j] === b));
    const res = await parse(whole.slice(0, at + name.length + 700), {}, { filename: 'cut.docx' });
    expect(res.markdown?.startsWith('# Field report\n\n# Summary\n\nRevenue grew')).toBe(true);
    expect(res.markdown).toContain('H<sub>2</sub>O');
    expect(res.markdown).not.toContain('Hire staff');
    expect(res.warning).toMatch(
      /cut short inside word\/document\.xml: the document was read up to the cut \(\d+ of 9129 bytes of that part\)/,
    );
  });

  it('names a zip cut inside its first Word part a Word document, even without an extension', async () => {
    // Word writes word/document.xml right after the content types: then no complete part says "word/".
    const words = Array.from({ length: 400 }, (_, i) => `<w:p><w:r><w:t>Line ${i} of the minutes.</w:t></w:r></w:p>`);
    const zip = new JSZip();
    zip.file('[Content_Types].xml', '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>');
    zip.file(
      'word/document.xml',
      `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${words.join('')}</w:body></w:document>`,
    );
    zip.file('word/styles.xml', '<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"/>');
    const bytes = await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
    const res = await parse(bytes.slice(0, Math.floor(bytes.length / 2)), {}, {});
    expect(res.metadata.contentType).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(res.markdown?.startsWith('Line 0 of the minutes.\n\nLine 1 of the minutes.')).toBe(true);
    expect(res.warning).toMatch(/cut short inside word\/document\.xml/);
    // Cut anywhere, a file gives a result or a clear 400.
    for (let cut = 40; cut < bytes.length; cut += 97) {
      const out = await parse(bytes.slice(0, cut), {}, { filename: 'cut.docx' }).catch((e: unknown) => e);
      if (out instanceof Error) expect((out as { status?: number }).status).toBe(400);
    }
  });

  it('decrypts a password-encrypted .docx with hints.password; without it or with a wrong one, a clear 400', async () => {
    const bytes = fixture('docx', 'password.docx');
    // Agile encryption: 100,000 SHA-512 rounds a parse, seconds of CPU on a busy machine.
    const res = await parse(bytes, NO_DEADLINE, { filename: 'password.docx', password: 'Tr0ub4dor&3' });
    expect(res.markdown).toBe(FIXTURE_MD);
    expect(await errorOf(parse(bytes, {}, { filename: 'password.docx' }))).toMatchObject({
      status: 400,
      message: expect.stringMatching(/cannot be read without its password\. Pass its password in hints\.password/),
    });
    expect(await errorOf(parse(bytes, NO_DEADLINE, { filename: 'password.docx', password: 'nope' }))).toMatchObject({
      status: 400,
      message: expect.stringMatching(/password given does not open it/),
    });
  });

  it('ends every damaged variant in a result or a 400', async () => {
    await expectSurvivesDamage(bytes, 'basic.docx', 200);
  });
});

describe('Word 2003 XML (w:wordDocument), read by the DOCX reader', () => {
  const WORD2003_MD = [
    '# Inspection Report',
    '',
    'The pumps were checked on site. See [the full record](https://example.com/inspection).',
    '',
    '## Findings',
    '',
    '- Seals worn on pump 2',
    '- Valve stuck open',
    '',
    '1. Replace the seals',
    '2. Free the valve',
    '',
    '| Pump | Pressure |',
    '| --- | --- |',
    '| P-1 | 4.2 bar |',
    '| P-2 | 3.1 bar |',
    '',
    'Überprüft in Zürich — “naïve” café.[^1]',
    '',
    '[^1]: Measured at noon.',
    '',
  ].join('\n');
  const xml = fixture('doc', 'word2003.xml');

  it('is detected by content, whatever the name, and parsed: headings, lists, table, link, footnote', async () => {
    // Before: .xml 400 'Unsupported upload type'; saved as .doc, 400 'not a valid OLE compound document'.
    for (const filename of ['word2003.xml', 'report.doc', undefined]) {
      const res = await parse(xml, {}, filename ? { filename } : {});
      expect(res.markdown).toBe(WORD2003_MD);
      expect(res.metadata).toMatchObject({ title: 'Legacy Word formats', author: 'Grace Hopper' });
    }
  });

  it('reads base64 pictures (w:binData) as images, inlined when base64 images are kept', async () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    const pict = `<w:p><w:r><w:pict><w:binData w:name="wordml://02000001.png">${png}</w:binData><v:shape><v:imagedata src="wordml://02000001.png" o:title="Pump diagram"/></v:shape></w:pict></w:r></w:p>`;
    const text = new TextDecoder().decode(xml).replace('<w:sectPr>', `${pict}<w:sectPr>`);
    const bytes = new TextEncoder().encode(text);
    expect(await md(bytes, 'pict.doc')).toContain('![Pump diagram](<Base64-Image-Removed>)');
    expect(await md(bytes, 'pict.doc', { removeBase64Images: false })).toContain(
      `![Pump diagram](data:image/png;base64,${png})`,
    );
  });
});

describe('docx adapter: structure', () => {
  it('takes headings from direct outline levels and ignores body-text level 9', async () => {
    const body =
      '<w:p><w:pPr><w:outlineLvl w:val="2"/></w:pPr><w:r><w:t>Deep</w:t></w:r></w:p>' +
      '<w:p><w:pPr><w:outlineLvl w:val="9"/></w:pPr><w:r><w:t>Body</w:t></w:r></w:p>';
    expect(await md(await docx(body))).toBe('### Deep\n\nBody\n');
  });

  it('numbers headings through their style and shows the outline label', async () => {
    const styles = `<w:styles xmlns:w="${W}"><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:pPr><w:numPr><w:numId w:val="1"/></w:numPr></w:pPr></w:style><w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:basedOn w:val="Heading1"/><w:pPr><w:numPr><w:ilvl w:val="1"/></w:numPr></w:pPr></w:style></w:styles>`;
    const numbering = `<w:numbering xmlns:w="${W}"><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl><w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1.%2"/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>`;
    const h = (style: string, text: string) =>
      `<w:p><w:pPr><w:pStyle w:val="${style}"/></w:pPr><w:r><w:t>${text}</w:t></w:r></w:p>`;
    const body = h('Heading1', 'Intro') + h('Heading2', 'Scope') + h('Heading2', 'Terms') + h('Heading1', 'Design');
    expect(await md(await docx(body, { 'word/styles.xml': styles, 'word/numbering.xml': numbering }))).toBe(
      '# 1 Intro\n\n## 1.1 Scope\n\n## 1.2 Terms\n\n# 2 Design\n',
    );
  });

  it('uses the cached result of nested complex fields and skips instructions', async () => {
    const fld = (type: string) => `<w:r><w:fldChar w:fldCharType="${type}"/></w:r>`;
    const body = `<w:p><w:r><w:t xml:space="preserve">A </w:t></w:r>${fld('begin')}<w:r><w:instrText>IF </w:instrText></w:r>${fld('begin')}<w:r><w:instrText>PAGE</w:instrText></w:r>${fld('separate')}<w:r><w:t>9</w:t></w:r>${fld('end')}<w:r><w:instrText> = 1 "x" "y"</w:instrText></w:r>${fld('separate')}<w:r><w:t>y</w:t></w:r>${fld('end')}<w:r><w:t xml:space="preserve"> B</w:t></w:r></w:p>`;
    expect(await md(await docx(body))).toBe('A y B\n');
  });

  it('turns formula-only paragraphs into display math and keeps typewriter prose as text', async () => {
    const m = (t: string) => `<m:oMath><m:r><m:t>${t}</m:t></m:r></m:oMath>`;
    const mono = '<w:rPr><w:rFonts w:ascii="Courier New" w:hAnsi="Courier New"/></w:rPr>';
    const body =
      `<w:p>${m('a=b')}${m('c=d')}</w:p>` +
      `<w:p><w:r>${mono}<w:t>A memo in a typewriter face</w:t></w:r></w:p>` +
      `<w:p><w:r>${mono}<w:t>x = f(y);</w:t></w:r></w:p>` +
      '<w:p><w:pPr><w:pStyle w:val="SourceCode"/></w:pPr></w:p>' +
      `<w:p><w:r>${mono}<w:t>return x;</w:t></w:r></w:p>`;
    const styles = `<w:styles xmlns:w="${W}"><w:style w:type="paragraph" w:styleId="SourceCode"><w:name w:val="Source Code"/></w:style></w:styles>`;
    expect(await md(await docx(body, { 'word/styles.xml': styles }))).toBe(
      '$$\na=b\n$$\n\n$$\nc=d\n$$\n\nA memo in a typewriter face\n\n```\nx = f(y);\n\nreturn x;\n```\n',
    );
  });

  it('keeps a letter typed in Courier text despite its brackets; a comment or else: goes on with a block, a command is one', async () => {
    const mono = '<w:rPr><w:rFonts w:ascii="Courier New" w:hAnsi="Courier New"/></w:rPr>';
    const p = (t: string) => `<w:p><w:r>${mono}<w:t xml:space="preserve">${t}</w:t></w:r></w:p>`;
    const body =
      p('Thank you for your letter of 3 May (ref. 123).') +
      p('Jane Doe (Platform Team)') +
      p('x = f(y)') +
      p('// Returns the value (or none).') +
      p('if x:') +
      // Blanks typed as no-break blanks indent as blanks.
      p('\u00a0\u00a0\u00a0\u00a0return x') +
      p('else:') +
      p('    pass') +
      '<w:p><w:r><w:t>Install it:</w:t></w:r></w:p>' +
      p('npm install docmill');
    expect(await md(await docx(body))).toBe(
      [
        'Thank you for your letter of 3 May (ref. 123).',
        '',
        'Jane Doe (Platform Team)',
        '',
        '```',
        'x = f(y)',
        '// Returns the value (or none).',
        'if x:',
        '    return x',
        'else:',
        '    pass',
        '```',
        '',
        'Install it:',
        '',
        '```',
        'npm install docmill',
        '```',
        '',
      ].join('\n'),
    );
  });

  it('takes a run in Monotype Corsiva for script, not code, and one in Source Code Pro for code', async () => {
    const face = (name: string, t: string) =>
      `<w:r><w:rPr><w:rFonts w:ascii="${name}" w:hAnsi="${name}"/></w:rPr><w:t xml:space="preserve">${t}</w:t></w:r>`;
    const body = `<w:p><w:r><w:t xml:space="preserve">Signed: </w:t></w:r>${face('Monotype Corsiva', 'Ann Smith')}</w:p><w:p><w:r><w:t xml:space="preserve">Call </w:t></w:r>${face('Source Code Pro', 'parse()')}</w:p>`;
    expect(await md(await docx(body))).toBe('Signed: Ann Smith\n\nCall `parse()`\n');
  });

  it('reads legacy form checkboxes as task items', async () => {
    const box = (on: boolean) =>
      `<w:r><w:fldChar w:fldCharType="begin"><w:ffData><w:checkBox><w:default w:val="${on ? 1 : 0}"/></w:checkBox></w:ffData></w:fldChar></w:r><w:r><w:instrText> FORMCHECKBOX </w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>`;
    const body = `<w:p>${box(true)}<w:r><w:t xml:space="preserve"> Done</w:t></w:r></w:p><w:p>${box(false)}<w:r><w:t xml:space="preserve"> Open</w:t></w:r></w:p>`;
    expect(await md(await docx(body))).toBe('- [x] Done\n- [ ] Open\n');
  });

  it('splits gridBefore and keeps rows aligned, header row first', async () => {
    const c = (t: string, pr = '') =>
      `<w:tc>${pr ? `<w:tcPr>${pr}</w:tcPr>` : ''}<w:p><w:r><w:t>${t}</w:t></w:r></w:p></w:tc>`;
    const body = `<w:tbl><w:tr>${c('a')}${c('b')}${c('c')}</w:tr><w:tr><w:trPr><w:gridBefore w:val="1"/></w:trPr>${c('d', '<w:gridSpan w:val="2"/>')}</w:tr></w:tbl>`;
    expect(await md(await docx(body))).toBe('| a | b | c |\n| --- | --- | --- |\n|  | d | d |\n');
  });

  it('refuses packages without a Word body and malformed XML with a 400', async () => {
    const zip = new JSZip();
    zip.file('[Content_Types].xml', '<Types/>');
    zip.file('word/other.xml', '<x/>');
    const e1 = await errorOf(parse(await zip.generateAsync({ type: 'uint8array' }), {}, { filename: 'x.docx' }));
    expect(e1.status).toBe(400);
    expect(e1.message).toMatch(/Word document/);
    const e2 = await errorOf(parse(await docx('<w:p w:rsidR="1><w:r/></w:p>'), {}, { filename: 'x.docx' }));
    expect(e2.status).toBe(400);
  });

  it('keeps the text when an optional part is damaged, with a warning', async () => {
    const bytes = await docx('<w:p><w:r><w:t>Still here</w:t></w:r></w:p>', { 'word/styles.xml': '<w:styles a="1>' });
    const result = await parse(bytes, {}, { filename: 'x.docx' });
    expect(result.markdown).toBe('Still here\n');
    expect(result.warning).toMatch(/word\/styles\.xml/);
  });

  it('reports a password-protected (CFB EncryptionInfo) .docx as encrypted', async () => {
    // A CFB header followed by directory names in UTF-16LE, as an encrypted OOXML package stores them.
    const name = (s: string) => Uint8Array.from([...s].flatMap((ch) => [ch.charCodeAt(0), 0]));
    const bytes = new Uint8Array(4096);
    bytes.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    bytes.set(name('EncryptionInfo'), 1024);
    bytes.set(name('EncryptedPackage'), 1152);
    const err = await errorOf(parse(bytes, {}, { filename: 'secret.docx' }));
    expect(err.status).toBe(400);
    expect(err.message).toMatch(/password-protected|encrypted/);
  });
});
