import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from '../../src/index.ts';
import { corpusPairs, corpusSkipReason, fixture, hasCorpus } from '../helpers/corpus.ts';
import { expectSurvivesDamage } from '../helpers/damage.ts';
import { headingsOf, mean, tablesOf, textSimilarity } from '../helpers/metrics.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const run = (bytes: Uint8Array, options: Record<string, unknown> = {}, filename = 'page.html') =>
  parse(bytes, options, { filename });

const RICH_MD = [
  '# Rich *page*',
  '',
  'Text with **bold**, *italic*, ~~gone~~, `x = 1`, H<sub>2</sub>O, x<sup>2</sup> and a [relative link](https://docs.example.com/guide/intro.html).  ',
  'Second line.',
  '',
  'Spans',
  '',
  '| Item | Quarter | Quarter |',
  '| --- | --- | --- |',
  '| Item | Q1 | Q2 |',
  '| Pens \\| pencils | 1 | 2 |',
  '',
  '3. Three',
  '   - nested **bold**',
  '4. Four',
  '',
  '- [x] done',
  '- [ ] todo',
  '',
  '- **Term**',
  '  - Definition',
  '',
  '```js',
  'const a = 1;',
  '  return a;',
  '```',
  '',
  '> Quoted \\*stars\\*',
  '',
  '---',
  '',
  '![Chart](https://docs.example.com/guide/large.png)',
  '',
  'Figure 1',
  '',
].join('\n');

describe('html adapter: fixtures', () => {
  it('maps every construct of the rich page exactly, without page chrome', async () => {
    const r = await run(fixture('html', 'rich.html'));
    expect(r.markdown).toBe(RICH_MD);
  });
  it('reads title, description, keywords, language and Open Graph', async () => {
    const r = await run(fixture('html', 'rich.html'));
    expect(r.metadata).toMatchObject({
      title: 'Rich page',
      description: 'Every construct the HTML adapter maps.',
      keywords: 'tables, lists',
      language: 'en',
      ogTitle: 'Rich page (OG)',
      contentType: 'text/html',
    });
  });
  it('keeps page chrome when onlyMainContent is false', async () => {
    const r = await run(fixture('html', 'rich.html'), { onlyMainContent: false });
    expect(r.markdown).toMatch(/^\[Site\]\(https:\/\/docs\.example\.com\/\)/);
    expect(r.markdown).toContain('We use cookies.');
    expect(r.markdown).toContain('Related posts');
    expect(r.markdown).toMatch(/© Example\n$/);
    expect(r.markdown).not.toContain('Hidden text');
    expect(r.markdown).not.toContain('never');
  });
  it('includeTags selects, excludeTags removes', async () => {
    const only = await run(fixture('html', 'rich.html'), { includeTags: ['table', 'h1'] });
    expect(only.markdown).toBe(
      '# Rich *page*\n\nSpans\n\n| Item | Quarter | Quarter |\n| --- | --- | --- |\n| Item | Q1 | Q2 |\n| Pens \\| pencils | 1 | 2 |\n',
    );
    const without = await run(fixture('html', 'rich.html'), { excludeTags: ['table', '.nothing', 'ol'] });
    expect(without.markdown).not.toContain('Quarter');
    expect(without.markdown).not.toContain('Three');
    expect(without.markdown).toContain('- [x] done');
    const bad = await run(fixture('html', 'rich.html'), { excludeTags: ['[[['] });
    expect(bad.markdown).toContain('Quarter');
  });
  it('sees attributes it never reads only where a selector or data.html needs them', async () => {
    const page = enc(
      '<html><body><p data-kind="ad" lang="fr">Achetez</p><p tabindex="1">Text</p><p>More</p></body></html>',
    );
    expect((await run(page)).markdown).toBe('Achetez\n\nText\n\nMore\n');
    expect((await run(page, { excludeTags: ['[data-kind="ad"]'] })).markdown).toBe('Text\n\nMore\n');
    expect((await run(page, { includeTags: ['[lang=fr]', '[tabindex]'] })).markdown).toBe('Achetez\n\nText\n');
    const html = (await run(page, { formats: ['html'] })).html ?? '';
    for (const attr of ['data-kind="ad"', 'lang="fr"', 'tabindex="1"']) expect(html).toContain(attr);
    // Markdown alone is built from a DOM without unread attributes: the same Markdown as with all.
    for (const name of ['rich.html', 'css-headings.html', 'layout-tables.html', 'malformed-table.html']) {
      const full = await run(fixture('html', name), { formats: ['markdown', 'html'] });
      const lean = await run(fixture('html', name), { formats: ['markdown', 'links'] });
      expect(lean.markdown).toBe(full.markdown);
      expect(lean.metadata).toEqual(full.metadata);
    }
  });
  it('lists every attribute its sources read by name in READ_ATTRIBUTES (the lean DOM keeps only those)', async () => {
    const { READ_ATTRIBUTES } = await import('../../src/adapters/html/index.ts');
    const dir = new URL('../../src/adapters/html/', import.meta.url);
    const read = new Set<string>();
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const src = readFileSync(new URL(file, dir), 'utf8');
      for (const m of src.matchAll(/(?:get|has)Attribute\(\s*'([^']+)'/g)) {
        // `<html>` keeps all its attributes (its lang is read there).
        if (!src.slice(Math.max(0, m.index - 20), m.index).includes('documentElement')) read.add(m[1] as string);
      }
      // Attribute selectors anywhere in the adapter's string literals ('a[href]', 'main, [role="main"]').
      for (const lit of src.matchAll(/'[^'\n]*'|"[^"\n]*"|`[^`]*`/g))
        for (const m of lit[0].matchAll(/\[\s*([a-z][a-z-]*)\s*(?:[~|^$*]?=|\])/g)) read.add(m[1] as string);
    }
    expect(read.size).toBeGreaterThan(15);
    expect([...read].filter((a) => !READ_ATTRIBUTES.has(a))).toEqual([]);
  });
  it('takes the title and base URL from HTML elements, not from an inline SVG', async () => {
    const page = enc(
      '<html><head></head><body><svg><title>Search icon</title><base href="https://cdn.example/"></base></svg>' +
        '<p><a href="guide">Guide</a></p></body></html>',
    );
    const r = await run(page, { formats: ['markdown', 'links'] });
    expect(r.metadata.title).toBeUndefined();
    expect(r.markdown).toBe('[Guide](guide)\n');
    const withTitle = await run(enc('<title>Page</title><svg><title>Icon</title></svg><p>x</p>'));
    expect(withTitle.metadata.title).toBe('Page');
  });
  it('drops javascript: links that a URL parser would read as such (tab, newline, control characters)', async () => {
    // The URL parser removes tabs and newlines anywhere and C0 controls at the ends, as a browser does.
    const page = enc(
      '<html><head><base href="https://docs.example.com/"></head><body><p>' +
        '<a href="java&#x09;script:alert(1)">one</a> <a href="JAVA&#x0A;SCRIPT:alert(2)">two</a> ' +
        '<a href="&#x01;javascript:alert(3)">three</a> <a href="page">four</a></p></body></html>',
    );
    const lean = await run(page, { formats: ['markdown', 'links'] });
    expect(lean.markdown).toBe('one two three [four](https://docs.example.com/page)\n');
    expect(lean.links).toEqual(['https://docs.example.com/page']);
    // data.html absolutizes links before conversion: the Markdown must not depend on it.
    expect((await run(page, { formats: ['markdown', 'html'] })).markdown).toBe(lean.markdown);
    const bare = await run(enc('<p><a href="java&#x09;script:alert(1)">one</a></p>'), { formats: ['markdown'] });
    expect(bare.markdown).toBe('one\n');
  });
  it('serves cleaned html, raw html and every link of the page, absolute', async () => {
    const bytes = fixture('html', 'rich.html');
    const r = await run(bytes, { formats: ['html', 'rawHtml', 'links', 'images'] });
    expect(r.rawHtml).toBe(new TextDecoder().decode(bytes));
    expect(r.html).not.toMatch(/<script|<style|<nav|<meta|cookie|srcset/);
    expect(r.html).toContain('src="https://docs.example.com/guide/large.png"');
    expect(r.html).toContain('href="https://docs.example.com/guide/intro.html"');
    expect(r.links).toEqual([
      'https://docs.example.com/',
      'https://docs.example.com/a',
      'https://docs.example.com/guide/intro.html',
    ]);
    expect(r.images).toEqual(['https://docs.example.com/guide/large.png']);
  });
  it('decodes a cp1252 page from its meta declaration', async () => {
    const r = await run(fixture('html', 'cp1252.html'));
    expect(r.markdown).toBe('# Café\n\nCrème brulée costs 5 €, it’s für alle.\n');
    expect(r.metadata).toMatchObject({ title: 'Café menu', language: 'fr' });
  });
  it('decodes a UTF-16 page from its byte-order mark, and without one', async () => {
    const bytes = fixture('html', 'utf16.html');
    const expected = '## Ünïcode\n\n日本語のテキスト and ASCII.\n';
    expect((await run(bytes)).markdown).toBe(expected);
    expect((await run(bytes.subarray(2))).markdown).toBe(expected);
  });
  it('resolves links against the caller source URL when the page has no base', async () => {
    const r = await parse(
      enc('<p><a href="b/c.html">x</a> <a href="#top">top</a> <a href="mailto:a@b.c">m</a></p>'),
      { formats: ['markdown', 'links'] },
      {
        filename: 'x.html',
        sourceURL: 'https://site.test/a/index.html',
      },
    );
    expect(r.markdown).toBe('[x](https://site.test/a/b/c.html) [top](#top) [m](mailto:a@b.c)\n');
    expect(r.links).toEqual(['https://site.test/a/b/c.html', 'mailto:a@b.c']);
  });
  it('handles fragments, stray blocks in inline content and deep nesting', async () => {
    expect((await run(enc('plain words only'))).markdown).toBe('plain words only\n');
    expect((await run(enc('<a href="https://x.test"><div>Card title</div><p>Card body</p></a>'))).markdown).toBe(
      'Card title\n\nCard body\n',
    );
    const deep = `${'<div>'.repeat(5000)}deep text${'</div>'.repeat(5000)}`;
    expect((await run(enc(deep))).markdown).toBe('deep text\n');
    expect((await run(enc('<table><tr><td><p>layout only</p></td></tr></table>'))).markdown).toBe('layout only\n');
  });
  it('answers 200 truncated or bit-flipped copies with a result or a clear 400', async () => {
    await expectSurvivesDamage(fixture('html', 'rich.html'), 'damaged.html');
    await expectSurvivesDamage(fixture('html', 'utf16.html'), 'damaged.html', 50);
  });
  it('refuses binary data labelled as HTML', async () => {
    const bytes = new Uint8Array(4096).map((_, i) => (i * 7919) % 256);
    bytes.set(enc('<html>'), 0);
    await expect(run(bytes)).rejects.toMatchObject({ status: 400 });
  });
});

const pairs = hasCorpus ? corpusPairs('docling/html/sources', '.html').filter((p) => p.truth) : [];

describe.skipIf(!hasCorpus)(`html adapter: docling corpus${hasCorpus ? '' : ` (${corpusSkipReason})`}`, () => {
  it('meets text similarity ≥ 0.95 on every page with ground truth, on average', async () => {
    const scores: number[] = [];
    for (const p of pairs) {
      const { markdown } = await run(
        new Uint8Array(await import('node:fs').then((fs) => fs.readFileSync(p.path))),
        {},
        p.name,
      );
      scores.push(textSimilarity(markdown ?? '', p.truth ?? ''));
    }
    expect(pairs.length).toBeGreaterThan(25);
    expect(mean(scores)).toBeGreaterThanOrEqual(0.95);
  });
  it('keeps key content: headings in order, table cells, code and lists', async () => {
    const read = async (name: string) => {
      const fs = await import('node:fs');
      const path = pairs.find((p) => p.name === name)?.path as string;
      return (await run(new Uint8Array(fs.readFileSync(path)), {}, name)).markdown ?? '';
    };
    const duck = await read('wiki_duck.html');
    expect(headingsOf(duck).slice(0, 4)).toEqual(['duck', 'etymology', 'taxonomy', 'morphology']);
    const t1 = tablesOf(await read('table_01.html'))[0];
    expect(t1).toContainEqual(['1...', '2...']);
    const code = await read('html_code_snippets.html');
    expect(code).toContain('```\nfrom docling.document_converter import DocumentConverter\n');
    const dl = await read('html_description_list.html');
    expect(dl).toContain(
      '- **Python**\n  - A high-level programming language\n  - Known for its simplicity and readability',
    );
  });
});

describe.skipIf(!hasCorpus)('html adapter: markitdown pages', () => {
  const read = async (name: string) => {
    const fs = await import('node:fs');
    const path = `${corpusPairs('markitdown').find((p) => p.name === name)?.path}`;
    return (await run(new Uint8Array(fs.readFileSync(path)), {}, name)).markdown ?? '';
  };
  it('converts a Wikipedia article without navigation, with its outline and infobox', async () => {
    const md = await read('test_wikipedia.html');
    expect(md.startsWith('# Microsoft\n')).toBe(true);
    expect(headingsOf(md).slice(1, 3)).toEqual(['history', '1972 1985 founding']);
    expect(md).not.toMatch(/Jump to content|☐/);
    expect(tablesOf(md)[0]).toContainEqual(['company type', 'public']);
  });
  it('converts a blog post without skip links or heading permalinks', async () => {
    const md = await read('test_blog.html');
    expect(md).toMatch(/^# Does Model and Inference Parameter Matter in LLM Applications\?/);
    expect(md).toContain('\n## Experiment Setup\n');
    expect(md).not.toContain('Skip to main content');
  });
  it('converts a search result page', async () => {
    const md = await read('test_serp.html');
    expect(md).toContain('[Microsoft - Wikipedia](https://www.bing.com/ck/a?');
  });
});
