import { describe, expect, it } from 'vitest';
import { DocmillError, parse, parseTree } from '../../src/index.ts';
import { corpusFile, corpusPairs, corpusSkipReason, fixture, hasCorpus } from '../helpers/corpus.ts';
import { expectSurvivesDamage } from '../helpers/damage.ts';
import { headingsOf, mean, textSimilarity } from '../helpers/metrics.ts';

const md = async (bytes: Uint8Array, filename: string) => (await parse(bytes, {}, { filename })).markdown ?? '';

describe('ppt adapter: fixture', () => {
  it('renders one titled section per slide, nested bullets, notes and a picture exactly', async () => {
    expect(await md(fixture('ppt', 'basic.ppt'), 'basic.ppt')).toBe(
      [
        '# Project Kickoff',
        '',
        '- Goals for the year',
        '  - Ship version two',
        '- Budget review',
        '',
        '> Remember to thank the team.',
        '',
        '# Next Steps',
        '',
        'Café meeting on Friday',
        '',
        '![](<Base64-Image-Removed>)',
        '',
      ].join('\n'),
    );
  });

  it('embeds the picture as a PNG data URI only when base64 images are kept', async () => {
    const kept = await parse(fixture('ppt', 'basic.ppt'), { removeBase64Images: false }, { filename: 'basic.ppt' });
    expect(kept.markdown).toContain('![](data:image/png;base64,iVBORw0KGgo');
  });

  it('returns slide sections with their numbers', async () => {
    const { tree } = await parseTree(fixture('ppt', 'basic.ppt'), {}, { filename: 'basic.ppt' });
    const sections = tree.children.filter((n) => n.type === 'section');
    expect(sections.map((n) => (n.type === 'section' ? `${n.kind}:${n.number}` : ''))).toEqual(['slide:1', 'slide:2']);
    expect(tree.metadata.numPages).toBe(2);
  });

  it('refuses a presentation marked encrypted without an encryption record with a clear 400', async () => {
    const copy = new Uint8Array(fixture('ppt', 'basic.ppt'));
    // Current User holds the header token; the encrypted token marks a protected file.
    let at = -1;
    for (let i = 0; i + 4 < copy.length; i++) {
      if (copy[i] === 0x5f && copy[i + 1] === 0xc0 && copy[i + 2] === 0x91 && copy[i + 3] === 0xe3) {
        at = i;
        break;
      }
    }
    expect(at).toBeGreaterThan(0);
    copy.set([0xdf, 0xc4, 0xd1, 0xf3], at);
    const err = await parse(copy, {}, { filename: 'locked.ppt' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DocmillError);
    expect((err as DocmillError).status).toBe(400);
    // Real encrypted files open with their password (passwords.test.ts); this one names no key.
    expect((err as DocmillError).message).toMatch(/encrypted and too damaged to decrypt/);
  });

  it('answers 200 truncated or bit-flipped copies with a result or a DocmillError', async () => {
    await expectSurvivesDamage(fixture('ppt', 'basic.ppt'), 'damaged.ppt');
  });
});

const stripNotes = (s: string): string =>
  s
    .split('\n')
    .filter((l) => !l.startsWith('>'))
    .join('\n');

describe.skipIf(!hasCorpus)(`ppt adapter: corpus (${hasCorpus ? 'docling/ppt' : corpusSkipReason})`, () => {
  it('reads legacy_sample.ppt: titles, the merged-cell table, lists, notes', async () => {
    const out = await md(corpusFile('docling', 'ppt', 'sources', 'legacy_sample.ppt'), 'legacy_sample.ppt');
    expect(headingsOf(out)).toEqual(['test table slide', 'second slide title', 'slide 3']);
    expect(out).toContain('|  | Class1 | Class1 | Class1 | Class2 | Class2 | Class2 |');
    expect(out).toContain('|  | A merged with B | A merged with B | C | A | B | C |');
    expect(out).toContain('| R4 | True | False | True | False | True | False |');
    expect(out).toContain('- With foo\n- Bar\n- And baz things');
    // Numbered bullets come from the PowerPoint 2000 extension data.
    expect(out).toContain('1. List item4\n2. List item5\n3. List item6');
    // Side-by-side boxes read left to right.
    const order = ['List item4', 'I1', 'Some info:', 'Maybe a list?', 'l1'].map((t) => out.indexOf(t));
    expect(order).toEqual([...order].sort((x, y) => x - y));
    expect(out).toContain('> Some notes on the second slide.');
    expect(out.indexOf('Some notes on the second slide.')).toBeLessThan(out.indexOf('## Slide 3'));
  });

  it('meets the text similarity target on slide content (mean ≥ 0.9, ≥ 0.95 on slide content without notes)', async () => {
    const body: number[] = [];
    const all: number[] = [];
    for (const p of corpusPairs('docling/ppt/sources', '.ppt')) {
      if (!p.truth) continue;
      const out = await md(corpusFile('docling', 'ppt', 'sources', p.name), p.name);
      // The ground truth leaves speaker notes out; the contract renders them as block quotes.
      body.push(textSimilarity(stripNotes(out), p.truth));
      all.push(textSimilarity(out, p.truth));
    }
    expect(body.length).toBeGreaterThan(0);
    expect(mean(body)).toBeGreaterThanOrEqual(0.95);
    expect(mean(all)).toBeGreaterThanOrEqual(0.9);
  });
});
