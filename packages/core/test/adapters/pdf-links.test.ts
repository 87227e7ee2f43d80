import { describe, expect, it } from 'vitest';
import { attachLinks, type CharStarts, type LinkBox } from '../../src/adapters/pdf/links.ts';
import { fixture } from '../helpers/corpus.ts';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';
import { pdfOf } from '../helpers/pdf-build.ts';
import { textRun as run } from '../helpers/text-items.ts';

const box = (x0: number, y0: number, x1: number, y1: number, href: string): LinkBox => ({ x0, y0, x1, y1, href });

describe('PDF link annotations on text runs', () => {
  it('gives each run the link its centre lies in, the first in the page order where two overlap', () => {
    const items = [run('Visit', 72, 100), run('example.org', 108, 100), run('today', 180, 100), run('next', 72, 400)];
    attachLinks(items, [
      box(106, 98, 175, 114, 'https://example.org/'),
      box(100, 90, 300, 120, 'https://other.example/'),
      box(70, 396, 100, 414, 'https://next.example/'),
    ]);
    expect(items.map((it) => it.href)).toEqual([
      undefined,
      'https://example.org/',
      'https://other.example/',
      'https://next.example/',
    ]);
  });

  it('finds a link drawn far past the page and leaves runs alone where a link box is malformed', () => {
    const items = [run('top', 72, 10), run('bottom', 72, 760)];
    attachLinks(items, [
      box(0, -1e9, 612, 1e9, 'https://all.example/'),
      box(0, Number.NaN, 612, 800, 'https://nan.example/'),
    ]);
    expect(items.map((it) => it.href)).toEqual(['https://all.example/', 'https://all.example/']);
  });

  it('splits a run at the edges of a link over some of its words, and not past a bound of edges', () => {
    const items = [run('see the annual report here', 72, 100)];
    attachLinks(items, [box(72 + 8 * 6 - 1, 98, 72 + 21 * 6 + 1, 114, 'https://report.example/')]);
    expect(items.map((it) => [it.str, it.href])).toEqual([
      ['see the ', undefined],
      ['annual report', 'https://report.example/'],
      [' here', undefined],
    ]);
    const many = [run('a long line of words under many small links', 72, 300)];
    const links = Array.from({ length: 40 }, (_, k) => box(73 + k * 6, 298, 76 + k * 6, 314, `https://l${k}.example/`));
    attachLinks(many, links);
    expect(many).toHaveLength(1);
  });

  it('splits where the backend placed the characters, or evenly in a monospaced font, not by typical advances', () => {
    // Narrow letters set 6 points wide, as Courier sets them: typical advances put `lilt` on `will`.
    const line = 'ill fill lilt will mill WWW MMM HELP WANTED NOW';
    const link = box(72 + 9 * 6 - 1, 98, 72 + 13 * 6 + 1, 114, 'https://lilt.example/');
    const pieces = (items: ReturnType<typeof run>[]) => items.map((it) => [it.str, it.href]);
    const expected = [
      ['ill fill ', undefined],
      ['lilt', 'https://lilt.example/'],
      [' will mill WWW MMM HELP WANTED NOW', undefined],
    ];
    const placed = [run(line, 72, 100)];
    const starts = { x: [line.length, ...Array.from(line, (_, k) => 72 + k * 6)], at: new Map([[placed[0], 0]]) };
    attachLinks(placed, [link], [], starts as CharStarts);
    expect(pieces(placed)).toEqual(expected);
    const even = [run(line, 72, 100)];
    attachLinks(even, [link], ['Helvetica']);
    expect(pieces(even)).toEqual(expected);
  });
});

/**
 * One line of 12-point Courier (7.2 points a character) drawn by one text operator, so both
 * backends give it as one run, with a link annotation over the characters `from` to `to`.
 */
function linkedLinePdf(line: string, from: number, to: number, uri: string): Uint8Array {
  const ops = `BT /F1 12 Tf 72 700 Td (${line}) Tj ET`;
  const x0 = 72 + from * 7.2 - 1;
  const x1 = 72 + to * 7.2 + 1;
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R /Annots [6 0 R] >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>',
    `<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`,
    `<< /Type /Annot /Subtype /Link /Rect [${x0} 696 ${x1} 711] /Border [0 0 0] /A << /S /URI /URI (${uri}) >> >>`,
  ]);
}

describe.each(pdfBackends)('PDF links over part of a run (%s)', (backend) => {
  const { parse } = engineFor(backend);

  it('links exactly the words under the link, with the URI as the file writes it', async () => {
    const line = 'Read the full guide on the project site, then come back.';
    const from = line.indexOf('project');
    const md = (await parse(linkedLinePdf(line, from, from + 'project site'.length, 'https://example.org'))).markdown;
    expect(md).toContain('Read the full guide on the [project site](https://example.org), then come back.');
  });

  it('links a word at the start of the run and leaves the rest plain', async () => {
    const line = 'Guide: read it before the visit.';
    const md = (await parse(linkedLinePdf(line, 0, 'Guide'.length, 'https://example.org/guide'))).markdown;
    expect(md).toContain('[Guide](https://example.org/guide): read it before the visit.');
  });
});

describe.each(pdfBackends)('PDF links over words inside a line (%s)', (backend) => {
  const { parse } = engineFor(backend);

  it('links the word under each link in Courier and in Helvetica lines', async () => {
    const md = (await parse(fixture('pdf-patterns', 'linked-words.pdf'), {}, { filename: 'linked-words.pdf' }))
      .markdown;
    // Typical proportional advances put Courier's links a word off: `lilt` on `will`, `HELP` lost.
    expect(md).toContain(
      'ill fill [lilt](https://example.com/lilt) will mill WWW MMM [HELP](https://example.com/HELP) WANTED NOW',
    );
    expect(md).toContain(
      'MMMM WWWW mmmm wwww [see](https://example.org/see) this then ill fill [lilt](https://example.org/lilt).',
    );
  });
});
