import { readFileSync } from 'node:fs';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { DocmillError, parse, parseTree } from '../../src/index.ts';
import type { Section } from '../../src/tree/types.ts';
import { corpusFile, corpusPairs, corpusSkipReason, fixture, hasCorpus } from '../helpers/corpus.ts';
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
  'Left column',
  '',
  'Right column',
  '',
  '- **Goals**',
  '  - Speed',
  '  - *Quality*',
  '- See [the site](https://example.com/launch)',
  '',
  'Plain closing line',
  '',
  'Group upper',
  '',
  'Group lower',
  '',
  '> Stress the goals.',
  '>',
  '> Then take questions.',
  '',
  '# Numbers',
  '',
  '| Metric | 2024 | 2024 |',
  '| --- | --- | --- |',
  '| Metric | H1 | H2 |',
  '| Users | 1200 | 1500 |',
  '',
  'Revenue by quarter',
  '',
  '|  | North | South |',
  '| --- | --- | --- |',
  '| Q1 | 10 | 5 |',
  '| Q2 | 20 | 7 |',
  '',
  '## Slide 3',
  '',
  'Untitled slide text',
  '',
  '![A blue square](<Base64-Image-Removed>)',
  '',
  '- Plan',
  '- Ship',
  '',
].join('\n');

describe('pptx adapter: fixture', () => {
  const bytes = fixture('pptx', 'basic.pptx');

  it('renders titles, reading order, a group, lists, links, a merged table, a chart, SmartArt, an image and notes exactly', async () => {
    expect(await md(bytes, 'basic.pptx')).toBe(FIXTURE_MD);
  });

  it('makes one slide section per sldIdLst entry and counts slides', async () => {
    const { tree } = await parseTree(bytes, {}, { filename: 'basic.pptx' });
    const sections = tree.children as Section[];
    expect(sections.map((s) => [s.type, s.kind, s.number])).toEqual([
      ['section', 'slide', 1],
      ['section', 'slide', 2],
      ['section', 'slide', 3],
    ]);
    expect(tree.metadata).toMatchObject({ numPages: 3, title: 'Launch deck', author: 'Ada Lovelace' });
    const img = sections[2]?.children.find((b) => b.type === 'image');
    expect(img).toMatchObject({ alt: 'A blue square', ref: 'ppt/media/image1.png', mime: 'image/png' });
  });

  it('keeps footer placeholders only when onlyMainContent is false', async () => {
    expect(await md(bytes, 'basic.pptx')).not.toContain('Confidential footer');
    expect(await md(bytes, 'basic.pptx', { onlyMainContent: false })).toContain('Group lower\n\nConfidential footer');
  });

  it('embeds pictures as data URIs only when base64 images are kept', async () => {
    const kept = await md(bytes, 'basic.pptx', { removeBase64Images: false });
    expect(kept).toContain('![A blue square](data:image/png;base64,iVBORw0KGgo');
  });

  it('answers a zip without ppt/presentation.xml and a truncated file with a clear 400', async () => {
    const zip = new JSZip();
    zip.file('ppt/slides/slide1.xml', '<p:sld/>');
    const noMain = await zip.generateAsync({ type: 'uint8array' });
    await expect(parse(noMain, {}, { filename: 'x.pptx' })).rejects.toSatisfy(
      (e: unknown) => e instanceof DocmillError && e.status === 400 && /presentation\.xml/.test(e.message),
    );
    // Cut short: what is complete is read, and the warning says the rest is lost.
    const cut = await parse(bytes.subarray(0, 3000), {}, { filename: 'x.pptx' });
    expect(cut.warning).toMatch(/truncated \(its zip directory is missing\)/);
    await expect(parse(bytes.subarray(0, 20), {}, { filename: 'x.pptx' })).rejects.toSatisfy(
      (e: unknown) => e instanceof DocmillError && e.status === 400,
    );
  });
});

describe.skipIf(!hasCorpus)(`pptx adapter: docling corpus (${hasCorpus ? 'present' : corpusSkipReason})`, () => {
  const pairs = corpusPairs('docling/pptx/sources', '.pptx');
  const convert = async (name: string) => {
    const pair = pairs.find((p) => p.name === name);
    if (!pair) throw new Error(`missing ${name}`);
    return { out: await md(new Uint8Array(readFileSync(pair.path)), name), truth: pair.truth ?? '' };
  };

  it('powerpoint_sample: titles, merged table, columns left to right, notes', async () => {
    const { out } = await convert('powerpoint_sample.pptx');
    expect(headingsOf(out)).toEqual(['test table slide', 'second slide title', 'slide 3']);
    const [table] = tablesOf(out);
    expect(table?.[0]).toEqual(['', 'class1', 'class1', 'class1', 'class2', 'class2', 'class2']);
    expect(table?.[1]).toEqual(['', 'a merged with b', 'a merged with b', 'c', 'a', 'b', 'c']);
    expect(out).toContain('> Some notes on the second slide.');
    expect(out.indexOf('List item6')).toBeLessThan(out.indexOf('- I1'));
    expect(out.indexOf('Maybe a list?')).toBeLessThan(out.indexOf('- l1'));
  });

  it('powerpoint_with_image and malformed_pictures: alt text without boilerplate or file names', async () => {
    const { out } = await convert('powerpoint_with_image.pptx');
    expect(out).toContain('![A cartoon duck holding a paper](');
    expect(out).not.toContain('AI-generated');
    const malformed = (await convert('powerpoint_malformed_pictures.pptx')).out;
    expect(malformed).toContain('Slide With Wrong Content Type\n\n![](<Base64-Image-Removed>)');
  });

  it('pptx_chart: chart title and cached series as a table', async () => {
    const { out } = await convert('pptx_chart.pptx');
    expect(headingsOf(out)).toEqual(['quarterly duck survey', 'quarterly revenue']);
    expect(out).toContain('Wild Duck Observations by Year');
    const [chart] = tablesOf(out);
    expect(chart?.[0]).toEqual(['', 'freshwater ducks', 'saltwater ducks']);
    expect(chart?.[4]).toEqual(['2022', '175', '130']);
  });

  it('powerpoint_comments and issue_2663: review comments and bullet lists', async () => {
    const comments = (await convert('powerpoint_comments.pptx')).out;
    expect(comments).toContain(
      '[author: John Reviewer (JR), time: 2026-01-01T00:00:00]: This is a sample reviewer comment',
    );
    expect(headingsOf(comments)).toEqual(['test slide with comments', 'start', 'features']);
    const issue = (await convert('powerpoint_issue_2663.pptx')).out;
    expect(issue).toContain('**Key Benefits:**\n\n- Open-source software is cost-effective');
  });

  it('meets the format targets (text ≥ 0.93, tables ≥ 0.85)', async () => {
    const scores = await Promise.all(
      pairs.map(async (p) => {
        const { out, truth } = await convert(p.name);
        return {
          text: textSimilarity(withoutSlideAdditions(out), truth),
          table: tableNeighbourF1(out, truth),
        };
      }),
    );
    expect(scores).toHaveLength(8);
    expect(mean(scores.map((s) => s.text))).toBeGreaterThanOrEqual(0.93);
    expect(mean(scores.map((s) => s.table))).toBeGreaterThanOrEqual(0.85);
  });
});

describe.skipIf(!hasCorpus)('pptx adapter: markitdown corpus', () => {
  it('test.pptx: title, nested group shapes, table and chart series', async () => {
    const out = await md(corpusFile('markitdown', 'test.pptx'), 'test.pptx');
    expect(headingsOf(out).slice(0, 1)).toEqual([
      'autogen enabling next gen llm applications via multi agent conversation',
    ]);
    expect(out).toContain('This is a nested shape with content in 2 shapes');
    expect(out).toContain('| ColA | ColB | ColC | ColD | ColE | ColF |');
    expect(out).toContain('|  | Series 1 |');
    expect(out).toContain('| 2003 | 2003 |');
  });
});

describe('pptx adapter: pictures that compress well', () => {
  it('reads a deck whose 6 MB EMF picture deflates ~1000×: the picture is only referenced, never inflated', async () => {
    // Before: 400 'Zip entry "ppt/media/image1.emf" expands 1024× (limit 200×): refusing a likely zip bomb'.
    const out = await md(fixture('pptx', 'emf-picture.pptx'), 'emf-picture.pptx');
    expect(out.startsWith('# Launch plan')).toBe(true);
    expect(out).toContain('![A blue square](<Base64-Image-Removed>)');
    expect(out).toContain('| Metric | H1 | H2 |');
  });
});

describe('pptx adapter: code in a monospaced face', () => {
  const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
  const P = 'http://schemas.openxmlformats.org/presentationml/2006/main';
  const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const run = (t: string, face?: string) =>
    `<a:r><a:rPr lang="en-US">${face ? `<a:latin typeface="${face}"/>` : ''}</a:rPr><a:t xml:space="preserve">${t}</a:t></a:r>`;
  const box = (id: number, y: number, paragraphs: string[], lstStyle = '') =>
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="TextBox ${id}"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>` +
    `<p:spPr><a:xfrm><a:off x="500000" y="${y}"/><a:ext cx="8000000" cy="400000"/></a:xfrm></p:spPr>` +
    `<p:txBody><a:bodyPr/><a:lstStyle>${lstStyle}</a:lstStyle>${paragraphs.map((p) => `<a:p>${p}</a:p>`).join('')}</p:txBody></p:sp>`;
  const deck = async (shapes: string) => {
    const zip = new JSZip();
    zip.file('[Content_Types].xml', '<Types/>');
    zip.file(
      'ppt/presentation.xml',
      `<p:presentation xmlns:p="${P}" xmlns:r="${R}"><p:sldIdLst><p:sldId id="256" r:id="rId1"/></p:sldIdLst></p:presentation>`,
    );
    zip.file(
      'ppt/_rels/presentation.xml.rels',
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/slide" Target="slides/slide1.xml"/></Relationships>`,
    );
    zip.file(
      'ppt/slides/slide1.xml',
      `<p:sld xmlns:a="${A}" xmlns:p="${P}" xmlns:r="${R}"><p:cSld><p:spTree>${shapes}</p:spTree></p:cSld></p:sld>`,
    );
    return zip.generateAsync({ type: 'uint8array' });
  };

  it('reads a run in Consolas among prose as inline code, and a box of code in Courier New as a code block', async () => {
    const bytes = await deck(
      [
        box(2, 500000, [`${run('Call ')}${run('parse(bytes)', 'Consolas')}${run(' with the bytes of a file.')}`]),
        // The snippet's face is the box's level default, its runs naming none.
        box(
          3,
          1200000,
          [
            run("import { parse } from '@docmill/core';"),
            '',
            run('const r = await parse(bytes);'),
            `${run('if (r.markdown) ')}<a:br/>${run('  console.log(r.markdown);')}`,
          ],
          '<a:lvl1pPr><a:defRPr><a:latin typeface="Courier New"/></a:defRPr></a:lvl1pPr>',
        ),
        // Set wholly in Consolas, with no sign of code: a font choice.
        box(4, 2400000, [run('Jane Doe, Platform Team', 'Consolas')]),
        // A theme's face is no code face.
        box(5, 3000000, [`${run('Thanks ')}${run('for listening', '+mn-lt')}`]),
      ].join(''),
    );
    expect(await md(bytes, 'code.pptx')).toBe(
      [
        '## Slide 1',
        '',
        'Call `parse(bytes)` with the bytes of a file.',
        '',
        '```',
        "import { parse } from '@docmill/core';",
        '',
        'const r = await parse(bytes);',
        'if (r.markdown)',
        '  console.log(r.markdown);',
        '```',
        '',
        'Jane Doe, Platform Team',
        '',
        'Thanks for listening',
        '',
      ].join('\n'),
    );
  });
  it('keeps a snippet whole whatever its lines, a linked code run a link, and CJK in a code face text', async () => {
    const consolas = '<a:lvl1pPr><a:defRPr><a:latin typeface="Consolas"/></a:defRPr></a:lvl1pPr>';
    const linked = `<a:r><a:rPr lang="en-US"><a:latin typeface="Consolas"/><a:hlinkClick r:id="rId9"/></a:rPr><a:t>parse(bytes)</a:t></a:r>`;
    const zipped = await deck(
      [
        box(2, 500000, [run('if x &gt; 0:'), run('    print(x)'), '', '', '', run('else:'), run('    pass')], consolas),
        box(3, 1500000, [`${run('See ')}${linked}`]),
        box(4, 2000000, [linked]),
        box(5, 2500000, [
          `${run('説明：')}${run('設定ファイルを開く', 'Consolas')}${run('。')}`,
          run('関数(x)を呼ぶ', 'Consolas'),
        ]),
      ].join(''),
    );
    // The link's target, in the slide's relationships.
    const zip = await JSZip.loadAsync(zipped);
    zip.file(
      'ppt/slides/_rels/slide1.xml.rels',
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId9" Type="${R}/hyperlink" Target="https://example.com/api" TargetMode="External"/></Relationships>`,
    );
    const out = await md(await zip.generateAsync({ type: 'uint8array' }), 'code.pptx');
    // Blank paragraphs in a row are one blank line.
    expect(out).toContain('```\nif x > 0:\n    print(x)\n\nelse:\n    pass\n```');
    expect(out).toContain('See [`parse(bytes)`](https://example.com/api)');
    // A paragraph wholly in Consolas, a link alone, is set so: text.
    expect(out).toContain('\n[parse(bytes)](https://example.com/api)\n');
    expect(out).toContain('説明：設定ファイルを開く。\n\n関数(x)を呼ぶ');
  });

  it('keeps a box of sentences in Consolas text, brackets and all, and reads a command in one as code', async () => {
    const consolas = '<a:lvl1pPr><a:defRPr><a:latin typeface="Consolas"/></a:defRPr></a:lvl1pPr>';
    const bytes = await deck(
      [
        box(
          2,
          500000,
          [run('Results are in (see the appendix).'), run('We ship (at last) in May.'), run('Questions?')],
          consolas,
        ),
        // A command alone in its box shows no sign of code but for its first word.
        box(3, 1500000, [run('pip install docmill')], consolas),
        // Comments that read as sentences are a program's, not prose.
        box(
          4,
          2500000,
          [run('# Load the data from the disk.'), run('# Then print a short summary.'), run('print(summary(load()))')],
          consolas,
        ),
      ].join(''),
    );
    expect(await md(bytes, 'prose.pptx')).toBe(
      '## Slide 1\n\nResults are in (see the appendix).\n\nWe ship (at last) in May.\n\nQuestions?\n\n```\npip install docmill\n```\n\n```\n# Load the data from the disk.\n# Then print a short summary.\nprint(summary(load()))\n```\n',
    );
  });
});

describe('pptx adapter: bombs', () => {
  it('refuses a zip bomb before inflating it', async () => {
    const zip = new JSZip();
    zip.file('[Content_Types].xml', '<Types/>');
    zip.file(
      'ppt/presentation.xml',
      '<p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><p:sldIdLst><p:sldId id="256" r:id="rId1"/></p:sldIdLst></p:presentation>',
    );
    zip.file(
      'ppt/_rels/presentation.xml.rels',
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide1.xml"/></Relationships>',
    );
    // The slide is read, so the ratio rule applies to it (a part only listed is never inflated).
    zip.file('ppt/slides/slide1.xml', 'A'.repeat(24 * 1024 * 1024));
    const bytes = await zip.generateAsync({
      type: 'uint8array',
      compression: 'DEFLATE',
      compressionOptions: { level: 9 },
    });
    await expect(parse(bytes, {}, { filename: 'bomb.pptx' })).rejects.toSatisfy(
      (e: unknown) => e instanceof DocmillError && e.status === 400 && /zip bomb/i.test(e.message),
    );
  });
});
