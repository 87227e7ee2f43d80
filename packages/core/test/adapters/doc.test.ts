import { describe, expect, it } from 'vitest';
import { hyperlinkTarget } from '../../src/adapters/doc/story.ts';
import { DocmillError, parse, parseTree } from '../../src/index.ts';
import { corpusFile, corpusPairs, corpusSkipReason, fixture, hasCorpus } from '../helpers/corpus.ts';
import { expectSurvivesDamage } from '../helpers/damage.ts';
import { headingsOf, mean, tablesOf, textSimilarity } from '../helpers/metrics.ts';

/** The FIB opens the WordDocument stream, which starts on a sector boundary. */
function fibOffset(file: Uint8Array): number {
  for (let at = 512; at + 12 < file.length; at += 512) {
    if (file[at] === 0xec && file[at + 1] === 0xa5) return at;
  }
  throw new Error('no FIB in fixture');
}

const md = async (bytes: Uint8Array, filename: string) => (await parse(bytes, {}, { filename })).markdown ?? '';

describe('doc adapter: fixture', () => {
  it('renders headings, lists, a table, a link and a footnote exactly', async () => {
    expect(await md(fixture('doc', 'basic.doc'), 'basic.doc')).toBe(
      [
        '# Quarterly Report',
        '',
        'Sales grew in every region. See [the full report](https://example.com/report).',
        '',
        '## Highlights',
        '',
        '- North up 12%',
        '- South up 8%',
        '',
        '1. Hire staff',
        '2. Open office',
        '',
        '| Region | Revenue |',
        '| --- | --- |',
        '| North | 120 |',
        '| South | 80 |',
        '',
        'Café résumé — “quoted” text.[^1]',
        '',
        '[^1]: A note at the bottom.',
        '',
      ].join('\n'),
    );
  });

  it('renders numbered headings, formatting, a text box, a resumed list, a nested table and merged cells exactly', async () => {
    expect(await md(fixture('doc', 'layout.doc'), 'layout.doc')).toBe(
      [
        '# 1 Scope',
        '',
        'Plain, **bold**, *italic*, ~~struck~~ and x<sup>2</sup>.',
        '',
        '## 1.1 Details',
        '',
        'Before the box.',
        '',
        'Inside the text box',
        '',
        '1. First step',
        '2. Second step',
        '',
        'An interruption.',
        '',
        '3. Third step',
        '',
        '# 2 Data',
        '',
        '| Name | Value |',
        '| --- | --- |',
        '| alpha | 1 |',
        '',
        'Merged cells:',
        '',
        '| Region | Sales | Sales |',
        '| --- | --- | --- |',
        '| Region | 2023 | 2024 |',
        '| North | 10 | 12 |',
        '',
        'The end.',
        '',
      ].join('\n'),
    );
  });

  it('gives merged cells their spans in the tree', async () => {
    const { tree } = await parseTree(fixture('doc', 'layout.doc'), {}, { filename: 'layout.doc' });
    const tables = tree.children.filter((n) => n.type === 'table');
    const merged = tables[tables.length - 1];
    const first = merged?.type === 'table' ? merged.children[0]?.children : undefined;
    expect(first?.map((c) => [c.rowSpan ?? 1, c.colSpan ?? 1])).toEqual([
      [2, 1],
      [1, 2],
    ]);
  });

  it('refuses an encrypted document with a clear 400', async () => {
    const copy = new Uint8Array(fixture('doc', 'basic.doc'));
    const fib = fibOffset(copy);
    copy[fib + 0x0b] = (copy[fib + 0x0b] ?? 0) | 0x01;
    const err = await parse(copy, {}, { filename: 'locked.doc' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DocmillError);
    expect((err as DocmillError).status).toBe(400);
    expect((err as DocmillError).message).toMatch(/password-protected/);
  });

  it.each([
    ['password-rc4.doc', 'RC4 as LibreOffice writes it (Office 97/2000, MD5 keys)'],
    ['password-cryptoapi.doc', 'RC4 CryptoAPI (Office 2002/2003, SHA-1 keys, 128 bits)'],
  ])('opens %s, %s, with hints.password', async (name) => {
    // Before: 400 'The Word document is password-protected (encrypted); remove the password and try again.'
    const locked = fixture('doc', name);
    const plain = await md(fixture('doc', 'basic.doc'), 'basic.doc');
    const opened = await parse(locked, {}, { filename: name, password: 'Tr0ub4dor&3' });
    expect(opened.markdown).toBe(plain);
    expect(opened.markdown).toContain('| North | 120 |');
    expect(opened.metadata.title).toBe('Basic legacy document');
    await expect(parse(locked, {}, { filename: name })).rejects.toThrow(
      /password-protected and cannot be read without its password/,
    );
    await expect(parse(locked, {}, { filename: name, password: 'nope' })).rejects.toThrow(
      /password given does not open it/,
    );
    // Damaged encrypted copies decrypt to noise or fail the verifier: a result or a 400, never a crash.
    await expectSurvivesDamage(locked, name, 60, (b, o, h) => parse(b, o, { ...h, password: 'Tr0ub4dor&3' }));
  });

  it('reads a Word 95 document: 8-bit text, Word 6 FIB, FKPs, sprms and style sheet', async () => {
    // Before: 400 'Word 6/95 documents are not supported'.
    expect(await md(fixture('doc', 'word95.doc'), 'word95.doc')).toBe(
      [
        '# Inspection Report',
        '',
        'The pumps were **checked** on site.',
        '',
        '## Findings',
        '',
        '| Pump | Pressure |',
        '| --- | --- |',
        '| P-1 | 4.2 bar |',
        '',
        'Überprüft in Zürich – “naïve” café.[^1]',
        '',
        'End of report.',
        '',
        '[^1]: Measured at noon.',
        '',
      ].join('\n'),
    );
  });

  it('reads a Word 6.0 document (FIB magic 0xA5DC, nFib 101) as it reads Word 95', async () => {
    // Before: 400 'The Word document is damaged (bad File Information Block)': only 0xA5EC, the
    // Word 97 magic, was accepted. LibreOffice reads word6.doc to the same text.
    const word95 = await md(fixture('doc', 'word95.doc'), 'word95.doc');
    expect(await md(fixture('doc', 'word6.doc'), 'word6.doc')).toBe(word95);
    expect(word95).toContain('# Inspection Report');
  });

  it('refuses Word for Windows 2 and older with a clear 400', async () => {
    const copy = new Uint8Array(fixture('doc', 'word95.doc'));
    const fib = fibOffset(copy);
    copy.set([45, 0x00], fib + 2); // nFib 45: Word 2
    const err = await parse(copy, {}, { filename: 'old.doc' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DocmillError);
    expect((err as DocmillError).status).toBe(400);
    expect((err as DocmillError).message).toMatch(/Word for Windows 2 and older/);
  });

  it('ends every damaged variant of the Word 95 file in a result or a 400', async () => {
    await expectSurvivesDamage(fixture('doc', 'word95.doc'), 'word95.doc', 120);
  });

  it('reads HYPERLINK field targets', () => {
    expect(hyperlinkTarget(' HYPERLINK "https://a.example/x" ')).toBe('https://a.example/x');
    expect(hyperlinkTarget(' HYPERLINK \\l "_Toc1" ')).toBe('#_Toc1');
    expect(hyperlinkTarget(' HYPERLINK "http://b.example" \\o "tip" ')).toBe('http://b.example');
    expect(hyperlinkTarget(' PAGE ')).toBeUndefined();
  });

  it.each(['basic.doc', 'layout.doc'])(
    'answers 200 truncated or bit-flipped copies of %s with a result or a DocmillError',
    async (name) => {
      await expectSurvivesDamage(fixture('doc', name), 'damaged.doc');
    },
  );
});

describe.skipIf(!hasCorpus)(`doc adapter: corpus (${hasCorpus ? 'docling/doc' : corpusSkipReason})`, () => {
  it('reads legacy_sample.doc: headings in order, lists, the table', async () => {
    const out = await md(corpusFile('docling', 'doc', 'sources', 'legacy_sample.doc'), 'legacy_sample.doc');
    expect(headingsOf(out)).toEqual(['swimming in the lake', 'let s swim', 'let s eat']);
    expect(out).toContain('- You can relax and look around');
    expect(out).toContain('1. Wear sunglasses');
    expect(out).toContain('Figure 1: This is a cute duckling');
    expect(tablesOf(out)).toHaveLength(1);
    expect(out).toContain(
      '|  | Food | Calories per portion |\n| --- | --- | --- |\n| **Leaves** | Ash, Elm, Maple | 50 |',
    );
    expect(out).toContain('| **Grain** | Corn, Buckwheat, Barley | 200 |');
  });

  it('embeds the inline PNG of legacy_sample.doc only when base64 images are kept', async () => {
    const bytes = corpusFile('docling', 'doc', 'sources', 'legacy_sample.doc');
    expect(await md(bytes, 'legacy_sample.doc')).toContain('![](<Base64-Image-Removed>)');
    const kept = await parse(bytes, { removeBase64Images: false }, { filename: 'legacy_sample.doc' });
    expect(kept.markdown).toContain('![](data:image/png;base64,iVBORw0KGgo');
  });

  it('reads localized heading styles in greek_heading_styles.doc', async () => {
    const out = await md(corpusFile('docling', 'doc', 'sources', 'greek_heading_styles.doc'), 'g.doc');
    expect(out).toMatch(/^# Überschriften in nicht-englischer Sprache$/m);
    expect(out).toMatch(/^## Problem mit lokalisierten Dokumenten$/m);
    expect(out).toMatch(/^## Verifizierung$/m);
  });

  it('meets the text similarity target (mean ≥ 0.9)', async () => {
    const scores: number[] = [];
    for (const p of corpusPairs('docling/doc/sources', '.doc')) {
      if (!p.truth) continue;
      scores.push(textSimilarity(await md(corpusFile('docling', 'doc', 'sources', p.name), p.name), p.truth));
    }
    expect(scores.length).toBeGreaterThan(0);
    expect(mean(scores)).toBeGreaterThanOrEqual(0.9);
  });
});
