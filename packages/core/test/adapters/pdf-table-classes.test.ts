import { describe, expect, it } from 'vitest';
import type { Block, ParseOptions } from '../../src/index.ts';
import { blockText } from '../../src/tree/walk.ts';
import { corpusFile, corpusSkipReason, corpusText, fixture, hasCorpus } from '../helpers/corpus.ts';
import { cellKey, tablesOf } from '../helpers/metrics.ts';
import { pagesOf } from '../helpers/pages.ts';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';
import { pagesPdf, textAt } from '../helpers/pdf-build.ts';
import { NO_DEADLINE } from '../helpers/timeouts.ts';

/**
 * The classes of PDF table failure in issue 29, each on a fixture made for it (both backends) and on
 * the file of `../shared/corpus/tables` where it was seen (expected cells from tabula-java's tests).
 */
const withPages = { parsers: [{ type: 'pdf' as const, pageMarkers: true }] };

/** The side menu's entries, each a paragraph, and the prose beside it whole (side-menu, menu-column). */
const sideMenuRead = [
  ...['Our approach', 'Measuring footprint', 'Reducing emissions', 'Clean energy', 'Residual emissions'].flatMap(
    (e) => [e, ''],
  ),
  'Journey ahead',
  '',
  'Our work on climate began two decades ago, and since then we have learned that the hardest part of cutting emissions is the energy our sites use every hour of every day, in every place we work. In 2021 we set our most ambitious goal so far: to reach net-zero emissions across all of our operations and our value chain by the year 2030, and to cut half of our combined emissions before that date, measured against our baseline year. Energy use makes up a large share of the total, because the sites that serve our customers run without a pause and need power around the clock. That is why we set a second goal: to run on clean energy every hour on every grid where we work.',
];

/** The sideways fixtures' table, as read upright. */
/** How rtl-notes.pdf and the first page of mixed-notes.pdf read: a paragraph, then the notes as one list. */
const rtlNotesRead = [
  'ההוצאה לצריכה פרטית לנפש עלתה בשנה האחרונה וההוצאה לצריכה ציבורית עלתה גם היא',
  '',
  '1. ההוצאה לצריכה פרטית ועוד ההוצאה על שירותים אישיים שמומנה על ידי הממשלה.',
  '2. סך כל ההוצאה לצריכה פרטית וציבורית.',
];

const reservoirTable = [
  '| Reservoir | Region | Capacity (Ml) | Level (%) |',
  '| --- | --- | --- | --- |',
  '| Kielder Water | Northumberland | 199,175 | 87 |',
  '| Rutland Water | East Midlands | 124,000 | 74 |',
  '| Lake Vyrnwy | Powys, fed by the Afon Vyrnwy | 59,700 | 91 |',
  '| Haweswater | Cumbria | 84,900 | 68 |',
];

describe.each(pdfBackends)('pdf table classes on fixtures (%s)', (backend) => {
  const { parse, parseTree } = engineFor(backend);

  it('reads landscape pages in their upright frame: /Rotate 90 or 270, or text drawn sideways', async () => {
    const md = (await parse(fixture('pdf-patterns', 'landscape.pdf'), withPages, { filename: 'landscape.pdf' }))
      .markdown;
    const pages = pagesOf(md ?? '');
    expect(pages).toHaveLength(4);
    for (const [i, month] of ['May', 'June', 'July', 'August'].entries()) {
      expect(pages[i]?.trim()).toBe(
        [
          `# Contracts awarded in ${month}`,
          '',
          '| No. | Contract | Supplier | Amount |',
          '| --- | --- | --- | --- |',
          '| 11 | Colour printers and scanners | Microsys Company Limited | 45,262.32 |',
          '| 12 | Road safety books | Elkhart Enterprise | 11,700.00 |',
          '| 13 | Safety books for junior high schools | Printpack Limited | 9,400.00 |',
          '',
          'All contracts were completed on time.',
        ].join('\n'),
      );
    }
  });

  it('reads brackets in right-to-left text as meant, however the producer filed their glyphs', async () => {
    const md = (await parse(fixture('pdf-patterns', 'rtl-brackets.pdf'), {}, { filename: 'rtl.pdf' })).markdown;
    expect(md?.trim()).toBe(
      [
        // Brackets of their own drawn as seen: ")" on the right opens.
        'תעשייה (ללא יהלומים)',
        '',
        // Broken over two lines, each glyph the mirror image of the character its font maps.
        'התוכנית פועלת בשנים (2024 - 2026) ובהן יושלם המבנה.',
        '',
        // Inside one right-to-left run.
        'מחיר (כולל מעמ) לצרכן',
        '',
        'הוצאה לנפש (1)',
        '',
        // Broken over two lines, drawn as seen: each bracket alone on its line, read by its
        // neighbours (a blank before and a figure after opens, a figure before and a blank after closes).
        'התוכנית פועלת בשנים (2024 - 2026) ובהן יושלם המבנה.',
      ].join('\n'),
    );
  });

  it('reads a right-to-left form label first: a wrapped label whole, then its value', async () => {
    const md = (await parse(fixture('pdf-patterns', 'rtl-form.pdf'), {}, { filename: 'form.pdf' })).markdown;
    expect(md?.trim()).toBe(
      [
        'פרטי ההנפקה',
        'מספר התקן',
        '20300',
        // Each label's second line, beside nothing, before the value on the first line's row.
        'תאריך הגשת המסמכים לוועדה',
        '19/09/2024',
        'תאריך האישור',
        '04/10/2024',
        'מספר הישיבה של ועדת ההנפקה',
        '436',
        'היקף ההנפקה',
        '47.500',
        'הנתונים נכונים ליום ההגשה.',
      ].join('\n\n'),
    );
  });

  it('reads a separator between right-to-left text and a number with the text: a comma before a date, a stop after a year', async () => {
    const md = (await parse(fixture('pdf-patterns', 'rtl-separators.pdf'), {}, { filename: 'rtl.pdf' })).markdown;
    expect(md?.trim()).toBe(
      [
        'אינדיקטורים עיקריים להתפתחות המשק, 31.12.14',
        'התוכנית הושלמה בשנת 2024.',
        // Between figures a stop is the number's.
        'יוצרו 47.500 טון',
      ].join('\n\n'),
    );
  });

  it('keeps tables ruled between rows apart when side by side, and their wrapped cells in one row', async () => {
    const md = (await parse(fixture('pdf-patterns', 'rule-tables.pdf'), {}, { filename: 'rules.pdf' })).markdown;
    const spanning = 'Score in each subject (per cent)';
    expect(md?.trim()).toBe(
      [
        '| Planet | Moons | Notes |',
        '| --- | --- | --- |',
        '| Mercury | 0 | Closest to the Sun |',
        '| Jupiter | 95 | Largest, with a great red storm |',
        '| Saturn | 146 | Rings of ice |',
        '',
        '| City | Country | Landmark |',
        '| --- | --- | --- |',
        '| Kyoto | Japan | Golden Pavilion |',
        '| Lima | Peru | Old town |',
        '| Quebec City | Canada | Citadel and old walls |',
        '',
        'Table 2 Scores by group of learners',
        '',
        // The spanning label is a row of its own over the three headings; Markdown repeats it.
        `|  | ${spanning} | ${spanning} | ${spanning} |`,
        '| --- | --- | --- | --- |',
        '|  | Reading | Writing | Maths |',
        '| Day classes | 61 | 58 | 70 |',
        '| Weekend classes | 55 | 52 | 64 |',
        '| Evening classes |  |  |  |',
        '| Adults returning to full-time study | 48 | 50 | 57 |',
        '| Apprentices | 52 | 49 | 66 |',
        '',
        'Scores are percentages of the highest mark.',
      ].join('\n'),
    );
  });

  it('keeps a boundary drawn as a rule between two box edges one boundary (no empty columns), a wrapped label one row', async () => {
    const md = (await parse(fixture('pdf-patterns', 'tiles.pdf'), {}, { filename: 'tiles.pdf' })).markdown;
    expect(md?.trim()).toBe(
      [
        'Release thresholds',
        '',
        '| Pollutant | to air | to water | to land |',
        '| --- | --- | --- | --- |',
        '| Ammonia | 10 000 | - | - |',
        '| Methane | 100 000 | - | - |',
        // The wrapped label's two boxes make one row, its figures once.
        '| Fluorine and compounds (as HF) | 5 000 | - | - |',
        '| Halons | 1 | - | - |',
        '',
        'Thresholds are in kilograms a year.',
      ].join('\n'),
    );
  });

  it('reads a right-to-left table whole: label column, its group labels and the years above', async () => {
    const md = (await parse(fixture('pdf-patterns', 'rtl-table.pdf'), {}, { filename: 'rtl.pdf' })).markdown;
    expect(md?.trim()).toBe(
      [
        '| 2014 | 2013 | 2012 |  |',
        '| --- | --- | --- | --- |',
        '|  |  |  | תוצר |',
        '| 2.6 | 3.2 | 3.0 | סך הכל |',
        '| 0.7 | 1.3 | 1.1 | לנפש |',
        '|  |  |  | צריכה ציבורית |',
        '| 3.8 | 3.5 | 3.6 | אזרחית |',
        '| 2.5 | 3.1 | 3.8 | ביטחונית |',
        '',
        'הנתונים באחוזים',
      ].join('\n'),
    );
  });

  it('parts close columns: dot leaders end a label, figures drawn in one go split, a wrapped label in its row', async () => {
    const md = (await parse(fixture('pdf-patterns', 'close-columns.pdf'), withPages, { filename: 'close.pdf' }))
      .markdown;
    expect(pagesOf(md ?? '')[0]?.trim()).toBe(
      [
        '# Statement of income',
        '',
        '|  | 2023 | 2022 |',
        '| --- | --- | --- |',
        '| Revenue | 11,062.6 | 9,522.6 |',
        '| Cost of sales | 1,540.0 | 1,211.3 |',
        '| Provisions for restructuring | 312.0 | 120.5 |',
        '| Other income | 12.4 | 10.1 |',
        '| Total | 11,062.6 | 9,522.6 |',
        '',
        'Figures in millions of euros.',
      ].join('\n'),
    );
  });

  it('reads a list of labels and values in two columns with no rules as a table', async () => {
    const md = (await parse(fixture('pdf-patterns', 'close-columns.pdf'), withPages, { filename: 'close.pdf' }))
      .markdown;
    expect(pagesOf(md ?? '')[1]?.trim()).toBe(
      [
        '# Key figures',
        '',
        '| Revenue | 12.4 m |',
        '| --- | --- |',
        '| Operating profit | 1.9 m |',
        '| Employees | 148 |',
        '| Net margin | 15.3 % |',
        '',
        'The year ended on a strong quarter for the whole group.',
      ].join('\n'),
    );
  });

  it("reads a person's record of labels and values, no colons and few figures, as a table wherever its values start", async () => {
    const labels = ['Name', 'Date of birth', 'Employer', 'Phone'];
    const values = ['Jane Doe', '1980-02-03', 'Acme Ltd', '555 0101'];
    const record = [
      '| Name | Jane Doe |',
      '| --- | --- |',
      '| Date of birth | 1980-02-03 |',
      '| Employer | Acme Ltd |',
    ];
    // The values a little, far and very far from the labels; the record alone on its page, under a
    // note a word long, or over a sentence running past the values.
    for (const at of [204, 260])
      for (const note of ['', 'Signed.', 'Signed below by the applicant on the day the form was filled in.']) {
        const rows = labels.flatMap((l, i) => [
          textAt(76, 715 - i * 20, l, 12),
          textAt(at, 715 - i * 20, values[i] as string, 12),
        ]);
        const bytes = pagesPdf([[...rows, note ? textAt(72, 600, note, 12) : ''].join('\n')]);
        const md = (await parse(bytes, {}, { filename: 'record.pdf' })).markdown ?? '';
        // Before: the labels one paragraph and the values another, read column by column, or the
        // first row left out of a table of the other three.
        expect(md).toBe([...record, '| Phone | 555 0101 |', '', ...(note ? [note, ''] : [])].join('\n'));
      }
  });

  it("reads a CV's years beside its roles as a table; numbered lines and two columns of verse as before", async () => {
    const page = (rows: [number, number, string][]) =>
      pagesPdf([rows.map(([x, y, t]) => textAt(x, y, t, 11)).join('\n')]);
    const read = async (rows: [number, number, string][]) =>
      (await parse(page(rows), {}, { filename: 'cv.pdf' })).markdown ?? '';
    const cv = await read([
      [72, 700, '2019 - 2023'],
      [180, 700, 'Senior engineer, Acme'],
      [72, 684, '2015 - 2019'],
      [180, 684, 'Engineer, Widgets plc'],
      [72, 668, '2012 - 2015'],
      [180, 668, 'Graduate, Foo Ltd'],
    ]);
    // Before: the years one paragraph, the roles another.
    expect(cv).toBe(
      [
        '| 2019 - 2023 | Senior engineer, Acme |',
        '| --- | --- |',
        '| 2015 - 2019 | Engineer, Widgets plc |',
        '| 2012 - 2015 | Graduate, Foo Ltd |',
        '',
      ].join('\n'),
    );
    // A role holding a figure ("3M") leaves the years a table.
    const withFigure = await read([
      [72, 700, '2019 - 2023'],
      [180, 700, 'Senior engineer, Acme'],
      [72, 684, '2015 - 2019'],
      [180, 684, 'Engineer, 3M'],
      [72, 668, '2012 - 2015'],
      [180, 668, 'Graduate, Foo Ltd'],
    ]);
    expect(withFigure).toContain('| 2015 - 2019 | Engineer, 3M |');
    // Dates with months' names, academic years, a span still going on: the same table.
    const spans = async (dates: [string, string, string]) =>
      read([
        [72, 700, dates[0]],
        [200, 700, 'Senior engineer, Acme'],
        [72, 684, dates[1]],
        [200, 684, 'Engineer, Widgets plc'],
        [72, 668, dates[2]],
        [200, 668, 'Graduate, Foo Ltd'],
      ]);
    expect(await spans(['Jan 2019 - Mar 2023', 'Sept 2015 - Dec 2018', 'June 2012 - Aug 2015'])).toContain(
      '| Jan 2019 - Mar 2023 | Senior engineer, Acme |\n| --- | --- |\n| Sept 2015 - Dec 2018 | Engineer, Widgets plc |\n| June 2012 - Aug 2015 | Graduate, Foo Ltd |',
    );
    expect(await spans(['2019/20 - 2022/23', '2015/16 - 2018/19', '2012/13'])).toContain(
      '| 2015/16 - 2018/19 | Engineer, Widgets plc |\n| 2012/13 | Graduate, Foo Ltd |',
    );
    // Months beside figures, or beside words and figures, and words opening like a month's name:
    // labels of rows of figures, as before.
    const rows = async (cells: [string, string][]) =>
      read(
        cells.flatMap(([a, b], k): [number, number, string][] => [
          [72, 700 - 16 * k, a],
          [200, 700 - 16 * k, b],
        ]),
      );
    expect(
      await rows([
        ['Jan 2024', '1,250.00'],
        ['Feb 2024', '1,310.50'],
        ['Mar 2024', '1,402.75'],
        ['Apr 2024', '1,388.00'],
      ]),
    ).toContain('| Feb 2024 | 1,310.50 |');
    expect(
      await rows([
        ['January 2024', 'Rent paid, 1,200'],
        ['February 2024', 'Rent paid, 1,200'],
        ['March 2024', 'Rent paid, 1,250'],
      ]),
    ).toContain('| February 2024 | Rent paid, 1,200 |');
    expect(
      await rows([
        ['Marketing 2024', '45,000'],
        ['Operations 2024', '30,000'],
        ['Decorating 2024', '12,500'],
      ]),
    ).toContain('| Operations 2024 | 30,000 |');
    expect(await spans(['2019 - present', '2015 - 2019', 'since 2012'])).toContain(
      '| 2019 - present | Senior engineer, Acme |\n| --- | --- |\n| 2015 - 2019 | Engineer, Widgets plc |\n| since 2012 | Graduate, Foo Ltd |',
    );
    // A contact block beside a name and title: two blocks of text, no values of figures alone.
    const contact = await read([
      [72, 700, 'Jane Doe'],
      [320, 700, 'Phone 0113 496 0000'],
      [72, 686, 'Head of Sales'],
      [320, 686, 'Mobile 07700 900123'],
      [72, 672, 'Acme Widgets'],
      [320, 672, 'jane.doe@acme.example'],
      [72, 658, 'Leeds'],
      [320, 658, 'Open weekdays'],
    ]);
    expect(contact).not.toContain('|');
    // Numbers alone beside words number items; verse in two columns reads column by column.
    const numbered = await read([
      [72, 700, '1'],
      [180, 700, 'Open the lid'],
      [72, 684, '2'],
      [180, 684, 'Fill the tank'],
      [72, 668, '3'],
      [180, 668, 'Close the lid'],
    ]);
    expect(numbered).not.toContain('|');
    const verse = await read([
      [72, 700, 'The rain falls soft'],
      [320, 700, 'The sun comes out'],
      [72, 684, 'upon the roof'],
      [320, 684, 'above the hill'],
      [72, 668, 'and in the street'],
      [320, 668, 'and all is still'],
    ]);
    expect(verse).toBe(
      'The rain falls soft upon the roof and in the street\n\nThe sun comes out above the hill and all is still\n',
    );
  });

  it('reads labels set beside the middle of their descriptions, rows parted by blank lines, as a table of two columns', async () => {
    const md = (await parse(fixture('pdf-patterns', 'centred-labels.pdf'), withPages, { filename: 'roles.pdf' }))
      .markdown;
    const [roles, glossary, fruit, verses] = pagesOf(md ?? '');
    // A label of one line halfway down two lines of its description, one of two lines beside one:
    // each row a label and what it says, a label's two lines one label.
    expect(roles?.trim()).toBe(
      [
        '# Who will care for you',
        '',
        '| GP | works with your specialist in providing your ongoing care |',
        '| --- | --- |',
        '| **breast surgeon** | specialises in surgery and performs biopsies; some also perform breast reconstruction |',
        '| **radiation therapist** | plans and delivers radiotherapy |',
        '| **dietitian** | recommends an eating plan to follow during treatment and recovery |',
        '| **social worker** | links you to support services |',
        '',
        'Ask your doctor which of them you will see.',
      ].join('\n'),
    );
    // Set level with their descriptions' first lines (a glossary, a manual's side heads) and none
    // wrapped over lines but one, the same labels are read as before: no table.
    expect(glossary).not.toContain('|');
    expect(glossary).toContain('**GP** works with your specialist in providing');
    // Entries of one line in groups parted by blank lines: a label level with each line, no label
    // wrapped. Verses with their first and last words set out: two words apart, no label of two lines.
    expect(fruit).not.toContain('|');
    expect(fruit).toContain('**apple** grown in the orchard by the north wall, picked in June');
    expect(verses).not.toContain('|');
    expect(verses).toContain('and fills the footprints we left there, slowly.');
  });

  it('keeps a column whose gap a long cell reaches across (six columns, not five)', async () => {
    const md = (await parse(fixture('pdf-patterns', 'close-columns.pdf'), withPages, { filename: 'close.pdf' }))
      .markdown;
    const [table] = tablesOf(pagesOf(md ?? '')[2] ?? '');
    expect(table?.[0]).toEqual(['code', 'product', 'origin', 'units', 'price', 'total']);
    expect(table?.[1]).toEqual(['a-1', 'oak chair', 'spain', '12', '40.00', '480.00']);
    expect(table?.[3]).toEqual(['c-3', 'pine shelf', 'sweden', '30', '15.50', '465.00']);
    // pdf.js's text layer joins the long name and the country into one run ("…extendeditaly"); it is
    // cut where the country's text object starts, as PDFium's runs end with their object.
    expect(table?.[2]).toEqual(['b-7', 'walnut dining table, extended', 'italy', '2', '610.00', '1,220.00']);
  });

  it('ends a table at a section title in larger type, and keeps the wrapped cell of its last row', async () => {
    const md = (await parse(fixture('pdf-patterns', 'close-columns.pdf'), withPages, { filename: 'close.pdf' }))
      .markdown;
    expect(pagesOf(md ?? '')[3]?.trim()).toBe(
      [
        '# Totals',
        '',
        '| Month | Shows | Gross | Net |',
        '| --- | --- | --- | --- |',
        '| December 2024 | 48 | 12,500.00 | 11,250.00 |',
        '| Totals | 48 | 12,500.00 | 11,250.00 |',
        '',
        '# Show schedule',
        '',
        '| Ln | Screen | Movie title | Shows | Rate | Total |',
        '| --- | --- | --- | --- | --- | --- |',
        '| 1 | SCR-1 | Holiday Spectacular (Runtime: 142 min) | 12 | $250 | $3,000 |',
        '| 2 | SCR-2 | Winter Wonderland (Runtime: 98 min) | 24 | $150 | $3,600 |',
        '',
        'Showtimes are subject to change.',
      ].join('\n'),
    );
  });

  it('cuts a run that goes on over a column rule at the blank on the rule', async () => {
    const md = (await parse(fixture('pdf-patterns', 'overrun.pdf'), {}, { filename: 'overrun.pdf' })).markdown;
    expect(md?.trim()).toBe(
      [
        '| Name | Address | City |',
        '| --- | --- | --- |',
        '| Roger J. | 4852 Emerson Ave. S. | Minneapolis |',
        '| Michael or Patricia | 1664 Van Buren Ave. | Saint Paul |',
        '| Margaret | 1267 Pike Lake Dr | New Brighton |',
      ].join('\n'),
    );
  });

  it('joins a cell wrapped at a hyphen as paragraphs do: a broken word loses it, compounds and names keep it', async () => {
    const md = (await parse(fixture('pdf-patterns', 'cell-hyphens.pdf'), {}, { filename: 'hyphens.pdf' })).markdown;
    expect(md?.trim()).toBe(
      [
        '| Item | Note | Filed |',
        '| --- | --- | --- |',
        '| Buses | Procurement by tender | 2011 |',
        '| Bells | Ding-dong chime | 2012 |',
        '| Gas | Non-methane share | 2013 |',
        '| Donkey | Hee-Haw call | 2014 |',
        '',
        'Notes as filed.',
      ].join('\n'),
    );
  });

  it('keeps a column heading that starts a line above the others in an unruled table', async () => {
    const md = (await parse(fixture('pdf-patterns', 'tall-heading.pdf'), {}, { filename: 'tall.pdf' })).markdown;
    expect(md?.trim()).toBe(
      [
        '# Table 1. Response rates by country',
        '',
        // Each line of an unruled table's heading is a row of its own, this one too.
        '|  |  |  | Combined |',
        '| --- | --- | --- | --- |',
        '| Country | Schools | Students | response rate |',
        '| Austria | 100 | 98 | 98 |',
        '| Bulgaria | 97 | 95 | 95 |',
        '| Croatia | 99 | 97 | 96 |',
        '| Denmark | 88 | 94 | 83 |',
        '',
        'Rates are weighted by enrolment.',
      ].join('\n'),
    );
  });

  it('keeps the clipped end of a value drawn over a column rule in its own cell, not the next one', async () => {
    const md = (await parse(fixture('pdf-patterns', 'clipped-words.pdf'), {}, { filename: 'clipped.pdf' })).markdown;
    expect(md?.trim()).toBe(
      [
        '| Name | Phone | City |',
        '| --- | --- | --- |',
        '| Margaret | 555 0199 | New Brighton |',
        '| Jean | 488 0155 | Saint Paul |',
        '| Ruby M. | 651 555 0123 | Saint Paul |',
      ].join('\n'),
    );
  });

  it('reads one row per line where a column is shaded row by row and rules only close groups of rows', async () => {
    const md = (await parse(fixture('pdf-patterns', 'shaded-rows.pdf'), {}, { filename: 'shaded.pdf' })).markdown;
    expect(md?.trim()).toBe(
      [
        '| Country | Replies | Researchers | d | Level |',
        '| --- | --- | --- | --- | --- |',
        '| Latvia | 7 | 8.002 | 0,370 |  |',
        // The level stands beside its group's middle row: one cell, where the text is.
        '| Malta | 18 | 975 | 0,229 | Low |',
        '| Iceland | 18 | 5.466 | 0,231 |  |',
        '| Cyprus | 45 | 2.102 | 0,145 |  |',
        '| Estonia | 46 | 7.600 | 0,144 | Medium |',
        '| Bulgaria | 52 | 17.400 | 0,136 |  |',
        '',
        'Levels follow the sampling error of each country.',
      ].join('\n'),
    );
  });

  it('joins Korean line ends that fall inside a word without a blank, and keeps the blank between words', async () => {
    const md = (await parse(fixture('pdf-patterns', 'korean.pdf'), {}, { filename: 'korean.pdf' })).markdown;
    expect(md?.trim()).toBe(
      '보험회사는 질병보험금을 먼저 지급하고 보험금은 약관에 따라 향후 지급 기준을 정한다 그래서 기준의 적용은 향후 분명해진다 새 기준을 따른다',
    );
  });

  it('reads text in a regular face as regular where its descriptor gives it the stem width of a bold one', async () => {
    const md = (await parse(fixture('pdf-patterns', 'stem-weights.pdf'), {}, { filename: 'stems.pdf' })).markdown;
    // Arial and Arial,Bold both described with StemV 139: the name says which face is bold.
    expect(md).toContain(
      '# Payments to physicians\n\nEach payment below was made in 2012. Totals are in US dollars.\n',
    );
    expect(md).toContain('\n| AALAEI, BEHZAD | HIGHLAND, IN | $51.24 |\n');
    // The totals are in Arial,Bold: bold in their cells, as in paragraphs.
    expect(md).toContain('\n| TOTAL |  | **$51.24** |\n');
  });

  it('reads a bar chart as lines of text, not as a table of its labels, values and axis marks', async () => {
    const md = (await parse(fixture('pdf-patterns', 'bar-chart.pdf'), {}, { filename: 'chart.pdf' })).markdown ?? '';
    expect(md).not.toContain('|');
    // The values are printed in bold, which pdf.js tells only with an operator list.
    const plain = md.replace(/\*\*/g, '');
    expect(plain).toContain(
      '\n\nWest (FR, GB, IE) 57\n\nNorth (DK, FI, IS, NO, SE) 49\n\nMiddle (AT, BE, DE, LU, NL) 43\n\n',
    );
    expect(plain).toContain('\n\n0 10 20 30 40 50 60 70 80 90 100\n\n');
  });

  it('joins a word too long for its cell, broken at the edge with no hyphen; a word wrapped at a blank stays two', async () => {
    const md = (await parse(fixture('pdf-patterns', 'broken-words.pdf'), {}, { filename: 'words.pdf' })).markdown;
    expect(md?.trim()).toBe(
      [
        '| Species | Kit | Sound |',
        '| --- | --- | --- |',
        '| Parastratiosphecomyiastratiosphecomyioides | Telecommunications equipment | bzzzzzzz |',
        '| Cat | Whiskers | Meow |',
        '| Dingdingdingdingeringeding | Bell | Ring |',
      ].join('\n'),
    );
  });

  it('reads two contents lists side by side as two tables, left first, a long entry with its page below', async () => {
    const md = (await parse(fixture('pdf-patterns', 'side-lists.pdf'), {}, { filename: 'lists.pdf' })).markdown;
    expect(md).toContain(
      [
        '| Main game | 6 |',
        '| --- | --- |',
        '| Creatures | 6 |',
        '| Abomination | 6 |',
        '| Arcane horror | 7 |',
        '| Bronto | 8 |',
        '| Items | 19 |',
        '',
        '| Magic and religion | 26 |',
        '| --- | --- |',
        '| Andruil, goddess of the hunt | 26 |',
        "| Falon'Din: Friend of the Dead, the Guide | 27 |",
        '| The Aeonar | 30 |',
        '| Apostates | 32 |',
      ].join('\n'),
    );
    expect(md).not.toContain('....');
  });

  it('reads contents entries with a leader of three dots or fewer, or none, as rows of their list', async () => {
    const md = (await parse(fixture('pdf-patterns', 'short-leaders.pdf'), withPages, { filename: 'short.pdf' }))
      .markdown;
    const [first, second] = pagesOf(md ?? '');
    expect(first?.trim()).toBe(
      [
        '# Contents',
        '',
        '| Bestiary | 6 |',
        '| --- | --- |',
        '| Creatures of the deep | 8 |',
        // '...' drawn as a run of its own, '. ', '...' ending the entry's run, then no leader at all.
        '| The History of the Chantry: Chapter 1 | 100 |',
        '| Legends of the old kingdom | 11 |',
        '| The History of the Chantry: Chapter 2 | 101 |',
        '| Materials for Working with Heartwood | 158 |',
        '| The Chant of Light: Verse of Exile | 104 |',
        '| Load Limit Reached - A confusing note | 117 |',
        // The entry's first line goes down with the line holding its leader and page.
        '| The History of the Chantry: Chapter 3 - The Imperium in flames | 53 |',
        '| Appendix | 120 |',
        '',
        // Ellipses in a paragraph under the list, and on a page without leaders, are prose.
        'The list was long... 3 entries were missing from it. We waited... and waited. Then the page count came: 12',
      ].join('\n'),
    );
    expect(second).not.toContain('|');
    expect(second).toContain('One moment... 1 Two moments... 2');
  });

  it('parts two contents lists side by side where a part heading of the right one nearly meets the left pages', async () => {
    const md = (await parse(fixture('pdf-patterns', 'close-lists.pdf'), withPages, { filename: 'close.pdf' })).markdown;
    const [first, second] = pagesOf(md ?? '');
    expect(first).toContain(
      [
        '| Armored Ogre | 143 |',
        '| --- | --- |',
        '| Blighted Werewolf | 143 |',
        '| Charred Sylvan | 144 |',
        '| The Children | 144 |',
        '| Inferno Golem | 145 |',
        '',
        "| WARDEN'S KEEP | 160 |",
        '| --- | --- |',
        '| The History of the Drydens | 160 |',
        '| Sophia Dryden | 161 |',
        '| THE STONE PRISONER | 164 |',
        '| Shale | 164 |',
      ].join('\n'),
    );
    // Entries of three words and more on both lists are entries, not prose; an entry over two lines
    // is one row, on one list or on both at once, and as the first of its list.
    expect(second?.trim()).toBe(
      [
        '| Vir Dirthara: Birds of Fancy | 288 |',
        '| --- | --- |',
        '| Vir Dirthara: A Hundred Years | 288 |',
        '| Vir Dirthara: Exile of the Forbidden Ones | 288 |',
        '| Vir Dirthara: Homecoming Song | 289 |',
        '| Vir Dirthara: Signs of Victory | 289 |',
        '| A Letter from the Palace | 290 |',
        '',
        '| The Very Private Diary of Sandal, DO NOT READ!!!! | 295 |',
        '| --- | --- |',
        '| Torn Notebook in the Deep Roads, Section 1 | 296 |',
        '| Wager Notes of the Guard | 298 |',
        '| Hard in Hightown: Chapter 10 | 300 |',
        '| Hard in Hightown: Chapter 11 | 301 |',
      ].join('\n'),
    );
  });

  it('keeps rows with a long description, and a long wrapped line of it, in an unruled table; a heading beside its column heads it', async () => {
    const md = (await parse(fixture('pdf-patterns', 'display-layout.pdf'), {}, { filename: 'display.pdf' })).markdown;
    expect(md?.trim()).toBe(
      [
        '# Command Code BMFOL Input Display',
        '',
        // 'LINE' stands left of the line numbers: one column, not a heading over nothing beside numbers
        // under nothing.
        '| LINE | POSITION | DESCRIPTION AND VALIDITY |',
        '| --- | --- | --- |',
        '| 1 | 01-05 | Command Code (required): BMFOL |',
        '| 1 | 06 | Command Definer Code (required): |',
        '|  |  | D = Deposit Schedule |',
        '|  |  | N = tax modules lacking a vestigial cross reference |',
        '|  |  | V = vestigial |',
        '| 1 | 07-29 | TIN, Display File Source Code, MFT, Tax Period, Plan |',
        '| 1 | 59-62 | Name Control |',
        '| 2 | 11-45 | Name Line |',
        '| 2 | 71-72 | Cycle of Latest Update |',
        '| 4 | 70-79 | Interest Computation Date |',
        '',
        'Use this format to obtain a display of the entity data of an account. The line numbers are for illustration only: variable fields are displayed only where the master file holds them.',
      ].join('\n'),
    );
  });

  // The heading row and last five rows of the display layout fixtures, as a table.
  const layoutTable = [
    '| LINE | POSITION | DESCRIPTION AND VALIDITY |',
    '| --- | --- | --- |',
    '| 1 | 07-29 | TIN, Display File Source Code, MFT, Tax Period, Plan |',
    '| 1 | 59-62 | Name Control |',
    '| 2 | 11-45 | Name Line |',
    '| 2 | 71-72 | Cycle of Latest Update |',
    '| 4 | 70-79 | Interest Computation Date |',
  ];

  it('takes a heading row set well above the rows as their header, a heading beside its column heading it', async () => {
    const md = (await parse(fixture('pdf-patterns', 'far-heading.pdf'), {}, { filename: 'far.pdf' })).markdown;
    expect(md?.trim()).toBe(['# Command Code BMFOL Adjustment Display', '', ...layoutTable].join('\n'));
  });

  it('takes a heading row four and a half line heights above the rows as their header', async () => {
    const md = (await parse(fixture('pdf-patterns', 'farther-heading.pdf'), {}, { filename: 'farther.pdf' })).markdown;
    expect(md?.trim()).toBe(['# Command Code BMFOL Return Form 941 Display', '', ...layoutTable].join('\n'));
  });

  it('keeps the end of a description begun on the page before in the table, under its heading row', async () => {
    const md = (await parse(fixture('pdf-patterns', 'continued-cell.pdf'), {}, { filename: 'continued.pdf' })).markdown;
    expect(md?.trim()).toBe(
      [
        '# Command Code BMFOL Entity Display',
        '',
        ...layoutTable.slice(0, 2),
        '|  |  | Year and month that the entity was established on the master file |',
        ...layoutTable.slice(2),
      ].join('\n'),
    );
  });

  it('keeps the wrapped end of a code line in its cell, each code line under a field a row of its own', async () => {
    const md = (await parse(fixture('pdf-patterns', 'wrapped-codes.pdf'), {}, { filename: 'codes.pdf' })).markdown;
    expect(md?.trim()).toBe(
      [
        '| LINE | POSITION | DESCRIPTION AND VALIDITY |',
        '| --- | --- | --- |',
        '| 8 | 44-92 | Master File Action Cycle |',
        '| 8 | 44-51 | IDRS Extraction Indicator |',
        '|  |  | 0 = Not under IDRS control |',
        '|  |  | 1 = Extracted for IDRS by selection criteria (normal extraction) |',
        '|  |  | 2 = Extracted by entity or tax module TC 902 |',
        '|  |  | 5 = bypass all primary and secondary SSN debts except Child Support |',
        '| 9 | 55-60 | Cycle of Latest Update |',
        '| 9 | 62-70 | Interest Computation Date |',
        '| 10 | 01-05 | Name Control |',
      ].join('\n'),
    );
  });

  it('reads a display of amounts whose descriptions mostly wrap as a table, not as lines', async () => {
    const md = (await parse(fixture('pdf-patterns', 'amount-lines.pdf'), {}, { filename: 'amounts.pdf' })).markdown;
    expect(md?.trim()).toBe(
      [
        '# Command Code BMFOL Return Form 941 Display',
        '',
        '| LINE | POSITION | DESCRIPTION AND VALIDITY |',
        '| --- | --- | --- |',
        '| 15 | 19-39 | The amount of the non-refundable credit for qualified sick and family leave |',
        '| 15 | 59-79 | The amount of the employee retention credit due to the COVID-19 crisis |',
        '| 16 | 19-39 | The amount of deferred credit for qualified paid sick and family leave wages |',
        '| 16 | 59-79 | The amount of refundable credits for sick and family leave allowed by COVID legislation |',
        '| 17 | 19-39 | The amount of the refundable employee retention credit due to the COVID-19 crisis |',
        '| 17 | 59-79 | The amount of advance payments reported from Form 7200 |',
        '| 24 | 21-23 | Current Page Number |',
        '| 24 | 48-50 | Next Page Number |',
      ].join('\n'),
    );
  });

  it('keeps a list of codes carried over from the page before in its table, under the repeated heading row', async () => {
    const md = (await parse(fixture('pdf-patterns', 'carried-codes.pdf'), {}, { filename: 'carried.pdf' })).markdown;
    expect(md?.trim()).toBe(
      [
        '# Command Code BMFOL Status History Display',
        '',
        '| LINE | POSITION | DESCRIPTION AND VALIDITY |',
        '| --- | --- | --- |',
        '|  |  | N = A TC 148 with entity indicator 7 has been input to identify a false refund claim case |',
        '|  |  | P = A TC 148 with entity indicator has been input to identify a non-filer account |',
        '|  |  | R = at least one TDI or TDA was closed in the past year |',
        '| 6 | 37-38 | Notice Number |',
        '| 6 | 40-60 | Notice Amount |',
        '| 6 | 62-63 | TDA Indicator |',
        '| 14 | 30-31 | Originator Code |',
      ].join('\n'),
    );
  });

  it('reads a heading row over one row of codes as a table, and bold labels over glosses as text', async () => {
    const md = (await parse(fixture('pdf-patterns', 'last-row.pdf'), {}, { filename: 'last-row.pdf' })).markdown;
    expect(md?.trim()).toBe(
      [
        '# Command Code BMFOL Return Form 1120 Display',
        '',
        '| LINE | POSITION | DESCRIPTION AND VALIDITY |',
        '| --- | --- | --- |',
        '| 24 | 48-50 | Next Page Number |',
        '',
        'The display ends here; the technologies it covers are drawn below.',
        '',
        '**Data Next AI Edge Computing**',
        '',
        '(DATA) (Next AI) (Edge)',
      ].join('\n'),
    );
  });

  it('keeps a list of codes set in under its row in the table, the rows after it too', async () => {
    const md = (await parse(fixture('pdf-patterns', 'indented-codes.pdf'), {}, { filename: 'codes.pdf' })).markdown;
    expect(md?.trim()).toBe(
      [
        'Command Codes BMFOL and BMFOR page 131',
        '',
        '| LINE | POSITION | DESCRIPTION AND VALIDITY |',
        '| --- | --- | --- |',
        '| 9 | 20-21 | Prior Subsection |',
        '| 9 | 36-46 | Activity Codes |',
        '| 10 | 21 | Affiliation |',
        '|  |  | 0 = not significant |',
        '|  |  | 1 = central organization, individual ruling |',
        '|  |  | 2 = intermediate organization |',
        '|  |  | 8 = parent organization of a church or 501(c)(1) |',
        '| 10 | 44-46 | Pension Plan |',
        '| 10 | 72-78 | Advance Ruling Expiration Date |',
      ].join('\n'),
    );
  });

  it('keeps a bold label set apart between two parts of a display as its row, a label over other columns a heading', async () => {
    const md = (await parse(fixture('pdf-patterns', 'part-label.pdf'), {}, { filename: 'label.pdf' })).markdown;
    expect(md?.trim()).toBe(
      [
        '# Command Code BMFOL Entity Display',
        '',
        '| LINE | POSITION | DESCRIPTION AND VALIDITY |',
        '| --- | --- | --- |',
        '| 1 | 01-05 | Command Code: BMFOL |',
        '| 1 | 59-62 | Name Control |',
        '| 3 | 76-80 | Offer in Compromise Indicator |',
        '|  |  | **TRANSACTION LINES** |',
        '| 5 | 01-03 | Transaction Code 000 |',
        '| 5 | 06-15 | Transaction Date |',
        '| 6 | 54-64 | Cross-Reference TIN |',
        '',
        '# RELATED FORMS',
        '',
        "| 941 | Employer's Quarterly Federal Tax Return | 2023 |",
        '| --- | --- | --- |',
        "| 943 | Employer's Annual Federal Tax Return | 2022 |",
        "| 944 | Employer's Annual Federal Tax Return | 2021 |",
      ].join('\n'),
    );
  });

  it('reads a heading row over nothing but a list carried from the page before as that table, not the page foot', async () => {
    const md = (await parse(fixture('pdf-patterns', 'carried-list.pdf'), {}, { filename: 'list.pdf' })).markdown ?? '';
    expect(md).toContain(
      [
        '# Command Code BMFOL Exempt Organization Display',
        '',
        '| LINE | POSITION | DESCRIPTION AND VALIDITY |',
        '| --- | --- | --- |',
        '|  |  | 02 = title holding company |',
        '|  |  | 03 = charitable organization |',
      ].join('\n'),
    );
    // The wrapped codes are one cell each; every code is a row of the table.
    expect(md).toContain(
      '|  |  | 12 = mutual insurance company or association, other than life or maritime |\n|  |  | 13 = corporation financing corp. operations |',
    );
    expect(md).toContain('|  |  | 14 = supplement unemployment compensation trust or plan |');
    expect(md.match(/^\| {2}\| {2}\| \d\d = /gm)).toHaveLength(32);
    expect(
      md
        .trim()
        .endsWith(
          '|  |  | 33 = title holding corporation |\n\nExhibit 2.3.59-34 Internal Revenue Manual Cat. No. 28171E (12-12-2022)',
        ),
    ).toBe(true);
  });

  it('reads a letterhead in bold over lines under its last part as a heading line and paragraphs, no table', async () => {
    const md = (await parse(fixture('pdf-patterns', 'letterhead.pdf'), {}, { filename: 'letter.pdf' })).markdown;
    expect(md?.trim()).toBe(
      [
        '**ACME Supplies Ltd 12 Harbour Road, Leith Tel 0131 555 0100**',
        '',
        'Invoice date: 3 May 2026 Invoice no: 1234 Customer no: 5678 Due date: 2 June 2026',
        '',
        'Dear customer, thank you for your order of garden tools placed last month with our branch in Leith. The goods were sent by courier on the date shown above and we trust they have reached you in good order. Please pay within thirty days of this invoice.',
      ].join('\n'),
    );
  });

  it.each(['titled-tables', 'close-titled-tables'])(
    'reads a bold title over a table with a bold heading row of its own as a heading between two tables (%s)',
    async (name) => {
      const md = (await parse(fixture('pdf-patterns', `${name}.pdf`), {}, { filename: 'tables.pdf' })).markdown;
      const table = (rows: string[][]) => [
        '| Region | Units | Sales | Cost |',
        '| --- | --- | --- | --- |',
        ...rows.map((r) => `| ${r.join(' | ')} |`),
      ];
      expect(md?.trim()).toBe(
        [
          '# Results for 2024',
          '',
          ...table([
            ['North', '120', '1,540.0', '980.5'],
            ['South', '95', '1,210.3', '760.2'],
            ['East', '210', '2,480.9', '1,530.4'],
          ]),
          '',
          '# Results for 2025',
          '',
          ...table([
            ['North', '130', '1,640.0', '990.5'],
            ['South', '85', '1,110.3', '660.2'],
            ['East', '220', '2,580.9', '1,630.4'],
          ]),
        ].join('\n'),
      );
    },
  );

  it('keeps the long lines flush with the description column under a lone row in its table', async () => {
    const md = (await parse(fixture('pdf-patterns', 'wide-wraps.pdf'), {}, { filename: 'wide.pdf' })).markdown;
    expect(md?.trim()).toBe(
      [
        '# Command Code BMFOL Entity Display',
        '',
        '| LINE | POSITION | DESCRIPTION AND VALIDITY |',
        '| --- | --- | --- |',
        '| 24 | 19-61 | End of Screen Message |',
        '|  |  | NO TRANSACTIONS ARE POSTED TO THIS ENTITY or |',
        '|  |  | END OF ENTITY MODULE |',
        '',
        'The entity display ends here; the tax module display follows on the next page.',
      ].join('\n'),
    );
  });

  it('reads heading lines in bold stacked over a table of letter codes as its header, column by column', async () => {
    const md = (await parse(fixture('pdf-patterns', 'bold-stack.pdf'), {}, { filename: 'stack.pdf' })).markdown;
    expect(md?.trim()).toBe(
      [
        '| Definer | Display File Source | MFT & Tax Per | Result |',
        '| --- | --- | --- | --- |',
        '| W | Y | Y | Quarterly F941 information. |',
        '| Z | Y | N | Audit history information |',
        '| # | N | Y | Refund Checks (up to 5) associated with a particular TIN/MFT/Tax Period. |',
        '',
        'Sometimes BMFOL cannot satisfy a request. In most cases a message screen is generated containing a message and explanation; a brief message is placed at the bottom of the index screen.',
      ].join('\n'),
    );
  });

  it('leaves a page footer that recurs on the other pages out of the table that runs down to it', async () => {
    const md = (await parse(fixture('pdf-patterns', 'footer-rows.pdf'), withPages, { filename: 'footer.pdf' }))
      .markdown;
    const pages = pagesOf(md ?? '');
    expect(pages).toHaveLength(4);
    const rows = ['01-03', '06-15', '17-22', '25-41'].map(
      (position, k) =>
        `| ${position} | ${['Transaction Code 148', 'Transaction Date', 'Transaction Cycle', 'Transaction DLN'][k]} |`,
    );
    const last = pages[3]?.trim().split('\n') ?? [];
    expect(last.slice(0, 5)).toEqual([
      '# Command Code BMFOL Entity Display',
      '',
      '| LINE | POSITION | DESCRIPTION AND VALIDITY |',
      '| --- | --- | --- |',
      `| 19 ${rows[0]}`,
    ]);
    // The last row is the table's own; the footer's parts made no column of their own.
    expect(last.slice(-2)).toEqual([`| 28 ${rows[3]}`, `| 29 ${rows[0]}`]);
    expect(last).toHaveLength(45);
    expect(md).not.toMatch(/Internal Revenue Manual|Cat\. No\.|Exhibit/);
  });

  it('takes the heading row of a display layout as its header when the running foot under the rows bridges its columns', async () => {
    const md = (await parse(fixture('pdf-patterns', 'footer-headings.pdf'), withPages, { filename: 'foot.pdf' }))
      .markdown;
    const pages = pagesOf(md ?? '');
    expect(pages).toHaveLength(5);
    const codes = 'Transaction Code 610, 611, 612, 640, 641, 642, 650, 651, 652';
    // p. 4: the heading row on the rows' pitch; p. 5: three line heights above them.
    for (const [page, second] of [
      [3, 'Transaction Date'],
      [4, 'Cross-Reference MFT'],
    ] as const) {
      const lines = pages[page]?.trim().split('\n') ?? [];
      expect(lines.slice(2, 6)).toEqual([
        '| LINE | POSITION | DESCRIPTION AND VALIDITY |',
        '| --- | --- | --- |',
        `| 5 | 01-03 | ${codes} |`,
        `| 5 | 06-15 | ${second} |`,
      ]);
      expect(lines.at(-1)).toBe(`| 15 | 01-03 | ${codes} |`);
      expect(lines).toHaveLength(45);
    }
    expect(md).not.toMatch(/Internal Revenue Manual|Cat\. No\.|Exhibit/);
  });

  it('builds the row under a running head dropped from a table as its header, in Markdown and HTML', async () => {
    const bytes = fixture('pdf-patterns', 'head-rows.pdf');
    const options = { formats: ['markdown' as const, 'html' as const], ...withPages };
    const result = await parse(bytes, options, { filename: 'head.pdf' });
    const last = pagesOf(result.markdown ?? '')[3]?.trim();
    expect(last).toBe(
      [
        '| Part | Bin | Site | Stock |',
        '| --- | --- | --- | --- |',
        '| A-100 | B4 | North | 120 |',
        '| B-220 | C1 | South | 75 |',
        '| C-310 | A7 | North | 300 |',
        '| D-415 | D2 | East | 42 |',
      ].join('\n'),
    );
    expect(result.html).toContain(
      '<table><thead><tr><th>Part</th><th>Bin</th><th>Site</th><th>Stock</th></tr></thead><tbody><tr><td>A-100</td>',
    );
    expect(result.markdown).not.toMatch(/Stock report|Warehouse 4/);
  });

  it('keeps a first row of names in title case in the table of names and addresses under it', async () => {
    const md = (await parse(fixture('pdf-patterns', 'name-grid.pdf'), {}, { filename: 'names.pdf' })).markdown;
    expect(md?.trim()).toBe(
      [
        '# Visit your local Cancer Council website',
        '',
        '| Cancer Council ACT | Cancer Council Queensland | Cancer Council Victoria |',
        '| --- | --- | --- |',
        '| actcancer.org | cancerqld.org.au | cancervic.org.au |',
        '| **Cancer Council NSW** | **Cancer Council SA** | **Cancer Council WA** |',
        '| cancercouncil.com.au | cancersa.org.au | cancerwa.asn.au |',
        '| **Cancer Council NT** | **Cancer Council Tasmania** | **Cancer Council Australia** |',
        '| nt.cancer.org.au | cancertas.org.au | cancer.org.au |',
        '',
        'This booklet is funded through the generosity of the people of Australia.',
      ].join('\n'),
    );
  });

  it('takes group headings alone on their line into the table, spanning their groups', async () => {
    const md = (await parse(fixture('pdf-patterns', 'lone-group-headings.pdf'), withPages, { filename: 'lone.pdf' }))
      .markdown;
    const pages = pagesOf(md ?? '');
    const body = [
      '| Method | NQ | WQ | TREC | NQ | WQ | TREC |',
      '| BM25 | 59.1 | 66.9 | 55.0 | 73.7 | 76.7 | 71.1 |',
      '| DPR | 78.4 | 79.4 | 73.2 | 85.4 | 85.0 | 81.4 |',
      '| Both | 76.6 | 79.8 | 71.0 | 83.8 | 84.5 | 80.5 |',
    ];
    const rule = '| --- | --- | --- | --- | --- | --- | --- |';
    const pair = `|  | ${['Top-20', 'Top-100'].flatMap((h) => [h, h, h]).join(' | ')} |`;
    expect(pages[0]).toContain(['# Retrieval accuracy', '', pair, rule, ...body].join('\n'));
    expect(pages[1]).toContain(['# Accuracy without rules', '', pair, rule, ...body].join('\n'));
    // One heading over all six columns of figures, parted from the labels by a wider gap.
    const all = `|  | ${new Array(6).fill('Top-20 accuracy').join(' | ')} |`;
    expect(pages[2]).toContain(['# Accuracy in all', '', all, rule, ...body].join('\n'));
    const html = (await parse(fixture('pdf-patterns', 'lone-group-headings.pdf'), { formats: ['html'] })).html;
    expect(html).toContain('<thead><tr><th></th><th colspan="6">Top-20 accuracy</th></tr></thead>');
  });

  it('reads two columns of figures, five rows or more, as a table; three rows stay lines', async () => {
    const md = (await parse(fixture('pdf-patterns', 'figure-grid.pdf'), {}, { filename: 'grid.pdf' })).markdown;
    const values = [200.01, 400.01, 600.01, 800.01, 1000.01, 1200.01, 1400.01, 1600.01];
    const rows = values.map((v, k) => `| ${v.toFixed(2)} | ${2 * k + 1} |`);
    expect(md?.trim()).toBe([rows[0], '| --- | --- |', ...rows.slice(1), '', '3 7', '', '4 9', '', '5 11'].join('\n'));
  });

  it('reads a side menu beside running prose as two columns of text, not as a table of shared lines', async () => {
    const md = (await parse(fixture('pdf-patterns', 'side-menu.pdf'), {}, { filename: 'menu.pdf' })).markdown;
    expect(md?.trim()).toBe(
      [
        '# Net-zero carbon',
        '',
        'We aim to reach net-zero emissions across all of our operations and our value chain by 2030',
        '',
        ...sideMenuRead,
      ].join('\n'),
    );
  });

  it('keeps a side menu set in the prose size out of the prose beside it, its last entry ending in a small letter', async () => {
    const md = (await parse(fixture('pdf-patterns', 'menu-column.pdf'), {}, { filename: 'menu.pdf' })).markdown;
    expect(md?.trim()).toBe(['# Net-zero carbon', '', ...sideMenuRead].join('\n'));
  });

  it('reads right-to-left notes set flush right at a page foot as one flat list, the shorter note not nested', async () => {
    const md = (await parse(fixture('pdf-patterns', 'rtl-notes.pdf'), {}, { filename: 'notes.pdf' })).markdown;
    expect(md?.trim()).toBe(rtlNotesRead.join('\n'));
  });

  it('reads left-to-right lines after right-to-left notes as their own list and paragraph, not levels or continuations of the notes', async () => {
    const md = (await parse(fixture('pdf-patterns', 'mixed-notes.pdf'), withPages, { filename: 'mixed.pdf' })).markdown;
    const [list, source] = pagesOf(md ?? '');
    expect(list?.trim()).toBe(
      [
        ...rtlNotesRead,
        '',
        '1. The first English note on the figures.',
        '2. The second English note on the figures.',
      ].join('\n'),
    );
    expect(source?.trim()).toBe(
      [
        'ההוצאה לצריכה פרטית לנפש עלתה בשנה האחרונה',
        '',
        '1. ההוצאה לצריכה פרטית ועוד ההוצאה על שירותים אישיים.',
        '2. סך כל ההוצאה לצריכה פרטית וציבורית.',
        '',
        'Source: Central Bureau of Statistics, 2024.',
      ].join('\n'),
    );
  });

  it('drops a running head set in ruled boxes on every page, as a running head in plain lines', async () => {
    const md = (await parse(fixture('pdf-patterns', 'boxed-heads.pdf'), withPages, { filename: 'boxed.pdf' })).markdown;
    const growth =
      'The year brought steady growth in every region we serve, and our teams opened two new offices to meet the rising demand.';
    const [first, second, third] = pagesOf(md ?? '');
    expect(first?.trim()).toBe(
      [
        growth,
        '',
        '| Region | Office | Staff |',
        '| --- | --- | --- |',
        '| North | Leeds | 120 |',
        '| South | Bristol | 95 |',
        '| East | Norwich | 40 |',
      ].join('\n'),
    );
    expect(second?.trim()).toBe([growth, '', growth].join('\n'));
    expect(third?.trim()).toBe([growth, '', growth].join('\n'));
  });

  it('joins captions wrapped side by side under key figures into one row; single words and a name over its address stay rows', async () => {
    const md = (await parse(fixture('pdf-patterns', 'callouts.pdf'), {}, { filename: 'callouts.pdf' })).markdown;
    expect(md?.trim()).toBe(
      [
        '# Operations in the east',
        '',
        'We are investing to grow in the region, on land and offshore.',
        '',
        '| 2.5 | 1st | ~70% |',
        '| --- | --- | --- |',
        '| **kilograms per barrel** | **woman** | **electricity** |',
        '| carbon intensity from our eastern operations in the year 2022 | offshore platform engineer in the region was employed by our operations in 2020 | production in the country is powered by our two fields as of 2022 |',
        '',
        // Single words under single words, set as close, are rows of a dense table.
        '| Feature | Basic | Team |',
        '| --- | --- | --- |',
        '| Seats | 1 | 25 |',
        '| backups | yes | yes |',
        '| support | no | yes |',
        '| audit | no | yes |',
        '',
        '| Council North | Council South | Council West |',
        '| --- | --- | --- |',
        '| councilnorth.org | councilsouth.org | councilwest.org |',
        '| **Council East** | **Council Islands** | **Council Central** |',
        '| councileast.org | islands.council.org | council.org |',
      ].join('\n'),
    );
  });

  it('reads a designed contents page (page numbers before titles, banners between lists) as text; numbered ranks stay a table', async () => {
    const md = (await parse(fixture('pdf-patterns', 'designed-contents.pdf'), withPages, { filename: 'toc.pdf' }))
      .markdown;
    const [contents, ranks] = pagesOf(md ?? '');
    expect(tablesOf(contents ?? '')).toEqual([]);
    // Each list read whole, in order, the left one first; the banners between them lines of their own.
    const left = ['2', '4', '6', '8', '14', '16', '18', '20'];
    const right = ['150', '152', '155', '162', '166', '168', '176', '188', '194'];
    const plain = (contents ?? '').replace(/\*\*/g, '');
    let at = 0;
    for (const page of [...left, ...right]) {
      const next = plain.indexOf(`${page} `, at);
      expect(next, `entry ${page} after the one before`).toBeGreaterThanOrEqual(at);
      at = next;
    }
    for (const banner of ['RETAIL', 'PG 54', 'DIGITAL', 'PG 72'])
      expect(plain).toMatch(new RegExp(`^(?:#+ )?${banner}$`, 'm'));
    expect(ranks?.trim()).toBe(
      [
        '## Ranks by index',
        '',
        '| 1 Norway | 0.957 | 82.4 |',
        '| --- | --- | --- |',
        '| 2 Ireland | 0.955 | 82.3 |',
        '| 3 Switzerland | 0.955 | 83.8 |',
        '| 4 Hong Kong | 0.949 | 84.9 |',
        '| 5 Iceland | 0.949 | 83.0 |',
      ].join('\n'),
    );
  });

  it('leaves out of a table the first line of a paragraph beside its last row, which runs on under it', async () => {
    const md = (await parse(fixture('pdf-patterns', 'quote-beside.pdf'), {}, { filename: 'fleet.pdf' })).markdown;
    expect(md?.trim()).toBe(
      [
        '# Our fleet',
        '',
        'We will keep every vessel in service for as long as it runs safely and cleanly, and replace each one with a ship that burns less fuel on every voyage it makes.',
        '',
        '| Vessel | Built | Tonnage |',
        '| --- | --- | --- |',
        '| Aurora | 2009 | 61,200 |',
        '| Boreas | 2012 | 58,900 |',
        '| Calypso | 2015 | 63,400 |',
        '| Dione | 2019 | 64,100 |',
      ].join('\n'),
    );
  });

  it("keeps a group's label a row of its own and its indented items in the label column", async () => {
    const md = (await parse(fixture('pdf-patterns', 'group-items.pdf'), {}, { filename: 'group.pdf' })).markdown;
    expect(md?.trim()).toBe(
      [
        '# Estimate totals',
        '',
        '|  | Hours | Rate | Cost |',
        '| --- | --- | --- | --- |',
        '| Parts |  |  | 2,100 |',
        '| Body Labor | 2 | 150 | 300 |',
        '| Paint Labor | 1.5 | 150 | 225 |',
        '| Mechanical Labor | - | - | - |',
        // Set tight under a full row, the label heads the indented rows below it: no wrapped line.
        '| Supplies |  |  |  |',
        '| Paint Supplies |  |  | 60 |',
        // Past the middle of the gap before the hours, short of them: still the label column's.
        '| Body and frame kits |  |  | 30 |',
        '| Other Charges |  |  | 15 |',
        '| Subtotal |  |  | 2,730 |',
        // Text that runs on under the hours is theirs, by its middle.
        '| Note | Minor rear bumper repair |  |  |',
        '',
        'All prices include labour.',
      ].join('\n'),
    );
  });

  it('reads organisations with leaders to web addresses as a list of two columns, and two such lists side by side as two', async () => {
    const md = (await parse(fixture('pdf-patterns', 'websites.pdf'), withPages, { filename: 'sites.pdf' })).markdown;
    const [first, second] = pagesOf(md ?? '');
    expect(first?.trim()).toBe(
      [
        '# Useful websites',
        '',
        'The websites listed below are good sources of information.',
        '',
        // Dots drawn apart, dots inside the label's run, or no dots at all (a tab drawn as no text).
        '| Cancer Council Australia | cancer.org.au |',
        '| --- | --- |',
        '| Cancer Australia | canceraustralia.gov.au |',
        '| Carers Australia | carersaustralia.com.au |',
        '| Department of Health | health.gov.au |',
        '| Australasian Lymphology Association | lymphoedema.org.au |',
        '| beyondblue | beyondblue.org.au |',
        '| CanTeen | canteen.org.au |',
        '| My Parents Cancer | myparentscancer.com.au |',
        '',
        // Dots in a sentence lead to words, no value: prose.
        'Some sites ask you to wait.... then load the page again.',
      ].join('\n'),
    );
    expect(second?.trim()).toBe(
      [
        '| Cancer Council | cancer.org.au |',
        '| --- | --- |',
        '| Cancer Australia | australia.gov.au |',
        '| Health | health.gov.au |',
        '| beyondblue | beyondblue.org.au |',
        '| CanTeen | canteen.org.au |',
        '',
        '| Cancer Research UK | research.org |',
        '| --- | --- |',
        '| Macmillan | macmillan.org.uk |',
        '| Cancer Institute | cancer.gov |',
        '| Breast Cancer Care | care.org.uk |',
        '| American Society | cancer.org |',
      ].join('\n'),
    );
  });

  it('keeps the links of table cells, ruled and unruled, as prose keeps its own: Markdown, HTML and the links list', async () => {
    const bytes = fixture('pdf-patterns', 'linked-cells.pdf');
    const r = await parse(bytes, { formats: ['markdown', 'html', 'links'] }, { filename: 'help.pdf' });
    const site = (host: string, href = `https://${host}/`) => `[${host}](${href})`;
    expect(r.markdown?.trim()).toBe(
      [
        '# Where to get help',
        '',
        '| Service | Contact | Website |',
        '| --- | --- | --- |',
        `| Cancer Council | 13 11 20 | ${site('cancer.org.au', 'https://www.cancer.org.au/')} |`,
        `| Quit | [Quitline](https://www.quit.org.au/line) 13 78 48 | ${site('quit.org.au', 'https://www.quit.org.au/')} |`,
        // One link over an address wrapped in its cell: one link, the address whole.
        `| Carers | 1800 242 636 | ${site('www.carersaustralia.com.au/support', 'https://www.carersaustralia.com.au/support')} |`,
        '',
        '| Topic | Page | Online |',
        '| --- | --- | --- |',
        `| Diet | 12 | ${site('nutrition.org.au')} |`,
        `| Exercise | 18 | ${site('exercise.org.au')} |`,
        `| Sleep | 24 | ${site('sleep.org.au')} |`,
        '',
        'Every service is free.',
      ].join('\n'),
    );
    expect(r.html).toContain('<td><a href="https://www.cancer.org.au/">cancer.org.au</a></td>');
    expect(r.links).toEqual([
      'https://www.cancer.org.au/',
      'https://www.quit.org.au/line',
      'https://www.quit.org.au/',
      'https://www.carersaustralia.com.au/support',
      'https://nutrition.org.au/',
      'https://exercise.org.au/',
      'https://sleep.org.au/',
    ]);
    // Fast mode reads no annotations: the same cells, as plain text.
    const fast = await parse(bytes, { parsers: [{ type: 'pdf', mode: 'fast' }] }, { filename: 'help.pdf' });
    expect(fast.markdown).toContain('| Carers | 1800 242 636 | www.carersaustralia.com.au/support |');
    expect(fast.markdown).not.toContain('](');
  });

  it('spans an unruled heading over the group of columns it is centred over or runs across, repeated in Markdown, a colspan in HTML; a sentence spans nothing', async () => {
    const result = await parse(
      fixture('pdf-patterns', 'group-headings.pdf'),
      { formats: ['markdown', 'html'], parsers: [{ type: 'pdf', pageMarkers: true }] },
      { filename: 'groups.pdf' },
    );
    const pages = pagesOf(result.markdown ?? '');
    const groups = [
      '| Method | Top-20 | Top-20 | Top-20 | Top-100 | Top-100 | Top-100 |',
      '| --- | --- | --- | --- | --- | --- | --- |',
      '|  | NQ | WQ | TREC | NQ | WQ | TREC |',
      '| BM25 | 59.1 | 66.9 | 55.0 | 73.7 | 76.7 | 71.1 |',
    ].join('\n');
    // A rule parts the groups (first page), or a gap wider than those inside them (second).
    expect(pages[0]).toContain(`# Retrieval accuracy\n\n${groups}\n`);
    expect(pages[1]).toContain(`# Accuracy without rules\n\n${groups}\n`);
    const marks = 'Marks in each subject (per cent)';
    expect(pages[2]).toContain(
      [
        `| Class | ${marks} | ${marks} | ${marks} |  |  |`,
        '| --- | --- | --- | --- | --- | --- |',
        '|  | Reading | Writing | Maths | Total | Rank |',
      ].join('\n'),
    );
    // Sentences in the rows above the body are prose taken into the table: each stays one cell.
    const checks = pages[3] ?? '';
    for (const sentence of ['Check the seals before the shift.', 'Then test the pump twice.'])
      expect(checks.split(sentence).length - 1).toBe(1);
    expect(checks).toContain('| Early | 61 | 58 | 70 | 189 | 1 |');
    const html = result.html ?? '';
    expect(html.split('<th colspan="3">Top-20</th><th colspan="3">Top-100</th>').length - 1).toBe(2);
    expect(html).toContain(`<th colspan="3">${marks}</th>`);
  });

  it('reads a table of contents as entries and pages: leaders end the entries, whatever their indent', async () => {
    const md = (await parse(fixture('pdf-patterns', 'contents.pdf'), withPages, { filename: 'contents.pdf' })).markdown;
    const [first, second] = pagesOf(md ?? '');
    // The chapters are set in bold: pdf.js tells the fonts' weights only with a page's operator
    // list, fetched for a document's first pages to name their fonts.
    const bold = (t: string) => `**${t}**`;
    expect(first?.trim()).toBe(
      [
        '# Contents',
        '',
        '| Preface | v |',
        '| --- | --- |',
        `| ${bold('Chapter 1. Getting started')} | 1 |`,
        '| 1.1 Installing the tools | 2 |',
        // The leader's last dots drawn with the page (". . 4") are the leader's.
        '| 1.2 First steps | 4 |',
        `| ${bold('Chapter 2. Reference')} | 7 |`,
        '| 2.1 Options of the command line | 8 |',
        '| 2.2 Limits | 12 |',
        '',
        'Each chapter opens with a summary of its sections.',
      ].join('\n'),
    );
    // A list down most of the page, each leader drawn apart from its entry (its first dot apart
    // again): the leaders join the entries and the pages into one column of the page, and the
    // first dot is the leader's, not the entry's.
    const topics = ['Cells', 'Tissues', 'Organs', 'Blood', 'Bones', 'Muscles', 'Nerves', 'Skin', 'Lungs', 'Heart'];
    const rows = topics.map((t, r) => `| ${t} explained | ${4 + r * 3} |`);
    expect(second?.trim().startsWith(['# Topics', '', rows[0], '| --- | --- |', ...rows.slice(1)].join('\n'))).toBe(
      true,
    );
    expect(second).toContain('| Ageing explained | 73 |');
  });

  // ZapfDingbats codes read as the pictures they show (pdf.js's text layer gives the codes' letters,
  // "l", "q", "4"), each a word of its own beside a label set flush against it.
  it.each(['auto', 'fast'] as const)(
    'sets a pictograph flush against its label apart from it (%s mode)',
    async (mode) => {
      const options = { parsers: [{ type: 'pdf' as const, mode }] };
      const md = (await parse(fixture('pdf-patterns', 'pictographs.pdf'), options, { filename: 'pictographs.pdf' }))
        .markdown;
      expect(md?.trim()).toBe(
        [
          '# Services offered',
          '',
          '|  | State funded | CSOs |',
          '| --- | --- | --- |',
          '| ● Children | ❑ | ❑ |',
          '| ● Women | ❑ | ❑ |',
          '| ● The elderly | ❑ | ❑ |',
          '| ● Migrants | ❑ | ❑ |',
          '',
          // The tick set apart is the line's bullet.
          '- Tick every service the provider offers.',
        ].join('\n'),
      );
    },
  );

  it('reads a table drawn sideways on an upright page (its text turned, no /Rotate) upright, ruled or not', async () => {
    const md = (await parse(fixture('pdf-patterns', 'sideways-tables.pdf'), withPages, { filename: 'side.pdf' }))
      .markdown;
    const pages = pagesOf(md ?? '');
    expect(pages).toHaveLength(4);
    // Clockwise (read top to bottom) and anticlockwise (bottom to top), ruled, then unruled.
    for (const [i, month] of ['March', 'April', 'May', 'June'].entries()) {
      expect(pages[i]?.trim()).toBe(
        [
          `# Reservoir levels at the end of ${month}`,
          '',
          ...reservoirTable,
          '',
          'Levels are shares of full capacity.',
        ].join('\n'),
      );
    }
  });

  it('reads tables ruled with thin filled boxes, or drawn only as cell backgrounds with white gaps', async () => {
    const md = (await parse(fixture('pdf-patterns', 'filled-rules.pdf'), withPages, { filename: 'fills.pdf' }))
      .markdown;
    const [ferries, library] = pagesOf(md ?? '');
    expect(ferries?.trim()).toBe(
      [
        '# Morning ferries',
        '',
        '| Route | Departs | Arrives | Fare |',
        '| --- | --- | --- | --- |',
        '| Oban - Craignure | 07:45 | 08:31 | 4.10 |',
        '| Ullapool - Stornoway | 09:30 | 12:15 | 10.35 |',
        '| Mallaig - Armadale | 10:10 | 10:40 | 3.20 |',
        '| Largs - Cumbrae | 11:00 | 11:10 | 2.90 |',
        '',
        'Fares are for foot passengers, in pounds.',
      ].join('\n'),
    );
    expect(library?.trim()).toBe(
      [
        '# Library opening hours',
        '',
        '| Branch | Weekdays | Saturday | Sunday |',
        '| --- | --- | --- | --- |',
        '| Central | 08:00 - 20:00 | 09:00 - 17:00 | 11:00 - 16:00 |',
        '| Harbour Road | 09:00 - 18:00 | 09:00 - 13:00 | closed |',
        '| Hillside | 10:00 - 18:00 | 10:00 - 16:00 | closed |',
        '| Station Square | 08:30 - 19:00 | 09:00 - 17:00 | 12:00 - 16:00 |',
        '',
        'All branches close on public holidays.',
      ].join('\n'),
    );
  });

  it('spans ruled cells over the rows and columns their rules leave open; a grouped heading makes a header of two rows', async () => {
    const result = await parse(
      fixture('pdf-patterns', 'spans.pdf'),
      { formats: ['markdown', 'html'] },
      { filename: 'spans.pdf' },
    );
    // Markdown repeats a spanning cell in every slot it covers; the sub-headings are headings, not bold text.
    expect(result.markdown?.trim()).toBe(
      [
        '# Course timetable',
        '',
        '| Day | Time | Session | Session |',
        '| --- | --- | --- | --- |',
        '| Day | Time | Room | Course |',
        '| Monday | 09:00 | A12 | Algebra |',
        '| Monday | 11:00 | B03 | Statistics |',
        '| Monday | 14:00 | A12 | Geometry |',
        '| Tuesday | 09:00 | C21 | Physics |',
        '| Tuesday | 13:00 | Lab 2 | Chemistry practical |',
        '| Wednesday | Open day: no classes | Open day: no classes | Open day: no classes |',
        '',
        'Rooms may change at short notice.',
      ].join('\n'),
    );
    expect(result.html).toContain(
      [
        '<table><thead>',
        '<tr><th rowspan="2">Day</th><th rowspan="2">Time</th><th colspan="2">Session</th></tr>',
        '<tr><th>Room</th><th>Course</th></tr></thead><tbody>',
        '<tr><td rowspan="3">Monday</td><td>09:00</td><td>A12</td><td>Algebra</td></tr>',
        '<tr><td>11:00</td><td>B03</td><td>Statistics</td></tr>',
        '<tr><td>14:00</td><td>A12</td><td>Geometry</td></tr>',
        '<tr><td rowspan="2">Tuesday</td><td>09:00</td><td>C21</td><td>Physics</td></tr>',
        '<tr><td>13:00</td><td>Lab 2</td><td>Chemistry practical</td></tr>',
        '<tr><td>Wednesday</td><td colspan="3">Open day: no classes</td></tr>',
        '</tbody></table>',
      ].join(''),
    );
  });

  it("joins a ruled table's last row, printed alone at the top of the next page, to the table; keeps two stacked tables apart", async () => {
    const md = (await parse(fixture('pdf-patterns', 'page-breaks.pdf'), withPages, { filename: 'breaks.pdf' }))
      .markdown;
    const pages = pagesOf(md ?? '');
    expect(pages).toHaveLength(3);
    expect(pages[0]?.trim()).toBe(
      [
        '# Stock at the end of the year',
        '',
        'Counts were taken on the last working day.',
        '',
        '| Item | Warehouse | Units |',
        '| --- | --- | --- |',
        '| Copper pipe | Leeds | 1,240 |',
        '| Brass valve | Derby | 385 |',
        '| Steel bracket | Leeds | 2,010 |',
        '| Rubber seal | Hull | 7,450 |',
        // Printed on the next page, in a ruled row of its own.
        '| Zinc washer | Derby | 12,600 |',
      ].join('\n'),
    );
    expect(pages[1]?.trim()).toBe('Units are single pieces, not boxes.');
    expect(pages[2]?.trim()).toBe(
      [
        '# Park survey',
        '',
        '| Tree | Planted | Height (m) |',
        '| --- | --- | --- |',
        '| Oak | 1921 | 24.5 |',
        '| Beech | 1948 | 19.0 |',
        '| Rowan | 1990 | 8.2 |',
        '',
        'The survey also counted the birds that nested in the park this spring.',
        '',
        '| Bird | Nests | Fledged |',
        '| --- | --- | --- |',
        '| Blue tit | 14 | 96 |',
        '| Nuthatch | 3 | 17 |',
        '| Wren | 6 | 31 |',
        '',
        'Counts are for the whole park.',
      ].join('\n'),
    );
  });

  it("reads a ruled right-to-left Arabic table: columns as printed, each cell's words in reading order", async () => {
    const md = (await parse(fixture('pdf-patterns', 'arabic-table.pdf'), {}, { filename: 'arabic.pdf' })).markdown;
    expect(md?.trim()).toBe(
      [
        'مدن عربية كبرى',
        '',
        '| المساحة | عدد السكان | المدينة |',
        '| --- | --- | --- |',
        '| 3,085 | 10,100,000 | القاهرة |',
        '| 1,973 | 7,600,000 | الرياض |',
        '| 1,680 | 4,100,000 | عمان |',
        '| 212 | 1,100,000 | تونس |',
        '',
        'المساحة بالكيلومتر المربع',
      ].join('\n'),
    );
  });

  it('keeps upright text set beside a table drawn sideways: the table read upright, the text as text', async () => {
    const md = (await parse(fixture('pdf-patterns', 'sideways-beside.pdf'), withPages, { filename: 'beside.pdf' }))
      .markdown;
    const pages = pagesOf(md ?? '');
    expect(pages).toHaveLength(2);
    // The page's text is the table's (most of it is turned): the text turned against it, a heading
    // and a paragraph, follows it, read in its own upright frame.
    for (const [i, month] of ['July', 'August'].entries()) {
      expect(pages[i]?.trim()).toBe(
        [
          `# Reservoir levels at the end of ${month}`,
          '',
          ...reservoirTable,
          '',
          'Levels are shares of full capacity.',
          '',
          `# Water supply in ${month}`,
          '',
          'Reservoirs were fuller than last year in every region, after a wet winter and spring.',
        ].join('\n'),
      );
    }
  });

  it('reads upright text set above a sideways table (as the table reads) before the table', async () => {
    const md = (await parse(fixture('pdf-patterns', 'sideways-above.pdf'), {}, { filename: 'above.pdf' })).markdown;
    // The heading and paragraph stand on the sheet's right, the table's top as it reads: first.
    expect(md?.trim()).toBe(
      [
        '# Water supply in September',
        '',
        'Reservoirs were fuller than last year in every region, after a wet winter and spring.',
        '',
        '# Reservoir levels at the end of September',
        '',
        ...reservoirTable,
        '',
        'Levels are shares of full capacity.',
      ].join('\n'),
    );
  });

  it('places text turned against the page where it stands on the page, not where its upright frame has it', async () => {
    const { tree } = await parseTree(fixture('pdf-patterns', 'sideways-beside.pdf'), {}, { filename: 'beside.pdf' });
    const page = tree.children[0] as Extract<Block, { type: 'section' }>;
    const boxOf = (b: Block | undefined) => b?.source?.bbox as [number, number, number, number];
    const [heading, table, , turnedHeading, turnedParagraph] = page.children;
    expect(table?.type).toBe('table');
    expect(turnedHeading?.type === 'heading' && blockText(turnedHeading)).toBe('Water supply in July');
    // Set upright on the portrait sheet, the heading runs up the page the table reads across: a
    // tall, narrow box, clear of the table's heading and of the table.
    for (const b of [turnedHeading, turnedParagraph]) {
      const [x0, y0, x1, y1] = boxOf(b);
      expect(y1 - y0).toBeGreaterThan(2 * (x1 - x0));
      for (const other of [heading, table]) {
        const [ox0, oy0, ox1, oy1] = boxOf(other);
        expect(x1 <= ox0 || ox1 <= x0 || y1 <= oy0 || oy1 <= y0).toBe(true);
      }
    }
  });

  it('reads vertical headings in ruled header cells upright: each in its column, its lines and runs in order', async () => {
    const md = (await parse(fixture('pdf-patterns', 'vertical-header.pdf'), withPages, { filename: 'vh.pdf' }))
      .markdown;
    const pages = pagesOf(md ?? '');
    expect(pages).toHaveLength(2);
    // Turned anticlockwise (read bottom to top), then clockwise (top to bottom); "Mean wind" over
    // "speed (km/h)" is one heading on two turned lines, "Frost days" two runs on one.
    for (const [i, month] of ['July', 'August'].entries()) {
      expect(pages[i]?.trim()).toBe(
        [
          `# Weather stations in ${month}`,
          '',
          '| Station | Rainfall (mm) | Sunshine hours | Frost days | Mean wind speed (km/h) |',
          '| --- | --- | --- | --- | --- |',
          '| Aberdeen | 64.2 | 142 | 6 | 16.1 |',
          '| Cardiff | 98.5 | 165 | 3 | 17.4 |',
          '| Plymouth | 87.0 | 178 | 2 | 19.8 |',
          '| Norwich | 51.3 | 160 | 8 | 14.2 |',
          '',
          'Figures are monthly totals and means.',
        ].join('\n'),
      );
    }
  });

  it('keeps a footnote mark (smaller, raised) in its cell after its word or figure, raised', async () => {
    const md = (await parse(fixture('pdf-patterns', 'superscripts.pdf'), {}, { filename: 'superscripts.pdf' }))
      .markdown;
    expect(md).toContain(
      [
        '# Table 4. Hospital beds and admissions by region',
        '',
        '| Region | Beds¹ | Admissions² | Stay (days) | Occupancyᵃ |',
        '| --- | --- | --- | --- | --- |',
        // A mark with no superscript form stays as it is.
        '| North\\* | 1,240 | 18,532 | 5.2 | 81.4 |',
        // A mark after a figure set flush right hangs past the column's edge: still the figure's,
        // and raised, or it would read as the figure's last digit.
        '| South | 980 | 15,110² | 4.8 | 77.9 |',
        '| East | 1,105 | 16,870 | 6.1ᵃ | 84.0 |',
        '| West¹ | 760 | 11,245 | 5.5 | 72.3 |',
        '| Total | 4,085 | 61,757 | 5.4 | 79.7 |',
        '',
      ].join('\n'),
    );
  });

  it('reads a wide table whose narrow columns have headings wrapped over three lines: a heading to a column', async () => {
    const md = (await parse(fixture('pdf-patterns', 'health-table.pdf'), {}, { filename: 'health.pdf' })).markdown;
    expect(md?.trim()).toBe(
      [
        '# Table 12. Selected health indicators by region, 2022',
        '',
        // The headings' lines run into one another across the columns ("births per deaths per
        // expectancy"): each line is parted at the columns of the figures under it.
        '| Region | Population (thousands) | Live births per 1,000 | Infant deaths per 1,000 births | Life expectancy (years) | Physicians per 10,000 | Hospital beds per 10,000 | Uninsured (%) | Obesity rate (%) | Smokers (%) |',
        '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
        '| Northern Coastal Region | 4,812 | 11.8 | 5.9 | 76.4 | 24.1 | 31.2 | 9.8 | 33.5 | 17.2 |',
        '| Central Highlands District | 1,207 | 12.6 | 6.8 | 75.1 | 18.7 | 28.4 | 12.4 | 35.9 | 19.8 |',
        '| Lake Country | 952 | 10.9 | 4.7 | 78.2 | 27.5 | 26.9 | 7.1 | 29.4 | 14.6 |',
        '| Eastern Plains and Valleys | 2,634 | 13.4 | 7.2 | 74.8 | 16.9 | 34.7 | 14.9 | 38.2 | 21.3 |',
        '| Capital Territory | 689 | 14.1 | 5.1 | 79.6 | 41.8 | 44.3 | 5.6 | 24.7 | 12.1 |',
        '| Southern Islands (estimated) | 118 | 15.7 | 8.4 | 73.2 | 12.3 | 19.5 | 18.2 | 40.1 | 23.9 |',
        '| All regions | 10,412 | 12.5 | 6.3 | 76.2 | 23.0 | 31.4 | 10.9 | 33.8 | 17.9 |',
        '',
        'Source: Regional health statistics office, annual survey.',
      ].join('\n'),
    );
  });

  it('reads two unruled tables one above the other as two, their titles and source notes as text', async () => {
    const md = (await parse(fixture('pdf-patterns', 'stacked-tables.pdf'), withPages, { filename: 'stacked.pdf' }))
      .markdown;
    const arrests = [
      '| Offense charged | 2010 | 2011 | Change (%) |',
      '| --- | --- | --- | --- |',
      '| Burglary | 289.8 | 281.2 | -3.0 |',
      '| Larceny and theft | 1,271.4 | 1,264.9 | -0.5 |',
      '| Motor vehicle theft | 61.9 | 58.3 | -5.8 |',
      '| Vandalism | 231.5 | 222.1 | -4.1 |',
      '| Fraud | 187.9 | 168.6 | -10.3 |',
    ];
    const juvenile = [
      '| Region | Total | Under 15 | 15 to 17 | Female |',
      '| --- | --- | --- | --- | --- |',
      '| Northeast | 214.7 | 61.2 | 153.5 | 62.8 |',
      '| Midwest | 301.2 | 88.9 | 212.3 | 91.4 |',
      '| South | 498.6 | 142.0 | 356.6 | 140.2 |',
      '| West | 356.1 | 97.4 | 258.7 | 101.9 |',
    ];
    const [first, second] = pagesOf(md ?? '');
    expect(first?.trim()).toBe(
      [
        '# Table 324. Arrests by offense charged: 2010 and 2011',
        '',
        '\\[In thousands. Estimates for the whole country]',
        '',
        ...arrests,
        '',
        'Source: Bureau of Justice Figures, Crime in the Country, annual.',
        '',
        '# Table 325. Juvenile arrests by region: 2011',
        '',
        '\\[In thousands. Persons under 18 years of age]',
        '',
        ...juvenile,
        '',
        'Source: Same as Table 324.',
      ].join('\n'),
    );
    // Set tight: each note at the rows' pitch under its table, the next title two rows under it.
    expect(second?.trim()).toBe(
      [
        '# Table 326. Arrests in cities by offense charged: 2010 and 2011',
        '',
        '\\[In thousands. Arrests reported by city police]',
        '',
        ...arrests,
        '',
        'Source: Bureau of Justice Figures, Crime in the Country, 2014 edition.',
        '',
        '# Table 327. Juvenile arrests by region: 2013',
        '',
        '\\[Persons under 18 years of age, in thousands]',
        '',
        ...juvenile,
        '',
        'Source: Same as Table 326.',
      ].join('\n'),
    );
  });

  it('keeps flush-left text beside flush-right figures of any width in their columns, and empty cells empty', async () => {
    const md = (await parse(fixture('pdf-patterns', 'inner-outer.pdf'), withPages, { filename: 'inner.pdf' })).markdown;
    const [first, second] = pagesOf(md ?? '');
    expect(first?.trim()).toBe(
      [
        '# Suppliers by value of orders',
        '',
        '| Supplier | Sector | Orders | Value | Country | Rating |',
        '| --- | --- | --- | --- | --- | --- |',
        // The value ends 8 points short of the country's start on the longest figures.
        '| Aldana Textiles | Clothing | 7 | 1,204,330.50 | Spain | A |',
        '| Birchwood Timber Co | Construction | 1,482 | 96.20 | Canada |  |',
        '| Corvo | Food | 38 | 18,009.00 | Portugal | B |',
        '| Delamere Instruments Ltd | Electronics | 12,904 | 2,310,877.15 | Ireland | A |',
        '| Estrada |  | 256 | 4.75 | Mexico | C |',
        '| Fjordline Marine | Shipping | 3 | 870,112.40 | Norway |  |',
        '',
        'Values are in euros; ratings from the last audit.',
      ].join('\n'),
    );
    expect(second?.trim()).toBe(
      [
        '# Towns of the three municipalities',
        '',
        '| Municipality | Town | Code | Population | Altitude |',
        '| --- | --- | --- | --- | --- |',
        '| San Felipe | San Felipe | 0001 | 28,112 | 2,140 |',
        '|  | El Carmen |  | 1,206 |  |',
        '|  | La Estancia | 0014 | 412 |  |',
        '|  | Ojo de Agua |  | 95 | 2,310 |',
        '| Villa Hidalgo | Villa Hidalgo | 0001 | 9,870 | 1,880 |',
        '|  | Los Pinos |  |  | 1,905 |',
        '|  | Santa Rita | 0023 | 1,044 |  |',
        '| Tepetlan | Tepetlan | 0001 | 4,515 |  |',
        '',
        'Codes and altitudes are given where the survey recorded them.',
      ].join('\n'),
    );
  });

  it('keeps words set in a slanted font, in a list and in a table', async () => {
    // PDFium gave a sheared run an angle (atan2(c, a) of its matrix, 12 degrees) and it was dropped
    // as text set askew; the baseline is level.
    const md = (await parse(fixture('pdf-patterns', 'slanted-text.pdf'), {}, { filename: 'slanted.pdf' })).markdown;
    expect(md?.trim()).toBe(
      [
        '# Helpful resources',
        '',
        '- Caring for a Carer - a booklet from the council.',
        '- When the Nights Are Long - a podcast for carers.',
        '',
        '| Title | Kind | Pages |',
        '| --- | --- | --- |',
        '| Caring for a Carer | booklet | 48 |',
        '| Eating Well | fact sheet | 6 |',
        '| Living with Loss | booklet | 64 |',
        '| Moving Again | poster | 1 |',
        '',
        'Ask at the front desk for a printed copy.',
      ].join('\n'),
    );
  });

  it('reads captions set at a tilt where they stand, each run a line, in the order drawn', async () => {
    // Off every quarter turn (20 degrees), the runs were dropped on both backends. pdf.js tells no
    // bold of turned runs: the words are the subject, not their weight.
    const md = (await parse(fixture('pdf-patterns', 'askew-text.pdf'), {}, { filename: 'askew.pdf' })).markdown;
    expect(md?.trim().replaceAll('**', '')).toBe(
      [
        '# Arm exercises',
        '',
        'Start slowly, on the advice of your treatment team.',
        '',
        'Shoulder rolls Lift your shoulders slowly and roll them backwards.',
        '',
        'Repeat each exercise ten times a day.',
      ].join('\n'),
    );
  });

  it('leaves a watermark stamped across each page at 45 degrees out of the text', async () => {
    // Read as tilted text, CONFIDENTIAL (60 pt, one word) became the page's heading; a stamp is no
    // passage. The body lines differ between the pages, so none is furniture.
    const md = (await parse(fixture('pdf-patterns', 'askew-watermark.pdf'), withPages, { filename: 'wm.pdf' }))
      .markdown;
    const [first, second] = pagesOf(md ?? '');
    expect(first?.trim()).toBe(
      [
        'The committee met on Tuesday to review the budget for the coming year and agreed that the figures for travel and training should be revised before the plan goes to the board for approval.',
        '',
        'The next meeting will be held in the spring.',
      ].join('\n'),
    );
    expect(second?.trim()).toBe(
      [
        'The board approved the revised plan at its meeting in March and asked the committee to report on travel and training costs each quarter, starting with the figures for the first quarter.',
        '',
        'The report is due at the end of June.',
      ].join('\n'),
    );
  });

  it('leaves a stamp tilted at body size at the same place on every page out, and reads a caption tilted on one page', async () => {
    // Two lines of several words at body size make a passage on any one page: the stamp was read
    // into every page's text. Tilted the same way at the same place on all three pages (two points
    // further right on the third), it is furniture; the captions tilted on page 2 alone stay read.
    const md = (await parse(fixture('pdf-patterns', 'askew-stamp.pdf'), withPages, { filename: 'stamp.pdf' })).markdown;
    const pages = pagesOf(md ?? '').map((p) => p.trim().replaceAll('**', ''));
    expect(pages).toEqual([
      ['The survey of the river banks began in April.', 'Two teams walked the east bank each week.'].join(' '),
      [
        'The second team mapped the old mill race. Its walls had fallen in at three places.',
        '',
        'The mill race in June seen from the footbridge',
      ].join('\n'),
      'The report goes to the council in the autumn. Comments are welcome until then.',
    ]);
  });

  it('reads captions tilted on one page of three where they stand', async () => {
    const md = (await parse(fixture('pdf-patterns', 'askew-once.pdf'), withPages, { filename: 'once.pdf' })).markdown;
    expect(pagesOf(md ?? '').map((p) => p.trim().replaceAll('**', ''))).toEqual([
      'The survey of the river banks began in April.',
      [
        'The second team mapped the old mill race.',
        '',
        'The mill race in June seen from the footbridge',
        '',
        'Its walls had fallen in at three places.',
      ].join('\n'),
      'The report goes to the council in the autumn.',
    ]);
  });

  it('judges tilted captions against the size that reached the most characters first on a tie', async () => {
    // The page's 12 characters at 20 pt tie with its 7 + 5 at 6 pt; the title reached 12 first, so
    // 14 pt captions are a passage at body size. Taking the size met first (6 pt) dropped them.
    const md = (await parse(fixture('pdf-patterns', 'askew-tie.pdf'), {}, { filename: 'tie.pdf' })).markdown;
    expect(md?.trim().replace(/^#+ /gm, '').replaceAll('**', '')).toBe(
      ['Sheet 2', '', 'River Survey', '', 'Draft', '', 'the east bank in April walked by two teams'].join('\n'),
    );
  });

  it('reads captions tilted steeply (70 degrees) word by word, as they are set', async () => {
    // PDFium's runs were measured along x and judged on one line by y centres: a steep run broke
    // into pieces with stray spaces ('W ar m u p') and the passage fell below its word count.
    const md = (await parse(fixture('pdf-patterns', 'askew-steep.pdf'), {}, { filename: 'steep.pdf' })).markdown;
    expect(md?.trim().replaceAll('**', '')).toBe(
      [
        'Start slowly, on the advice of your treatment team.',
        '',
        '# Warm up with arm swings',
        '',
        'Swing both arms forward and back ten times.',
        '',
        'Repeat each exercise ten times a day.',
      ].join('\n'),
    );
  });

  it('reads a table whose rows stand far apart as one, and an upward group name beside rows as their stub', async () => {
    const md = (await parse(fixture('pdf-patterns', 'loose-tables.pdf'), withPages, { filename: 'loose.pdf' }))
      .markdown;
    const [first, second, third] = pagesOf(md ?? '');
    // Three line heights between rows, header included: the rows' even pitch makes them one table.
    expect(first?.trim()).toBe(
      [
        '# Schedule of fees',
        '',
        '| Service | Unit | Price | Tax |',
        '| --- | --- | --- | --- |',
        '| Site survey | visit | 180.00 | 21% |',
        '| Foundation design | project | 2,450.00 | 21% |',
        '| Structural check | floor | 640.00 | 21% |',
        '| Permit filing | application | 95.00 | 0% |',
        '| Final inspection | visit | 210.00 | 21% |',
        '',
        'Fees are charged when the work is done.',
      ].join('\n'),
    );
    // The group's name set upward beside the rows is their stub: a cell spanning the rows it runs
    // beside (repeated in each in Markdown, as ruled spans are; one cell with rowspan in HTML).
    expect(second?.trim()).toBe(
      [
        '# Schools by district',
        '',
        '|  | District | Schools | Pupils | Teachers |',
        '| --- | --- | --- | --- | --- |',
        ...[
          '| Aldenmoor | 14 | 3,912 | 241 |',
          '| Brightwater | 9 | 2,208 | 150 |',
          '| Colton Vale | 21 | 6,075 | 388 |',
          '| Dunmere | 6 | 1,334 | 97 |',
          '| Eastbrook | 11 | 2,870 | 176 |',
        ].map((row) => `| **North Province** ${row}`),
        '',
        'Counts are taken on the first school day of the year.',
      ].join('\n'),
    );
    // A margin stamp set upward, running far above and below the table, names none of its rows.
    expect(third).toContain(
      [
        '| Model | Dev | Test | Params |',
        '| --- | --- | --- | --- |',
        '| Base | 71.2 | 70.4 | 110M |',
        '| Large | 74.9 | 73.1 | 340M |',
        '| Ours | 76.3 | 75.0 | 120M |',
        '| Ours+ | 77.8 | 76.2 | 125M |',
      ].join('\n'),
    );
    expect(third).not.toContain('| arXiv');
    const html = (await parse(fixture('pdf-patterns', 'loose-tables.pdf'), { formats: ['html'] })).html ?? '';
    expect(html).toContain('<tr><td rowspan="5"><strong>North Province</strong></td><td>Aldenmoor</td>');
  });
});

/** The spanned-grid fixture's table, as read once its rulings are fetched: the row labels in bold, as printed. */
const spannedGrid = [
  '| Status | Description | Therapy response |',
  '| --- | --- | --- |',
  '| **ER+** | Cancer cells with oestrogen receptors are called oestrogen receptor positive. | A cancer that is ER+ or PR+ is more likely to respond to hormone therapy (see pages 46-49). |',
  '| **PR+** | Cancer cells with progesterone receptors are called progesterone receptor positive. | A cancer that is ER+ or PR+ is more likely to respond to hormone therapy (see pages 46-49). |',
  '| **ER- and/or PR-** | Cells without hormone receptors are called hormone receptor negative. | Hormone receptor negative breast cancer does not respond to hormone therapy. |',
].join('\n');

// PDFium's rulings are cheap, so pages whose lines break into two runs fetch them too and take a
// plain ruled grid found that way; pdf.js fetches them only where lines break into three runs or
// more, and reads this page from its text alone (issue 29's report says what is left of that).
describe('pdf table classes on fixtures (pdfium)', () => {
  const { parse } = engineFor('pdfium');

  it('reads a ruled grid of cells wrapped over several lines, one spanning two rows, a row per row', async () => {
    const md = (await parse(fixture('pdf-patterns', 'spanned-grid.pdf'), {}, { filename: 'grid.pdf' })).markdown;
    expect(md?.trim()).toBe(`Hormone receptor status\n\n${spannedGrid}`);
  });
});

interface Case {
  id: string;
  pdf: string;
  page: number;
  expected: string[][];
}
/** Cells compared as the table metrics do, blanks left by dropped symbols ("Black &White") collapsed. */
const key = (s: string): string => cellKey(s).replace(/\s+/g, ' ');
const tablesIn = (md: string): string[][][] => tablesOf(md).map((t) => t.map((r) => r.map(key)));
const manifest = (): Case[] => (JSON.parse(corpusText('tables', 'manifest.json')) as { cases: Case[] }).cases;
/** A case's expected cells; `asPrinted` first mends what tabula writes its own way. */
const expectedOf = (id: string, asPrinted: (cell: string) => string = (cell) => cell): string[][] => {
  const c = manifest().find((x) => x.id === id);
  if (!c) throw new Error(`no case ${id} in the tables manifest`);
  return c.expected.map((r) => r.map((cell) => key(asPrinted(cell))));
};
const corpusTitle = `pdf table classes on ../shared/corpus/tables (${hasCorpus ? 'present' : corpusSkipReason})`;

describe.skipIf(!hasCorpus)(corpusTitle, () => {
  const { parse } = engineFor('pdfium');
  const markdownWith = async (options: ParseOptions, path: string[]) =>
    (await parse(corpusFile(...path), options, { filename: path[path.length - 1] as string })).markdown ?? '';
  /** Markdown of a corpus PDF (`path` under the corpus, its last part the file's name), default options. */
  const markdownOf = (...path: string[]) => markdownWith({}, path);
  /** Markdown of a long corpus PDF's first `pages` pages, without the contract's deadline. */
  const firstPagesOf = (pages: number, ...path: string[]) =>
    markdownWith({ ...NO_DEADLINE, parsers: [{ type: 'pdf', maxPages: pages }] }, path);
  const read = (name: string) => markdownOf('tables', 'pdfs', name);

  it('reads the /Rotate 90 award list top-down, each row and each cell in order', async () => {
    const tables = tablesIn(await read('Publication_of_award_of_Bids_for_Transport_Sector__August_2016.pdf'));
    const expected = expectedOf('tabula/award_of_bids_transport');
    // The table goes on over the next pages (their repeated header dropped): its first rows are page 1's.
    expect(tables[0]?.slice(0, expected.length)).toEqual(expected);
  });

  it('reads the two side-by-side tables ruled between rows (AnimalSounds1) as two, left first', async () => {
    const tables = tablesIn(await read('AnimalSounds1.pdf'));
    expect(tables).toHaveLength(2);
    const [left, right] = tables;
    // tabula keeps a cell's lines as printed ("Ring-" / "dingdingdingd", "Hee-" / "Haw"); the rest
    // is cell for cell. A line-end hyphen runs on into the next line's word, as in paragraphs, and
    // so does a line-end slash, where tabula puts a blank ("Bow-wow/" / "ruff-ruff"), and a word
    // broken at the cell's edge with no hyphen ("Parastratiosph" / "ecomyiastratio" / …).
    const noFox = (rows: string[][]) => rows.filter((r) => r[0] !== 'fox' && r[0] !== 'donkey');
    const slashes = (cell: string) => cell.replace(/\/\s+/g, '/');
    const broken = (cell: string) => cell.replace(/\r(?=\p{Ll})/gu, '');
    expect(noFox(left ?? [])).toEqual(noFox(expectedOf('tabula/AnimalSounds1-left', broken)));
    expect(left?.[2]?.[0]).toBe('parastratiosphecomyiastratiosphecomyioides');
    expect(noFox(right ?? [])).toEqual(noFox(expectedOf('tabula/AnimalSounds1-right', slashes).slice(1)));
    expect(left?.[3]).toEqual([
      'fox',
      'says',
      'ring-dingdingdingdingeringeding gering-dingdingdingdingeringeding gering-dingdingdingdingeringeding',
    ]);
    expect(right?.[3]).toEqual(['fox', 'says', 'wa-pa-pa-pa-pa-pa-pow wa-pa-pa-pa-pa-pow wa-pa-pa-pa-pa-pa-pow']);
    expect(right).toContainEqual(['donkey', 'says', 'hee-haw hee-haw']);
  });

  it('reads tables ruled only between row groups, with group labels and wrapped row labels (eu-002)', async () => {
    const tables = tablesIn(await read('eu-002.pdf'));
    const expected = expectedOf('tabula/eu-002');
    const t5 = tables.find((t) => t.some((r) => r[0] === expected[3]?.[0]));
    // tabula splits the wrapped headings into a row per line; the data rows are the same.
    expect(t5?.slice(-5)).toEqual(expected.slice(-5));
    expect(t5?.[1]).toEqual(['', 'preperation and planing', 'production of materials', 'presentation and evaluation']);
    const t6 = tables.find((t) => t.some((r) => r[0] === 'impacts on participating teachers'));
    expect(t6).toContainEqual(['impacts on participating teachers', '', '', '']);
    expect(t6).toContainEqual([
      'knowledgeappreciation of school system and education in the partner countries',
      '-0,1505',
      '-0,1636',
      '-0,1349',
    ]);
  });

  it('reads the bar chart of eu-002 as lines, not as a table of its labels, values and axis marks', async () => {
    const md = await read('eu-002.pdf');
    expect(md).toContain(
      '\n\nEU-25/EFTA: West (FR, GB, IE) **57**\n\nEU-25/EFTA: North (DK, FI, IS, NO, SE) **49**\n\n',
    );
    expect(md).toContain('\n\n0 10 20 30 40 50 60 70 80 90 100\n\n');
    expect(tablesIn(md).some((t) => t.some((r) => r[0]?.startsWith('eu-25')))).toBe(false);
  });

  it('reads the tables drawn as tiles with their four columns, not twelve, wrapped labels in one row (eu-001)', async () => {
    const tables = tablesIn(await read('eu-001.pdf'));
    const expected = expectedOf('tabula/eu-001-guess');
    for (const t of tables.slice(0, 4)) expect(t.every((r) => r.length === 4)).toBe(true);
    // tabula's guess runs the page's three tables into one; the first one's rows are as printed.
    expect(tables[0]?.slice(1)).toEqual([['', 'to air', 'to water', 'to land'], ...expected.slice(2, 9)]);
    // A label wrapped over two boxes beside one box of figures is one row, its figures once.
    const gases = tables[1] ?? [];
    expect(gases).toContainEqual(['chlorine and inorganic compounds as hcl', '10 000', '-', '-']);
    expect(gases).toContainEqual(['non-methane volatile organic compounds nmvoc', '100 000', '-', '-']);
    expect(gases.filter((r) => r[1] === '10 000')).toHaveLength(2);
  });

  it('keeps word ends clipped at a column rule in their cell (schools: "Dean, College of Design" | "UMN")', async () => {
    const tables = tablesIn(await read('schools.pdf'));
    const rows = tables.flat();
    const row = (name: string) => rows.find((r) => r[0] === name);
    expect(row('fisher')?.slice(6, 8)).toEqual(['dean, college of design', 'umn']);
    expect(row('hunt')?.slice(2, 4)).toEqual(['1840 university ave w apt 314', 'saint paul']);
    expect(row('seppanen')?.slice(6, 8)).toEqual(['architecturereal estat', 'seppanen group, inc.']);
    expect(rows.some((r) => r.some((c) => /^(?:numn|4saint|ysel|tseppanen|sspps)/.test(c)))).toBe(false);
  });

  it('reads the us-020 participation table with its heading from its first line ("Combined")', async () => {
    const tables = tablesIn(await read('us-020.pdf'));
    const expected = expectedOf('tabula/us-020');
    const table = tables.find((t) => t.some((r) => r[0] === 'australia'));
    expect(table?.slice(0, expected.length)).toEqual(expected);
  });

  it('reads the accuracy table of eu-017 (level column shaded per row, groups ruled) one country a row', async () => {
    const tables = tablesIn(await read('eu-017.pdf'));
    const accuracy = tables.find((t) => t.some((r) => r[0] === 'latvia'));
    expect(accuracy?.slice(1, 4)).toEqual([
      ['country', 'valid replies per country', 'number of researchers per country 1', 'd 2', 'accuracy level'],
      ['latvia', '7', '8.002', '0,37027', ''],
      ['malta', '18', '975', '0,22896', ''],
    ]);
    const names = accuracy?.map((r) => r[0]) ?? [];
    expect(names.filter((n) => n === 'latvia' || n === 'slovenia' || n === 'switzerland')).toHaveLength(3);
    expect(accuracy).toContainEqual(['iceland', '18', '5.466', '0,23063', 'low']);
    expect(accuracy).toContainEqual(['germany', '667', '664.731', '0,03793', '']);
  });

  it('reads the Hebrew indicators table (indictb1h_14) as one table, labels and years in it', async () => {
    const md = await read('indictb1h_14.pdf');
    const [table] = tablesIn(md);
    // tabula spreads the labels over three columns by their indent; cell for cell and in order, the
    // rows are the same (blanks aside: tabula reads "בתי מגורים:סך הכל" without the space). tabula
    // gives the brackets of "(ללא יהלומים)" as the glyphs drawn, which read backwards: ")ללא יהלומים(".
    const filled = (rows: string[][]) => rows.map((r) => r.filter(Boolean).map((c) => c.replace(/ /g, '')));
    const asMeant = (cell: string) => cell.replace(')ללא יהלומים(', '(ללא יהלומים)');
    expect(filled(table ?? [])).toEqual(filled(expectedOf('tabula/indictb1h_14', asMeant)));
    expect(table?.[0]).toEqual(['2014', '2013', '2012', '2011', '2010', '2009', '']);
    expect(md).toContain('| תעשייה (ללא יהלומים) |');
    // The footer's comma, drawn against the Hebrew, follows it: before the date, not after.
    expect(md).toMatch(/^אינדיקטורים עיקריים להתפתחות המשק, 31\.12\.14$/m);
    // The two notes under the table, set flush right, are one flat list.
    expect(md).toContain(
      '\n1. ההוצאה לצריכה פרטית ועוד ההוצאה על שירותים אישיים שמומנה ע"י הממשלה.\n2. סך כל ההוצאה לצריכה פרטית וציבורית.\n',
    );
  });

  it('reads the Persian form of right_to_left_03 label first, each wrapped label whole (docling pdf)', async () => {
    const md = await markdownOf('docling', 'pdf', 'sources', 'right_to_left_03.pdf');
    const paragraphs = md.split('\n\n').map((p) => p.replace(/\*\*/g, ''));
    const after = (label: string) => paragraphs[paragraphs.indexOf(label) + 1];
    expect(after('آيا توليدکننده محصول، استاندارد مذکور را اخذ نموده است؟')).toBe('بلی خير');
    expect(after('نحوة تعيين قيمت پايه پس از پذيرش کالا در بورس')).toBe('بر اساس قيمت های جهانی');
    expect(after('حداقل درصد عرضه از توليد/ کل فروش/ فروش داخلی')).toBe('حداقل %50 از توليد ساليانه يا 47.500 تن');
    expect(after('خطای مجاز تحويل')).toBe('5% آخرين محموله قابل تحويل');
    expect(after('تاريخ پذيرش')).toBe('1403/10/04');
  });

  it('reads the customer block of the booking (markitdown movie-theater) as labels and values', async () => {
    const name = 'movie-theater-booking-2024.pdf';
    const md = (await parse(corpusFile('markitdown', name), {}, { filename: name })).markdown;
    const table = tablesIn(md ?? '').find((t) => t[0]?.[0] === 'name' && t.length === 5);
    expect(table).toEqual([
      ['name', 'universal studios distribution'],
      ['category', 'film distributor'],
      ['contact email', 'bookingsuniversalstudios.com'],
      ['customer id', 'cust-98765'],
      ['revenue code', 'film-premium'],
    ]);
  });

  it('reads the sections of the booking as tables of their own columns (markitdown movie-theater)', async () => {
    const name = 'movie-theater-booking-2024.pdf';
    const tables = tablesIn(await markdownOf('markitdown', name));
    expect(tables).toContainEqual([
      ['month', 'shows', 'gross amount', 'net amount', 'occupancy'],
      ['december 2024', '48', '$12,500.00', '$11,250.00', '85%'],
      ['totals', '48', '$12,500.00', '$11,250.00', '85%'],
    ]);
    const schedule = tables.find((t) => t[0]?.[0] === 'ln');
    expect(schedule?.[0]).toEqual([
      'ln',
      'screen',
      'start',
      'end',
      'movie title',
      'format',
      'showtime',
      'days',
      'shows',
      'rate',
      'type',
      'total',
    ]);
    expect(schedule?.[1]).toEqual([
      '1',
      'scr-1',
      '122024',
      '122524',
      'holiday spectacular',
      'imax 3d',
      '700 pm',
      'daily',
      '12',
      '$250',
      'pm',
      '$3,000',
    ]);
    // The next section's title and rows are not the schedule's; its last title's second line is.
    expect(schedule?.flat()).not.toContain('show details');
    expect(schedule?.flat()).toContain('runtime 116 min premium experience');
  });

  it('keeps the first figure column of a paper table apart from its long labels (pdfbench multi-column)', async () => {
    const md = (await parse(corpusFile('pdfbench', 'unstructured_pdf_multi-column.pdf'), {}, { filename: 'mc.pdf' }))
      .markdown;
    const rows = tablesIn(md ?? '').flat();
    expect(rows).toContainEqual(['natural questions', '79,168', '58,880', '8,757', '3,610']);
    expect(rows).toContainEqual(['squad', '78,713', '70,096', '8,886', '10,570']);
  });

  it('spans the headings Top-20 and Top-100 of Table 2 over their five columns each (pdfbench multi-column)', async () => {
    const md = await markdownOf('pdfbench', 'unstructured_pdf_multi-column.pdf');
    const top = (t: string) => Array(5).fill(t).join(' | ');
    expect(md).toContain(`\n| Training | Retriever | ${top('Top-20')} | ${top('Top-100')} |\n| --- |`);
    expect(md).toContain('\n|  |  | NQ | TriviaQA | WQ | TREC | SQuAD | NQ | TriviaQA | WQ | TREC | SQuAD |\n');
  });

  it('cuts names that run over the column rule into the address (schools)', async () => {
    const rows = tablesIn(await read('schools.pdf')).flat();
    const expected = expectedOf('tabula/schools');
    // tabula's first column is empty: the rows are its other ten cells.
    for (const name of ['banks', 'bennett', 'causey', 'cohen']) {
      const want = expected.find((r) => r[1] === name)?.slice(1);
      expect(rows.find((r) => r[0] === name)).toEqual(want);
    }
  });

  it('joins the Korean words broken at line ends (docling normal_4pages)', async () => {
    const name = 'normal_4pages.pdf';
    const md = await markdownOf('docling', 'pdf', 'sources', name);
    for (const w of ['보험금의 경우', '향후 유사', '기준을 정립함에', '돌입하였다고']) expect(md).toContain(w);
    for (const w of ['보 험금', '향 후', '기준 을', '돌 입하였다고']) expect(md).not.toContain(w);
    // Words that meet at a line end keep their blank.
    expect(md).toContain('여부에 대하여 약관');
  });

  it('reads the contents page of redp5110 as a table of entries and pages (docling redp5110_sampled)', async () => {
    const name = 'redp5110_sampled.pdf';
    const md = await markdownOf('docling', 'pdf', 'sources', name);
    const toc = tablesIn(md).find((t) => t[0]?.[0] === 'notices');
    expect(toc).toHaveLength(43);
    // Leader tails drawn with the page (". . vii"), pages split over two runs ("x" "iii"), entries
    // indented by level, and a long entry whose leader is a few dots: each one row of two cells.
    for (const row of [
      ['notices', 'vii'],
      ['trademarks', 'viii'],
      ['comments welcome', 'xiii'],
      ['chapter 1. securing and protecting ibm db2 data', '1'],
      ['1.3.1 existing row and column control', '4'],
      ['2.1.7 verifying function usage ids for rcac with the function usage view', '10'],
      ['3.6.8 demonstrating data access with a view and rcac', '32'],
    ])
      expect(toc).toContainEqual(row);
    expect(md).not.toContain('. . . . .');
  });

  it('reads the contents pages of a booklet as tables, each leader drawn apart (pdfbench failure-after-repair)', async () => {
    const name = 'unstructured_pdf_failure-after-repair.pdf';
    const md = await markdownOf('pdfbench', name);
    // Entries, the first dot of each leader, the rest of it and the page are four runs each.
    // The chapters are printed in bold, entries and pages: bold in their cells but in the first row.
    expect(md).toContain(
      '\n| What is cancer? | 4 |\n| --- | --- |\n| **The breasts** | **6** |\n| **Key questions** | **8** |\n',
    );
    expect(md).toContain('\n| Which health professionals will I see? | 21 |\n');
    expect(md).toContain('\n| Chemotherapy | 39 |\n| --- | --- |\n| Radiotherapy | 42 |\n');
    expect(md).toContain('\n| **How you can help** | **72** |\n');
    expect(md).not.toContain('What is cancer?.');
    expect(md).not.toMatch(/^(?:#+ )?(?:Diagnosis|Surgery|Glossary)\.*\s*\d+$/m);
  });

  it('reads the useful websites of the booklet as lists of organisations and addresses, each a link (pdfbench failure-after-repair pp. 68, 69 and the back cover)', async () => {
    const md = await markdownOf('pdfbench', 'unstructured_pdf_failure-after-repair.pdf');
    expect(md).toContain(
      [
        '| Cancer Council Australia | [cancer.org.au](http://www.cancer.org.au/) |',
        '| --- | --- |',
        '| Cancer Australia | [**canceraustralia.gov.au**](http://www.canceraustralia.gov.au/) |',
        '| Carers Australia | [**carersaustralia.com.au**](http://www.carersaustralia.com.au/) |',
        '| Department of Health | [**health.gov.au**](http://www.health.gov.au/) |',
      ].join('\n'),
    );
    expect(md).toContain(
      '\n| Camp Quality Kids’ Guide to Cancer app | [**campquality.org.au**](https://www.campquality.org.au) |\n',
    );
    expect(md).toContain('\n| National Breast Cancer Foundation | [**nbcf.org.au**](http://www.nbcf.org.au/) |\n');
    expect(md).toContain(
      '\n| Breast Cancer Care UK | [**breastcancercare.org.uk**](http://www.breastcancercare.org.uk/) |\n',
    );
    // The state Cancer Councils on the back cover: three linked addresses a row.
    expect(md).toContain(
      '\n| [actcancer.org](http://actcancer.org) | [cancerqld.org.au](http://cancerqld.org.au) | [cancervic.org.au](http://cancervic.org.au) |\n',
    );
    expect(md).not.toMatch(/\.{6}/);
  });

  it('keeps the first row of Cancer Council names in its table (pdfbench failure-after-repair p. 76)', async () => {
    const md = await markdownOf('pdfbench', 'unstructured_pdf_failure-after-repair.pdf');
    expect(md).toContain(
      [
        '# Visit your local Cancer Council website',
        '',
        '| Cancer Council ACT | Cancer Council Queensland | Cancer Council Victoria |',
        '| --- | --- | --- |',
        // The addresses are links on the page, and in the cells (f35996b).
        '| [actcancer.org](http://actcancer.org) | [cancerqld.org.au](http://cancerqld.org.au) | [cancervic.org.au](http://cancervic.org.au) |',
      ].join('\n'),
    );
  });

  it('reads the hormone receptor table of the booklet a row per row, its wrapped cells whole (pdfbench failure-after-repair p. 18)', async () => {
    const name = 'unstructured_pdf_failure-after-repair.pdf';
    const md = await markdownOf('pdfbench', name);
    const table = tablesIn(md).find((t) => t[0]?.[0] === 'status');
    const answer = 'a cancer that is er or pr is more likely to respond to hormone therapy see pages 4649.';
    expect(table?.map((r) => r.slice(0, 2))).toEqual([
      ['status', 'description'],
      ['er', 'cancer cells with oestrogen receptors are called oestrogen receptor positive.'],
      ['pr', 'cancer cells with progesterone receptors are called progesterone receptor positive.'],
      ['er andor pr', 'cells without hormone receptors are called hormone receptor negative.'],
    ]);
    // The answer for both rows is drawn with a second period after it.
    expect(table?.[1]?.[2]?.startsWith(answer)).toBe(true);
    expect(table?.[3]?.[2]).toBe('hormone receptor negative breast cancer does not respond to hormone therapy.');
    // The status labels are printed in bold.
    expect(md).toContain(
      '\n| **ER+** | Cancer cells with oestrogen receptors are called oestrogen receptor positive. |',
    );
  });

  it("reads the booklet's health professionals, stages and grades, each label beside its description, as tables (pdfbench failure-after-repair pp. 22-25)", async () => {
    const md = await markdownOf('pdfbench', 'unstructured_pdf_failure-after-repair.pdf');
    // Roles set beside the middle of their descriptions (p. 24 and p. 25, a table each).
    expect(md).toContain(
      [
        '| GP | works in partnership with your specialist in providing your ongoing care |',
        '| --- | --- |',
        '| **breast surgeon\\*** | specialises in surgery and performs biopsies; some breast surgeons also perform breast reconstruction and specialised oncoplastic procedures |',
      ].join('\n'),
    );
    expect(md).toContain('\n| **radiologist\\*** | specialises in reading x-rays, such as mammograms |\n');
    expect(md).toContain(
      [
        '| radiation oncologist\\* | prescribes and coordinates the course of radiotherapy |',
        '| --- | --- |',
        '| **radiation therapist** | plans and delivers radiotherapy |',
      ].join('\n'),
    );
    expect(md).toContain(
      '\n| **psychiatrist\\*, counsellor, psychologist** | provide emotional support and help manage feelings of anxiety and depression |\n',
    );
    // Stage IIA stands between its two descriptions, and takes both.
    expect(md).toContain(
      '\n| **Stage IIA** | The tumour is less than 2 cm in diameter and has spread to the lymph nodes in the armpit. The tumour is 2–5 cm in diameter and has not spread to the lymph nodes in the armpit. |\n',
    );
    // Grades, their labels wrapped over two lines or three, level with their descriptions.
    expect(md).toContain(
      '\n| **Grade 2 (intermediate grade)** | Cancer cells do not look like normal cells. They are growing faster than grade 1 breast cancer, but not as fast as grade 3. |\n',
    );
    expect(md).not.toContain('**nurses**\n\n**radiologist');
  });

  it('keeps the bold labels of the repair estimate in their cells (markitdown REPAIR-2022-INV-001)', async () => {
    const name = 'REPAIR-2022-INV-001_multipage.pdf';
    const md = await markdownOf('markitdown', name);
    expect(md).toContain('\n| **Claim #** | SF-1008 | **Make** | Jeep |\n');
    expect(md).toContain('\n| **GRAND TOTAL** |  |  | **5,738** |\n');
  });

  it('reads the group "Supplies" of the repair estimate as a row over its indented items, in the label column (markitdown REPAIR-2022-INV-001 pp. 1-2)', async () => {
    const md = await markdownOf('markitdown', 'REPAIR-2022-INV-001_multipage.pdf');
    const rows = [
      '| **Mechanical Labor** | - | - | - |',
      '| **Supplies** |  |  |  |',
      '| **Paint Supplies** |  |  | 60 |',
      '| **Body Supplies** |  |  | 30 |',
    ].join('\n');
    expect(md.split(rows).length - 1).toBe(2);
    expect(md).toContain('| **Note** | Minor rear bumper repair |  |  |');
  });

  it('reads Times New Roman and Arial described with a bold stem width as regular (spanning_cells, frx_2012_disclosure)', async () => {
    const spans = await read('spanning_cells.pdf');
    expect(spans).toMatch(/^Table A4-13 summarizes the projections for the average UEC/m);
    expect(spans).toMatch(/^August 2, 2007 A-42$/m);
    const frx = await read('frx_2012_disclosure.pdf');
    expect(frx).toMatch(/^Forest Laboratories, Inc\. Disclosure Report/m);
  });

  it('reads the display layouts of the IRM manual as whole tables, long descriptions and the LINE heading in them (pdfbench pdf2image-memory-error-test-400p)', async () => {
    const md = await firstPagesOf(61, 'pdfbench', 'unstructured_pdf_pdf2image-memory-error-test-400p.pdf');
    // p. 30: the long value line of a definer code no longer ends the table.
    expect(md).toContain(
      [
        '|  |  | L = last tax module satisfied |',
        '|  |  | N = tax modules lacking a vestigial cross reference |',
        '|  |  | O = exempt organization |',
        '|  |  | V = vestigial |',
        '|  |  | Z = audit history |',
        '| 1 | 07-17 | SSN (required): nnn-nn-nnnn |',
      ].join('\n'),
    );
    // p. 60: the heading 'LINE', set left of the line numbers, heads them.
    expect(md).toContain(
      '| LINE | POSITION | DESCRIPTION AND VALIDITY |\n| --- | --- | --- |\n| 17 | 01-03 | Transaction Code 098 |',
    );
    expect(md).not.toMatch(/^\| LINE \| {2}\|/m);
    // p. 36: a code's meaning wrapped over two lines, set closer than the rows, is one cell.
    expect(md).toContain(
      '|  |  | 0 = Not under IDRS control |\n|  |  | 1 = Extracted for IDRS by selection criteria (normal extraction) |\n|  |  | 2 = Extracted by entity or tax module TC 902 |',
    );
    // p. 60: the page footer under the last row, at the rows' pitch, is furniture, not a row.
    expect(md).toContain(
      '| 22 | 62-63 | Non-Compliance Code |\n|  |  | 10-99 = non-filer argument (UTAAP) |\n\n##### Command Code BMFOL Entity Display',
    );
    expect(md).not.toMatch(/^\|.*(?:Internal Revenue Manual|Cat\. No\.)/m);
    // p. 59: the heading row on the first row's pitch, the footer under the last row bridging the
    // gap between the line numbers and the positions while the columns are found.
    expect(md).toContain(
      '##### Command Code BMFOL Entity Display\n\n| LINE | POSITION | DESCRIPTION AND VALIDITY |\n| --- | --- | --- |\n| 11 | 25-41 | Transaction DLN |',
    );
    // p. 42: the end of a description begun on p. 41 stands under the heading row, in the table.
    expect(md).toContain(
      '| LINE | POSITION | DESCRIPTION AND VALIDITY |\n| --- | --- | --- |\n|  |  | Year and month that the entity was established on the master file |\n| 5 | 56-57 | Fiscal Year Month |',
    );
    // p. 39: the heading row stands well above the first row, 'LINE' left of the numbers: the header.
    expect(md).toContain(
      '##### Command Code BMFOL Last Period Satisfied Display\n\n| LINE | POSITION | DESCRIPTION AND VALIDITY |  |\n| --- | --- | --- | --- |\n| 1 | 01-05 | Command Code: BMFOL |  |',
    );
  });

  it('reads the labels, carried lists and wrapped lines of the IRM manual displays inside their tables (pdfbench pdf2image-memory-error-test-400p pp. 10-142)', async () => {
    const md = await markdownWith({ ...NO_DEADLINE, parsers: [{ type: 'pdf', maxPages: 142, pageMarkers: true }] }, [
      'pdfbench',
      'unstructured_pdf_pdf2image-memory-error-test-400p.pdf',
    ]);
    // Each page by its number (p. 2 is empty).
    const pages = pagesOf(md);
    // 'TRANSACTION LINES', alone and set apart between the entity lines and the transaction lines of a
    // display, is a row of its table (p. 112 opens with it, over the rows carried from p. 111).
    expect(pages[50]).toContain(
      '| 3 | 76-80 | Offer in Compromise Indicator: \\*OIC\\* |  |\n|  |  | **TRANSACTION LINES** |  |\n| 5 | 01-03 | Transaction Code 000 |  |',
    );
    for (const p of [51, 71, 74, 79, 92, 97, 102, 107, 116, 120, 123, 127])
      expect(pages[p - 1]).toMatch(/^\| {2}\| {2}\| \*\*TRANSACTION LINES\*\* \|/m);
    // pp. 10, 11: the definer code table's headings, in bold over three lines, head its columns; the
    // margin heading of the section under it (2.3.59.8) keeps none of them. Its rows on p. 11 join
    // it: the margin head of 2.3.59.7, beside the section under them, reads after them. Each margin
    // head (number, date, bold title) is its section's heading.
    expect(pages[9]).toContain(
      '| Definer | Display File Source | MFT & Tax Per | Result |\n| --- | --- | --- | --- |\n|',
    );
    expect(pages[9]).toContain(
      '| V | Y | N | Vestigial data (retention register) |\n| W | Y | Y | Quarterly F941 information. |',
    );
    expect(pages[10]).toMatch(/^#+ 2\.3\.59\.7 \(01-17-2010\) Command Code BMFOL Abbreviated Input Formats$/m);
    expect(pages[10]).not.toContain('| Definer |');
    expect(pages[10]).toMatch(
      /^#+ 2\.3\.59\.8 \(01-16-2020\) Command Code BMFOL Message Screens and Index Message Screens$/m,
    );
    expect(md).not.toContain('Definer Source Tax Per');
    // pp. 7, 8: the side heads are headings, a title of two lines too; the acronym table beside the
    // head of 2.3.59.1.6 has none of it.
    expect(pages[6]).toMatch(/^#+ 2\.3\.59\.1 \(12-12-2022\) Program Scope and Objectives$/m);
    expect(pages[7]).toMatch(/^#+ 2\.3\.59\.1\.6 \(01-17-2023\) Terms\/Definitions\/Acronyms$/m);
    expect(pages[7]).not.toMatch(/\|[^\n]*2\.3\.59\.1\.6/);
    // p. 66: the messages under the display's last row, longer than its other descriptions.
    expect(pages[65]).toContain(
      '| 24 | 19-61 | End of Screen Message |\n|  |  | NO TRANSACTIONS ARE POSTED TO THIS ENTITY or |\n|  |  | END OF ENTITY MODULE |',
    );
    // p. 142: the repeated heading row over nothing but the code list carried from p. 141.
    expect(pages[141]).toContain(
      '| LINE | POSITION | DESCRIPTION AND VALIDITY |\n| --- | --- | --- |\n|  |  | 02 = title holding company |\n|  |  | 03 = charitable organization |',
    );
    expect(pages[141]).toContain('|  |  | 15 = mutual insurance company or association, other than life or maritime |');
    expect(pages[141]).toContain('|  |  | 70 = child care center |');
    const headed = pages.flatMap((page, k) =>
      /^#+ (?:TRANSACTION LINES|STATUS HISTORIES)$/m.test(page) ? [k + 1] : [],
    );
    expect(headed.filter((p) => p !== 112)).toEqual([]);
  });

  it('reads the two columns of figures of all-number-table as a table (pdfbench all-number-table)', async () => {
    const md = await markdownOf('pdfbench', 'unstructured_pdf_all-number-table.pdf');
    expect(md.trim()).toBe(
      [
        '| 200.01 | 1 |',
        '| --- | --- |',
        '| 400.01 | 3 |',
        '| 600.01 | 5 |',
        '| 800.01 | 7 |',
        '| 1000.01 | 9 |',
        '| 1200.01 | 11 |',
        '| 1400.01 | 13 |',
        '| 1600.01 | 15 |',
      ].join('\n'),
    );
  });

  it('reads the two contents lists side by side of DA-619p as two tables (pdfbench DA-619p p. 1)', async () => {
    const md = await firstPagesOf(1, 'pdfbench', 'unstructured_pdf_DA-619p.pdf');
    expect(md).toContain(
      '# Table of Contents\n\n| MAIN GAME | 6 |\n| --- | --- |\n| CREATURES | 6 |\n| Abomination | 6 |\n',
    );
    expect(md).toContain("| The Life Drinker | 22 |\n\n| The Magister's Shield | 22 |\n| --- | --- |\n");
    expect(md).toContain("| Elgar'nan: God of Vengeance | 27 |\n| Falon'Din: Friend of the Dead, the Guide | 27 |\n");
    expect(md).toContain('| The Sacred Ashes of Andraste | 48 |');
    expect(md).not.toContain('.....');
  });

  it('reads every entry of the DA-619p contents lists as a row, short leaders and none (pdfbench DA-619p pp. 3-316)', async () => {
    const md = await firstPagesOf(316, 'pdfbench', 'unstructured_pdf_DA-619p.pdf');
    // Three dots or one between entry and page, no leader at all, an entry wrapped before its leader.
    expect(md).toContain(
      [
        "| Caridin's Journal | 100 |",
        '| The History of the Chantry: Chapter 1 | 100 |',
        '| The History of the Chantry: Chapter 2 | 101 |',
      ].join('\n'),
    );
    expect(md).toContain(
      "| Graffiti in Redcliffe's Tavern | 117 |\n| Load Limit Reached - A confusing note | 117 |\n| The Black Vials | 118 |",
    );
    expect(md).toContain('| A Very Chewed and Moist Book | 105 |\n| The Noladar Anthology of Dwarven Poetry | 105 |');
    expect(md).toContain('| Materials for Working with Heartwood | 158 |');
    expect(md).toContain('| Letter from the Blackstone Irregulars | 132 |');
    // Page 4's right list, its part headings set out to within three points of the left list's pages.
    expect(md).toContain('| Justice | 149 |\n| Mhairi | 149 |\n| Nathaniel | 150 |');
    expect(md).toContain("| WARDEN'S KEEP | 160 |\n| --- | --- |\n| The History of the Drydens | 160 |");
    expect(md).toContain("| The History of Soldier's Peak: Chapter 1 | 160 |");
    // The last contents page (p. 316): entries wrapped on both lists at once, the first line of a list
    // an entry's first line.
    expect(md).toContain('| Vir Dirthara: Exile of the Forbidden Ones | 288 |\n| Vir Dirthara: Homecoming | 288 |');
    expect(md).toContain('| The Very Private Diary of Sandal Feddic, DO NOT READ!!!! | 295 |\n| --- | --- |');
    expect(md).toContain('| Torn Notebook in the Deep Roads, Section 1 | 296 |');
    expect(md).toContain('| Written Instructions for New Workers | 299 |');
    // No contents line is left out of its table: the only dots left are a paragraph's ellipses.
    expect(md).not.toMatch(/^[^|\n]*\.{3}\s?\d+/m);
  });

  it('reads the side menu and the body prose beside it as text, not as one table (pdfbench pdf-bad-color-space)', async () => {
    const md = await markdownOf('pdfbench', 'unstructured_pdf_pdf-bad-color-space.pdf');
    expect(tablesOf(md)).toEqual([]);
    // Each menu entry a line of its own, the prose lines whole in their paragraph (set with wide
    // leading, pdf-order.test.ts), none beside an entry.
    for (const entry of ['Our approach', 'Measuring our carbon footprint', 'Reducing carbon emissions'])
      expect(md).toMatch(new RegExp(`^(?:#+ )?${entry}$`, 'm'));
    expect(md).toContain(' with our own carbon footprint, which is why we’ve taken significant steps ');
    expect(md).toContain(' and value chain by 2030. To accomplish this, we aim to reduce ');
  });

  it('reads the captions of the three key figures of chevron-page as one cell each (pdfbench chevron-page)', async () => {
    const md = await markdownOf('pdfbench', 'unstructured_pdf_chevron-page.pdf');
    const cells = [
      [
        ['2.5', '1st', '~70%'],
        ['kilograms CO₂e/boe', 'woman', 'electricity'],
        [
          'carbon intensity from our Eastern Mediterranean operations in 2022',
          'offshore platform engineer in Israel was employed by our operations in 2020',
          'production in Israel is powered by Tamar and Leviathan fields as of 2022',
        ],
      ],
    ];
    expect(tablesIn(md)).toEqual(cells.map((t) => t.map((r) => r.map(key))));
  });

  it('reads the designed contents page of reliance as text list by list, not as tables mixing its lists (pdfbench reliance p. 3)', async () => {
    const md = await markdownWith(withPages, ['pdfbench', 'unstructured_pdf_reliance.pdf']);
    const page = pagesOf(md)[2] ?? '';
    expect(page).toMatch(/Table of Contents/);
    // The lists' entries are no table cells; each page number stands before its own title.
    const cells = tablesOf(page).flat(2).join('\n');
    for (const title of ['We Care for an Inclusive', 'COVID-19 Response', 'Board of Directors', 'Natural Capital'])
      expect(cells).not.toContain(title);
    expect(tablesOf(page)).toEqual([]);
    // Read list by list: the first list's entries in order, then the quote beside its foot whole.
    const plain = page.replace(/\*\*/g, '');
    const first = ['2 Reliance at a Glance', '4 Stakeholder', '6 Key Performance', '24 COVID-19 Response'];
    let at = 0;
    for (const entry of [...first, '26 Board of Directors', '30 Strategy', '40 10-year Financial Highlights']) {
      const next = plain.indexOf(entry, at);
      expect(next, entry).toBeGreaterThanOrEqual(at);
      at = next;
    }
    expect(plain).toContain(
      '‘We Care’ and will continue to protect all our stakeholders as the fight against COVID-19 is hopefully nearing its end.',
    );
  });

  it('keeps the Wingdings bullet of each row apart from the text beside it (docling table_mislabeled_as_picture)', async () => {
    const name = 'table_mislabeled_as_picture.pdf';
    const md = await markdownOf('docling', 'pdf', 'sources', name);
    // Each bullet is drawn as Wingdings "y" after a blank whose ActualText is "y" as well: two words.
    const table = tablesIn(md).find((t) => t[0]?.includes('csos'));
    expect(table?.map((r) => r.slice(0, 2))).toEqual([
      ['', ''],
      ['y y', 'persons with disabilities'],
      ['y y', 'children'],
      ['y y', 'women'],
      ['y y', 'the elderly'],
      ['y y', 'migrants'],
      ['y y', 'refugees, asylum seekers, or stateless persons'],
      ['y y', 'internally displaced persons'],
    ]);
  });
});
