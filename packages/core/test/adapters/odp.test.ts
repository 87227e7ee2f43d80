import { readFileSync } from 'node:fs';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { DocmillError, parse, parseTree } from '../../src/index.ts';
import type { Section } from '../../src/tree/types.ts';
import { corpusPairs, corpusSkipReason, fixture, hasCorpus } from '../helpers/corpus.ts';
import {
  headingsOf,
  mean,
  tableNeighbourF1,
  tablesOf,
  textSimilarity,
  withoutSlideAdditions,
} from '../helpers/metrics.ts';

const md = async (bytes: Uint8Array, filename: string, options = {}) =>
  (await parse(bytes, options, { filename })).markdown ?? '';

const FIXTURE_MD = [
  '# Launch plan',
  '',
  'Internal kick-off',
  '',
  '> Welcome everyone.',
  '',
  '## Slide 2',
  '',
  '- Goals',
  '  1. Speed',
  '  2. Quality',
  '- Budget',
  '',
  'Left column',
  '',
  'Right column',
  '',
  'Group upper',
  '',
  'Group lower',
  '',
  '> Stress the goals.',
  '',
  '# Numbers',
  '',
  '| Metric | Value |',
  '| --- | --- |',
  '| Users | 1200 |',
  '',
].join('\n');

async function odp(content: string): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file('mimetype', 'application/vnd.oasis.opendocument.presentation', { compression: 'STORE' });
  zip.file('content.xml', content);
  return zip.generateAsync({ type: 'uint8array' });
}

const pages = (inner: string) =>
  `<office:document-content xmlns:office="o" xmlns:draw="d" xmlns:text="t" xmlns:svg="s" xmlns:presentation="p"><office:body><office:presentation>${inner}</office:presentation></office:body></office:document-content>`;

describe('odp adapter: fixture', () => {
  const bytes = fixture('odp', 'basic.odp');

  it('renders titles, an untitled slide, reading order, a group, a table and notes exactly', async () => {
    expect(await md(bytes, 'basic.odp')).toBe(FIXTURE_MD);
  });

  it('makes one slide section per page with number and chosen name, and counts slides', async () => {
    const { tree } = await parseTree(bytes, {}, { filename: 'basic.odp' });
    const sections = tree.children as Section[];
    expect(sections.map((s) => [s.type, s.kind, s.number, s.name])).toEqual([
      ['section', 'slide', 1, 'Opening'],
      ['section', 'slide', 2, undefined],
      ['section', 'slide', 3, undefined],
    ]);
    expect(tree.metadata).toMatchObject({ numPages: 3, title: 'Launch plan deck', author: 'Ada Writer' });
  });

  it('keeps footer placeholders only when onlyMainContent is false', async () => {
    expect(await md(bytes, 'basic.odp')).not.toContain('Footer text');
    expect(await md(bytes, 'basic.odp', { onlyMainContent: false })).toContain('Footer text');
  });
});

describe('odp adapter: structure', () => {
  it('takes a lone line above everything else as the title of a slide without a title placeholder', async () => {
    const shape = (y: string, text: string) =>
      `<draw:custom-shape svg:x="1cm" svg:y="${y}" svg:width="20cm" svg:height="2cm"><text:p>${text}</text:p></draw:custom-shape>`;
    const out = await md(
      await odp(pages(`<draw:page>${shape('6cm', 'Body text')}${shape('1cm', 'Heading')}</draw:page>`)),
      'x.odp',
    );
    expect(out).toBe('# Heading\n\nBody text\n');
  });

  it('answers a package without a presentation body with a clear 400', async () => {
    const bytes = await odp(
      '<office:document-content xmlns:office="o"><office:body><office:text/></office:body></office:document-content>',
    );
    await expect(parse(bytes, {}, { filename: 'x.odp' })).rejects.toSatisfy(
      (e: unknown) => e instanceof DocmillError && e.status === 400 && /office:presentation/.test(e.message),
    );
  });
});

describe.skipIf(!hasCorpus)(`odp adapter: docling corpus (${hasCorpus ? 'present' : corpusSkipReason})`, () => {
  const pairs = corpusPairs('docling/odf/sources', '.odp');
  const convert = async (name: string) => {
    const pair = pairs.find((p) => p.name === name);
    if (!pair) throw new Error(`missing ${name}`);
    return { out: await md(new Uint8Array(readFileSync(pair.path)), name), truth: pair.truth ?? '' };
  };

  it('odf_presentation_01: titles, the merged table, columns in order, notes', async () => {
    const { out } = await convert('odf_presentation_01.odp');
    expect(headingsOf(out)).toEqual(['test table slide', 'second slide title', 'slide 3']);
    const [table] = tablesOf(out);
    expect(table?.[0]).toEqual(['', '- class1', '- class1', '- class1', '- class2', '- class2', '- class2']);
    expect(table?.[2]).toEqual(['- r1', '- true', '- false', '', '- false', '- true', '- true']);
    expect(out).toContain('> Some notes on the second slide.');
    expect(out.indexOf('List item6')).toBeLessThan(out.indexOf('- I1'));
    expect(out.indexOf('Maybe a list?')).toBeLessThan(out.indexOf('- l1'));
  });

  it('odf_presentation_02: text-shape titles, chart data, merged table, nested lists', async () => {
    const { out } = await convert('odf_presentation_02.odp');
    expect(headingsOf(out)).toEqual(['text', 'chart', 'table', 'photo', 'complex list', 'table with pictures']);
    const [chart, merged] = tablesOf(out);
    expect(chart?.[2]).toEqual(['row 2', '2.4', '8.8', '9.65']);
    expect(merged?.[2]?.slice(0, 3)).toEqual([
      'row 1',
      'merged cells row 1-3, col 2-3',
      'merged cells row 1-3, col 2-3',
    ]);
    expect(merged).toHaveLength(5);
    expect(out).toContain('- List item 2\n  1. Nested list item a\n     1. Triple nested');
  });

  it('meets the format targets on slide content (text ≥ 0.93, tables ≥ 0.85)', async () => {
    const scores = await Promise.all(
      pairs.map(async (p) => {
        const { out, truth } = await convert(p.name);
        return {
          text: textSimilarity(withoutSlideAdditions(out), truth),
          table: tableNeighbourF1(out, truth),
        };
      }),
    );
    expect(scores).toHaveLength(2);
    expect(mean(scores.map((s) => s.text))).toBeGreaterThanOrEqual(0.93);
    expect(mean(scores.map((s) => s.table))).toBeGreaterThanOrEqual(0.85);
  });
});
