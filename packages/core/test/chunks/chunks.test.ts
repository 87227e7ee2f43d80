import { faker } from '@faker-js/faker';
import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base';
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { encodingCounter } from '../../src/derive/chunks/counter.ts';
import { segmentsOf } from '../../src/derive/chunks/segments.ts';
import { type Chunk, chunk, chunkSchema, contextualize, type Root, render } from '../../src/index.ts';
import {
  blockquote,
  code,
  heading,
  list,
  listItem,
  paragraph,
  root,
  section,
  tableFromMatrix,
} from '../../src/tree/build.ts';
import { isBlank } from '../../src/util/blank.ts';
import { contextOverBudget, offsetErrors, overBudget, wordCoverage } from '../helpers/chunks.ts';

const NO_SPECIAL = { disallowedSpecial: new Set<string>() };
const tokens = (t: string) => o200k.countTokens(t, NO_SPECIAL);
/** The two built-in encodings, for the tests of counts made from pieces. */
const ENCODINGS = [
  ['o200k_base', o200k],
  ['cl100k_base', cl100k],
] as const;

/** Deterministic prose: faker seeded per call. */
function prose(seed: number, sentences: number): string {
  faker.seed(seed);
  return faker.lorem.sentences(sentences);
}

/** The checks every chunk list must pass: budget by the tokenizer itself, every word in order, offsets. */
async function checked(tree: Root, maxTokens: number, extra: Parameters<typeof chunk>[1] = {}): Promise<Chunk[]> {
  const chunks = await chunk(tree, { maxTokens, ...extra });
  const markdown = render(tree, 'markdown');
  expect(overBudget(chunks, maxTokens)).toEqual([]);
  if (!extra.tokenizer) expect(contextOverBudget(chunks, maxTokens)).toEqual([]);
  const cov = wordCoverage(markdown, chunks);
  expect(cov.missing).toEqual([]);
  expect(cov.found).toBe(cov.words);
  expect(offsetErrors(markdown, chunks)).toEqual([]);
  return chunks;
}

describe('chunk(): budgets', () => {
  it('cuts a long paragraph at sentence ends, each part within the budget', async () => {
    const text = prose(1, 60);
    const chunks = await checked(root([paragraph(text)]), 64);
    expect(chunks.length).toBeGreaterThan(5);
    // Every chunk but the last ends a sentence: nothing is cut mid-sentence.
    for (const c of chunks.slice(0, -1)) expect(c.text).toMatch(/[.!?]$/);
    expect(chunks.map((c) => c.text).join(' ')).toBe(text);
  });

  it('cuts a sentence longer than the budget at words, and a word longer than the budget at characters', async () => {
    faker.seed(2);
    const sentence = `${faker.lorem.words(400)}.`;
    const word = 'x'.repeat(5000);
    const cjk = '東京都は日本の首都であり、世界有数の大都市です'.repeat(40);
    const emoji = '👩‍👩‍👧‍👦🎉'.repeat(300);
    const tree = root([paragraph(sentence), paragraph(word), paragraph(cjk), paragraph(emoji)]);
    const chunks = await chunk(tree, { maxTokens: 32 });
    expect(overBudget(chunks, 32)).toEqual([]);
    // Nothing is lost: the chunks hold the document's characters in order (a word cut is no longer a word).
    const squeeze = (t: string) => t.replace(/\s+/g, '');
    expect(squeeze(chunks.map((c) => c.text).join(''))).toBe(squeeze(render(tree, 'markdown')));
    // Words are whole: the long sentence's parts start and end on word boundaries.
    const fromSentence = chunks.flatMap((c) => c.text.split('\n\n')).filter((t) => /^[a-wyz]/.test(t));
    expect(fromSentence.length).toBeGreaterThan(5);
    for (const t of fromSentence) expect(sentence).toMatch(new RegExp(`(^| )${t.replace(/[.]/g, '\\.')}( |$)`));
    // Characters are whole code points: no lone surrogate anywhere.
    for (const c of chunks)
      expect(c.text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });

  it('cuts a paragraph of half a million characters and no sentence end at words, every word kept', async () => {
    const words = Array.from(
      { length: 8000 },
      (_, k) => `line ${k} of the long paragraph runs on, word after word`,
    ).join(' ');
    const chunks = await chunk(root([paragraph(words)]), { maxTokens: 512 });
    expect(chunks.length).toBeGreaterThan(100);
    expect(overBudget(chunks, 512)).toEqual([]);
    expect(chunks.map((c) => c.text).join(' ')).toBe(words);
  }, 120_000);

  it('reads a long text’s segments in time linear in its length', () => {
    // V8 copies the whole text it segments for every segment it hands out: read whole, a paragraph
    // of 265,000 characters ran past a parse's 30 s. Counted here: characters copied.
    let copied = 0;
    const counting = (granularity: 'word' | 'sentence') => {
      const real = new Intl.Segmenter('en', { granularity });
      return {
        resolvedOptions: () => real.resolvedOptions(),
        *segment(text: string) {
          for (const s of real.segment(text)) {
            copied += text.length;
            yield s;
          }
        },
      } as unknown as Intl.Segmenter;
    };
    const texts = [
      Array.from({ length: 8000 }, (_, k) => `line ${k} of the long paragraph runs on, word after word`).join(' '),
      `${'x'.repeat(140_000)}${' a'.repeat(60_000)}`,
      '1, '.repeat(100_000),
    ];
    for (const text of texts)
      for (const granularity of ['word', 'sentence'] as const) {
        copied = 0;
        segmentsOf(counting(granularity), text);
        expect(copied / text.length, `${granularity} ${text.slice(0, 12)}`).toBeLessThan(2000);
      }
  });

  it('finds the boundaries of a long text window by window as in one reading of it', () => {
    // Windows of 1,024 units: a boundary near a window's end ("4." before "2"), or one whose rule
    // looks further for the next letter, is read again.
    const texts = [
      'Shareholders’ equity (net) changed, 4.2 and 3,141.59 e.g. Dr. Smith went to St. Louis. "Quoted." (Aside.) '.repeat(
        120,
      ),
      '株主資本以外の項目の当期変動額（純額）は、当連結会計年度において増加しました。'.repeat(120),
      '보험금의 지급은 향후 계약 조건에 따라 결정됩니다. '.repeat(200),
      'مرحبا بالعالم. هذا نص طويل جدا للاختبار. '.repeat(200),
      '😀👍🏽 emoji 👨‍👩‍👧 family. '.repeat(300),
      `${'x'.repeat(5000)}${' a'.repeat(300)} after one long word.`,
      // Rules that look past many characters for the next letter, across a window's end.
      `${'word '.repeat(180)}end. ${'1, '.repeat(50)}and so on.`,
      `${'word '.repeat(180)}a.${'\u0301'.repeat(300)}b and more`,
      `${'word '.repeat(180)}3,${'\u2060'.repeat(300)}141 go`,
      `Go. Ab. ${'1, '.repeat(1000)}and on.`,
      `${'1 '.repeat(400)}3,${'\u2060'.repeat(300)}141 go`,
    ];
    for (const text of texts)
      for (const granularity of ['word', 'sentence'] as const) {
        const segmenter = new Intl.Segmenter('en', { granularity });
        const whole = [...segmenter.segment(text)].map((s) => [s.index, s.segment, s.isWordLike]);
        expect(segmentsOf(segmenter, text).map((s) => [s.index, s.segment, s.isWordLike])).toEqual(whole);
      }
  });

  it('ends sentences after citations and never cuts inside a link, code span or tag', async () => {
    const sentence = (i: number) =>
      `Sentence ${i} cites [a source with a long title](https://example.com/${'path/'.repeat(8)}${i} "Title ${i}") and \`code.span(${i})\`.<sup>[\\[${i}]](#cite_note-${i})</sup>`;
    const markdown = Array.from({ length: 30 }, (_, i) => sentence(i)).join(' ');
    const chunks = await chunk({ markdown, metadata: { error: null }, warning: null }, { maxTokens: 64 });
    expect(overBudget(chunks, 64)).toEqual([]);
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.map((c) => c.text).join(' ')).toBe(markdown);
    // Every chunk is whole sentences, each ending with its citation.
    for (const c of chunks) expect(c.text).toMatch(/^Sentence \d+ cites .*<\/sup>$/s);
  });

  it('splits a table by rows, every part starting with the header row, rows never cut', async () => {
    const header = ['Region', 'Product', 'Units', 'Revenue'];
    const rows = Array.from({ length: 120 }, (_, i) => [
      `Region ${i % 7}`,
      `Product ${i}`,
      `${i * 3}`,
      `$${i * 17}.00`,
    ]);
    const tree = root([heading(2, 'Sales'), tableFromMatrix([header, ...rows], 1)]);
    const chunks = await checked(tree, 128);
    const parts = chunks.filter((c) => c.type === 'table' || c.text.includes('| Region | Product |'));
    expect(parts.length).toBeGreaterThan(3);
    const markdown = render(tree, 'markdown');
    const lines = new Set(markdown.split('\n'));
    for (const c of parts) {
      const body = c.text.replace(/^## Sales\n\n/, '');
      expect(body.startsWith('| Region | Product | Units | Revenue |\n| --- | --- | --- | --- |\n')).toBe(true);
      // Every line is a whole row of the table.
      for (const line of body.split('\n')) expect(lines.has(line), line).toBe(true);
      expect(c.headings).toEqual(['Sales']);
    }
    // All 120 rows are there, once each, in order.
    const seen = parts.flatMap((c) => c.text.split('\n').filter((l) => /^\| Region \d/.test(l)));
    expect(seen).toEqual(rows.map((r) => `| ${r.join(' | ')} |`));
  });

  it('sends a row that fits only without the header row by itself, whole', async () => {
    const long = `| ${'word '.repeat(30).trim()} | ${'more '.repeat(20).trim()} |`;
    const tree = root([
      tableFromMatrix(
        [
          ['Name of the first column', 'Name of the second column'],
          ['a', 'b'],
          ['c', 'd'],
        ],
        1,
      ),
    ]);
    const md = `${render(tree, 'markdown').trimEnd()}\n${long}\n| e | f |\n`;
    const header = '| Name of the first column | Name of the second column |\n| --- | --- |';
    expect(tokens(`${header}\n${long}`)).toBeGreaterThan(64);
    expect(tokens(long)).toBeLessThanOrEqual(64);
    const chunks = await chunk({ markdown: md, metadata: { error: null }, warning: null }, { maxTokens: 64 });
    expect(overBudget(chunks, 64)).toEqual([]);
    expect(chunks.map((c) => c.text)).toEqual([`${header}\n| a | b |\n| c | d |`, long, `${header}\n| e | f |`]);
    // When that row is the first, the header row still comes first: the table reads in order.
    const first = `${header}\n${long}\n| e | f |\n`;
    const ordered = await chunk({ markdown: first, metadata: { error: null }, warning: null }, { maxTokens: 64 });
    expect(ordered.map((c) => c.text)).toEqual([header, long, `${header}\n| e | f |`]);
    expect(wordCoverage(first, ordered).missing).toEqual([]);
    expect(offsetErrors(first, ordered)).toEqual([]);
  });

  it('splits a list by items and code by lines, each code part fenced', async () => {
    const items = Array.from({ length: 40 }, (_, i) => listItem([paragraph(`Item ${i}: ${prose(i, 2)}`)]));
    const program = Array.from(
      { length: 200 },
      (_, i) => `const value${i} = compute(${i}, "${'a'.repeat(i % 13)}");`,
    ).join('\n');
    const chunks = await checked(root([list(false, items), code(program, 'ts')]), 96);
    const listChunks = chunks.filter((c) => c.type === 'list');
    expect(listChunks.length).toBeGreaterThan(3);
    for (const c of listChunks) for (const line of c.text.split('\n')) expect(line).toMatch(/^- Item \d+: /);
    const codeChunks = chunks.filter((c) => c.type === 'code');
    expect(codeChunks.length).toBeGreaterThan(3);
    for (const c of codeChunks) {
      expect(c.text.startsWith('```ts\n')).toBe(true);
      expect(c.text.endsWith('\n```')).toBe(true);
      for (const line of c.text.split('\n').slice(1, -1)) expect(program.split('\n')).toContain(line);
    }
  });

  it('counts with cl100k_base or a caller function, and keeps their budgets', async () => {
    const tree = root([heading(1, 'Title'), paragraph(prose(3, 40))]);
    const cl = await chunk(tree, { maxTokens: 50, tokenizer: 'cl100k_base' });
    expect(overBudget(cl, 50, 'cl100k_base')).toEqual([]);
    const words = (t: string) => t.split(/\s+/).filter(Boolean).length;
    const byWords = await chunk(tree, { maxTokens: 30, tokenizer: words });
    for (const c of byWords) {
      expect(words(c.text)).toBeLessThanOrEqual(30);
      expect(c.tokens).toBe(words(c.text));
    }
  });

  it('refuses budgets out of range and counters that do not return counts', async () => {
    const tree = root([paragraph('Hello world.')]);
    await expect(chunk(tree, { maxTokens: 8 })).rejects.toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    await expect(chunk(tree, { maxTokens: 100, overlapTokens: 60 })).rejects.toMatchObject({ status: 400 });
    await expect(chunk(tree, { tokenizer: () => -1 })).rejects.toThrow(/whole number/);
    // Names only from the list: not whatever an object answers to ('constructor').
    for (const name of ['gpt2', 'constructor'])
      await expect(chunk(tree, { tokenizer: name as never })).rejects.toMatchObject({
        status: 400,
        message: expect.stringMatching(/Unknown tokenizer/),
      });
    // A counter that makes any single character cost more than the budget.
    await expect(chunk(tree, { maxTokens: 16, tokenizer: (t) => t.length * 100 })).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/single character/),
    });
  });
});

describe('chunk(): structure', () => {
  const nested = root([
    heading(1, 'Handbook'),
    paragraph('Intro to the handbook.'),
    heading(2, 'Travel'),
    heading(3, 'Flights'),
    paragraph(prose(10, 30)),
    heading(3, 'Hotels'),
    paragraph(prose(11, 30)),
    heading(2, 'Expenses'),
    paragraph(prose(12, 30)),
  ]);

  it('gives each chunk its heading path, and prefixes it with contextualize()', async () => {
    const chunks = await checked(nested, 128);
    const byStart = (s: string) => chunks.find((c) => c.text.startsWith(s)) as Chunk;
    expect(byStart('# Handbook').headings).toEqual(['Handbook']);
    const flights = byStart('## Travel');
    // A heading chain stays with the first content under it.
    expect(flights.text.startsWith('## Travel\n\n### Flights\n\n')).toBe(true);
    expect(flights.headings).toEqual(['Handbook', 'Travel', 'Flights']);
    expect(contextualize(flights)).toBe(`Handbook\n\n${flights.text}`);
    expect(byStart('### Hotels').headings).toEqual(['Handbook', 'Travel', 'Hotels']);
    expect(contextualize(byStart('### Hotels'))).toBe(`Handbook\nTravel\n\n${byStart('### Hotels').text}`);
    expect(byStart('## Expenses').headings).toEqual(['Handbook', 'Expenses']);
    // A continuation part of a long section repeats the whole path in front.
    const later = chunks.find((c) => !c.text.startsWith('#') && c.headings.at(-1) === 'Hotels') as Chunk;
    expect(contextualize(later)).toBe(`Handbook\nTravel\nHotels\n\n${later.text}`);
  });

  it('merges short sections into one chunk when they fit, never a section into a higher one', async () => {
    // A first section that fills most of a 128-token chunk by itself.
    faker.seed(40);
    let long = '';
    while (tokens(`# A\n\n## A.1\n\n${long} ${faker.lorem.word()}.`) < 118)
      long = `${long} ${faker.lorem.word()}.`.trim();
    const tree = root([
      heading(1, 'A'),
      heading(2, 'A.1'),
      paragraph(long),
      heading(2, 'A.2'),
      paragraph('Two.'),
      heading(3, 'A.2.1'),
      paragraph('Two and a half.'),
      heading(2, 'A.3'),
      paragraph('Three.'),
      heading(1, 'B'),
      paragraph('Four.'),
    ]);

    const chunks = await checked(tree, 128);
    // A.2's chunk takes its subsection and its sibling A.3; B, higher in the outline than where
    // that chunk starts, starts its own although it would fit.
    expect(chunks.map((c) => c.text)).toEqual([
      `# A\n\n## A.1\n\n${long}`,
      '## A.2\n\nTwo.\n\n### A.2.1\n\nTwo and a half.\n\n## A.3\n\nThree.',
      '# B\n\nFour.',
    ]);
    expect(chunks.map((c) => c.headings)).toEqual([['A', 'A.1'], ['A', 'A.2'], ['B']]);
  });

  it('keeps a heading with its section: one that heads more than the rest of the chunk holds moves on', async () => {
    const tree = root([heading(1, 'Intro'), paragraph('Short.'), heading(2, 'Big'), paragraph(prose(41, 30))]);
    const chunks = await checked(tree, 128);
    expect(chunks[0]?.text).toBe('# Intro\n\nShort.');
    expect(chunks[1]?.text.startsWith('## Big\n\n')).toBe(true);
  });

  it('never leaves a heading alone: what it heads joins it, and an empty section stays behind', async () => {
    const body = prose(50, 7);
    const tree = root([
      heading(1, 'Creatures'),
      heading(2, 'Demon'),
      paragraph(prose(51, 2)),
      // An empty section: the next heading is higher.
      heading(3, 'Dragon'),
      heading(2, 'Dragonlings'),
      paragraph(body),
    ]);
    expect(tokens(body)).toBeLessThan(128);
    const chunks = await checked(tree, 128);
    expect(chunks.every((c) => !/^(#+ [^\n]+(\n\n)?)+$/.test(c.text))).toBe(true);
    expect(chunks[0]?.text.endsWith('### Dragon')).toBe(true);
    // The paragraph fits a chunk by itself but not after its heading: it is cut so its start joins it.
    expect(chunks[1]?.text.startsWith('## Dragonlings\n\n')).toBe(true);
    expect(chunks[1]?.headings).toEqual(['Creatures', 'Dragonlings']);
  });

  it('cuts a block that fits a chunk by itself but not after its heading, so the heading is not alone', async () => {
    const title = 'A rather long section title of ten words or so';
    // The paragraph's own budget: 128 less the path it would carry (four headings, a blank line,
    // one token); after the four heading lines, with their marks, it does not fit.
    const own = 128 - (tokens(`Part one\nChapter two\nSection three\n${title}\n\n`) + 1);
    faker.seed(52);
    let para = '';
    while (tokens(`${para} ${faker.lorem.word()}.`.trim()) <= own) para = `${para} ${faker.lorem.word()}.`.trim();
    const chain = `# Part one\n\n## Chapter two\n\n### Section three\n\n#### ${title}`;
    expect(tokens(`${chain}\n\n${para}`)).toBeGreaterThan(128);
    const tree = root([
      heading(1, 'Part one'),
      heading(2, 'Chapter two'),
      heading(3, 'Section three'),
      heading(4, title),
      paragraph(para),
    ]);
    const chunks = await checked(tree, 128);
    expect(chunks.length).toBe(2);
    expect(chunks[0]?.text.startsWith(`${chain}\n\n`)).toBe(true);
  });

  it('keeps a document of headings only, and headings at the very end', async () => {
    const tree = root([
      heading(1, 'Title'),
      heading(2, 'Section 1'),
      heading(2, 'Section 2'),
      heading(3, 'Section 2.1'),
    ]);
    const chunks = await checked(tree, 64);
    expect(chunks.map((c) => c.text).join('\n\n')).toBe(render(tree, 'markdown').trimEnd());
    const tail = await checked(root([heading(1, 'A'), paragraph('Text.'), heading(2, 'Empty at the end')]), 64);
    expect(tail.map((c) => c.text).join('\n\n')).toBe('# A\n\nText.\n\n## Empty at the end');
  });

  it('never joins slides, sheets or chapters, and says which one each chunk is from', async () => {
    const tree = root([
      section('slide', 1, [heading(1, 'Intro'), paragraph('Hello.')]),
      section('slide', 2, [paragraph('No title here.')]),
      section(
        'sheet',
        3,
        [
          heading(2, 'Stock'),
          tableFromMatrix(
            [
              ['a', 'b'],
              ['1', '2'],
            ],
            1,
          ),
        ],
        { name: 'Stock' },
      ),
      section('chapter', 4, [paragraph('Once upon a time.')], { name: 'Chapter One' }),
    ]);
    const chunks = await checked(tree, 512);
    expect(chunks.map((c) => [c.pages, c.sheet, c.chapter, c.chapterTitle, c.headings])).toEqual([
      [[1], undefined, undefined, undefined, ['Intro']],
      // The slide before had a title: it does not carry over.
      [[2], undefined, undefined, undefined, []],
      [undefined, 'Stock', undefined, undefined, ['Stock']],
      [undefined, undefined, 4, 'Chapter One', []],
    ]);
  });

  it('flows over pages and gives the pages and the box on each page', async () => {
    const p = (n: number, y: number) => ({
      ...paragraph(`Page ${n} text ${prose(n, 2)}`),
      source: { page: n, bbox: [72, y, 500, y + 40] as [number, number, number, number] },
    });
    const tree = root([
      section('page', 1, [p(1, 100), p(1, 200)], { width: 612, height: 792 }),
      section('page', 2, [p(2, 80)], { width: 612, height: 792 }),
    ]);
    const [only] = await checked(tree, 512);
    expect(only?.pages).toEqual([1, 2]);
    expect(only?.bbox).toEqual([
      { page: 1, bbox: [72, 100, 500, 240] },
      { page: 2, bbox: [72, 80, 500, 120] },
    ]);
    expect(only?.blocks).toEqual(['p1-b0', 'p1-b1', 'p2-b0']);
  });

  it('types chunks by what they hold and numbers them in reading order', async () => {
    const tree = root([
      heading(1, 'T'),
      paragraph('Words.'),
      heading(1, 'U'),
      tableFromMatrix([['h'], ['v']], 1),
      heading(1, 'V'),
      blockquote([paragraph('Quoted.')]),
      code('x = 1'),
    ]);
    const chunks = await checked(tree, 16);
    expect(chunks.map((c) => [c.id, c.type])).toEqual([
      ['c1', 'text'],
      ['c2', 'table'],
      ['c3', 'mixed'],
    ]);
  });
});

describe('chunk(): overlap', () => {
  it('starts each continuation with the end of the previous chunk, within the budget', async () => {
    const text = prose(20, 80);
    const tree = root([heading(1, 'Long'), paragraph(text)]);
    const chunks = await checked(tree, 96, { overlapTokens: 24 });
    expect(chunks.length).toBeGreaterThan(4);
    const markdown = render(tree, 'markdown');
    for (let i = 1; i < chunks.length; i++) {
      const prev = chunks[i - 1] as Chunk;
      const c = chunks[i] as Chunk;
      // The chunk is the end of the previous one (whole sentences), then its own text.
      const own = markdown.slice(c.startOffset, c.endOffset);
      expect(c.text.endsWith(own)).toBe(true);
      const tail = c.text.slice(0, -own.length).trim();
      expect(tail).toMatch(/\.$/);
      expect(prev.text.endsWith(tail)).toBe(true);
      expect(tokens(tail)).toBeLessThanOrEqual(24);
      expect(c.tokens).toBeLessThanOrEqual(96);
      // Offsets stay those of the chunk's own text, after the previous chunk's.
      expect(c.startOffset).toBeGreaterThanOrEqual(prev.endOffset as number);
    }
  });

  it('does not overlap across a heading', async () => {
    const b = prose(22, 3);
    const tree = root([heading(1, 'A'), paragraph(prose(21, 30)), heading(1, 'B'), paragraph(b)]);
    const chunks = await chunk(tree, { maxTokens: 64, overlapTokens: 16 });
    expect(chunks.at(-1)?.text).toBe(`# B\n\n${b}`);
  });
});

describe('chunk(): inputs and determinism', () => {
  const tree = root([
    section('page', 1, [
      heading(1, 'Report'),
      paragraph(prose(30, 20)),
      tableFromMatrix(
        [
          ['k', 'v'],
          ['a', '1'],
        ],
        1,
      ),
    ]),
    section('page', 2, [
      heading(2, 'Annex'),
      list(true, [listItem([paragraph('First')]), listItem([paragraph('Second')])]),
    ]),
  ]);

  it('gives the same chunks for the same input, from a tree or from parse data with blocks', async () => {
    const a = await chunk(tree, { maxTokens: 64 });
    const b = await chunk(structuredClone(tree), { maxTokens: 64 });
    expect(b).toEqual(a);
  });

  it('chunks parse data without blocks from its Markdown, pages from page markers', async () => {
    const { renderMarkdownWithSpans } = await import('../../src/render/markdown.ts');
    const { markdown } = renderMarkdownWithSpans(tree, { pageMarkers: true });
    const chunks = await chunk({ markdown, metadata: { error: null }, warning: null }, { maxTokens: 64 });
    expect(overBudget(chunks, 64)).toEqual([]);
    expect(chunks[0]?.pages).toEqual([1]);
    expect(chunks.at(-1)?.pages).toContain(2);
    expect(chunks.find((c) => c.text.includes('## Annex'))?.text).toMatch(/## Annex\n\n1\. First\n2\. Second$/);
    expect(offsetErrors(markdown, chunks)).toEqual([]);
    expect(wordCoverage(markdown, chunks).missing).toEqual([]);
  });

  it('refuses parse data with neither markdown nor blocks', async () => {
    await expect(chunk({ metadata: { error: null }, warning: null })).rejects.toMatchObject({ status: 400 });
  });
});

describe('token counts of joined blocks', () => {
  it('equal the tokenizer counting the joined text (o200k_base and cl100k_base)', () => {
    const pieces = [
      'Plain words',
      'ends with a dot.',
      'ends with symbols )).',
      'space before symbol .',
      '| a | b |',
      '/usr/bin starts with a slash',
      '//double',
      'combining e\u0301',
      '東京。',
      'emoji 🎉',
      '1.',
      'trailing ...',
      '"quoted"',
      '- item',
      '# Heading',
      '```\ncode\n```',
      '  ',
    ].map((p) => p.trim() || 'x');
    for (const [name, enc] of ENCODINGS) {
      const counter = encodingCounter(enc, name);
      for (const a of pieces)
        for (const b of pieces) {
          const joint = counter.joint(a, b);
          if (joint === undefined) continue;
          expect(
            counter.count(a) + joint + counter.count(b),
            `${name}: ${JSON.stringify(a)} + ${JSON.stringify(b)}`,
          ).toBe(enc.countTokens(`${a}\n\n${b}`, NO_SPECIAL));
        }
    }
  });
});

describe('seams', () => {
  it("call blank exactly what the pre-split's \\s does, every UTF-16 code unit", () => {
    const differ: number[] = [];
    for (let c = 0; c <= 0xffff; c++) if (isBlank(c) !== /\s/u.test(String.fromCharCode(c))) differ.push(c);
    expect(differ).toEqual([]);
  });

  it('split no pre-token: the pieces on either side count as much as the whole (o200k_base, cl100k_base)', () => {
    const atoms = [
      'word',
      'Word',
      ' ',
      '  ',
      '\n',
      '\n\n',
      '.',
      ',',
      '/',
      '//',
      '|',
      '\t',
      '3',
      '42',
      "'s",
      'é',
      'e\u0301',
      '東京',
      '🎉',
      '-',
      '(',
      ')',
      '\u00a0',
      '\ufeff',
    ];
    faker.seed(7);
    let checkedSeams = 0;
    for (const [name, enc] of ENCODINGS) {
      const counter = encodingCounter(enc, name);
      for (let n = 0; n < 1000; n++) {
        const text = Array.from({ length: 24 }, () => faker.helpers.arrayElement(atoms)).join('');
        for (let at = 1; at < text.length; at++) {
          if (!counter.seam(text, at)) continue;
          checkedSeams++;
          const whole = enc.countTokens(text, NO_SPECIAL);
          const parts = enc.countTokens(text.slice(0, at), NO_SPECIAL) + enc.countTokens(text.slice(at), NO_SPECIAL);
          expect(parts, `${name} ${JSON.stringify(text)} at ${at}`).toBe(whole);
        }
      }
    }
    expect(checkedSeams).toBeGreaterThan(1000);
  });
});

it('counts special-token text as text', async () => {
  const [c] = await chunk(root([paragraph('before <|endoftext|> after')]));
  expect(c?.tokens).toBe(tokens('before <|endoftext|> after'));
});

describe('chunkSchema', () => {
  it('says what the Chunk type says, and gives a JSON Schema with every field described', async () => {
    // Both ways assignable: a field added to one and not the other fails type-checking here.
    type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
    const same: Same<z.output<typeof chunkSchema>, Chunk> = true;
    // Optional fields are assignable either way: the names must be the same too.
    const sameFields: Same<keyof z.output<typeof chunkSchema>, keyof Chunk> = true;
    expect([same, sameFields]).toEqual([true, true]);
    const json = z.toJSONSchema(chunkSchema) as {
      properties: Record<string, { description?: string }>;
      required: string[];
      additionalProperties: boolean;
    };
    expect(json.required.sort()).toEqual(['headings', 'id', 'text', 'tokens', 'type']);
    expect(json.additionalProperties).toBe(false);
    for (const [field, property] of Object.entries(json.properties)) expect(property.description, field).toMatch(/\w/);
    const [c] = await chunk(root([heading(1, 'Title'), paragraph('Some words.')]));
    expect(chunkSchema.parse(c)).toEqual(c);
    expect(chunkSchema.safeParse({ ...c, tokens: -1 }).success).toBe(false);
    expect(chunkSchema.safeParse({ ...c, extra: 1 }).success).toBe(false);
  });
});
