import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { resolvePath } from '../../src/adapters/epub/package.ts';
import { parse, parseTree } from '../../src/index.ts';
import type { Section } from '../../src/tree/types.ts';
import { corpusFile, corpusPairs, corpusSkipReason, fixture, hasCorpus } from '../helpers/corpus.ts';
import { expectSurvivesDamage } from '../helpers/damage.ts';
import { errorOf } from '../helpers/errors.ts';
import { headingsOf, mean, textSimilarity } from '../helpers/metrics.ts';

const md = async (bytes: Uint8Array, options = {}) =>
  (await parse(bytes, options, { filename: 'book.epub' })).markdown ?? '';

async function epub(files: Record<string, string>): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file('mimetype', 'application/epub+zip', { compression: 'STORE' });
  for (const [k, v] of Object.entries(files)) zip.file(k, v);
  return zip.generateAsync({ type: 'uint8array' });
}

const BASIC_MD = [
  '# Beginnings',
  '',
  'It was a *quiet* morning in **Lisbon**. See [the next chapter](chapter2.xhtml).',
  '',
  '![A tiny map](<Base64-Image-Removed>)',
  '',
  '| City | Visits |',
  '| --- | --- |',
  '| Porto | 3 |',
  '',
  'The second chapter has no heading.',
  '',
  '1. First',
  '2. Second',
  '',
  'A note read out of the flow.',
  '',
].join('\n');

describe('epub adapter: fixtures', () => {
  const basic = fixture('epub', 'basic.epub');

  it('renders the spine in reading order without the nav document, exactly', async () => {
    expect(await md(basic)).toBe(BASIC_MD);
  });

  it('reads title, creators, language and subjects from the OPF', async () => {
    const { metadata } = await parse(basic, {}, { filename: 'basic.epub' });
    expect(metadata).toMatchObject({
      title: 'A Small Book',
      author: 'Ada Writer, Bo Editor',
      language: 'en-GB',
      keywords: 'Fixtures',
      numPages: 3,
    });
  });

  it('makes one chapter section per document, named from the nav, linear="no" documents last', async () => {
    const { tree } = await parseTree(basic, {}, { filename: 'basic.epub' });
    const sections = tree.children as Section[];
    expect(sections.map((s) => [s.type, s.kind, s.number, s.name])).toEqual([
      ['section', 'chapter', 1, 'One: Beginnings'],
      ['section', 'chapter', 2, 'Two'],
      ['section', 'chapter', 3, undefined],
    ]);
    expect(
      sections[0]?.children.find((b) => b.type === 'paragraph' && JSON.stringify(b).includes('tiny map')),
    ).toMatchObject({
      children: [{ type: 'image', alt: 'A tiny map', ref: 'OEBPS/images/pic.png', mime: 'image/png' }],
    });
  });

  it('inlines pictures from the archive when base64 images are wanted', async () => {
    expect(await md(basic, { removeBase64Images: false })).toContain('![A tiny map](data:image/png;base64,iVBORw0KGgo');
  });

  it('reads EPUB 2 packages with prefixed OPF elements and takes chapter names from the NCX', async () => {
    const bytes = fixture('epub', 'epub2.epub');
    expect(await md(bytes)).toBe('## Premier chapitre\n\nBonjour.\n\nAu revoir.\n');
    const { tree } = await parseTree(bytes, {}, { filename: 'epub2.epub' });
    expect((tree.children as Section[]).map((s) => s.name)).toEqual(['Premier', 'Second']);
    expect(tree.metadata).toMatchObject({ title: 'Old Style', author: 'Cy Author', language: 'fr' });
  });

  it('resolves hrefs inside the archive', () => {
    expect(resolvePath('OEBPS/content.opf', 'text/ch%201.xhtml#x')).toBe('OEBPS/text/ch 1.xhtml');
    expect(resolvePath('OEBPS/text/a.xhtml', '../images/p.png')).toBe('OEBPS/images/p.png');
    expect(resolvePath('a/b.opf', '/root.xhtml')).toBe('root.xhtml');
  });

  it('refuses non-zip input, a zip without a package document, DRM and a broken OPF with a 400', async () => {
    const notZip = await errorOf(parse(new TextEncoder().encode('PK not really'), {}, { filename: 'x.epub' }));
    expect(notZip.status).toBe(400);
    const noOpf = await errorOf(
      parse(await epub({ 'META-INF/container.xml': '<container/>' }), {}, { filename: 'x.epub' }),
    );
    expect(noOpf.status).toBe(400);
    expect(noOpf.message).toMatch(/package document/);
    const drm = await errorOf(
      parse(
        await epub({
          'META-INF/container.xml':
            '<container><rootfiles><rootfile full-path="c.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
          'META-INF/encryption.xml':
            '<encryption><EncryptedData><EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/><CipherData><CipherReference URI="ch1.xhtml"/></CipherData></EncryptedData></encryption>',
          'c.opf': '<package><manifest/><spine/></package>',
        }),
        {},
        { filename: 'x.epub' },
      ),
    );
    expect(drm.message).toMatch(/DRM/);
    const broken = await errorOf(
      parse(
        await epub({
          'META-INF/container.xml':
            '<container><rootfiles><rootfile full-path="c.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
          'c.opf': '<package><manifest><item id="a" href="a.xhtml"</manifest>',
        }),
        {},
        { filename: 'x.epub' },
      ),
    );
    expect(broken.status).toBe(400);
  });

  it.each(['basic.epub', 'epub2.epub'])(
    'answers 200 truncated or bit-flipped copies of %s with a result or a DocmillError',
    async (name) => {
      await expectSurvivesDamage(fixture('epub', name), 'damaged.epub');
    },
  );
});

describe.skipIf(!hasCorpus)(
  `epub adapter: corpus (${hasCorpus ? 'docling/epub, markitdown' : corpusSkipReason})`,
  () => {
    it('reaches a mean text similarity of at least 0.9 against the docling ground truth', async () => {
      const scores: number[] = [];
      for (const pair of corpusPairs('docling/epub/sources', '.epub')) {
        if (!pair.truth) continue;
        const out = await md(corpusFile('docling', 'epub', 'sources', pair.name));
        scores.push(textSimilarity(out, pair.truth));
      }
      expect(scores.length).toBeGreaterThan(0);
      expect(mean(scores)).toBeGreaterThanOrEqual(0.9);
    });

    it('reads epub_purvis_poetry.epub: every chapter heading in order, the nav not repeated', async () => {
      const out = await md(corpusFile('docling', 'epub', 'sources', 'epub_purvis_poetry.epub'));
      const heads = headingsOf(out);
      expect(heads.slice(0, 4)).toEqual([
        'poetry',
        'imprint',
        'the grave of the slave',
        'the slave girl s address to her mother',
      ]);
      expect(heads.slice(-3)).toEqual(['a prayer', 'colophon', 'uncopyright']);
      expect(out).toContain('The cold storms of winter shall chill him no more,');
      expect(out.match(/The Grave of the Slave/g)?.length).toBe(1);
    });

    it('reads markitdown test.epub: both chapters, the nav left out', async () => {
      const res = await parse(corpusFile('markitdown', 'test.epub'), {}, { filename: 'test.epub' });
      expect(res.markdown).toContain('# Chapter 1: Test Content');
      expect(res.markdown).toContain('- A bullet point');
      expect(res.markdown).toContain('> This is a blockquote for testing.');
      expect(res.markdown).not.toContain('Chapter 2\n');
      expect(res.metadata).toMatchObject({ title: 'Test EPUB Document', author: 'Test Author', language: 'en' });
    });
  },
);
