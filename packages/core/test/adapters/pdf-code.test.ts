import { describe, expect, it } from 'vitest';
import { createEngine, parse } from '../../src/index.ts';
import { joinCode, linesOn, recode } from '../../src/tree/continued.ts';
import type { Code } from '../../src/tree/types.ts';
import { corpusFile, corpusSkipReason, hasCorpus } from '../helpers/corpus.ts';
import { textAt as line, pagesPdf, pdfOf } from '../helpers/pdf-build.ts';

const COURIER = '<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>';
/**
 * A face whose name says nothing of its pitch and whose descriptor does not flag it fixed, every
 * character 600 units wide (redp5110's BookMaster Gothic is such a face).
 */
const PLAIN_NAMED_FIXED = [
  '<< /Type /Font /Subtype /Type1 /BaseFont /LetterPress /FirstChar 32 /LastChar 126',
  `/Widths [${Array(95).fill(600).join(' ')}] /Encoding /WinAnsiEncoding`,
  '/FontDescriptor << /Type /FontDescriptor /FontName /LetterPress /Flags 32 /FontBBox [0 -200 600 800]',
  '/ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 >> >>',
].join(' ');

const fast = { parsers: [{ type: 'pdf' as const, mode: 'fast' as const }] };
const markdown = async (pdf: Uint8Array) => (await parse(pdf, fast, { filename: 'code.pdf' })).markdown ?? '';

/** Body prose in Helvetica, enough of it that Helvetica is the body face. */
const prose = (y: number): string[] => [
  line(72, y, 'The function below adds its two arguments and returns the sum of them to its'),
  line(72, y - 14, 'caller, which prints it; nothing else happens in this small example at all.'),
];

/** Words drawn one by one at their columns (`per` points a character), as many producers draw code. */
const words = (x: number, y: number, text: string, per: number, font: string): string =>
  [...text.matchAll(/\S+/g)].map((m) => line(x + (m.index ?? 0) * per, y, m[0], 10, font)).join('\n');

describe('PDF: code set in a monospaced face', () => {
  it('reads Courier rows as one code block, keeping each row and its indentation, apart from the caption above', async () => {
    const pdf = pagesPdf(
      [
        [
          ...prose(700),
          line(72, 660, 'Listing 1: Adding two numbers'),
          line(72, 644, 'function add(a, b) {', 10, 'F3'),
          line(96, 632, 'return a + b;', 10, 'F3'),
          line(72, 620, '}', 10, 'F3'),
          // A blank line in the listing: twice the pitch.
          line(72, 596, 'console.log(add(3, 5));', 10, 'F3'),
          ...prose(570),
        ].join('\n'),
      ],
      612,
      792,
      [COURIER],
    );
    const md = await markdown(pdf);
    expect(md).toContain(
      [
        'Listing 1: Adding two numbers',
        '',
        '```',
        'function add(a, b) {',
        '    return a + b;',
        '}',
        '',
        'console.log(add(3, 5));',
        '```',
        '',
        'The function below',
      ].join('\n'),
    );
    const r = await parse(pdf, { ...fast, formats: ['html'] }, { filename: 'code.pdf' });
    expect(r.html).toContain('<pre><code>function add(a, b) {\n    return a + b;\n}');
  });

  it('measures a face fixed whose name and flags do not say so, and keeps a row split by a wide gap one row', async () => {
    const per = 6;
    const pdf = pagesPdf(
      [
        [
          ...prose(700),
          words(72, 660, 'SELECT function_id,', per, 'F3'),
          words(72, 648, '       user_name', per, 'F3'),
          words(72, 636, 'FROM function_usage', per, 'F3'),
          // A comment far to the right: the line builder splits the row at the gap.
          words(72, 624, "WHERE usage = 'ALLOWED'              -- only those", per, 'F3'),
          words(72, 612, 'ORDER BY user_name;', per, 'F3'),
          ...prose(580),
        ].join('\n'),
      ],
      612,
      792,
      [PLAIN_NAMED_FIXED],
    );
    const md = await markdown(pdf);
    expect(md).toContain(
      [
        '```',
        'SELECT function_id,',
        '       user_name',
        'FROM function_usage',
        "WHERE usage = 'ALLOWED'              -- only those",
        'ORDER BY user_name;',
        '```',
      ].join('\n'),
    );
  });

  it('takes a face PDFium reads fixed-pitch from its descriptor for code, drawn a row at a time', async () => {
    const flagged = PLAIN_NAMED_FIXED.replace('/Flags 32', '/Flags 33');
    const pdf = pagesPdf(
      [
        [
          ...prose(700),
          line(72, 660, 'for item in basket:', 10, 'F3'),
          line(96, 648, 'weigh(item)', 10, 'F3'),
          line(72, 636, 'report()', 10, 'F3'),
          ...prose(610),
        ].join('\n'),
      ],
      612,
      792,
      [flagged],
    );
    expect(await markdown(pdf)).toContain('```\nfor item in basket:\n    weigh(item)\nreport()\n```');
  });

  it('reads code whose words stand in columns as a code block, not a table, on both backends', async () => {
    const pdf = pagesPdf(
      [
        [
          ...prose(700),
          words(72, 660, 'x     = 1', 6, 'F3'),
          words(72, 648, 'yyy   = 2', 6, 'F3'),
          words(72, 636, 'zz    = 3    # three', 6, 'F3'),
          words(72, 624, 'int   a;     /* 2 */', 6, 'F3'),
          ...prose(600),
        ].join('\n'),
      ],
      612,
      792,
      [COURIER],
    );
    for (const backend of ['pdfium', 'pdfjs'] as const) {
      const md =
        (await createEngine({ pdf: { backend } }).parse(pdf, fast, { filename: 'columns.pdf' })).markdown ?? '';
      expect(md, backend).toContain('```\nx     = 1\nyyy   = 2\nzz    = 3    # three\nint   a;     /* 2 */\n```');
      expect(md, backend).not.toContain('|');
    }
  });

  it('keeps a row with a sign drawn in a symbol face in its listing', async () => {
    const symbol = '<< /Type /Font /Subtype /Type1 /BaseFont /Symbol >>';
    const pdf = pagesPdf(
      [
        [
          ...prose(700),
          line(72, 660, 'for i in xs:', 10, 'F3'),
          line(96, 648, 'if i', 10, 'F3'),
          // "≤" at its code in Symbol's own encoding, a gap apart from the code on either side.
          'BT /F4 10 Tf 144 648 Td (\\243) Tj ET',
          line(162, 648, 'n: yield i', 10, 'F3'),
          line(72, 636, 'print(done)', 10, 'F3'),
          ...prose(610),
        ].join('\n'),
      ],
      612,
      792,
      [COURIER, symbol],
    );
    expect(await markdown(pdf)).toContain('```\nfor i in xs:\n    if i    ≤  n: yield i\nprint(done)\n```');
  });

  it('keeps a bulleted list of monospaced names a list, and a table of figures in Courier a table', async () => {
    const symbol = '<< /Type /Font /Subtype /Type1 /BaseFont /Symbol >>';
    // LaTeX's itemize: a bullet in CMSY (here Symbol's), each item a typewriter name.
    const bullet = (y: number, name: string) => `BT /F4 10 Tf 84 ${y} Td (\\267) Tj ET\n${line(96, y, name, 10, 'F3')}`;
    const options = pagesPdf(
      [
        [...prose(700), bullet(660, '--verbose'), bullet(648, '--quiet'), bullet(636, '--dry-run'), ...prose(610)].join(
          '\n',
        ),
      ],
      612,
      792,
      [COURIER, symbol],
    );
    const md = await markdown(options);
    expect(md).not.toContain('```');
    expect(md).toContain('- --verbose\n- --quiet\n- --dry-run');

    const row = (y: number, cells: string[]) => cells.map((c, k) => line(72 + 90 * k, y, c, 10, 'F3')).join('\n');
    const figures = pagesPdf(
      [
        [
          ...prose(700),
          row(660, ['Month', 'Reading', 'Units', 'Cost']),
          row(640, ['January', '10231', '412', '61.80']),
          row(620, ['February', '10598', '367', '55.05']),
          row(600, ['March', '10921', '323', '48.45']),
          ...prose(570),
        ].join('\n'),
      ],
      612,
      792,
      [COURIER],
    );
    for (const backend of ['pdfium', 'pdfjs'] as const) {
      const out =
        (await createEngine({ pdf: { backend } }).parse(figures, fast, { filename: 'meter.pdf' })).markdown ?? '';
      expect(out, backend).toContain('| January | 10231 | 412 | 61.80 |');
    }
  });

  it('joins a listing the page break cut, each page keeping its part for provenance', async () => {
    const pdf = pagesPdf(
      [
        [
          ...prose(700),
          line(72, 120, 'def f(x):', 10, 'F3'),
          line(96, 108, 'a = x + 1', 10, 'F3'),
          line(96, 96, 'b = a * 2', 10, 'F3'),
        ].join('\n'),
        [line(72, 740, 'c = b - 3', 10, 'F3'), line(72, 728, 'return c', 10, 'F3'), ...prose(700)].join('\n'),
      ],
      612,
      792,
      [COURIER],
    );
    const data = await createEngine().parse(
      pdf,
      {
        formats: ['markdown', { type: 'chunks', maxTokens: 16 }],
        parsers: [{ type: 'pdf', mode: 'fast', blocks: true }],
      },
      { filename: 'over.pdf' },
    );
    expect(data.markdown).toContain('```\ndef f(x):\n    a = x + 1\n    b = a * 2\nc = b - 3\nreturn c\n```');
    const item = data.blocks?.[0]?.items.find((i) => i.type === 'code');
    expect(item?.continued).toEqual([{ pageNumber: 2, bbox: expect.any(Array), line: 4 }]);
    expect(item?.content.split('\n')[4]).toBe('c = b - 3');
    expect(data.blocks?.[1]?.items.map((i) => i.type)).toEqual(['paragraph']);
    const pagesOf = (s: string) => data.chunks?.find((c) => c.text.includes(s))?.pages;
    expect(pagesOf('def f(x):')).toEqual([1]);
    expect(pagesOf('return c')).toEqual([2]);
  });

  it('drops the page parts of a joined listing whose lines a redaction changed, and keeps them where it did not', () => {
    const joined = (): Code => {
      const a: Code = { type: 'code', value: 'key = (\n-----BEGIN KEY-----\nabc' };
      joinCode(a, { type: 'code', value: 'def\n-----END KEY-----\n)' }, { page: 2 });
      return a;
    };
    const kept = joined();
    expect(linesOn(kept)).toEqual([{ page: 2, line: 3 }]);
    recode(kept, kept.value.replace('abc', 'xyz'));
    expect(linesOn(kept)).toEqual([{ page: 2, line: 3 }]);
    const shortened = joined();
    recode(shortened, 'key = (\n<SECRET>\n)');
    expect(linesOn(shortened)).toEqual([]);
    expect(shortened.value).toBe('key = (\n<SECRET>\n)');
  });

  it('keeps apart a listing that ends mid-page and one that opens the next page', async () => {
    const fill = (top: number, bottom: number): string[] => {
      const out: string[] = [];
      for (let y = top; y >= bottom; y -= 40) out.push(...prose(y));
      return out;
    };
    const pdf = pagesPdf(
      [
        [
          ...fill(740, 420),
          line(72, 380, 'int main(void) {', 10, 'F3'),
          line(96, 368, 'return 0;', 10, 'F3'),
          line(72, 356, '}', 10, 'F3'),
        ].join('\n'),
        [line(72, 740, '$ cc main.c', 10, 'F3'), line(72, 728, '$ ./a.out', 10, 'F3'), ...fill(700, 80)].join('\n'),
        [...fill(740, 80)].join('\n'),
      ],
      612,
      792,
      [COURIER],
    );
    const md = await markdown(pdf);
    expect(md).toContain('```\nint main(void) {\n    return 0;\n}\n```');
    expect(md).toContain('```\n$ cc main.c\n$ ./a.out\n```');
  });

  it('reads a listing line number set in the text face as part of its row', async () => {
    const pdf = pagesPdf(
      [
        [
          ...prose(700),
          `${line(60, 660, '1', 5)}\n${line(72, 660, 'import os', 10, 'F3')}`,
          `${line(60, 648, '2', 5)}\n${line(72, 648, 'print(os.getcwd())', 10, 'F3')}`,
          // A number alone on its row, its code a wide gap away.
          `${line(60, 636, '3', 5)}\n${line(108, 636, '"done")', 10, 'F3')}`,
          ...prose(610),
        ].join('\n'),
      ],
      612,
      792,
      [COURIER],
    );
    const md = await markdown(pdf);
    expect(md).toContain('```\n1 import os\n2 print(os.getcwd())\n3       "done")\n```');
  });

  it('keeps a numbered blank row in its listing, and code set in from a list item in the item', async () => {
    const numbered = (n: string, y: number, code: string): string =>
      code ? `${line(60, y, n, 5)}\n${line(72, y, code, 10, 'F3')}` : line(60, y, n, 5);
    const listing = pagesPdf(
      [
        [
          ...prose(700),
          numbered('1', 660, 'import sys'),
          numbered('2', 648, ''),
          numbered('3', 636, 'def main():'),
          numbered('4', 624, '    print(sys.argv)'),
          ...prose(600),
        ].join('\n'),
      ],
      612,
      792,
      [COURIER],
    );
    expect(await markdown(listing)).toContain('```\n1 import sys\n2\n3 def main():\n4     print(sys.argv)\n```');

    const steps = pagesPdf(
      [
        [
          ...prose(700),
          line(72, 660, '1. Install the package:'),
          line(90, 646, 'npm install docmill', 10, 'F3'),
          line(90, 634, 'npx docmill --help', 10, 'F3'),
          line(72, 618, '2. Run it on a file and read the Markdown it prints.'),
          ...prose(590),
        ].join('\n'),
      ],
      612,
      792,
      [COURIER],
    );
    expect(await markdown(steps)).toContain(
      '1. Install the package:\n\n   ```\n   npm install docmill\n   npx docmill --help\n   ```\n\n2. Run it on a file',
    );
  });

  it('leaves a lone monospaced line, authors’ addresses and a document set in Courier throughout as text', async () => {
    const pdf = pagesPdf(
      [
        [
          line(72, 752, 'ann@lab.example.org, dan@lab.example.org', 10, 'F3'),
          line(72, 740, 'E-mail: eve@lab.example.org', 10, 'F3'),
          line(72, 728, '{bob, carol}@uni.example.edu', 10, 'F3'),
          ...prose(700),
          line(72, 660, 'pip install docmill', 10, 'F3'),
          ...prose(640),
        ].join('\n'),
      ],
      612,
      792,
      [COURIER],
    );
    const md = await markdown(pdf);
    expect(md).not.toContain('```');
    expect(md).toContain('pip install docmill');
    expect(md).toContain('ann@lab.example.org');
    expect(md).toContain('E-mail: eve@lab.example.org');

    const receipt = pagesPdf(
      [
        [
          line(72, 700, 'TECHMART ELECTRONICS', 10, 'F3'),
          line(72, 688, 'Wireless Mouse          24.99', 10, 'F3'),
          line(72, 676, 'USB-C Cable             12.50', 10, 'F3'),
          line(72, 664, 'TOTAL                   37.49', 10, 'F3'),
          line(72, 640, 'Thank you for shopping with us.', 10, 'F3'),
        ].join('\n'),
      ],
      612,
      792,
      [COURIER],
    );
    expect(await markdown(receipt)).not.toContain('```');

    // A typescript: its bold lines in the bold of its face are no code either.
    const memo = pagesPdf(
      [
        [
          line(72, 740, 'SUBJECT: ANNUAL REVIEW OF THE', 10, 'F4'),
          line(72, 728, 'REGIONAL WORKING GROUPS', 10, 'F4'),
          line(72, 700, 'The committee met on the fourth of May and heard the', 10, 'F3'),
          line(72, 688, 'reports of both working groups before it adjourned.', 10, 'F3'),
          line(72, 660, 'NOTE: All members must submit their', 10, 'F4'),
          line(72, 648, 'reports before the end of the month.', 10, 'F4'),
        ].join('\n'),
      ],
      612,
      792,
      [COURIER, COURIER.replace('/Courier', '/Courier-Bold')],
    );
    expect(await markdown(memo)).not.toContain('```');
  });

  it('takes no Monotype face for a monospaced one, nor a face whose words measured alike are mostly figures', async () => {
    const face = (name: string): string =>
      `<< /Type /Font /Subtype /Type1 /BaseFont /${name} /Encoding /WinAnsiEncoding >>`;
    const epigraph = pagesPdf(
      [
        [
          ...prose(700),
          line(300, 660, 'To be, or not to be, that is the question:', 11, 'F3'),
          line(300, 646, 'Whether tis nobler in the mind to suffer', 11, 'F3'),
          ...prose(620),
        ].join('\n'),
      ],
      612,
      792,
      [face('MonotypeCorsiva')],
    );
    expect(await markdown(epigraph)).not.toContain('```');
    const ids = pagesPdf(
      [
        [
          ...prose(700),
          line(72, 660, 'ID01', 10, 'F3'),
          line(72, 646, 'ID02', 10, 'F3'),
          ...prose(620),
          line(72, 580, 'ID03', 10, 'F3'),
          line(72, 566, 'ID100', 10, 'F3'),
          ...prose(540),
          line(72, 500, 'Samples were drawn at random from the second batch', 10, 'F3'),
          line(72, 488, 'and measured twice by two different observers.', 10, 'F3'),
        ].join('\n'),
      ],
      612,
      792,
      [face('Helvetica-Oblique')],
    );
    for (const backend of ['pdfium', 'pdfjs'] as const) {
      const md = (await createEngine({ pdf: { backend } }).parse(ids, fast, { filename: 'ids.pdf' })).markdown ?? '';
      expect(md, backend).not.toContain('```');
    }
  });

  it('reads a word set in a code face among prose as inline code, leaving addresses and the body face alone', async () => {
    // One text object, its face changed mid-line, as a typesetter draws `\texttt` in a sentence.
    const mixed = (y: number, parts: readonly (readonly [string, string])[]): string =>
      `BT 72 ${y} Td ${parts.map(([font, t]) => `/${font} 10 Tf (${t.replace(/[\\()]/g, '\\$&')}) Tj`).join(' ')} ET`;
    const pdf = pagesPdf(
      [
        [
          ...prose(700),
          mixed(660, [
            ['F1', 'Install the tool with '],
            ['F3', 'npm i docmill'],
            ['F1', ' and call '],
            ['F3', 'parse(bytes)'],
            ['F1', ' on a file.'],
          ]),
          mixed(646, [
            ['F1', 'Write to '],
            ['F3', 'ann@lab.example.org'],
            ['F1', ' or see '],
            ['F3', 'https://example.org/docs'],
            ['F1', ' and the '],
            ['F3', 'x'],
            ['F1', ' axis.'],
          ]),
          mixed(632, [
            ['F2', 'A line set in bold: '],
            ['F4', 'fetch()'],
            ['F2', ' returns a promise.'],
          ]),
          ...prose(600),
          line(72, 560, 'parse --pages 1-3 report.pdf', 10, 'F3'),
          ...prose(530),
        ].join('\n'),
      ],
      612,
      792,
      [COURIER, COURIER.replace('/Courier', '/Courier-Bold')],
    );
    for (const backend of ['pdfium', 'pdfjs'] as const) {
      const r = await createEngine({ pdf: { backend } }).parse(
        pdf,
        { ...fast, formats: ['markdown', 'html'] },
        { filename: 'inline.pdf' },
      );
      const md = r.markdown ?? '';
      expect(md, backend).toContain('Install the tool with `npm i docmill` and call `parse(bytes)` on a file.');
      // Addresses stay text (and links where the file makes them); a lone letter is no code.
      expect(md, backend).toContain('Write to ann@lab.example.org or see https://example.org/docs and the x axis.');
      expect(md, backend).toContain('**A line set in bold: `fetch()` returns a promise.**');
      // One line wholly in a code face is a command set apart: text, as before.
      expect(md, backend).toContain('\n\nparse --pages 1-3 report.pdf\n\n');
      expect(r.html, backend).toContain('<code>npm i docmill</code>');
    }
  });

  it('leaves prose text where a marker, a mark, a form label or figures are what another face holds', async () => {
    const mixed = (y: number, parts: readonly (readonly [string, string])[], size = 10): string =>
      `BT 72 ${y} Td ${parts.map(([font, t]) => `/${font} ${size} Tf (${t.replace(/[\\()]/g, '\\$&')}) Tj`).join(' ')} ET`;
    const pdf = pagesPdf(
      [
        [
          ...prose(700),
          // A numbered item whose text is in Courier: its number is no word of another face.
          mixed(660, [
            ['F1', '1. '],
            ['F3', 'Install the package before anything else'],
          ]),
          ...prose(630),
          // One Courier line with a footnote mark after it.
          mixed(590, [['F3', 'parse --pages 1-3 report.pdf']]),
          mixed(594, [['F1', '1']], 6).replace('BT 72', 'BT 250'),
          ...prose(560),
          // A form's values filled in Courier, and figures.
          mixed(520, [
            ['F1', 'Policy holder: '],
            ['F3', 'John Smith'],
            ['F1', ', born '],
            ['F3', '12/03/1980'],
            ['F1', ', call '],
            ['F3', '555-1234'],
            ['F1', '.'],
          ]),
          // A sentence ending in a colon is no form's label.
          mixed(480, [
            ['F1', 'To install it, run: '],
            ['F3', 'pip install docmill'],
          ]),
          ...prose(460),
          // An address the line end cuts.
          mixed(450, [
            ['F1', 'For questions about the data please write to the maintainers at '],
            ['F3', 'ann.lee@lab.'],
          ]),
          mixed(436, [
            ['F3', 'example.org'],
            ['F1', ' and they will answer within a week or two.'],
          ]),
          ...prose(400),
        ].join('\n'),
      ],
      612,
      792,
      [COURIER],
    );
    for (const backend of ['pdfium', 'pdfjs'] as const) {
      const md = (await createEngine({ pdf: { backend } }).parse(pdf, fast, { filename: 'forms.pdf' })).markdown ?? '';
      expect(md.match(/`/g), backend).toHaveLength(2);
      expect(md, backend).toContain('To install it, run: `pip install docmill`');
      expect(md, backend).toContain('1. Install the package before anything else');
      expect(md, backend).toContain('Policy holder: John Smith, born 12/03/1980, call 555-1234.');
      // (The line end's blank stays, as in any address a line end cuts.)
      expect(md, backend).toMatch(/maintainers at ann\.lee@lab\. ?example\.org and they will answer/);
    }
  });

  it('keeps a link one link over the code in it, and drops code a redaction empties', async () => {
    const ops = [
      ...prose(700),
      'BT 72 660 Td /F1 10 Tf (Read the ) Tj /F1 10 Tf (guide to the ) Tj /F3 10 Tf (parse) Tj /F1 10 Tf ( function online) Tj /F1 10 Tf ( for more.) Tj ET',
      'BT 72 640 Td /F1 10 Tf (Policy holder ) Tj /F3 10 Tf (john.smith@example.com) Tj /F1 10 Tf ( wrote on Monday about the ) Tj /F3 10 Tf (renew()) Tj /F1 10 Tf ( call.) Tj ET',
      ...prose(600),
    ].join('\n');
    // The link's box: from "guide" (after "Read the ") to "function".
    const objects = [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R /F3 5 0 R >> >> /Contents 6 0 R /Annots [7 0 R] >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
      COURIER,
      `<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`,
      '<< /Type /Annot /Subtype /Link /Rect [113 656 252 671] /Border [0 0 0] /A << /S /URI /URI (https://docs.example/parse) >> >>',
    ];
    const pdf = pdfOf(objects);
    for (const backend of ['pdfium', 'pdfjs'] as const) {
      const engine = createEngine({ pdf: { backend } });
      const r = await engine.parse(pdf, { formats: ['markdown', 'html'] }, { filename: 'link.pdf' });
      expect(r.markdown, backend).toContain(
        'Read the [guide to the `parse` function](https://docs.example/parse) online for more.',
      );
      expect(r.html?.match(/<a /g), backend).toHaveLength(1);
      const redacted = await engine.parse(
        pdf,
        {
          ...fast,
          formats: ['markdown', 'html'],
          redactPII: { mode: 'fast', entities: ['EMAIL'], replaceStyle: 'remove' },
        },
        { filename: 'link.pdf' },
      );
      // The address is no code (an address), and `renew()` stays the only span.
      expect(redacted.markdown, backend).toContain('about the `renew()` call.');
      expect(redacted.markdown, backend).not.toContain('``');
      expect(redacted.html, backend).not.toContain('<code></code>');
    }
  });

  it.skipIf(!hasCorpus)(
    `redp5110: its SQL examples are code blocks with their indentation (${hasCorpus ? 'corpus' : corpusSkipReason})`,
    async () => {
      const file = corpusFile('docling', 'pdf/sources/redp5110_sampled.pdf');
      for (const backend of ['pdfium', 'pdfjs'] as const) {
        const md =
          (await createEngine({ pdf: { backend } }).parse(file, fast, { filename: 'redp.pdf' })).markdown ?? '';
        expect(md, backend).toMatch(
          /```\nCREATE MASK +HR_SCHEMA\.MASK_TAX_ID_ON_EMPLOYEES\nON +HR_SCHEMA\.EMPLOYEES AS EMPLOYEES\nFOR COLUMN +TAX_ID\nRETURN\nCASE\n {7}WHEN VERIFY_GROUP_FOR_USER \( SESSION_USER , 'HR' \) = 1\n {7}THEN EMPLOYEES \. TAX_ID\n\n/,
        );
        expect(md, backend).toContain("ELSE 'XXX-XX-XXXX'\nEND\nENABLE ;\n```");
        // The statement no longer breaks into paragraphs mid-clause.
        expect(md, backend).not.toContain('\n\nFOR COLUMN TAX_ID\n\n');
      }
    },
  );

  it.skipIf(!hasCorpus)(
    `code_and_formula, the interface guide, the LayoutParser paper: listings, CLI output, numbered lines (${hasCorpus ? 'corpus' : corpusSkipReason})`,
    async () => {
      const listing = await markdown(corpusFile('docling', 'pdf/sources/code_and_formula.pdf'));
      expect(listing).toContain(
        'Listing 1: Simple JavaScript Program\n\n```\nfunction add(a, b) {\n    return a + b;\n}\n',
      );
      const cli = await markdown(corpusFile('pdfbench', 'unstructured_pdf_interface-config-guide-p93.pdf'));
      expect(cli).toContain(
        '```\nA:node-2>config>port-xc# info\n----------------------------------------------\n        pxc 1 create\n            port 1/x1/1/c1/1\n            no shutdown\n        exit\n',
      );
      const paper = await markdown(corpusFile('pdfbench', 'unstructured_pdf_layout-parser-paper-with-table.pdf'));
      expect(paper).toContain('```\n1 import layoutparser as lp\n2 image = cv2 . imread');
      expect(paper).toMatch(/\n4 +"lp :\/\/ PubLayNet/);
      // The toolkit's name and its model paths, set in a typewriter face among the prose.
      expect(paper).toContain('`LayoutParser` provides a wealth of pre-trained model weights');
      expect(paper).toContain('`lp://<dataset-name>/<model-architecture-name>`.');
    },
  );

  it.skipIf(!hasCorpus)(
    `papers' typewriter names are inline code, their e-mail addresses and a text face pdf.js calls monospaced text (${hasCorpus ? 'corpus' : corpusSkipReason})`,
    async () => {
      const dpr = await markdown(corpusFile('pdfbench', 'unstructured_pdf_multi-column.pdf'));
      expect(dpr).not.toContain('```');
      expect(dpr).toContain('sewon@cs.washington.edu');
      expect(dpr).toContain('take the representation at the `[CLS]` token as the output');
      const autogen = await markdown(corpusFile('markitdown', 'test.pdf'));
      expect(autogen).toContain('we present `AutoGen`, a generalized multi-agent conversation framework');
      // pdf.js flags the abstract's CMR9 monospaced: all its widths in one subset are one.
      const engine = createEngine({ pdf: { backend: 'pdfjs' } });
      const lp = (
        await engine.parse(corpusFile('pdfbench', 'unstructured_pdf_copy-protected.pdf'), fast, { filename: 'lp.pdf' })
      ).markdown;
      expect(lp).not.toContain('```');
      expect(lp).toContain('**Abstract.** Recent advances in document image analysis (DIA) have been primarily driven');
      // An author's typewriter address stays text, its underscore aside.
      expect(lp).toContain('Brown University ruochen zhang@brown.edu');
      expect(lp).toContain('{melissadell,jacob carlson}@fas.harvard.edu');
    },
  );
});
