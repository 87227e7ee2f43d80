import { describe, expect, it } from 'vitest';
import { DocmillError, detect, parse, parseTree } from '../../src/index.ts';
import type { Block, Section } from '../../src/tree/types.ts';
import { corpusFile, corpusSkipReason, fixture, hasCorpus } from '../helpers/corpus.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const md = async (bytes: Uint8Array, filename: string) => (await parse(bytes, {}, { filename })).markdown ?? '';

describe('detection of the text extension types', () => {
  it('goes by content where it proves a kind, else by extension or content type', () => {
    expect(detect(enc('{"cells": [], "metadata": {}, "nbformat": 4}'), { filename: 'x.json' }).kind).toBe('ipynb');
    expect(detect(enc('<?xml version="1.0"?><rss><channel/></rss>'), {}).kind).toBe('xml');
    expect(detect(enc('[{"a":1}]'), {}).kind).toBe('json');
    expect(detect(enc('{"a":1}\n{"a":2}\n'), { filename: 'x.log' }).kind).toBe('json');
    expect(detect(enc('# Title\n\ntext'), { filename: 'a.md' }).kind).toBe('markdown');
    // Markdown stays Markdown whatever it starts with.
    expect(detect(enc('[{"a":1}]'), { filename: 'a.md' }).kind).toBe('markdown');
    expect(detect(enc('just words'), { filename: 'a.txt' }).kind).toBe('text');
    expect(detect(enc('just words'), { contentType: 'text/plain' }).kind).toBe('text');
    // The contract's own text types behave as before: CSV and HTML by label, unlabelled text is CSV.
    expect(detect(enc('{"a":1}'), { filename: 'a.csv' }).kind).toBe('csv');
    expect(detect(enc('a,b\n1,2\n'), {}).kind).toBe('csv');
  });
  it('keeps an unknown extension unsupported', () => {
    expect(() => detect(enc('key: value'), { filename: 'a.yaml' })).toThrow(DocmillError);
  });
});

describe('plain text', () => {
  it('decodes undeclared Shift-JIS into paragraphs, line breaks kept', async () => {
    expect(await md(fixture('text', 'sjis.txt'), 'sjis.txt')).toBe(
      '会議のお知らせ\n\n来週の月曜日、午前十時から本社の三階会議室で定例会議を行います。  \n資料は前日までに共有フォルダへ保存してください。\n\n担当：山田花子\n',
    );
  });
  it('keeps each log line on its own line', async () => {
    const out = await md(fixture('text', 'server.log'), 'server.log');
    expect(out.split('\n')[0]).toBe('2024-03-01 10:00:01 INFO started worker 1  ');
    expect(out).toContain('\n\n2024-03-01 11:15:40 ERROR job 42 failed: timeout');
  });
  it('refuses binary data labelled as text with a 400', async () => {
    const err = await parse(new Uint8Array([0x41, 0, 0, 1, 2, 3, 0, 0]), {}, { filename: 'a.txt' }).catch((e) => e);
    expect(err).toBeInstanceOf(DocmillError);
    expect(err.status).toBe(400);
  });
});

describe('Markdown is parsed into the tree', () => {
  it('builds headings, lists, tasks, tables, code, quotes and converts HTML blocks', async () => {
    const { tree } = await parseTree(fixture('text', 'guide.md'), {}, { filename: 'guide.md' });
    expect(tree.metadata).toMatchObject({ title: 'Deployment Guide', author: 'Ops Team' });
    const types = tree.children.map((b) => b.type);
    expect(types).toEqual([
      'heading',
      'paragraph',
      'heading',
      'list',
      'list',
      'table',
      'code',
      'blockquote',
      'table',
      'thematicBreak',
      'paragraph',
    ]);
    const ordered = tree.children[3] as Extract<Block, { type: 'list' }>;
    expect(ordered.ordered).toBe(true);
    expect(ordered.children[1]?.children.some((b) => b.type === 'list')).toBe(true);
    const tasks = tree.children[4] as Extract<Block, { type: 'list' }>;
    expect(tasks.children.map((i) => i.checked)).toEqual([true, false]);
    expect(tree.children[6]).toMatchObject({ type: 'code', lang: 'yaml', value: 'port: 8080\nworkers: 4' });
    const out = await md(fixture('text', 'guide.md'), 'guide.md');
    expect(out).toContain(
      'Run the *installer* with **root** rights — see [the docs](https://example.com/docs "Docs").',
    );
    expect(out).toContain('| workers | 4 | one per core |');
    expect(out).toContain('| EU | Berlin team |');
    expect(out).not.toContain('<table>');
    expect(out).not.toContain('title: Deployment Guide');
  });
  it('bounds hostile nesting and quadratic inline runs', async () => {
    const quotes = await parse(enc(`${'>'.repeat(100_000)} deep\n`), {}, { filename: 'q.md' });
    expect(quotes.markdown).toContain('deep');
    const stars = await parse(enc('*a'.repeat(200_000)), {}, { filename: 's.md' });
    expect(stars.warning).toMatch(/kept as plain text/);
    expect(stars.markdown?.length).toBeGreaterThan(400_000);
  });
});

describe('JSON', () => {
  it('turns a top-level array of flat objects into a table, numbers as written', async () => {
    expect(await md(fixture('text', 'orders.json'), 'orders.json')).toBe(
      [
        '| id | customer | total | paid | note |',
        '| --- | --- | --- | --- | --- |',
        '| 1 | Ada Lovelace | 12.5 | true |  |',
        '| 12345678901234567890 | Grace Hopper | 7 | false | gift \\| wrap |',
        '',
      ].join('\n'),
    );
  });
  it('pretty-prints anything else as a json code block, keys in file order', async () => {
    const out = await md(fixture('text', 'config.json'), 'config.json');
    expect(out.startsWith('```json\n{\n  "name": "svc",\n  "10": "ten",\n  "nested": {\n    "list": [\n      1,')).toBe(
      true,
    );
    expect(out).toContain('"empty": {}');
  });
  it('reads JSON Lines records as a table', async () => {
    expect(await md(fixture('text', 'events.jsonl'), 'events.jsonl')).toContain(
      '| 2024-03-01T10:05:00Z | logout | ada |',
    );
  });
  it('keeps invalid JSON as text with a warning, and survives deep nesting', async () => {
    const bad = await parse(enc('{"a": 1,,}'), {}, { filename: 'bad.json' });
    expect(bad.markdown).toContain('{"a": 1,,}');
    expect(bad.warning).toMatch(/not valid JSON/);
    // Re-indented, 100,000 levels pass the output budget: cut there, with a warning.
    const deep = await parse(enc(`${'['.repeat(100_000)}${']'.repeat(100_000)}`), {}, { filename: 'deep.json' });
    expect(deep.warning).toMatch(/output passed/);
    const shallow = await parse(enc(`${'['.repeat(1000)}${']'.repeat(1000)}`), {}, { filename: 'deep.json' });
    expect(shallow.markdown?.startsWith('```json\n[\n  [\n    [')).toBe(true);
  });
});

describe('XML', () => {
  it('reads an RSS feed as one section per item: title, link, date, author, HTML text', async () => {
    const { tree } = await parseTree(fixture('text', 'feed.rss'), {}, { filename: 'feed.rss' });
    const items = tree.children.filter((b): b is Section => b.type === 'section');
    expect(items.map((s) => [s.kind, s.name])).toEqual([
      ['item', 'New ferry timetable'],
      ['item', 'Quay 3 closed'],
    ]);
    const out = await md(fixture('text', 'feed.rss'), 'feed.rss');
    expect(out).toContain('# Harbour News\n\nWeekly notes from the harbour office\n\n## New ferry timetable');
    expect(out).toContain(
      '**Link:** [https://harbour.example/ferry](https://harbour.example/ferry)  \n**Date:** Mon, 04 Mar 2024 09:00:00 +0000  \n**Author:** Maria Lopez',
    );
    expect(out).toContain('From **April** the ferry leaves every 40 minutes.\n\n- First boat 06:10\n- Last boat 22:50');
    expect(out).not.toContain('Short summary only.');
    expect(out).toContain('Quay 3 is closed for *repairs* until Friday.');
  });
  it('reads Atom entries with XHTML and escaped-HTML content', async () => {
    const out = await md(fixture('text', 'feed.atom'), 'feed.atom');
    expect(out).toContain('## Batch 7 passed\n\n**Link:** [https://lab.example/batch-7](https://lab.example/batch-7)');
    expect(out).toContain('**Author:** Dr. Chen\n\nAll **12 samples** within tolerance.');
    expect(out).toContain('## Calibration');
    expect(out).toContain('The scale was recalibrated.');
  });
  it('gives other XML as its text, in its declared charset, never markup', async () => {
    expect(await md(fixture('text', 'catalog.xml'), 'catalog.xml')).toBe(
      'Café Stories\n\nJosé García\n\nHarbour Lights\n\nSecond edition, revised.\n',
    );
  });
  it('refuses an entity-declaring DTD (XML bomb) with a 400', async () => {
    const bomb = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><x>&b;</x>';
    const err = await parse(enc(bomb), {}, { filename: 'bomb.xml' }).catch((e) => e);
    expect([err.status, err.code]).toEqual([400, 'BAD_REQUEST']);
  });
});

describe('Jupyter notebooks', () => {
  it('reads markdown cells, code in the kernel language, and every kind of output', async () => {
    const out = await md(fixture('text', 'analysis.ipynb'), 'analysis.ipynb');
    expect(out).toBe(
      [
        '# Sales Analysis',
        '',
        'Quarterly **revenue** by region.',
        '',
        '![chart](<Base64-Image-Removed>)',
        '',
        '```python',
        'import pandas as pd',
        "df = pd.read_csv('sales.csv')",
        'df.head(2)',
        '```',
        '',
        '```',
        'loaded 2 rows',
        '```',
        '',
        '|  | region | revenue |',
        '| --- | --- | --- |',
        '| 0 | North | 1200 |',
        '| 1 | South | 950 |',
        '',
        '```python',
        'df.plot()',
        '```',
        '',
        '![Figure size 640x480](<Base64-Image-Removed>)',
        '',
        '```python',
        '1/0',
        '```',
        '',
        '```',
        'ZeroDivisionError: division by zero',
        '```',
        '',
      ].join('\n'),
    );
  });
  it('embeds output and attachment pictures as data URIs when base64 images are kept', async () => {
    const data = await parse(fixture('text', 'analysis.ipynb'), { removeBase64Images: false }, { filename: 'a.ipynb' });
    expect(data.markdown).toContain('![chart](data:image/png;base64,iVBORw0KGgo');
    expect(data.markdown).toContain('![Figure size 640x480](data:image/png;base64,iVBORw0KGgo');
  });
});

describe.skipIf(!hasCorpus)('markitdown corpus: JSON, notebook and feed give their text', () => {
  if (!hasCorpus) console.warn(corpusSkipReason);
  it('test.json', async () => {
    const out = await md(corpusFile('markitdown', 'test.json'), 'test.json');
    for (const s of [
      '"key1": "string_value"',
      '"key2": 1234',
      '"list_value2"',
      '"5b64c88c-b3c3-4510-bcb8-da0b200602d8": "uuid_key"',
      '9700dc99-6685-40b4-9a3a-5e406dcb37f3',
    ])
      expect(out).toContain(s);
  });
  it('test_notebook.ipynb', async () => {
    const data = await parse(corpusFile('markitdown', 'test_notebook.ipynb'), {}, { filename: 'test_notebook.ipynb' });
    expect(data.metadata.title).toBe('Test Notebook Title');
    const out = data.markdown ?? '';
    expect(out).toContain('# Test Notebook');
    expect(out).toContain('```python\nprint("markitdown")\n```\n\n```\nmarkitdown\n```');
    expect(out).toContain('## Code Cell Below');
    expect(out).toContain('```python\n# comment in code\nprint(42)\n```\n\n```\n42\n```');
    expect(out).toContain('End');
  });
  it('test_rss.xml', async () => {
    const { tree } = await parseTree(corpusFile('markitdown', 'test_rss.xml'), {}, { filename: 'test_rss.xml' });
    const items = tree.children.filter((b): b is Section => b.type === 'section' && b.kind === 'item');
    expect(items.length).toBeGreaterThanOrEqual(10);
    const out = await md(corpusFile('markitdown', 'test_rss.xml'), 'test_rss.xml');
    expect(out.startsWith('# The Official Microsoft Blog')).toBe(true);
    expect(out).toContain('## Ignite 2024: Why nearly 70% of the Fortune 500 now use Microsoft 365 Copilot');
    expect(out).toContain('**Date:** Tue, 19 Nov 2024 13:30:02 +0000');
    expect(out).toContain('**Author:** Frank X. Shaw');
    expect(out).toContain('Microsoft 365 Copilot is your AI assistant for work');
    expect(out).not.toMatch(/<\/?(p|div|a|img)\b/);
  });
});
