import { describe, expect, it } from 'vitest';
import { corpusFile, corpusSkipReason, hasCorpus } from '../helpers/corpus.ts';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';
import { pagesPdf, textAt } from '../helpers/pdf-build.ts';

/**
 * Lists set side by side on a page (a comparison's "Pros" and "Cons", a packing list's two halves,
 * a question's choices two a row), read in the order their authors meant: each bulleted list whole,
 * one after the other; choices numbered on across a row, row by row. Read row by row, the items of
 * two lists were joined in pairs, or nested one list in the other.
 */

/** A line opening with a bullet glyph (WinAnsi 0x95, "•"), drawn in Helvetica at (x, y). */
const item = (x: number, y: number, text: string): string => `BT /F1 10 Tf ${x} ${y} Td (\\225 ${text}) Tj ET`;
/** A bullet glyph alone, its item's text a tab's width to its right. */
const mark = (x: number, y: number): string => `BT /F1 10 Tf ${x} ${y} Td (\\225) Tj ET`;

const page = (...ops: string[]): Uint8Array => pagesPdf([ops.join('\n')]);

/** The comparison most cases lay out: its lead-in and closing lines, the heads' row, and its two lists. */
const INTRO = 'We compared the two runtimes on a week of real traffic before deciding which one to keep.';
const CLOSING = 'In the end we kept the first runtime and moved the plugins we needed over to it.';
const introAt = (y: number): string => textAt(72, y, INTRO);
const HEADS = [textAt(72, 660, 'Pros', 12, 'F2'), textAt(320, 660, 'Cons', 12, 'F2')];
const PROS = ['Fast start', 'Small memory use', 'Good tooling'];
const CONS = ['High price', 'Few plugins', 'Slow support'];

/** A numbered question at `y` over its four bulleted choices set two a row. */
const bulletQuestion = (y: number, n: number, text: string, c: string[]): string[] => [
  textAt(72, y, `${n}. ${text}`),
  item(90, y - 18, c[0] as string),
  item(320, y - 18, c[1] as string),
  item(90, y - 32, c[2] as string),
  item(320, y - 32, c[3] as string),
];

const modes = ['fast', 'auto'] as const;

describe.each(pdfBackends)('PDF lists side by side (%s)', (backend) => {
  const markdown = async (pdf: Uint8Array, mode: (typeof modes)[number] = 'fast') =>
    (await engineFor(backend).parse(pdf, { parsers: [{ type: 'pdf', mode }] }, { filename: 'lists.pdf' })).markdown ??
    '';

  it.each(modes)('reads two lists under their heads one after the other (%s)', async (mode) => {
    const pdf = page(
      textAt(72, 720, 'Choosing a runtime', 16, 'F2'),
      introAt(690),
      ...HEADS,
      item(72, 642, 'Fast start'),
      item(320, 642, 'High price'),
      item(72, 628, 'Small memory use'),
      item(320, 628, 'Few plugins'),
      item(72, 614, 'Good tooling'),
      item(320, 614, 'Slow support'),
      textAt(72, 580, CLOSING),
    );
    expect(await markdown(pdf, mode)).toBe(
      [
        '# Choosing a runtime',
        '',
        INTRO,
        '',
        '## Pros',
        '',
        '- Fast start',
        '- Small memory use',
        '- Good tooling',
        '',
        '## Cons',
        '',
        '- High price',
        '- Few plugins',
        '- Slow support',
        '',
        CLOSING,
        '',
      ].join('\n'),
    );
  });

  it('keeps each wrapped item whole, in its own list, and lists marked with dashes too', async () => {
    const wrapped = page(
      textAt(72, 690, 'Before', 12, 'F2'),
      textAt(320, 690, 'After', 12, 'F2'),
      item(72, 672, 'Reports were typed again by'),
      item(320, 672, 'Reports are made from the'),
      textAt(82, 658, 'hand every month'),
      textAt(330, 658, 'ledger in one step'),
      item(72, 644, 'Errors found late'),
      item(320, 644, 'Errors are found as they'),
      textAt(330, 630, 'are made'),
      item(72, 616, 'Two days of work'),
      item(320, 616, 'Ten minutes of work'),
    );
    // The heads are the page's only headings, so of the first level.
    expect(await markdown(wrapped)).toBe(
      [
        '# Before',
        '',
        '- Reports were typed again by hand every month',
        '- Errors found late',
        '- Two days of work',
        '',
        '# After',
        '',
        '- Reports are made from the ledger in one step',
        '- Errors are found as they are made',
        '- Ten minutes of work',
        '',
      ].join('\n'),
    );
    const dashed = page(
      introAt(690),
      ...HEADS,
      ...PROS.map((t, k) => textAt(72, 642 - 14 * k, `- ${t}`)),
      ...CONS.map((t, k) => textAt(320, 642 - 14 * k, `- ${t}`)),
      textAt(72, 580, CLOSING),
    );
    const md = await markdown(dashed);
    expect(md).toContain('# Pros\n\n- Fast start\n- Small memory use\n- Good tooling\n\n# Cons\n\n- High price\n');
  });

  it('reads bullets drawn apart from their items, under heads, as lists and not as a table', async () => {
    const pdf = page(
      textAt(72, 720, 'What to bring', 12, 'F2'),
      textAt(320, 720, 'What to leave', 12, 'F2'),
      mark(72, 700),
      textAt(90, 700, 'Water'),
      mark(320, 700),
      textAt(338, 700, 'Glass bottles'),
      mark(72, 686),
      textAt(90, 686, 'A hat'),
      mark(320, 686),
      textAt(338, 686, 'Pets'),
      mark(72, 672),
      textAt(90, 672, 'Sun cream'),
    );
    const md = await markdown(pdf);
    expect(md).not.toContain('|');
    expect(md).toContain('What to bring\n\n- Water\n- A hat\n- Sun cream\n');
    expect(md).toContain('What to leave\n\n- Glass bottles\n- Pets\n');
  });

  it('reads a grid of bulleted items without heads as one list, no list nested in another', async () => {
    const pdf = page(
      textAt(72, 720, 'Which cities have you visited?', 11),
      item(72, 700, 'Paris'),
      item(200, 700, 'London'),
      item(72, 686, 'Rome'),
      item(200, 686, 'Berlin'),
    );
    expect(await markdown(pdf)).toBe(
      ['Which cities have you visited?', '', '- Paris', '- Rome', '- London', '- Berlin', ''].join('\n'),
    );
  });

  it('reads two items on one row as siblings, not the second nested in the first', async () => {
    const pdf = page(
      textAt(72, 720, 'Pick a drink for the break, which we will order on the day before.', 10),
      item(72, 700, 'Tea'),
      item(200, 700, 'Coffee'),
      textAt(72, 670, 'Thank you for your answer, which we will keep for a year.', 10),
    );
    expect(await markdown(pdf)).toContain('\n\n- Tea\n- Coffee\n\n');
  });

  it.each(modes)('reads choices set two a row row by row, under their question (%s)', async (mode) => {
    const q = (y: number, n: number, text: string, choices: string[]) => [
      textAt(72, y, `${n}. ${text}`),
      textAt(90, y - 20, `a) ${choices[0]}`),
      textAt(320, y - 20, `b) ${choices[1]}`),
      textAt(90, y - 34, `c) ${choices[2]}`),
      textAt(320, y - 34, `d) ${choices[3]}`),
    ];
    const pdf = page(
      ...q(720, 1, 'Which of these is the capital city of Australia and its seat of government?', [
        'Sydney, the largest city',
        'Canberra, a planned city',
        'Melbourne, the old capital',
        'Perth, on the west coast',
      ]),
      ...q(660, 2, 'Which river is the longest river that flows wholly within the country?', [
        'The Murray River',
        'The Darling River',
        'The Murrumbidgee River',
        'The Lachlan River',
      ]),
      ...q(600, 3, 'In which year did the colonies federate to form one nation at last?', [
        '1788',
        '1851',
        '1901',
        '1927',
      ]),
    );
    const md = await markdown(pdf, mode);
    expect(md).toContain(
      [
        '1. Which of these is the capital city of Australia and its seat of government?',
        '   - a) Sydney, the largest city',
        '   - b) Canberra, a planned city',
        '   - c) Melbourne, the old capital',
        '   - d) Perth, on the west coast',
        '2. Which river is the longest river that flows wholly within the country?',
        '   - a) The Murray River',
        '   - b) The Darling River',
        '   - c) The Murrumbidgee River',
        '   - d) The Lachlan River',
        '3. In which year did the colonies federate to form one nation at last?',
        '   - a) 1788',
        '   - b) 1851',
        '   - c) 1901',
        '   - d) 1927',
      ].join('\n'),
    );
  });

  it('reads numbered steps in the order of their numbers, down the columns or across the rows', async () => {
    const steps = ['Unpack the box', 'Find the stand', 'Fit the lid', 'Fill the tank', 'Plug it in', 'Press start'];
    const read = [
      '1. Unpack the box',
      '2. Find the stand',
      '3. Fit the lid',
      '4. Fill the tank',
      '5. Plug it in',
      '6. Press start',
    ];
    // Down the columns: 1-3 on the left, 4-6 on the right.
    const down = page(
      textAt(72, 720, 'Steps', 14, 'F2'),
      ...steps.map((t, k) => textAt(k < 3 ? 72 : 320, 696 - 14 * (k % 3), `${k + 1}. ${t}`)),
    );
    expect(await markdown(down)).toContain(read.join('\n'));
    // Across the rows: 1 and 2 on the first row, 3 and 4 on the next.
    const across = page(
      textAt(72, 720, 'Steps', 14, 'F2'),
      ...steps.map((t, k) => textAt(k % 2 ? 320 : 72, 696 - 14 * Math.floor(k / 2), `${k + 1}. ${t}`)),
    );
    expect(await markdown(across)).toContain(read.join('\n'));
  });

  it('reads steps three or four a row in the order of their numbers, and three columns of steps down each column', async () => {
    const steps = Array.from({ length: 12 }, (_, k) => `${k + 1}. Step ${k + 1} of the set`);
    const read = steps.join('\n');
    /** The steps `per` a row, their columns `pitch` points apart from 72. */
    const rows = (per: number, pitch: number) =>
      page(
        textAt(72, 720, 'Steps', 14, 'F2'),
        ...steps.map((t, k) => textAt(72 + pitch * (k % per), 696 - 14 * Math.floor(k / per), t)),
        textAt(72, 600, CLOSING),
      );
    expect(await markdown(rows(3, 168))).toContain(`${read}\n\n${CLOSING}`);
    expect(await markdown(rows(4, 126))).toContain(`${read}\n\n${CLOSING}`);
    // Down three columns: 1-4, 5-8, 9-12.
    const down = page(
      textAt(72, 720, 'Steps', 14, 'F2'),
      ...steps.map((t, k) => textAt(72 + 168 * Math.floor(k / 4), 696 - 14 * (k % 4), t)),
      textAt(72, 600, CLOSING),
    );
    expect(await markdown(down)).toContain(`${read}\n\n${CLOSING}`);
  });

  it('reads steps two or three a row wrapped flush under their numbers whole, in the order of their numbers', async () => {
    const first = [
      'Unpack the box and',
      'Find the stand and',
      'Fit the lid on the',
      'Fill the tank with',
      'Plug it in at the',
      'Press the start',
    ];
    const rest = ['check the parts', 'set it up', 'tank firmly', 'clean water', 'wall socket', 'button once'];
    const read = first.map((t, k) => `${k + 1}. ${t} ${rest[k]}`).join('\n');
    /** The steps `per` a row, `pitch` points apart, each wrapped onto a line under its number. */
    const wrapped = (per: number, pitch: number) =>
      page(
        textAt(72, 740, 'Steps', 14, 'F2'),
        ...first.flatMap((t, k) => {
          const [x, y] = [72 + pitch * (k % per), 716 - 28 * Math.floor(k / per)];
          return [textAt(x, y, `${k + 1}. ${t}`), textAt(x, y - 13, rest[k] as string)];
        }),
        textAt(72, 600, CLOSING),
      );
    expect(await markdown(wrapped(3, 168))).toContain(`${read}\n\n${CLOSING}`);
    expect(await markdown(wrapped(2, 248))).toContain(`${read}\n\n${CLOSING}`);
  });

  it('keeps heads set out left of their bullets, a note under the lists after both, and a one-item list', async () => {
    const lists = (dx: number, right = CONS) => [
      ...PROS.map((t, k) => item(72 + dx, 642 - 14 * k, t)),
      ...right.map((t, k) => item(320 + dx, 642 - 14 * k, t)),
    ];
    const read = (right = CONS) =>
      ['# Pros', '', ...PROS.map((t) => `- ${t}`), '', '# Cons', '', ...right.map((t) => `- ${t}`), ''].join('\n');
    // The bullets set in a tab's width from their heads.
    expect(await markdown(page(introAt(700), ...HEADS, ...lists(18)))).toContain(read());
    // A note set close under the left list's last item, at its bullets' edge, is no line of it.
    const noted = await markdown(page(introAt(700), ...HEADS, ...lists(0), textAt(72, 596, 'Source: our own tests.')));
    expect(noted).toContain(`${read()}\nSource: our own tests.\n`);
    // One item under a head, three under the other.
    expect(await markdown(page(introAt(700), ...HEADS, ...lists(0, ['High price'])))).toContain(read(['High price']));
  });

  it('keeps the choices of a question set two a row under it, and the second level of an outline beside its first', async () => {
    const form = page(
      textAt(72, 720, 'Health questionnaire', 14, 'F2'),
      ...['Do you smoke?', 'Do you drink?', 'Do you exercise?'].flatMap((q, k) => [
        textAt(72, 696 - 30 * k, q),
        item(72, 682 - 30 * k, 'Yes'),
        item(200, 682 - 30 * k, 'No'),
      ]),
    );
    expect(await markdown(form)).toBe(
      [
        '# Health questionnaire',
        ...['Do you smoke?', 'Do you drink?', 'Do you exercise?'].flatMap((q) => ['', q, '', '- Yes', '- No']),
        '',
      ].join('\n'),
    );
    const outline = page(
      textAt(72, 720, 'What we grow in the school garden, by bed, as agreed at the spring meeting:'),
      item(72, 700, 'Fruit'),
      item(200, 700, 'Apples'),
      item(200, 686, 'Pears'),
      item(72, 672, 'Vegetables'),
      item(200, 672, 'Carrots'),
      item(200, 658, 'Leeks'),
      item(72, 644, 'Herbs'),
      item(200, 644, 'Mint'),
      item(200, 630, 'Sage'),
    );
    expect(await markdown(outline)).toContain(
      [
        '- Fruit',
        '  - Apples',
        '  - Pears',
        '- Vegetables',
        '  - Carrots',
        '  - Leeks',
        '- Herbs',
        '  - Mint',
        '  - Sage',
      ].join('\n'),
    );
  });

  it('keeps bulleted choices set two a row under their numbered question, however short the question', async () => {
    const pdf = page(
      ...bulletQuestion(720, 1, 'Which of these is the capital city of Australia and its seat of government?', [
        'Sydney',
        'Canberra',
        'Melbourne',
        'Perth',
      ]),
      ...bulletQuestion(670, 2, 'Short one?', ['1788', '1851', '1901', '1927']),
    );
    const md = await markdown(pdf);
    // The grid's bullets read down its columns, each choice under its question.
    expect(md).toContain(
      [
        '1. Which of these is the capital city of Australia and its seat of government?',
        '   - Sydney',
        '   - Melbourne',
        '   - Canberra',
        '   - Perth',
        '2. Short one?',
        '   - 1788',
        '   - 1901',
        '   - 1851',
        '   - 1927',
      ].join('\n'),
    );
  });

  it('reads a page of two columns, each with a numbered list, column by column', async () => {
    const left = [
      'The survey was sent to every member of the',
      'club in the spring, and most of them sent it',
      'back within the month. We asked them three',
      'things about the season just gone:',
      '1. Which matches they went to',
      '2. How they travelled there',
      '3. What they spent on the day',
      'Their answers are set out below, and they',
      'show a club whose members travel further than',
      'they did ten years ago, and spend more too.',
    ];
    // The right column's list starts a row higher, its "1." beside the left's "2.".
    const right = [
      'The committee met in June to weigh the',
      'answers, and agreed on the steps that',
      'follow for the season to come:',
      '1. Run a coach to every away match',
      '2. Open the bar an hour earlier',
      '3. Hold ticket prices where they are',
      '4. Ask members again next spring',
      'The steps will be reviewed by the whole',
      'committee at the end of the season, when',
      'the next survey goes out to the members.',
    ];
    const pdf = page(
      textAt(72, 740, 'Members survey', 16, 'F2'),
      ...left.map((t, k) => textAt(72, 700 - 14 * k, t)),
      ...right.map((t, k) => textAt(320, 700 - 14 * k, t)),
    );
    const md = await markdown(pdf);
    expect(md).toContain(
      'things about the season just gone:\n\n1. Which matches they went to\n2. How they travelled there\n3. What they spent on the day\n\nTheir answers',
    );
    expect(md).toContain('spend more too.\n\nThe committee met in June');
    expect(md).toContain('1. Run a coach to every away match\n2. Open the bar an hour earlier');
  });

  it('reads items numbered on across rows whole where they wrap, choices and questions alike', async () => {
    const choices = [
      ['a) Because the river had flooded the', 'road on the north bank twice'],
      ['b) Because a new bridge had been', 'built a mile further down'],
      ['c) Because the stone of its arches had', 'cracked in a hard winter'],
      ['d) Because the railway company wanted', 'the land for a station'],
    ];
    const quiz = page(
      textAt(72, 720, 'Why did the town council close the old bridge in 1998?'),
      ...choices.flatMap(([a, b], k) => {
        const x = k % 2 ? 320 : 90;
        const y = 700 - Math.floor(k / 2) * 30;
        return [textAt(x, y, a as string), textAt(x + 12, y - 12, b as string)];
      }),
      textAt(72, 620, 'Hand the sheet in at the end of the lesson, with your name on the top.'),
    );
    expect(await markdown(quiz)).toContain(
      [
        '- a) Because the river had flooded the road on the north bank twice',
        '- b) Because a new bridge had been built a mile further down',
        '- c) Because the stone of its arches had cracked in a hard winter',
        '- d) Because the railway company wanted the land for a station',
      ].join('\n'),
    );
    const questions = [
      ['Which river flows through Paris and', 'ends in the English Channel?'],
      ['Which mountain range runs along the', 'border between France and Spain?'],
      ['What is the largest lake of the whole', 'African continent by its area?'],
      ['Which country has the most islands', 'of any country in the whole world?'],
    ];
    const sheet = page(
      textAt(72, 750, 'Worksheet', 16, 'F2'),
      ...questions.flatMap(([a, b], k) => {
        const x = k % 2 ? 320 : 72;
        const y = 710 - Math.floor(k / 2) * 60;
        return [textAt(x, y, `${k + 1}. ${a}`), textAt(x + 14, y - 13, b as string)];
      }),
    );
    expect(await markdown(sheet)).toContain(
      [
        '1. Which river flows through Paris and ends in the English Channel?',
        '2. Which mountain range runs along the border between France and Spain?',
        '3. What is the largest lake of the whole African continent by its area?',
        '4. Which country has the most islands of any country in the whole world?',
      ].join('\n'),
    );
  });

  it('keeps the columns of a page where choices set two a row stand over them', async () => {
    const pdf = page(
      textAt(72, 740, 'Which of these cities is the capital of Australia? Choose one answer below.'),
      textAt(72, 720, 'a) Sydney'),
      textAt(320, 720, 'b) Canberra'),
      textAt(72, 706, 'c) Melbourne'),
      textAt(320, 706, 'd) Perth'),
      ...Array.from({ length: 12 }, (_, k) => textAt(72, 680 - 14 * k, `Left column text line ${k + 1} on the city.`)),
      ...Array.from({ length: 12 }, (_, k) =>
        textAt(320, 680 - 14 * k, `Right column text line ${k + 1} on its past.`),
      ),
    );
    const md = await markdown(pdf);
    expect(md).toContain('Left column text line 11 on the city. Left column text line 12 on the city.');
    expect(md).toContain('Right column text line 1 on its past. Right column text line 2 on its past.');
  });

  it('keeps every item of lists under heads: sub-items, and items drawn a tab from their bullets', async () => {
    const subs = await markdown(
      page(
        introAt(700),
        ...HEADS,
        item(72, 642, 'Fast start'),
        item(320, 642, 'High price'),
        item(90, 628, 'under a second'),
        item(338, 628, 'per seat'),
        item(72, 614, 'Small memory'),
        item(320, 614, 'Few plugins'),
      ),
    );
    expect(subs).toContain(
      '# Pros\n\n- Fast start\n  - under a second\n- Small memory\n\n# Cons\n\n- High price\n  - per seat\n- Few plugins\n',
    );
    // The long item ends within a size of the right column's bullets; its text is kept.
    const apart = await markdown(
      page(
        introAt(700),
        ...HEADS,
        ...['Fast start', 'Small memory use when idle for long hours', 'Good docs'].flatMap((t, k) => [
          mark(72, 642 - 14 * k),
          textAt(90, 642 - 14 * k, t),
        ]),
        ...CONS.flatMap((t, k) => [mark(320, 642 - 14 * k), textAt(338, 642 - 14 * k, t)]),
      ),
    );
    expect(apart).toContain(
      '# Pros\n\n- Fast start\n- Small memory use when idle for long hours\n- Good docs\n\n# Cons',
    );
  });

  it('nests choices set on the row of their question', async () => {
    const quiz = page(
      textAt(72, 720, 'Answer each question by ringing one choice.'),
      ...['Is Paris the capital of France?', 'Is Rome in Spain?'].flatMap((q, k) => [
        textAt(72, 700 - 16 * k, `${k + 1}. ${q}`),
        textAt(400, 700 - 16 * k, 'a) Yes'),
        textAt(460, 700 - 16 * k, 'b) No'),
      ]),
    );
    expect(await markdown(quiz)).toContain(
      [
        '1. Is Paris the capital of France?',
        '   - a) Yes',
        '   - b) No',
        '2. Is Rome in Spain?',
        '   - a) Yes',
        '   - b) No',
      ].join('\n'),
    );
  });

  it('keeps two columns of notes under choices set two a row as columns', async () => {
    const ops = [textAt(72, 760, 'Quiz', 16, 'F2')];
    const questions = [
      ['Capital of France?', 'Paris', 'Lyon', 'Nice', 'Lille'],
      ['Largest planet?', 'Mars', 'Jupiter', 'Venus', 'Earth'],
    ];
    questions.forEach(([q, a, b, c, d], n) => {
      const y = 735 - 51 * n;
      ops.push(textAt(72, y, `${n + 1}. ${q}`), textAt(90, y - 15, `a) ${a}`), textAt(320, y - 15, `b) ${b}`));
      ops.push(textAt(90, y - 29, `c) ${c}`), textAt(320, y - 29, `d) ${d}`));
    });
    ops.push(
      textAt(72, 610, 'Answers are given on the back page,'),
      textAt(72, 597, 'with a short note on each of them.'),
      textAt(320, 610, 'Marks are out of three for the quiz;'),
      textAt(320, 597, 'two or more is a pass for the term.'),
    );
    const md = await markdown(page(...ops));
    expect(md).toContain('Answers are given on the back page, with a short note on each of them.');
    expect(md).toContain('Marks are out of three for the quiz; two or more is a pass for the term.');
  });

  it('nests numbered codes on the row of a numbered question, the questions keeping their numbers', async () => {
    const pdf = page(
      textAt(72, 738, 'Ring one code for the question and answer the rest in words.'),
      textAt(72, 715, '4. Do you smoke?'),
      textAt(300, 715, '1. Yes'),
      textAt(360, 715, '2. No'),
      textAt(72, 695, '5. How many years have you lived at your present address, counting from'),
      textAt(86, 682, 'the day you moved in?'),
    );
    expect(await markdown(pdf)).toContain(
      [
        '4. Do you smoke?',
        '   1. Yes',
        '   2. No',
        '5. How many years have you lived at your present address, counting from the day you moved in?',
      ].join('\n'),
    );
  });

  it('reads bulleted lists under numbered heads, and bullets a hanging indent from their text', async () => {
    const heads = page(
      textAt(72, 738, 'The review found the following.'),
      textAt(72, 715, '1. Strengths'),
      textAt(320, 715, '2. Weaknesses'),
      ...['Fast start', 'Low cost', 'Good staff'].map((t, k) => item(72, 700 - 14 * k, t)),
      ...['High price', 'Slow to ship', 'Few shops'].map((t, k) => item(320, 700 - 14 * k, t)),
      textAt(72, 640, 'The board will meet again in May to look at these.'),
    );
    const md = await markdown(heads);
    expect(md).toContain('1. Strengths\n\n- Fast start\n- Low cost\n- Good staff\n');
    expect(md).toContain('2. Weaknesses\n\n- High price\n- Slow to ship\n- Few shops\n');
    // Half an inch between each bullet and its text, an item of each list wrapping.
    const hanging = page(
      mark(72, 720),
      textAt(108, 720, 'Fast start and a low price for'),
      textAt(108, 707, 'the first year'),
      mark(72, 692),
      textAt(108, 692, 'Good staff'),
      mark(320, 720),
      textAt(356, 720, 'High price once the first year'),
      textAt(356, 707, 'is over'),
      mark(320, 692),
      textAt(356, 692, 'Slow to ship'),
      textAt(72, 640, 'The board meets in May.'),
    );
    expect(await markdown(hanging)).toContain(
      [
        '- Fast start and a low price for the first year',
        '- Good staff',
        '- High price once the first year is over',
        '- Slow to ship',
      ].join('\n'),
    );
  });

  it('keeps one list of questions whose short questions have choices two a row, and sub-items two a row under their parents', async () => {
    const quiz = page(
      ...bulletQuestion(720, 1, 'Capital of Australia?', ['Sydney', 'Canberra', 'Melbourne', 'Perth']),
      ...bulletQuestion(670, 2, 'Short one?', ['1788', '1851', '1901', '1927']),
      ...bulletQuestion(620, 3, 'Largest state?', ['Queensland', 'Victoria', 'Western Australia', 'Tasmania']),
    );
    const md = await markdown(quiz);
    expect(md).toContain(
      [
        '   - 1927',
        '3. Largest state?',
        '   - Queensland',
        '   - Western Australia',
        '   - Victoria',
        '   - Tasmania',
      ].join('\n'),
    );
    expect(md).not.toMatch(/\n\n\d\. /);
    const sub = (x: number, y: number, t: string) => textAt(x, y, `- ${t}`);
    const shopping = page(
      ...(
        [
          ['Fruit', ['Apples', 'Pears', 'Plums', 'Figs']],
          ['Vegetables', ['Carrots', 'Leeks', 'Onions', 'Kale']],
        ] as const
      ).flatMap(([parent, [a, b, c, d]], k) => {
        const y = 720 - 42 * k;
        return [item(72, y, parent), sub(90, y - 14, a), sub(300, y - 14, b), sub(90, y - 28, c), sub(300, y - 28, d)];
      }),
    );
    expect(await markdown(shopping)).toContain(
      [
        '- Fruit',
        '  - Apples',
        '  - Plums',
        '  - Pears',
        '  - Figs',
        '- Vegetables',
        '  - Carrots',
        '  - Onions',
        '  - Leeks',
        '  - Kale',
      ].join('\n'),
    );
  });

  it.skipIf(!hasCorpus)('reads a list going on into the next column as one list (failure-after-repair)', async () => {
    const md = await markdown(corpusFile('pdfbench', 'unstructured_pdf_failure-after-repair.pdf'));
    const to = md.indexOf('## Living with breast cancer');
    const key = md.slice(md.lastIndexOf('###### Key points', to), to);
    const items = key.split('\n').filter((l) => /^\s*- /.test(l));
    expect(items.length).toBe(8);
    expect(items.every((l) => l.startsWith('- '))).toBe(true);
    expect(items[4]).toBe('- The recovery time after surgery varies depending on the type of surgery you have.');
  });
  if (!hasCorpus) it.skip(corpusSkipReason, () => {});
});
