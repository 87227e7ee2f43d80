import { describe, expect, it } from 'vitest';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';
import { pagesPdf, textAt } from '../helpers/pdf-build.ts';

// A full line: the page's text runs to its right margin, as a column's phrases never do.
const INTRO =
  'We compared the two tools over a month of daily use in the lab, on the same machines, with the same files.';
const CLOSING = 'On balance the first tool suits the lab better than the second.';

/**
 * Two columns of short phrases under a row of heads, no rules, no bullets ("Pros  Cons", "Name
 * Role"): a table whose heads name its columns. Read as text, a column's phrases ran into one
 * sentence ("Fast start Small memory use Works offline") or each row into one ("Ann Lee Chair").
 */
describe.each(pdfBackends)('PDF columns of phrases under heads (%s)', (backend) => {
  /**
   * The page: the lead-in, the rows at x 72 and `right` (320) one every 14 points (the heads in
   * Helvetica-Bold, `F2`, where `bold`, a row in the font its third entry names; `apart` points
   * further above the rows), the closing line.
   */
  const markdown = async (rows: readonly (readonly [string, string, string?])[], bold = true, apart = 0, right = 320) =>
    (
      await engineFor(backend).parse(
        pagesPdf([
          [
            textAt(72, 740, INTRO, 10, 'F1'),
            ...rows.flatMap(([a, b], k) => {
              const font = rows[k]?.[2] ?? (k === 0 && bold ? 'F2' : 'F1');
              const y = 710 - 14 * k - (k ? apart : 0);
              return [a ? textAt(72, y, a, 10, font) : '', b ? textAt(right, y, b, 10, font) : ''].filter(Boolean);
            }),
            textAt(72, 690 - 14 * rows.length - apart, CLOSING, 10, 'F1'),
          ].join('\n'),
        ]),
        { parsers: [{ type: 'pdf', mode: 'fast' }] },
        { filename: 'columns.pdf' },
      )
    ).markdown ?? '';

  const PROS_CONS = [
    ['Pros', 'Cons'],
    ['Fast start', 'High price'],
    ['Small memory use', 'Few plugins'],
    ['Works offline', 'No mobile app'],
    ['Clear manual', 'Slow support'],
  ] as const;
  const PROS_CONS_TABLE = [
    '| Pros | Cons |',
    '| --- | --- |',
    '| Fast start | High price |',
    '| Small memory use | Few plugins |',
    '| Works offline | No mobile app |',
    '| Clear manual | Slow support |',
  ].join('\n');

  it('reads "Pros" beside "Cons" over their phrases as a table, the heads in bold or set apart', async () => {
    expect(await markdown(PROS_CONS)).toContain(`${INTRO}\n\n${PROS_CONS_TABLE}\n\n${CLOSING}`);
    expect(await markdown(PROS_CONS, false, 8)).toContain(`${INTRO}\n\n${PROS_CONS_TABLE}\n\n${CLOSING}`);
  });

  it('reads names beside roles under "Name" and "Role" as a table', async () => {
    const md = await markdown([
      ['Name', 'Role'],
      ['Ann Lee', 'Chair'],
      ['Bob Ray', 'Treasurer'],
      ['Carol Diaz', 'Secretary'],
      ['Dan Wu', 'Member'],
    ]);
    expect(md).toContain(
      '| Name | Role |\n| --- | --- |\n| Ann Lee | Chair |\n| Bob Ray | Treasurer |\n| Carol Diaz | Secretary |\n| Dan Wu | Member |',
    );
  });

  it('keeps a cell opening in lower case, and a phrase wrapped onto a second line, in the table', async () => {
    const lower = await markdown([...PROS_CONS.slice(0, 3), ['Works offline', 'iOS and Android apps missing']]);
    expect(lower).toContain('| Works offline | iOS and Android apps missing |');
    // Wrapped at the gutter: "Laptops" would not have fitted before "Few plugins".
    const wrapped = await markdown([
      ...PROS_CONS.slice(0, 2),
      ['Considerably smaller memory needs on all older', 'Few plugins'],
      ['Laptops', ''],
      ...PROS_CONS.slice(3),
    ]);
    expect(wrapped).toContain(
      '| Considerably smaller memory needs on all older Laptops | Few plugins |\n| Works offline | No mobile app |',
    );
  });

  it('reads the longer column past the other as rows of their own, the cell beside them empty', async () => {
    const rows = PROS_CONS.slice(0, 4);
    const cons = await markdown([...rows, ['', 'Slow support']]);
    expect(cons).toContain(`| Works offline | No mobile app |\n|  | Slow support |\n\n${CLOSING}`);
    const more = await markdown([...rows, ['', 'Slow support'], ['', 'Costly training']], false, 8);
    expect(more).toContain(
      `| Works offline | No mobile app |\n|  | Slow support |\n|  | Costly training |\n\n${CLOSING}`,
    );
    const pros = await markdown([...rows, ['Clear manual', '']]);
    expect(pros).toContain(`| Works offline | No mobile app |\n| Clear manual |  |\n\n${CLOSING}`);
    const twoPros = await markdown([...rows, ['Clear manual', ''], ['Good defaults', '']]);
    expect(twoPros).toContain(`| Clear manual |  |\n| Good defaults |  |\n\n${CLOSING}`);
  });

  it('keeps a sentence, a paragraph and a heading under the table out of it, set at the rows pitch', async () => {
    const md = await markdown([...PROS_CONS.slice(0, 4), ['Both tools were tested on the same files.', '']]);
    expect(md).toContain('| Works offline | No mobile app |\n\nBoth tools were tested on the same files.');
    const paragraph = await markdown([...PROS_CONS, ['Both tools were tested on', ''], ['the same files in May.', '']]);
    expect(paragraph).toContain('| Clear manual | Slow support |\n\nBoth tools were tested on the same files in May.');
    const capital = await markdown([...PROS_CONS, ['Both tools were tested on', ''], ['Linux and Windows alike.', '']]);
    expect(capital).toContain('| Clear manual | Slow support |\n\nBoth tools were tested on Linux and Windows alike.');
    const heading = await markdown([...PROS_CONS, ['Next steps', '', 'F2']]);
    expect(heading).toContain('| Clear manual | Slow support |\n\n');
    expect(heading).not.toContain('| **Next steps**');
  });

  it('keeps a cell wrapped in a narrow column whole, inside the table and at its end', async () => {
    /** Names at 72 and roles at 200, the heads in bold: a table narrower than the page's text. */
    const narrow = (rows: readonly (readonly [string, string])[]) => markdown(rows, true, 0, 200);
    const inside = await narrow([
      ['Name', 'Role'],
      ['Ann Lee', 'Chair'],
      ['Bob Ray', 'Head of Finance and'],
      ['', 'Operations'],
      ['Carol Diaz', 'Secretary'],
      ['Dan Wu', 'Member'],
    ]);
    expect(inside).toContain('| Bob Ray | Head of Finance and Operations |\n| Carol Diaz | Secretary |');
    const atEnd = await narrow([
      ['Name', 'Role'],
      ['Ann Lee', 'Chair'],
      ['Carol Diaz', 'Secretary'],
      ['Bob Ray', 'Head of Finance and'],
      ['', 'Operations'],
    ]);
    expect(atEnd).toContain('| Bob Ray | Head of Finance and Operations |\n\n');
  });

  it('keeps two columns of prose under two heads as text, and heads over too few rows', async () => {
    const prose = await markdown([
      ['Background', 'Method'],
      ['The tools were chosen', 'Each tool ran for a'],
      ['for their licences and', 'week on the same'],
      ['their support for the', 'machines with the same'],
      ['formats we read', 'files and settings'],
    ]);
    expect(prose).not.toContain('|');
    expect(await markdown(PROS_CONS.slice(0, 3))).not.toContain('| Pros | Cons |');
  });

  it('reads no table where nothing sets a row apart as heads: names down two columns, an index under its letters', async () => {
    const names = await markdown(
      [
        ['Ann Lee', 'Eve Fox'],
        ['Bob Ray', 'Fay Kim'],
        ['Carol Diaz', 'Gus Hay'],
        ['Dan Wu', 'Hal Orr'],
      ],
      false,
    );
    expect(names).not.toContain('|');
    const index = await markdown([
      ['A', 'B'],
      ['Abacus', 'Badge'],
      ['Apple', 'Banana'],
      ['Axe', 'Bolt'],
      ['Azure', 'Brick'],
    ]);
    expect(index).not.toContain('|');
  });
});
