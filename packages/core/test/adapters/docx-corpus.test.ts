import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from '../../src/index.ts';
import { corpusPairs, corpusRoot, corpusSkipReason, hasCorpus } from '../helpers/corpus.ts';
import { headingF1, headingsOf, mean, tableNeighbourF1, tablesOf, textSimilarity } from '../helpers/metrics.ts';

const convert = async (path: string) => {
  const name = path.split('/').pop() as string;
  return (await parse(new Uint8Array(readFileSync(path)), {}, { filename: name })).markdown ?? '';
};

describe.skipIf(!hasCorpus)(`docx adapter: corpus (${hasCorpus ? 'present' : corpusSkipReason})`, () => {
  const docling = corpusPairs('docling/docx/sources', '.docx');
  const docPath = (name: string) => join(corpusRoot, 'docling/docx/sources', name);
  const mkPath = (name: string) => join(corpusRoot, 'markitdown', name);
  const markitdown = ['equations.docx', 'rlink.docx', 'test.docx', 'test_with_comment.docx'].filter((n) =>
    existsSync(mkPath(n)),
  );

  it('finds the corpus files', () => {
    expect(docling.length).toBe(33);
    expect(markitdown.length).toBe(4);
  });

  it('unit_test_headers_numbered: outline numbers and heading order', async () => {
    const out = await convert(docPath('unit_test_headers_numbered.docx'));
    expect(headingsOf(out).slice(0, 8)).toEqual([
      'test document',
      '1 section 1',
      '1 1 section 1 1',
      '1 2 section 1 2',
      '1 2 1 section 1 2 3',
      '2 section 2',
      '2 1 1 section 2 1 1',
      '2 2 section 2 1',
    ]);
    expect(out).toContain('- 1.1. Section A.1');
  });

  it('word_tables: horizontal and vertical merges repeat their text', async () => {
    const tables = tablesOf(await convert(docPath('word_tables.docx')));
    expect(tables).toHaveLength(7);
    expect(tables[6]?.[1]).toEqual(['', '', 'merged cell 0.2 1.2']);
    expect(tables[1]?.[1]).toEqual(['cell 1.0', 'merged cell 1.1 1.2', 'merged cell 1.1 1.2']);
    expect(tables[3]?.map((r) => r[1])).toEqual([
      'header 0.1',
      'merged cell 1.1 2.1',
      'merged cell 1.1 2.1',
      'merged cell 3.1 4.1',
      'merged cell 3.1 4.1',
    ]);
  });

  it('docx_lists and docx_list_resumed_numbering: nesting and resumed numbers', async () => {
    const lists = await convert(docPath('docx_lists.docx'));
    expect(lists).toContain('- List item 1\n  - List item 1.1\n    - List item 1.1.1\n- List item 3');
    expect(lists).toContain('1. List item a\n2. List item b\n3. List item c');
  });

  it('tablecell and docx_rich_cells: one-cell frames unwrap, rich cells keep their lists', async () => {
    const frame = await convert(docPath('tablecell.docx'));
    expect(frame.startsWith('- Hello world1\n- Hello2\n\nSome text before\n\n| Tab1 | Tab2 | Tab3 |')).toBe(true);
    const rich = tablesOf(await convert(docPath('docx_rich_cells.docx')));
    expect(rich[0]?.[1]?.[0]).toBe('this is a list - a first - a second - a third');
  });

  it('textbox, drawingml and equations: boxes once, charts as data, OMML as LaTeX', async () => {
    const box = await convert(docPath('textbox.docx'));
    expect(box.split('Student falls ill').length).toBe(2);
    const chart = tablesOf(await convert(docPath('drawingml.docx')));
    expect(chart[0]?.[1]).toEqual(['category 1', '4.3', '2.4', '2']);
    const eq = await convert(docPath('equations.docx'));
    expect(eq).toContain('inline equation: $A=\\pi r^{2}$.');
    expect(eq).toContain('$$\na^{2}+b^{2}=c^{2} \\times 23\n$$');
    expect(eq).toContain('\\sum_{n=1}^{\\infty}');
  });

  it('markitdown: every file converts; tables and comments', async () => {
    const test = await convert(mkPath('test.docx'));
    expect(headingsOf(test).slice(0, 3)).toEqual([
      'autogen enabling next gen llm applications via multi agent conversation',
      'abstract',
      'introduction',
    ]);
    expect(tablesOf(test)[0]?.[2]).toEqual(['13', '14', '49e168b7-d2ae-407f-a055-2167576f39a1', '15', '16', '17']);
    const commented = await convert(mkPath('test_with_comment.docx'));
    expect(commented).toContain('314b0a30-5b04-470b-b9f7-eed2c2bec74a');
    expect(commented).not.toContain('This is a test comment');
    expect(await convert(mkPath('rlink.docx'))).toContain('Testing Linked Images');
    expect(await convert(mkPath('equations.docx'))).toContain('\\frac{m\\lambda}{a}');
  });

  it('meets the format targets on every docx with ground truth (text ≥ 0.93, tables ≥ 0.85, headings ≥ 0.9)', async () => {
    const pairs = docling.map((p) => ({ path: p.path, truth: p.truth ?? '' }));
    // score.mjs pairs markitdown files with expected_outputs/<stem>.md; only test.md exists for docx.
    const mkTruth = join(corpusRoot, 'markitdown/expected_outputs/test.md');
    if (existsSync(mkTruth)) pairs.push({ path: mkPath('test.docx'), truth: readFileSync(mkTruth, 'utf8') });
    const scores = [];
    for (const p of pairs) {
      const out = await convert(p.path);
      scores.push({
        text: textSimilarity(out, p.truth),
        table: tableNeighbourF1(out, p.truth),
        heading: headingF1(out, p.truth),
      });
    }
    const present = (xs: (number | null)[]) => xs.filter((x): x is number => x !== null);
    expect(mean(scores.map((s) => s.text))).toBeGreaterThanOrEqual(0.93);
    expect(mean(present(scores.map((s) => s.table)))).toBeGreaterThanOrEqual(0.85);
    expect(mean(present(scores.map((s) => s.heading)))).toBeGreaterThanOrEqual(0.9);
  });
});
