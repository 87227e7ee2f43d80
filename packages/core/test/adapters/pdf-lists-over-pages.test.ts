import { describe, expect, it } from 'vitest';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';
import { pagesPdf, textAt } from '../helpers/pdf-build.ts';

const COURIER = '<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>';

/** Lines of a report filling a page above what ends it. */
const FILL = Array.from(
  { length: 38 },
  (_, k) => `Line ${k + 1} of the report goes on for a while, as a report does, so that it fills the page.`,
);

/** A line at the margin, or at `x` where given as `[x, text]`. */
type At = string | readonly [number, string];

/**
 * A page of lines from the top down, one every 13 points in Helvetica; blank strings leave a line's
 * gap. A bullet "•" is drawn as WinAnsi's (0x95).
 */
const page = (lines: readonly At[]): string =>
  lines
    .map((t, k) => {
      const [x, s] = typeof t === 'string' ? [72, t] : t;
      return s ? textAt(x, 720 - 13 * k, s, 10, 'F1').replaceAll('•', '\\225') : '';
    })
    .filter(Boolean)
    .join('\n');

const STEPS = [
  '1. Book the large room on the second floor for the whole of the afternoon, so the team can set up early.',
  '2. Send the agenda to everyone who comes along.',
  '3. Order coffee and biscuits for the break.',
].join('\n');

/**
 * A list a page break cuts: its items on the next page go on the list, and an item's sentence cut
 * by the break goes on in the item. Read page by page, the list was two lists and the sentence two
 * paragraphs ("…for the whole of the" over "afternoon, so the team …").
 */
describe.each(pdfBackends)('PDF lists over a page break (%s)', (backend) => {
  const parsed = (pages: readonly (readonly At[])[]) =>
    engineFor(backend).parse(
      pagesPdf(pages.map(page)),
      {
        formats: ['markdown', { type: 'chunks', maxTokens: 30 }],
        parsers: [{ type: 'pdf', mode: 'fast', blocks: true }],
      },
      { filename: 'plan.pdf' },
    );
  const markdown = async (pages: readonly (readonly At[])[]) => (await parsed(pages)).markdown ?? '';

  it('goes on with the sentence of the item the break cuts, and with the list under it', async () => {
    const md = await markdown([
      [...FILL, '', 'The plan has three steps:', '1. Book the large room on the second floor for the whole of the'],
      [
        [86, 'afternoon, so the team can set up early.'],
        '2. Send the agenda to everyone who comes along.',
        '3. Order coffee and biscuits for the break.',
        '',
        'That is all for now.',
      ],
    ]);
    expect(md).toContain(`The plan has three steps:\n\n${STEPS}\n\nThat is all for now.`);
  });

  it('reads items going on at the next page as one list, numbered or bulleted', async () => {
    const numbered = await markdown([
      [...FILL.slice(0, 37), '', 'The plan has three steps:', '1. Book the large room.', '2. Send the agenda.'],
      ['3. Order coffee and biscuits for the break.', '', 'That is all for now.'],
    ]);
    expect(numbered).toContain(
      '1. Book the large room.\n2. Send the agenda.\n3. Order coffee and biscuits for the break.\n\nThat is all for now.',
    );
    const bulleted = await markdown([
      [...FILL.slice(0, 37), '', 'Bring these:', '• Water', '• A warm coat'],
      ['• Lunch for the day', '', 'That is all for now.'],
    ]);
    expect(bulleted).toContain('- Water\n- A warm coat\n- Lunch for the day\n\nThat is all for now.');
  });

  it('goes on with the sub-items at their level and then with the outer list', async () => {
    const md = await markdown([
      [...FILL.slice(0, 37), '', 'What to buy:', '1. Fruit', [86, '• Apples']],
      [[86, '• Pears'], '2. Bread', '', 'That is all for now.'],
    ]);
    expect(md).toContain('1. Fruit\n   - Apples\n   - Pears\n2. Bread\n\nThat is all for now.');
  });

  it('opens sub-items at the next page top under the last item, and goes on with the outer list', async () => {
    const md = await markdown([
      [...FILL.slice(0, 37), '', 'What to buy:', '1. Fruit', '2. Vegetables'],
      [[86, '• Carrots'], [86, '• Leeks'], '3. Bread', '', 'That is all for now.'],
    ]);
    expect(md).toContain('1. Fruit\n2. Vegetables\n   - Carrots\n   - Leeks\n3. Bread\n\nThat is all for now.');
  });

  it('goes on with an item over a page it fills, into the next', async () => {
    const whole = Array.from(
      { length: 52 },
      (_, k) => [86, `line ${k + 1} of the long item goes on and on about the room and what it holds for`] as const,
    );
    const md = await markdown([
      [...FILL, '', 'The plan:', '1. Book the large room on the second floor for the whole of the day, so that'],
      whole,
      [[86, 'the afternoon, so the team can set up early.'], '2. Send the agenda.', '', 'That is all for now.'],
    ]);
    expect(md).toContain(
      'holds for the afternoon, so the team can set up early.\n2. Send the agenda.\n\nThat is all for now.',
    );
    expect(md).toContain('so that line 1 of the long item');
  });

  it('goes on with a quote under the last item that the break cuts, and with the list under it', async () => {
    const md = await markdown([
      [
        ...FILL,
        '',
        'Points raised:',
        '1. Ann asked about the venue:',
        [86, '> Could you book the large room on the second floor for the whole'],
      ],
      [[86, '> afternoon, so the team can set up early?'], '2. Bob asked about lunch.', '', 'That is all.'],
    ]);
    expect(md).toContain(
      '1. Ann asked about the venue:\n\n   > Could you book the large room on the second floor for the whole afternoon, so the team can set up early?\n\n2. Bob asked about lunch.',
    );
  });

  it('goes on with a numbered or bulleted list from the right column of a page into the left column of the next', async () => {
    const column = (x: number, texts: readonly string[]) =>
      texts.map((t, k) => textAt(x, 720 - 13 * k, t, 10, 'F1').replaceAll('•', '\\225')).join('\n');
    const left = Array.from({ length: 40 }, (_, k) => `Left line ${k + 1} of the notes.`);
    const right = [...Array.from({ length: 37 }, (_, k) => `Right line ${k + 1} of the notes.`), 'The steps:'];
    /** Items ending the right column of a full two-column page, going on at the top of the next page's left column. */
    const columns = async (ending: readonly string[], goingOn: readonly string[]) =>
      (
        await engineFor(backend).parse(
          pagesPdf([
            [column(72, left), column(320, [...right, ...ending])].join('\n'),
            column(72, [...goingOn, '', 'That is all.']),
          ]),
          { parsers: [{ type: 'pdf', mode: 'fast' }] },
          { filename: 'cols.pdf' },
        )
      ).markdown ?? '';
    expect(
      await columns(['1. Book the room.', '2. Send the agenda.'], ['3. Order the coffee.', '4. Clear the room.']),
    ).toContain('1. Book the room.\n2. Send the agenda.\n3. Order the coffee.\n4. Clear the room.');
    expect(
      await columns(['• Book the room.', '• Send the agenda.'], ['• Order the coffee.', '• Clear the room.']),
    ).toContain('- Book the room.\n- Send the agenda.\n- Order the coffee.\n- Clear the room.');
  });

  it('gives the list its later page: the item sentence part and the chunks', async () => {
    const data = await parsed([
      [...FILL, '', 'The plan has three steps:', '1. Book the large room on the second floor for the whole of the'],
      [
        [86, 'afternoon, so the team can set up early.'],
        '2. Send the agenda to everyone who comes along.',
        '3. Order coffee and biscuits for the break.',
      ],
    ]);
    const item = data.blocks?.[0]?.items.at(-1);
    expect(item?.type).toBe('list');
    expect(item?.content).toBe(STEPS);
    const part = item?.continued?.[0];
    expect(part).toMatchObject({ pageNumber: 2, line: 0 });
    expect(item?.content.slice(part?.offset)).toMatch(/^afternoon, so the team/);
    expect(item?.continued).toHaveLength(1);
    expect(data.blocks?.[1]?.status).toBe('ok');
    const chunks = data.chunks ?? [];
    expect(chunks.find((c) => c.text.includes('Order coffee'))?.pages).toEqual([2]);
    // Page 2's part of the list: the sentence going on and the two items under it, every chunk of it placed so.
    const box = chunks.find((c) => c.text.includes('Order coffee'))?.bbox?.[0]?.bbox;
    expect(box?.[1]).toBeLessThan(75);
    expect(box?.[3]).toBeGreaterThan(95);
    expect(part?.bbox).toEqual(box);
    expect(chunks.find((c) => c.text.includes('Book the large room'))?.pages).toEqual([1, 2]);
  });

  it('gives a quote under the last item its later page: the quoted sentence going on, a quoted paragraph, the chunks', async () => {
    const point = (quoted: string, goingOn: string) =>
      parsed([
        [...FILL, '', 'Points raised:', '1. Ann asked about the venue:', [86, `> ${quoted}`]],
        [[86, `> ${goingOn}`], '2. Bob asked about lunch.', '', 'That is all.'],
      ]);
    const data = await point(
      'Could you book the large room on the second floor for the whole',
      'afternoon, so the team can set up early?',
    );
    const list = data.blocks?.[0]?.items.at(-1);
    expect(list?.content).toBe(
      '1. Ann asked about the venue:\n\n   > Could you book the large room on the second floor for the whole afternoon, so the team can set up early?\n\n2. Bob asked about lunch.',
    );
    // One part, where the quoted sentence goes on: the next item is printed on that page too.
    expect(list?.continued).toHaveLength(1);
    const part = list?.continued?.[0];
    expect(part).toMatchObject({ pageNumber: 2, line: 2 });
    expect(list?.content.slice(part?.offset)).toMatch(/^afternoon, so the team/);
    // The part's box is all page 2 holds of the list: the quoted line and the next item.
    expect(part?.bbox?.[1]).toBeLessThan(70);
    expect(part?.bbox?.[3]).toBeGreaterThan(80);
    const chunks = data.chunks ?? [];
    expect(chunks.find((c) => c.text.includes('Could you book'))?.pages).toEqual([1, 2]);
    expect(chunks.find((c) => c.text.includes('Bob asked'))?.pages).toEqual([2]);

    const paragraph = await point(
      'Could you book the large room on the second floor for the day.',
      'We need it by nine.',
    );
    const quoted = paragraph.blocks?.[0]?.items.at(-1);
    expect(quoted?.content).toContain(
      '   > Could you book the large room on the second floor for the day.\n   >\n   > We need it by nine.',
    );
    expect(quoted?.continued).toHaveLength(1);
    expect(quoted?.continued?.[0]?.pageNumber).toBe(2);
    expect(quoted?.content.slice(quoted?.continued?.[0]?.offset)).toMatch(/^We need it by nine\.\n\n2\. Bob/);

    // The last item, its quote going on over page 2 in three paragraphs: the part's box is all of them.
    const long = await parsed([
      [
        ...FILL,
        '',
        'Points raised:',
        '1. Bob asked about lunch.',
        '2. Ann asked about the venue:',
        [86, '> Could you book the large room on the second floor for the whole'],
      ],
      [
        [86, '> afternoon, so the team can set up early?'],
        [86, '>'],
        [86, '> We also need the projector, the chairs set out in rows,'],
        [86, '> and water on every table for the speakers.'],
        [86, '>'],
        [86, '> Thanks, Ann'],
        '',
        'That is all.',
      ],
    ]);
    const last = long.blocks?.[0]?.items.at(-1);
    expect(last?.continued).toHaveLength(1);
    const box = last?.continued?.[0]?.bbox;
    // Lines every 13 points from 720 down: the quote's first line on page 2 near 62 from the top, "Thanks" near 137.
    expect(box?.[1]).toBeLessThan(70);
    expect(box?.[3]).toBeGreaterThan(130);
    const projector = long.chunks?.find((c) => c.text.includes('projector'));
    expect(projector?.pages).toEqual([2]);
    expect(projector?.bbox?.[0]?.bbox?.[3]).toBeGreaterThan(130);
  });

  it('goes on with the commands under the last step that the break cuts, in the step, each page keeping its part', async () => {
    /** Commands in Courier (`F3`) at `x`, one every 12 points from `y` down. */
    const commands = (x: number, y: number, rows: readonly string[]) =>
      rows.map((t, k) => textAt(x, y - 12 * k, t, 10, 'F3')).join('\n');
    const guide = (nextX: number) =>
      engineFor(backend).parse(
        pagesPdf(
          [
            [
              page([...FILL.slice(0, 36), '', '1. Install the package and check it:']),
              commands(90, 720 - 13 * 38, ['npm install docmill', 'npx docmill --version']),
            ].join('\n'),
            [
              commands(nextX, 720, ['npx docmill --help', 'npx docmill sample.pdf']),
              page(['', '', '2. Run it on a file and read the Markdown it prints.', '', 'That is all.']),
            ].join('\n'),
          ],
          612,
          792,
          [COURIER],
        ),
        {
          formats: ['markdown', { type: 'chunks', maxTokens: 30 }],
          parsers: [{ type: 'pdf', mode: 'fast', blocks: true }],
        },
        { filename: 'guide.pdf' },
      );
    const data = await guide(90);
    const steps = [
      '1. Install the package and check it:',
      '',
      '   ```',
      '   npm install docmill',
      '   npx docmill --version',
      '   npx docmill --help',
      '   npx docmill sample.pdf',
      '   ```',
      '',
      '2. Run it on a file and read the Markdown it prints.',
    ].join('\n');
    expect(data.markdown).toContain(`${steps}\n\nThat is all.`);
    const list = data.blocks?.[0]?.items.at(-1);
    expect(list?.content).toBe(steps);
    expect(list?.continued).toHaveLength(1);
    const part = list?.continued?.[0];
    expect(part?.pageNumber).toBe(2);
    expect(list?.content.slice(part?.offset)).toMatch(/^npx docmill --help\n/);
    expect(list?.content.split('\n')[part?.line ?? 0]).toBe('   npx docmill --help');
    const chunks = data.chunks ?? [];
    expect(chunks.find((c) => c.text.includes('npx docmill --help'))?.pages).toEqual([1, 2]);
    expect(chunks.find((c) => c.text.includes('Run it on a file'))?.pages).toEqual([2]);
    // Commands the next page sets out at the margin, left of the step's: a listing of their own.
    expect((await guide(72)).markdown).toContain('   npx docmill --version\n   ```\n\n```\nnpx docmill --help');
  });

  it('gives a list the box of all its items, not of its first line', async () => {
    const data = await parsed([
      ['Bring these:', '• Water', '• A warm coat for the evening', [86, '• Gloves'], '', 'Done.'],
    ]);
    const item = data.blocks?.[0]?.items.find((i) => i.type === 'list');
    // Lines every 13 points from 720 down: the first item's line ends near 87 from the top, the last one's near 111.
    expect(item?.bbox?.[1]).toBeLessThan(80);
    expect(item?.bbox?.[3]).toBeGreaterThan(105);
    expect(item?.bbox?.[2]).toBeGreaterThan(200);
  });

  it('keeps apart a list ending mid-page, a list numbered anew, and a paragraph at the margin', async () => {
    const midPage = await markdown([
      ['The plan has two steps:', '1. Book the large room.', '2. Send the agenda.'],
      ['3. Order coffee and biscuits for the break.', '', 'That is all for now.'],
    ]);
    expect(midPage).toContain('2. Send the agenda.\n\n3. Order coffee');
    const anew = await markdown([
      [...FILL.slice(0, 37), '', 'The plan has two steps:', '1. Book the large room.', '2. Send the agenda.'],
      ['1. Order coffee and biscuits for the break.', '2. Clear the room.'],
    ]);
    expect(anew).toContain('2. Send the agenda.\n\n1. Order coffee');
    const note = await markdown([
      [
        ...FILL.slice(0, 37),
        '',
        'Bring these:',
        '• Water for the day',
        '• A warm coat for every member of the team on the walk',
      ],
      [[90, 'see the kit list in the appendix for sizes and where to buy them.']],
    ]);
    expect(note).toContain('on the walk\n\nsee the kit list');
    // A manual's next page sets its list further in: the same kind of items, no sub-items.
    const setIn = await markdown([
      [...FILL.slice(0, 37), '', 'Messages:', '• CF041 - Invalid check number', '• CF042 - Data not found'],
      [
        [108, '• CF090 - The cycle table is empty'],
        [108, '• CF091 - The cycle field is null'],
      ],
    ]);
    expect(setIn).toContain('- CF042 - Data not found\n\n- CF090 - The cycle table is empty');
    const margin = await markdown([
      [...FILL, '', 'The plan has three steps:', '1. Book the large room on the second floor for the whole of the'],
      ['afternoon is what the team asked for, and the rest of the day is free.'],
    ]);
    expect(margin).toContain('for the whole of the\n\nafternoon is what the team asked for');
  });
});
