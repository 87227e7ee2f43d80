import { describe, expect, it } from 'vitest';
import { corpusFile, corpusSkipReason, fixture, hasCorpus } from '../helpers/corpus.ts';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';
import { pdfOf } from '../helpers/pdf-build.ts';
import { NO_DEADLINE } from '../helpers/timeouts.ts';

/** One line of Helvetica (F1) or Helvetica-Bold (F2), its baseline `y` points above the page's foot. */
interface Run {
  x: number;
  y: number;
  size: number;
  bold?: boolean;
  text: string;
}

/** A one-page PDF (the booklet's page size) of the given lines. */
function pagePdf(runs: Run[]): Uint8Array {
  const ops = runs
    .map(
      (r) => `BT /${r.bold ? 'F2' : 'F1'} ${r.size} Tf ${r.x} ${r.y} Td (${r.text.replace(/[\\()]/g, '\\$&')}) Tj ET`,
    )
    .join('\n');
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 420 595] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`,
  ]);
}

const intro = [
  'Every sample taken in the clinic is sent to the laboratory, where it',
  'is checked for the markers that guide treatment. Some markers tell',
  'how fast the cells grow, others whether a medicine will work, and a',
  'few whether the illness may return. The report goes to your doctor,',
  'who talks it through with you at the next visit, usually within two',
  'weeks. Ask for a copy if you would like to keep one for your records.',
];
const left = [
  'Markers are proteins found on',
  'the surface of some cells. The',
  'laboratory stains a thin slice',
  'of the sample and counts the',
  'cells that take up the stain.',
  'A high count means the cells',
  'carry many of these proteins',
  'and may respond to medicines',
  'that block them.',
];
const right = [
  'A low count does not mean that',
  'treatment will fail. Other tests',
  'look at the genes of the cells',
  'and may point to a different',
  'medicine. Your doctor will say',
  'which tests were done and what',
  'their results mean for you. It',
  'can take a week or two before',
  'every result is ready.',
];
/**
 * The booklet's layout (pdfbench failure-after-repair p. 18): a title, a paragraph across the text
 * block, then two columns 17 pt apart, each line of the left column on the baseline of one of the
 * right column.
 */
const stripeThenColumns = pagePdf([
  { x: 96, y: 475, size: 12, bold: true, text: 'How samples are tested and what they show' },
  ...intro.map((text, i): Run => ({ x: 96, y: 455 - i * 13, size: 9.3, text })),
  ...left.map((text, i): Run => ({ x: 96, y: 360 - i * 13, size: 9.3, text })),
  ...right.map((text, i): Run => ({ x: 251, y: 360 - i * 13, size: 9.3, text })),
]);

/** Body text set with wide leading (1.8 times its size, pdfbench pdf-bad-color-space p. 1). */
const wideFirst = [
  'Every sample taken in the clinic is sent to the laboratory,',
  'where it is checked for the markers that guide treatment,',
  'and the report goes to your doctor within two weeks.',
];
const wideNote = 'Ask for a copy of the report.';
const wideSecond = ['Some markers tell how fast the cells grow, others whether', 'a medicine will work.'];
const wideLeading = pagePdf([
  ...wideFirst.map((text, i): Run => ({ x: 60, y: 520 - i * 16.2, size: 9, text })),
  { x: 60, y: 520 - 2 * 16.2 - 32.4, size: 9, text: wideNote },
  ...wideSecond.map((text, i): Run => ({ x: 60, y: 520 - 3 * 16.2 - 2 * 32.4 - i * 16.2, size: 9, text })),
]);

/** A side menu beside prose, nearly as wide as it, its last entry ending in a small letter. */
const menuEntries = [
  'Our approach to the climate',
  'Measuring our carbon footprint',
  'Reducing our carbon emissions',
  'Advancing carbon-free energy',
  'Managing our remaining emissions',
];
const menuProse = [
  'Our work on climate began two decades',
  'ago, and since then we have learned',
  'that the hardest part of cutting our',
  'emissions is the energy our sites use',
  'every hour of every day, in every place',
  'we work. In 2021 we set our goal: to',
  'reach net-zero emissions across all of',
  'our operations by the year 2030.',
];
const wideMenu = pagePdf([
  ...menuEntries.map((text, i): Run => ({ x: 40, y: 500 - i * 24, size: 10, text })),
  ...menuProse.map((text, i): Run => ({ x: 215, y: 500 - i * 12, size: 10, text })),
]);

/**
 * Codes and descriptions in columns (pdfbench pdf2image-memory-error-test-400p p. 10): most
 * descriptions run long, and one breaks a word at a hyphen over its second and third lines.
 */
const codeRows: [string, string, string, string[]][] = [
  ['A', 'Y', 'Y', ['Adjustment transactions including the trans', 'code, posted date, amount, cycle and DLN']],
  ['B', 'Y', 'N', ['Re-establishes the retention tax module back', 'to the active Master File for the user.']],
  ['C', 'N', 'N', ['Tax Module screen associated with the input', 'check symbol or check number, CFOL041']],
  ['D', 'Y', 'N', ['Deposit Schedules for 941, CT-1, 943 and 945,', 'and the payments made under them.']],
  ['K', 'Y', 'Y', ['F941 Lookback information']],
  ['L', 'Y', 'N', ['Last tax module satisfied']],
  ['N', 'Y', 'N', ['Index of Retention Register Tax', 'Modules that do not have an associ-', 'ated Vestigial Entry']],
  ['O', 'Y', 'N', ['Exempt organization information']],
  ['P', 'Y', 'N', ['Payment Summary']],
  ['R', 'Y', 'Y', ['Return DLN, cycle posted, transaction date,', 'some schedules, codes, exemptions, amounts']],
];
const codeRuns: Run[] = ['Definer', 'Source', 'Period', 'Result'].map((text, c) => ({
  x: 60 + c * 50,
  y: 520,
  size: 9,
  bold: true,
  text,
}));
let codeY = 509;
for (const [code, a, b, lines] of codeRows) {
  codeRuns.push(...[code, a, b].map((text, c): Run => ({ x: 60 + c * 50, y: codeY, size: 9, text })));
  codeRuns.push(...lines.map((text, i): Run => ({ x: 210, y: codeY - i * 11, size: 9, text })));
  codeY -= 11 * lines.length;
}
codeRuns.push({ x: 60, y: codeY - 20, size: 9, text: 'Each module is associated with one entry.' });
const brokenWord = pagePdf(codeRuns);

/**
 * A designed contents page (pdfbench reliance p. 3): a title centred over three columns, inside the
 * middle one's span, and entries numbered by page, each wrapped with a hanging indent.
 */
const contentsColumns: [number, string[][]][] = [
  [
    20,
    [
      ['2', 'Our Company at a Glance'],
      ['4', 'Chairman and Managing', "Director's Statement"],
      ['14', 'We Care for an Inclusive', 'Ecosystem'],
      ['16', 'Board of Directors'],
      ['18', 'We Care for Sustainable', 'Value Creation'],
    ],
  ],
  [
    150,
    [
      ['42', 'Management Discussion', 'and Analysis'],
      ['44', 'Financial Performance', 'and Review'],
      ['54', 'Business Overview'],
      ['60', 'Risks and Governance'],
    ],
  ],
  [
    290,
    [
      ['150', 'Integrated Approach to', 'Sustainable Growth'],
      ['155', 'Our Integrated Approach', 'to ESG Governance'],
      ['162', 'Responding to the', 'Material Issues'],
      ['166', 'Driving Growth in ESG'],
    ],
  ],
];
const contentsRuns: Run[] = [{ x: 178, y: 560, size: 14, bold: true, text: 'Contents' }];
for (const [x, entries] of contentsColumns) {
  let y = 520;
  for (const [page, ...lines] of entries) {
    for (const [i, t] of lines.entries())
      contentsRuns.push({ x: i ? x + 18 : x, y: y - i * 12, size: 9, text: i ? t : `${page} ${t}` });
    y -= 12 * lines.length + 4;
  }
}
const contentsPage = pagePdf(contentsRuns);

/**
 * Paragraphs whose first lines are set in by one character (as normal_4pages, in Korean, sets
 * them), then references wrapped with a hanging indent of as much.
 */
const oneCharFirst = ['The first paragraph starts with an indent of', 'one character, as Korean text is set. It ends.'];
const oneCharSecond = ['The second paragraph starts the same way, and', 'it runs on to its end here.'];
const hangingRefs = [
  ['Jane Roe and John Doe. 2019. A study of things,', 'of more things and of all other things. In Proc.', 'pages 1-9.'],
  [
    'Ann Poe. 2020. Another study of other things, as',
    'of some things and of all the others. In Journal.',
    'pages 1-7.',
  ],
];
const oneCharIndent = pagePdf([
  ...[...oneCharFirst, ...oneCharSecond].map(
    (text, i): Run => ({ x: i % 2 ? 60 : 69, y: 520 - i * 11, size: 9, text }),
  ),
  ...hangingRefs.flat().map((text, i): Run => ({ x: i % 3 ? 69 : 60, y: 470 - i * 11, size: 9, text })),
]);

/**
 * A newsletter page in three columns: the middle one, centred on the page, opens with its story's
 * heading well above the other columns' first lines (pictures stand over those).
 */
const newsColumns: [number, number, string[]][] = [
  [
    20,
    420,
    [
      'went on until late in the evening,',
      'when the last of the boats came in',
      'and the harbour was quiet again.',
      'The mayor thanked the volunteers.',
    ],
  ],
  [
    150,
    500,
    [
      'Forty boats took part in the race',
      'on Saturday, the most since the',
      'club began to run it in 1962, and',
      'the weather held for the whole day.',
    ],
  ],
  [
    280,
    420,
    [
      'The club thanks its sponsors and',
      'the harbour master for their help',
      'with the race and the moorings.',
      'Results are posted in the club house.',
    ],
  ],
];
const newsHeading = 'Harbour race';
const newsPage = pagePdf([
  { x: 174, y: 520, size: 12, bold: true, text: newsHeading },
  ...newsColumns.flatMap(([x, top, lines]) => lines.map((text, i): Run => ({ x, y: top - i * 9, size: 7, text }))),
]);

/**
 * Two ragged-right columns. A paragraph opens with the left column's last line, shorter than the
 * column's widest ones and a little apart from the paragraph above, and goes on at the top of the
 * right column.
 */
const shortFootLeft = [
  'The survey asked people in nine towns how they',
  'travel to work and how long the journey takes.',
  'Most of them answered within a week of the letter.',
];
const shortFoot = 'The replies show that buses are now used much';
const shortFootRight = [
  'more than trains in all but two of the towns, and that',
  'journeys by car have become longer in each of the last',
  'three years, while cycling has grown in the small towns.',
];
const shortFootPage = pagePdf([
  ...shortFootLeft.map((text, i): Run => ({ x: 30, y: 500 - i * 9, size: 7, text })),
  { x: 30, y: 500 - 3 * 9 - 5, size: 7, text: shortFoot },
  ...shortFootRight.map((text, i): Run => ({ x: 220, y: 500 - i * 9, size: 7, text })),
]);

/** Two columns, the paragraph at the left column's foot going on for several lines at the right's top. */
const carriedLeft = [
  'The survey asked people in nine towns how',
  'they travel to work and how long it takes.',
  'Most answered within a week of the letter.',
  'The replies show that buses are used',
];
const carriedRight = [
  'more than trains in all but two of the towns,',
  'and that journeys by car have become longer',
  'in each of the last three years of the study,',
  'while cycling has grown in the smaller towns.',
];
const carriedPage = pagePdf([
  ...carriedLeft.map((text, i): Run => ({ x: 30, y: 500 - i * 9, size: 7, text })),
  ...carriedRight.map((text, i): Run => ({ x: 220, y: 500 - i * 9, size: 7, text })),
]);

/** Words of `text` set in lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const w of text.split(' ')) {
    if (line && line.length + 1 + w.length > width) {
      out.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) out.push(line);
  return out;
}

/**
 * Three columns over a band, then a two-column foot (reliance p. 3): the foot's left column runs
 * across the first gutter above it, two lines of its right one across the second.
 */
const stackTop = [
  'The company reports on its work in a series of papers, each set out for one of its audiences and read together with the annual accounts. Every paper names the aims set at the start of the year and says what became of each of them by its end, with the figures behind it.',
  'The reports are prepared by the teams that run each part of the business, and checked by a panel of the board that meets four times in a year. Its minutes are kept in the records of the secretary and are open to every member who asks to read them.',
  'Figures in the papers are in millions unless said, and a figure restated since the last year is marked with a note. The notes explain why it was changed and what the figure was before, so that a reader can follow each one from year to year.',
].map((t) => wrap(t, 27));
const stackLeft = wrap(
  'The report has been prepared in line with the framework laid down by the council for integrated reporting, and the standards for reporting on the environment and on the people the company employs were both referenced. It outlines the commitment to value for stakeholders.',
  50,
);
const stackRight = [
  'Online annual report in full',
  'www.example.com/annual',
  'Business responsibility report',
  'www.example.com/brr',
];
const stackedPage = pagePdf([
  ...stackTop.flatMap((col, c) =>
    col.map((text, i): Run => ({ x: [30, 140, 310][c] as number, y: 560 - i * 9, size: 7, text })),
  ),
  { x: 30, y: 420, size: 9, bold: true, text: 'About this Report' },
  { x: 215, y: 420, size: 9, bold: true, text: 'Reporting Suite' },
  ...stackLeft.map((text, i): Run => ({ x: 30, y: 406 - i * 9, size: 7, text })),
  ...stackRight.map((text, i): Run => ({ x: 215, y: 406 - i * 12, size: 7, text })),
]);

/**
 * Three columns that go on under an empty band across the page, the first column's lines shorter
 * under it: the widest gutter above is the second, below the first, yet the columns are the same
 * (threecol, review 30).
 */
const bandFiller =
  'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua';
const bandColumn = (c: number, part: string, chars: number): string[] =>
  Array.from({ length: 8 }, (_, i) =>
    `C${c}${part}${i + 1} ${bandFiller.slice(i * 7).trimStart()}`.slice(0, chars).trimEnd(),
  );
const bandColumns = [1, 2, 3].map((c) => [...bandColumn(c, 'top', 25), ...bandColumn(c, 'foot', c === 1 ? 20 : 25)]);
const bandedColumns = pagePdf(
  bandColumns.flatMap((col, c) =>
    col.map((text, i): Run => ({ x: [20, 150, 290][c] as number, y: 560 - i * 9 - (i >= 8 ? 120 : 0), size: 7, text })),
  ),
);

/**
 * A booklet's panel of two columns under its title, over a page of one column (pdfbench
 * failure-after-repair p. 11): the title and the body's short last line both cross the panel's
 * gutter, which for the page as one region closes it. The left column's second paragraph, a line's
 * pitch and a half under its first and narrower than the right column's lines, goes on at the top
 * of the right column in a small letter.
 */
const panelTitle = 'What your visit involves';
const panelFirst = [
  'The visit takes about half an',
  'hour. A nurse asks about your',
  'health and any changes you',
  'have noticed since the last.',
];
const panelCarried = ['Each step of the test', 'is explained before it', 'starts, so that you know'];
const panelGoesOn = ['what will happen and when it will', 'happen during the visit.'];
const panelRight = [
  'Bring a list of the medicines',
  'you take and the dates of any',
  'earlier tests. You may bring',
  'someone with you if you wish.',
];
const panelBody = [
  'Results are posted to you and to your doctor within',
  'two weeks. Most people need no further tests, and',
  'those who do are called back within a few days',
  'by the clinic that saw them.',
];
const panelRuns = (lines: string[], x: number, y: number, size = 9.5, pitch = 13): Run[] =>
  lines.map((text, i) => ({ x, y: y - i * pitch, size, text }));
/** The panel: its title over its two columns. */
const panel: Run[] = [
  { x: 54, y: 520, size: 12, bold: true, text: panelTitle },
  ...panelRuns(panelFirst, 54, 500),
  ...panelRuns(panelCarried, 54, 500 - 5 * 13),
  ...panelRuns(panelGoesOn, 194, 500),
  ...panelRuns(panelRight, 194, 500 - 3 * 13),
];
const panelPage = pagePdf([...panel, ...panelRuns(panelBody, 65, 350, 11, 15)]);

/**
 * Numbered paragraphs whose numbers stand a tab's width apart from their text, the text's other
 * lines set under it (pdfbench pdf2image-memory-error-test-400p p. 1), after a section number
 * set apart from its title in bold.
 */
const tabbedItems = [
  ['(1)', 'The first change moves the retention register to the years from 2017', 'to 2023.'],
  ['(2)', 'The second change adds one field to the entity screen.'],
  ['(3)', 'The third change updates the error messages to reflect the registers', 'now available.'],
];
const tabbedPage = pagePdf([
  { x: 72, y: 540, size: 11, bold: true, text: '1.' },
  { x: 108, y: 540, size: 11, bold: true, text: 'CHANGES' },
  ...tabbedItems.flatMap(([mark, ...lines], k): Run[] => [
    { x: 84, y: 510 - k * 40, size: 10, text: mark as string },
    ...lines.map((text, i): Run => ({ x: 120, y: 510 - k * 40 - i * 12, size: 10, text })),
  ]),
]);

/** A glossary: terms beside their two-line definitions, each term on its definition's first row. */
const glossary: [string, string[]][] = [
  ['Checksum value', ['A value computed from a', 'file to detect changes.']],
  ['Service endpoint', ['The address a client sends', 'its requests to.']],
  ['Device firmware', ['Software stored on a device', 'that runs its hardware.']],
  ['Network gateway', ['A server that passes on', 'requests to services.']],
  ['Password hash', ['A password turned into a', 'value of fixed length.']],
];
const glossaryRuns = (top: number): Run[] =>
  glossary.flatMap(([term, lines], k): Run[] => [
    { x: 54, y: top - k * 30, size: 10, text: term },
    ...lines.map((text, i): Run => ({ x: 160, y: top - k * 30 - i * 12, size: 10, text })),
  ]);
const glossaryPage = pagePdf([
  { x: 54, y: 540, size: 12, bold: true, text: 'Glossary' },
  ...glossaryRuns(520),
  ...panelRuns(
    [
      'Terms in this guide are used in the senses given above; where a term',
      'is not listed, its usual meaning applies.',
    ],
    54,
    340,
    10,
  ),
]);
/** The panel's page with a glossary under the band instead of prose. */
const panelOverGlossary = pagePdf([...panel, ...glossaryRuns(360)]);
/** Each term, then its definition's first line, in this order in `md`. */
const readsTermByTerm = (md: string): void => {
  const at = glossary.flatMap(([term, [first]]) => [md.indexOf(`${term} ${first}`), md.indexOf(first as string)]);
  for (const i of at) expect(i).toBeGreaterThanOrEqual(0);
  expect(at).toEqual([...at].sort((a, b) => a - b));
};
/** Labels of a figure's three parts on one row, over its caption. */
const partLabels = pagePdf([
  { x: 60, y: 400, size: 9, text: '(a)' },
  { x: 180, y: 400, size: 9, text: '(b)' },
  { x: 300, y: 400, size: 9, text: '(c)' },
  { x: 54, y: 380, size: 9, text: 'Figure 2. Three views of the sample under light of each wavelength.' },
]);

/** Objectives numbered within their pillar ("1.1:"), one wrapped under its text (pdfbench invalid-pdf-structure-pdfminer-one-page). */
const objectives = [
  ['1.1: Establish cybersecurity requirements to support national', 'security and public safety'],
  ['1.2: Scale public-private collaboration'],
  ['1.3: Integrate federal cybersecurity centers'],
];
const objectivesPage = pagePdf(
  objectives.flatMap((lines, k): Run[] =>
    lines.map((text, i): Run => ({ x: i ? 72 : 54, y: 500 - (k * 2 + i) * 12, size: 9, text })),
  ),
);

describe.each(pdfBackends)('pdf reading order (%s)', (backend) => {
  const { parse } = engineFor(backend);

  it('reads two columns below a paragraph across both column by column, the paragraph first', async () => {
    const md = (await parse(stripeThenColumns, {}, { filename: 'columns.pdf' })).markdown ?? '';
    expect(md.trim().split('\n\n').slice(-3)).toEqual([intro.join(' '), left.join(' '), right.join(' ')]);
  });

  it('reads three columns, then the two columns of a foot set apart under them', async () => {
    const md = (await parse(stackedPage, {}, { filename: 'stacked.pdf' })).markdown ?? '';
    const at = (t: string) => md.indexOf(t);
    for (const t of [...stackTop.flat(), ...stackLeft, ...stackRight]) expect(at(t), t).toBeGreaterThanOrEqual(0);
    const order = [
      ...stackTop.map((col) => col[col.length - 1] as string),
      'About this Report',
      stackLeft.join(' '),
      'Reporting Suite',
      ...stackRight,
    ];
    expect(order.map(at)).toEqual(order.map(at).sort((a, b) => a - b));
  });

  it('reads three columns that go on under an empty band each whole, though the widest gutter differs above and below', async () => {
    const md = (await parse(bandedColumns, {}, { filename: 'banded.pdf' })).markdown ?? '';
    const at = bandColumns.flat().map((t) => md.indexOf(t));
    for (const [i, t] of bandColumns.flat().entries()) expect(at[i], t).toBeGreaterThanOrEqual(0);
    expect(at).toEqual([...at].sort((a, b) => a - b));
  });

  it('reads a panel of two columns over a page of one column each column whole, a paragraph carried over into the next', async () => {
    const md = (await parse(panelPage, {}, { filename: 'panel.pdf' })).markdown ?? '';
    expect(md.trim().split('\n\n')).toEqual([
      `# ${panelTitle}`,
      panelFirst.join(' '),
      [...panelCarried, ...panelGoesOn].join(' '),
      panelRight.join(' '),
      panelBody.join(' '),
    ]);
  });

  it('reads a glossary’s terms each with its definition, alone or under a panel of two columns', async () => {
    readsTermByTerm((await parse(glossaryPage, {}, { filename: 'glossary.pdf' })).markdown ?? '');
    const md = (await parse(panelOverGlossary, {}, { filename: 'panel-glossary.pdf' })).markdown ?? '';
    expect(md).toContain(
      `${panelFirst.join(' ')}\n\n${[...panelCarried, ...panelGoesOn].join(' ')}\n\n${panelRight.join(' ')}`,
    );
    readsTermByTerm(md);
  });

  it('keeps a figure’s part labels on one row as a line, no list item', async () => {
    const md = (await parse(partLabels, {}, { filename: 'labels.pdf' })).markdown ?? '';
    expect(md.trim().split('\n\n')[0]).toBe('(a) (b) (c)');
  });

  it('reads objectives numbered within their section ("1.1:") as list items, a wrapped one whole', async () => {
    const md = (await parse(objectivesPage, {}, { filename: 'objectives.pdf' })).markdown ?? '';
    expect(md.trim()).toBe(objectives.map((lines) => `- ${lines.join(' ')}`).join('\n'));
  });

  it('reads numbers set a tab apart from their text as list items, each item’s lines under its text whole', async () => {
    const md = (await parse(tabbedPage, {}, { filename: 'tabbed.pdf' })).markdown ?? '';
    expect(md.trim().split('\n\n')).toEqual([
      '# 1\\. CHANGES',
      tabbedItems.map(([, ...lines], k) => `${k + 1}. ${lines.join(' ')}`).join('\n'),
    ]);
  });

  it('reads body text set with wide leading as its paragraphs, by the page’s leading; a one-line paragraph stays alone', async () => {
    const md = (await parse(wideLeading, {}, { filename: 'leading.pdf' })).markdown ?? '';
    expect(md.trim().split('\n\n')).toEqual([wideFirst.join(' '), wideNote, wideSecond.join(' ')]);
  });

  it('keeps a side menu nearly as wide as the prose beside it out of the prose, its last entry ending in a small letter', async () => {
    const md = (await parse(wideMenu, {}, { filename: 'menu.pdf' })).markdown ?? '';
    expect(md.trim().split('\n\n')).toEqual([...menuEntries, menuProse.join(' ')]);
  });

  it('runs a paragraph on from a short line at a column’s foot into the next column', async () => {
    const md = (await parse(shortFootPage, {}, { filename: 'foot.pdf' })).markdown ?? '';
    expect(md.trim().split('\n\n')).toEqual([shortFootLeft.join(' '), [shortFoot, ...shortFootRight].join(' ')]);
  });

  it('keeps a paragraph carried into the next column whole past that column’s first line', async () => {
    const md = (await parse(carriedPage, {}, { filename: 'carried.pdf' })).markdown ?? '';
    expect(md.trim().split('\n\n')).toEqual([[...carriedLeft, ...carriedRight].join(' ')]);
  });

  it('keeps a heading that opens the centred middle column above the others with that column', async () => {
    const md = (await parse(newsPage, {}, { filename: 'news.pdf' })).markdown ?? '';
    const [left, middle, right] = newsColumns.map(([, , lines]) => lines.join(' '));
    expect(md.trim().split('\n\n')).toEqual([left, `# ${newsHeading}`, middle, right]);
  });

  it('reads a title centred over three columns first, and each numbered entry with a hanging indent whole', async () => {
    const md = (await parse(contentsPage, {}, { filename: 'contents.pdf' })).markdown ?? '';
    const entries = contentsColumns.flatMap(([, es]) => es.map(([page, ...lines]) => `${page} ${lines.join(' ')}`));
    expect(md.trim().split('\n\n')).toEqual(['# Contents', ...entries]);
  });

  it('starts a paragraph at a first line set in by one character after a sentence, not at a reference’s hanging indent', async () => {
    const md = (await parse(oneCharIndent, {}, { filename: 'indent.pdf' })).markdown ?? '';
    expect(md.trim().split('\n\n')).toEqual([
      oneCharFirst.join(' '),
      oneCharSecond.join(' '),
      ...hangingRefs.map((r) => r.join(' ')),
    ]);
  });

  it('closes a right-to-left paragraph at its short last line, short at its left end', async () => {
    const md = (await parse(fixture('pdf-patterns', 'rtl-paragraphs.pdf'), {}, { filename: 'rtl.pdf' })).markdown ?? '';
    expect(md.trim().split('\n\n')).toEqual([
      'ההוצאה לצריכה פרטית לנפש עלתה בשנה האחרונה בשיעור גבוה מזה של השנה הקודמת וההוצאה הציבורית עלתה גם היא.',
      'סך כל ההוצאה לצריכה פרטית וציבורית עלה בשנה זו בשיעור דומה.',
    ]);
  });

  it('reads each side head of a margin column (number, date, title) ahead of its section’s paragraphs, as its heading', async () => {
    const md = (await parse(fixture('pdf-patterns', 'side-heads.pdf'), {}, { filename: 'heads.pdf' })).markdown ?? '';
    // pdf.js in fast mode does not know the bold face: the title's emphasis is not what is tested.
    expect(md.replaceAll('**', '').trim().split('\n').slice(0, 8)).toEqual([
      '# 4.1.1 (01-17-2023) Program Scope and Objectives',
      '',
      '1. Overview: the on-line system gives read-only access to the accounts of the master file. All entities, the tax modules and the seven most recent years of retained data are on line.',
      '2. Audience: every office that answers questions about accounts.',
      '',
      '# 4.1.2 (12-12-2022) Roles and Responsibilities',
      '',
      '1. Applications Development maintains the command codes and answers for the screens they show.',
    ]);
  });

  it('reads a plain narrow left column whole before the wide one, its paragraphs no side heads', async () => {
    const md =
      (await parse(fixture('pdf-patterns', 'narrow-column.pdf'), {}, { filename: 'narrow.pdf' })).markdown ?? '';
    const paragraphs = md.trim().split('\n\n');
    expect(paragraphs.map((p) => p.split(':')[0])).toEqual([
      ...[1, 2, 3, 4, 5, 6].map((p) => `Left ${p}`),
      ...[1, 2, 3, 4, 5, 6].map((p) => `Right ${p}`),
    ]);
    // Each paragraph whole: its four lines, nothing of the other column.
    for (const p of paragraphs) expect(p).toMatch(/^(Left|Right) \d: [a-z ]+\.$/);
  });

  it('keeps a table’s own first column of code-over-name cells in the table on a page of side heads', async () => {
    const md =
      (await parse(fixture('pdf-patterns', 'side-head-parts.pdf'), {}, { filename: 'parts.pdf' })).markdown ?? '';
    const rows = md.split('\n').filter((l) => l.startsWith('| P-'));
    expect(rows.slice(0, 6)).toEqual([
      '| P-100 Pump | 2 units | 3.00 EUR | Acme |',
      '| P-101 Valve | 3 units | 15.50 EUR | Globex |',
      '| P-102 Seal | 4 units | 28.00 EUR | Initech |',
      '| P-103 Gasket | 5 units | 40.50 EUR | Hooli |',
      '| P-104 Motor | 6 units | 53.00 EUR | Vandelay |',
      '| P-105 Filter | 7 units | 65.50 EUR | Wonka |',
    ]);
  });

  it('keeps a side head out of the table beside it; heads of one and two title lines are headings', async () => {
    const md =
      (await parse(fixture('pdf-patterns', 'side-head-table.pdf'), {}, { filename: 'heads.pdf' })).markdown ?? '';
    const heads = md.split('\n').filter((l) => l.startsWith('#'));
    expect(heads).toEqual([
      '# 4.2.7.1 (01-17-2023) Program Scope and Objectives',
      '# 4.2.7.1.1 (01-17-2023) Background',
      '# 4.2.7.1.2 (01-17-2023) Terms and Acronyms',
      '# 4.2.7.2 (01-17-2023) Gauge Reading Overview',
    ]);
    const at = md.indexOf('# 4.2.7.1.2');
    expect(md.slice(at)).toMatch(
      /^# 4\.2\.7\.1\.2 \(01-17-2023\) Terms and Acronyms\n\n1\. Defined Terms\n2\. Acronyms\n\n\| Acronym \| Definition \| Used in \|\n/,
    );
    expect(md).toContain('| USGS | United States Geological Survey | Sources |');
    expect(md).not.toMatch(/\|[^\n]*(4\.2\.7|Terms and Acronyms)[^\n]*\|/);
  });

  it('reads a table over a section set with a side head before the head, not between head and paragraphs', async () => {
    const md = (await parse(fixture('pdf-patterns', 'side-heads.pdf'), {}, { filename: 'heads.pdf' })).markdown ?? '';
    const page2 = md.replaceAll('**', '').trim().split('\n').slice(9);
    expect(page2.slice(0, 5)).toEqual([
      '| Definer | Source | Result |',
      '| --- | --- | --- |',
      '| A | Y | Adjustment transactions |',
      '| B | N | Retention tax module |',
      '',
    ]);
    const at = page2.indexOf('# 4.1.3 (07-01-2019) Command Code Input Formats');
    expect(at).toBe(5);
    expect(page2[at + 2]).toMatch(/^1\. The screens above take their input in one of the two formats the table lists/);
  });

  it('reads lam-alef glyphs as lam then alef, a tanween drawn before its letter on it, a glyph drawn over itself once', async () => {
    const file = fixture('pdf-patterns', 'rtl-ligatures.pdf');
    // Each lam-alef is one glyph mapped to lam, alef (pdf.js turned it round with the run: "المشكالت",
    // "إلدارة"); the tanween of "بناءً" is drawn before its letter, after a blank ("بناء ً"); the waw
    // of "طويلة" is drawn twice, the second over the first ("طوويلة").
    const paras = [
      'علاوة على ذلك تساعد البرمجة في حل المشكلات من خلال أدوات لإدارة البيانات بناءً على الإنتاجية.',
      'كانت الرحلة طويلة.',
    ];
    for (const mode of ['fast', 'auto'] as const) {
      const md = (await parse(file, { parsers: [{ type: 'pdf', mode }] }, { filename: 'rtl.pdf' })).markdown ?? '';
      expect(md.trim().split('\n\n')).toEqual(paras);
    }
  });

  it('keeps a word broken at a hyphen over a table cell’s lines in its cell, whole', async () => {
    const md = (await parse(brokenWord, {}, { filename: 'codes.pdf' })).markdown ?? '';
    expect(md).toContain(
      '\n| N | Y | N | Index of Retention Register Tax Modules that do not have an associated Vestigial Entry |\n| O | Y | N | Exempt organization information |\n',
    );
    expect(md).not.toContain('| ated Vestigial');
  });
});

describe.skipIf(!hasCorpus).each(pdfBackends)(
  `pdf reading order on the corpus (${hasCorpus ? 'present' : corpusSkipReason}, %s)`,
  (backend) => {
    const { parse } = engineFor(backend);

    it('reads the two columns under the booklet page’s opening paragraph one after the other, and a panel’s two columns over one (pdfbench failure-after-repair pp. 18, 11)', async () => {
      const name = 'unstructured_pdf_failure-after-repair.pdf';
      const md = (await parse(corpusFile('pdfbench', name), NO_DEADLINE, { filename: name })).markdown ?? '';
      const first =
        'Hormones are chemicals in the body that transfer information. The hormones oestrogen and progesterone (present in both men and women) cause some types of breast cancer to grow. These are called hormone receptor positive or hormone sensitive cancers.';
      const second =
        '\n\nA hormone receptor is a protein in a cell. In breast cancer, the hormone receptors receive signals from oestrogen and progesterone to promote cancer cell growth. About three out of four breast cancers contain oestrogen or progesterone receptors (see table below).\n\n';
      expect(md).toContain(`${first}${second}| Status | Description | Therapy response |`);
      expect(md).toContain(
        '\n\nSome women have abnormal cells that are contained within the lobules of the breast. This is called lobular carcinoma in situ (LCIS). This is not cancer. LCIS is very rare in men.\n\nWhile LCIS increases the risk of developing breast cancer, most women with this condition will not develop breast cancer.\n\nLCIS is usually detected during tests for other breast disorders. If you are diagnosed with LCIS,',
      );
    });

    it('keeps a description’s word broken at a hyphen in its table cell, and numbered items’ lines whole (pdfbench pdf2image-memory-error-test-400p pp. 10, 1)', async () => {
      const name = 'unstructured_pdf_pdf2image-memory-error-test-400p.pdf';
      const md =
        (
          await parse(
            corpusFile('pdfbench', name),
            { ...NO_DEADLINE, parsers: [{ type: 'pdf', maxPages: 12 }] },
            { filename: name },
          )
        ).markdown ?? '';
      expect(md).toContain(
        '| N | Y | N | Index of Retention Register Tax Modules that do not have an associated Vestigial Entry |\n',
      );
      expect(md).not.toContain('| ated Vestigial');
      // The running foot's section number, one depth or another from page to page, goes with the foot.
      expect(md).not.toContain('**2.3.59.1.6**');
      expect(md).not.toContain('**2.3.59.6**');
      // p. 1: numbers a tab apart from their text are items, each item's second line in it.
      expect(md).toContain(
        '1. This transmits revised IRM 2.3.59, IDRS Terminal Responses, Command Codes BMFOL and BMFOR.\n',
      );
      expect(md).toContain(
        '3. 2.3.59-8 - Updated CFOL error messages (CFOL029. ) to reflect updated retention register availability.\n',
      );
    });

    it('reads the strategy’s objectives numbered within each pillar as list items (pdfbench invalid-pdf-structure-pdfminer-one-page)', async () => {
      const name = 'unstructured_pdf_invalid-pdf-structure-pdfminer-one-page.pdf';
      const md = (await parse(corpusFile('pdfbench', name), NO_DEADLINE, { filename: name })).markdown ?? '';
      expect(md).toContain(
        '- 2.2: Enhance public-private operational collaboration to disrupt adversaries\n- 2.3: Increase the speed and scale of intelligence sharing and victim notification\n',
      );
    });

    it('keeps a section number set apart from its title in bold with the title, no list item (markitdown masterformat_partial_numbering)', async () => {
      const md =
        (
          await parse(corpusFile('markitdown', 'masterformat_partial_numbering.pdf'), NO_DEADLINE, {
            filename: 'm.pdf',
          })
        ).markdown ?? '';
      expect(md).toContain('\n\n**1. INTENT**\n\n');
    });

    it('reads the contents spread’s title first and its numbered entries whole (pdfbench reliance p. 3)', async () => {
      const name = 'unstructured_pdf_reliance.pdf';
      const md = (await parse(corpusFile('pdfbench', name), NO_DEADLINE, { filename: name })).markdown ?? '';
      expect(md).toContain('### Table of Contents\n\n##### Corporate Overview\n\n**2** Reliance at a Glance');
      expect(md).toContain(
        "**8** Chairman and Managing Director's Statement\n\n**14** We Care for an Inclusive Ecosystem\n\n**16** We Care for Digital Transformation\n\n**18** We Care for Sustainable Value Creation\n\n",
      );
      expect(md).toContain(
        "**155** Reliance's Integrated Approach to ESG Governance\n\n**162** Responding to the Material Issues\n\n",
      );
      // The page's two-column foot reads after the three columns, its left column before its right.
      const about = md.indexOf(
        'About this Report\n\nThe Reliance Integrated Annual Report has been prepared in alignment',
      );
      expect(about).toBeGreaterThan(md.indexOf('**380** Consolidated'));
      expect(md.indexOf('Link for the AGM https://jiomeet.jio.com/rilagm\n')).toBeGreaterThan(about);
      expect(md.indexOf('Reporting Suite')).toBeGreaterThan(md.indexOf('Link for the AGM'));
    });

    it('starts the Korean paragraphs at their one-character first-line indents (docling normal_4pages p. 1)', async () => {
      const md =
        (await parse(corpusFile('docling', 'pdf', 'sources', 'normal_4pages.pdf'), NO_DEADLINE, { filename: 'n.pdf' }))
          .markdown ?? '';
      expect(md).toContain('158명으로 나타났다.\n\n이와 관련하여 세계보건기구(WHO)는');
    });

    it('reads the report’s body, set with wide leading, as its paragraphs (pdfbench pdf-bad-color-space p. 1)', async () => {
      const name = 'unstructured_pdf_pdf-bad-color-space.pdf';
      const md = (await parse(corpusFile('pdfbench', name), NO_DEADLINE, { filename: name })).markdown ?? '';
      expect(md).toContain(
        '\n\nAt Google, we’re working to accelerate the transition to a carbon-free future. We know that our responsibility begins with our own carbon footprint,',
      );
      expect(md).toContain(
        'to seek their validation of our absolute emissions reduction target.\n\nOne of the key levers for reducing emissions from our operations is transitioning to clean energy.',
      );
      expect(md).toContain(
        '\n\nWe aim to achieve net-zero emissions across all of our operations and value chain by 2030\n\n',
      );
    });
  },
);
