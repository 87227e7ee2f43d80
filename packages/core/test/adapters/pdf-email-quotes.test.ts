import { describe, expect, it } from 'vitest';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';
import { pagesPdf, textAt } from '../helpers/pdf-build.ts';

/** Courier, as an e-mail printout sets its lines (`F3`). */
const COURIER = '<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>';

/**
 * An e-mail printed to PDF quotes the message it answers line by line (">"): the quoted lines are
 * a quote of their own, their paragraphs parted by lines holding only the mark, a quote within a
 * quote nested; read as prose they joined the line above with their marks ("wrote: > Could you").
 */
describe.each(pdfBackends)('PDF e-mail quotes (%s)', (backend) => {
  const markdown = async (lines: string[], font = 'F1') =>
    (
      await engineFor(backend).parse(
        pagesPdf(
          [
            lines
              .map((t, k) => (t ? textAt(72, 720 - 13 * k, t, 10, font) : ''))
              .filter(Boolean)
              .join('\n'),
          ],
          612,
          792,
          [COURIER],
        ),
        { parsers: [{ type: 'pdf', mode: 'fast' }] },
        { filename: 'reply.pdf' },
      )
    ).markdown ?? '';

  const reply = [
    'Thanks, that works for me. I will bring the slides on Tuesday.',
    '',
    'On Mon, 3 Mar 2025 at 10:12, Ann Lee wrote:',
    '> Could you present the results at the team meeting next week? We',
    '> have the room from ten until noon, so there is plenty of time.',
    '>',
    '> Ann',
  ];
  const read = [
    'On Mon, 3 Mar 2025 at 10:12, Ann Lee wrote:',
    '',
    '> Could you present the results at the team meeting next week? We have the room from ten until noon, so there is plenty of time.',
    '>',
    '> Ann',
  ].join('\n');

  it.each(['F1', 'F3'])('reads the quoted lines of a reply as a quote (font %s)', async (font) => {
    const md = await markdown(reply, font);
    expect(md).toContain(read);
    expect(md).not.toContain('wrote: >');
  });

  it('nests a quote within a quote', async () => {
    const md = await markdown([
      'Yes, Tuesday is fine.',
      '',
      '> Is Tuesday still good for you?',
      '>',
      '> > Shall we meet next week to go over',
      '> > the figures before the board sees them?',
    ]);
    expect(md).toContain(
      '> Is Tuesday still good for you?\n>\n> > Shall we meet next week to go over the figures before the board sees them?',
    );
  });

  it.each(['F1', 'F3'])(
    'reads quoted lines whose marks have no blank after them as a quote (font %s)',
    async (font) => {
      const md = await markdown(
        ['Sure.', '', 'Ann wrote:', '>Could you present the results at the team meeting?', '>', '>Ann'],
        font,
      );
      expect(md).toContain('Ann wrote:\n\n> Could you present the results at the team meeting?\n>\n> Ann');
    },
  );

  it.each(['F1', 'F3'])('keeps a sign-off and the signature under it a line each (font %s)', async (font) => {
    const md = await markdown(
      [
        'Thanks, that works for me. I will bring the slides on Tuesday and the handouts.',
        '',
        'Kind regards,',
        'Bob Ray',
        'Head of Finance',
        'Acme Ltd',
        '',
        'Thanks to the team the results are ready, and the room is booked from',
        'ten until noon for the whole of the afternoon.',
      ],
      font,
    );
    expect(md).toContain('Kind regards,\n\nBob Ray\n\nHead of Finance\n\nAcme Ltd\n\nThanks to the team');
    // A closing word opening a sentence is prose.
    expect(md).toContain('is booked from ten until noon');
    // A closing under the message's last line with no gap; a signature with its addresses; a
    // disclaimer under it, its sentence whole.
    const tight = await markdown(
      [
        'Could you send me the figures for the third quarter before the meeting so',
        'I can read them over the weekend',
        'Thanks,',
        'Bob Ray',
        'bob.ray@acme.example',
        'Tel: 020 7946 0000',
        'This e-mail is confidential. If you',
        'received it in error, please delete it.',
      ],
      font,
    );
    expect(tight).toContain(
      'over the weekend\n\nThanks,\n\nBob Ray\n\nbob.ray@acme.example\n\nTel: 020 7946 0000\n\nThis e-mail is confidential. If you received it in error',
    );
  });

  // In a proportional face: a typewriter face keeps such short lines as lines, closing or not.
  it('reads a closing word inside a sentence, and a rating "Best" over others, as prose', async () => {
    const thanks = await markdown([
      'On behalf of the whole',
      'club we would like to say',
      'thank you',
      'to all the volunteers who',
      'gave up their weekends.',
    ]);
    expect(thanks).toContain('say thank you to all the volunteers who gave up');
    const ratings = await markdown(['Ratings used in this report:', 'Best', 'Good', 'Fair']);
    expect(ratings).toContain('Ratings used in this report: Best Good Fair');
  });

  it('keeps lines opening with ">" right before a word that are no quote: sequence headers', async () => {
    const md = await markdown([
      'Sequences used in the study:',
      '>HBA_HUMAN Hemoglobin subunit alpha',
      '>HBB_HUMAN Hemoglobin subunit beta',
      '>MYG_HUMAN Myoglobin',
    ]);
    expect(md).toContain('>HBA_HUMAN Hemoglobin subunit alpha');
    expect(md).toContain('>HBB_HUMAN');
    expect(md).not.toMatch(/^> /m);
  });

  it.each(['F1', 'F3'])('nests quotes within a quote a line at a time (font %s)', async (font) => {
    const md = await markdown(
      ['Sure.', '', '>> Could you present the results?', '> Yes, I can.', '>> Great, thanks.', '> See you then.'],
      font,
    );
    expect(md).toContain(
      '> > Could you present the results?\n>\n> Yes, I can.\n>\n> > Great, thanks.\n>\n> See you then.',
    );
  });

  it.each(['F1', 'F3'])(
    'keeps a quoted line the printout wrapped without a mark in its quote (font %s)',
    async (font) => {
      const md = await markdown(
        [
          'Thanks, that works for me.',
          '',
          'On Mon, 3 Mar 2025 at 10:12, Ann Lee wrote:',
          '> Could you present the results at the team meeting next week? We have the',
          'room from ten until noon, so there is plenty of time.',
          '>',
          '> Ann',
        ],
        font,
      );
      expect(md).toContain(
        'Ann Lee wrote:\n\n> Could you present the results at the team meeting next week? We have the room from ten until noon, so there is plenty of time.\n>\n> Ann',
      );
      // Replies written between quoted lines are no quoted line's end: the page's lines run further.
      const inline = await markdown(
        [
          'Answers below, and the rest of the plan is in the document I sent round on Friday.',
          'Ann Lee wrote:',
          '> Can we meet on Tuesday at ten in the small room',
          'yes that works for me and I will book it',
          '> and could you bring the slides',
          'of course',
          '> Thanks',
        ],
        font,
      );
      expect(inline).not.toMatch(/^> .*yes that works/m);
      // A line after the quote, not under a quoted line going on, is the reply's.
      const after = await markdown(
        ['Ann Lee wrote:', '> Could you present the results?', '> Ann', 'sounds good to me.'],
        font,
      );
      expect(after).toContain('> Could you present the results? Ann\n\nsounds good to me.');
    },
  );

  it.each(['F1', 'F3'])(
    'keeps the end of a quote the printout wrapped without a mark in the quote (font %s)',
    async (font) => {
      const md = await markdown(
        [
          'Thanks, that works for me.',
          '',
          'On Mon, 3 Mar 2025 at 10:12, Ann Lee wrote:',
          '> Could you present the results at the team meeting next week?',
          '>',
          '> We have the room from ten until noon, so there is plenty of',
          'time for questions.',
          '',
          'Best, Bob',
        ],
        font,
      );
      expect(md).toContain(
        'Ann Lee wrote:\n\n> Could you present the results at the team meeting next week?\n>\n> We have the room from ten until noon, so there is plenty of time for questions.\n\nBest, Bob',
      );
      // A quote of one line and its wrapped end is no quote, as one line alone is none.
      const one = await markdown(
        ['Ann Lee wrote:', '> We have the room from ten until noon, so there is plenty of time for', 'questions.'],
        font,
      );
      expect(one).not.toMatch(/^> We have/m);
      // A reply of several lines under the quote is no wrapped end, however its first word reads.
      const reply = await markdown(
        [
          'Ann Lee wrote:',
          '> Could you present the results at the team meeting next week?',
          '> We have the room from ten until noon, so there is plenty of',
          'questions can come at the end, and I will keep the talk to half',
          'an hour so that everyone gets a say.',
        ],
        font,
      );
      expect(reply).toContain('so there is plenty of\n\nquestions can come');
      // Nor is a line ending the page mid-sentence, nor the outer writer's answer under a quote within.
      const foot = await markdown(
        [
          'Ann Lee wrote:',
          '> Could you present the results at the team meeting next week?',
          '> We have the room from ten until noon, so there is plenty of',
          'sure, and I will bring the',
        ],
        font,
      );
      expect(foot).toContain('so there is plenty of\n\nsure, and I will bring the');
      const nested = await markdown(
        [
          'Bob wrote:',
          '> > Shall we meet next week to go over the figures before the board',
          '> > on Thursday, or would you rather wait for the auditors, who',
          '> yes, let us meet on Monday.',
          '',
          'Ann',
        ],
        font,
      );
      expect(nested).toContain('auditors, who\n>\n> yes, let us meet on Monday.');
    },
  );

  it.each(['F1', 'F3'])(
    'keeps the header lines of a forwarded or answered message a line each (font %s)',
    async (font) => {
      const md = await markdown(
        [
          'Thanks, that works for me.',
          '',
          '-----Original Message-----',
          'From: Ann Lee <ann@example.org>',
          'Sent: Monday, 3 March 2025 10:12',
          'To: Bob Ray <bob@example.org>; Carol Diaz <carol@example.org>; Dan Wu',
          '      <dan@example.org>',
          'Subject: Team meeting',
          '',
          'Could you present the results at the team meeting next week?',
        ],
        font,
      );
      expect(md).toContain(
        [
          '-----Original Message-----',
          'From: Ann Lee \\<ann@example.org>',
          'Sent: Monday, 3 March 2025 10:12',
          'To: Bob Ray \\<bob@example.org>; Carol Diaz \\<carol@example.org>; Dan Wu \\<dan@example.org>',
          'Subject: Team meeting',
          'Could you present the results at the team meeting next week?',
        ].join('\n\n'),
      );
      // One line naming a subject in running prose is no header block, nor are lines naming a
      // sender and an addressee in a sentence running through them.
      const prose = await markdown([
        'The minutes went out on Monday with the agenda for the next meeting attached, and',
        'Subject: budget was the first item on it, as the chair had asked at the last one.',
      ]);
      expect(prose).toContain('attached, and Subject: budget was the first item');
      const sentence = await markdown(
        [
          'Please send your replies to the address below by Friday, and mark them',
          'From: your name and department',
          'To: the committee secretary',
          'so that we can sort them.',
        ],
        font,
      );
      expect(sentence).toContain('and mark them From: your name and department To: the committee secretary so that');
    },
  );

  it.each(['F1', 'F3'])(
    'keeps a memo head a line each, and the body set in under the headers whole (font %s)',
    async (font) => {
      const memo = await markdown(
        [
          'To: All staff',
          'From: Facilities',
          'Re: parking during the works',
          'Date: 3 March 2025',
          '',
          'The car park shuts on Monday.',
        ],
        font,
      );
      expect(memo).toContain(
        'To: All staff\n\nFrom: Facilities\n\nRe: parking during the works\n\nDate: 3 March 2025\n\nThe car park shuts on Monday.',
      );
      // Two headers, one value in lower case: a memo's head still.
      const short = await markdown(['To: All staff', 'Re: parking during the works', '', 'The car park shuts.'], font);
      expect(short).toContain('To: All staff\n\nRe: parking during the works\n\nThe car park shuts.');
      // User names in lower case, no address: a message's head.
      const users = await markdown(
        ['From: ann.lee', 'To: bob.ray', 'Subject: Team meeting', '', 'See you then.'],
        font,
      );
      expect(users).toContain('From: ann.lee\n\nTo: bob.ray\n\nSubject: Team meeting\n\nSee you then.');
      // A sentence running into header-like lines is prose.
      const sentence = await markdown(
        [
          'Please send your replies to the address below by Friday, and mark them',
          'From: your name and department',
          'To: Committee Secretary, Room 4',
          'Date: 3 March 2025',
        ],
        font,
      );
      expect(sentence).toContain('and mark them From: your name and department To: Committee Secretary');
      const lines = [
        'From: Ann Lee <ann@example.org>',
        'Sent: Monday, 3 March 2025 10:12',
        'To: Bob Ray <bob@example.org>',
        'Subject: Team meeting',
      ];
      const pdf = pagesPdf(
        [
          [
            ...lines.map((t, k) => textAt(72, 720 - 13 * k, t, 10, font)),
            textAt(100, 720 - 13 * 4, 'Hi Bob, could you present the results at the team meeting next', 10, font),
            textAt(72, 720 - 13 * 5, 'week? We have the room from ten until noon.', 10, font),
          ].join('\n'),
        ],
        612,
        792,
        [COURIER],
      );
      const body = (await engineFor(backend).parse(pdf, { parsers: [{ type: 'pdf', mode: 'fast' }] })).markdown ?? '';
      expect(body).toContain(
        'Subject: Team meeting\n\nHi Bob, could you present the results at the team meeting next week? We have',
      );
    },
  );

  it('reads a quote as the page reads its lines: a list stays a list, and a quote set in under an item belongs to it', async () => {
    const agenda = await markdown([
      'Bob wrote:',
      '> Agenda for the day:',
      '> 1. Book the room',
      '> 2. Send the agenda',
      '>',
      '> Thanks',
    ]);
    expect(agenda).toContain('> Agenda for the day:\n>\n> 1. Book the room\n> 2. Send the agenda\n>\n> Thanks');
    const items = await markdown([
      '1. Ann asked about the venue:',
      '   > Could you book the large room for the',
      '   > whole afternoon?',
      '2. Bob asked about lunch.',
    ]);
    expect(items).toContain(
      '1. Ann asked about the venue:\n\n   > Could you book the large room for the whole afternoon?\n\n2. Bob asked about lunch.',
    );
  });

  it('keeps a lone line opening with ">", and thresholds one a line ("> 90 %"), as text', async () => {
    const md = await markdown([
      'Most of the people we asked use the tool every day, and the share of them',
      '> 50 % is what the team had hoped to reach in the first year of the trial.',
    ]);
    expect(md).toContain('the share of them > 50 % is what');
    expect(md).not.toMatch(/^>/m);
    const thresholds = await markdown(['Marks are given as follows:', '> 90 % is a first', '> 75 % is a second']);
    expect(thresholds).not.toMatch(/^>/m);
    const mixed = await markdown(['Marks are given as follows:', '> 90 % is a first', '> half is a pass']);
    expect(mixed).toContain('> 90 % is a first > half is a pass');
  });
});

/** A page of the reply above a quote: 40 full lines, so the quote under them reaches the page's foot. */
const FILL = Array.from(
  { length: 40 },
  (_, k) => `Line ${k + 1} of the answer goes on for a while, as a reply does, so that it fills the page.`,
);

/** A page of lines from `top` down, one every 13 points, in Helvetica (`F1`); blank strings leave a line's gap. */
const page = (lines: readonly string[], top = 720): string =>
  lines
    .map((t, k) => (t ? textAt(72, top - 13 * k, t, 10, 'F1') : ''))
    .filter(Boolean)
    .join('\n');

/**
 * An e-mail's quoted message printed over two pages: the page break cut the quote in two, and a
 * quoted sentence with it. It is one quote, its sentence whole; each page's part keeps its page.
 */
describe.each(pdfBackends)('PDF e-mail quotes over a page break (%s)', (backend) => {
  const parsed = (pages: readonly string[][]) =>
    engineFor(backend).parse(
      pagesPdf(pages.map((p) => page(p))),
      {
        formats: ['markdown', { type: 'chunks', maxTokens: 40 }],
        parsers: [{ type: 'pdf', mode: 'fast', blocks: true }],
      },
      { filename: 'thread.pdf' },
    );
  const markdown = async (pages: readonly string[][]) => (await parsed(pages)).markdown ?? '';
  const wrote = 'On Mon, 3 Mar 2025 at 10:12, Ann Lee wrote:';
  const quoted = [
    '> Could you present the results at the team meeting next week? We',
    '> have the room from ten until noon, so there is plenty of time for',
    '> questions, and I will order coffee for everyone who comes along',
    '> to the meeting.',
    '>',
    '> Ann',
  ];
  const whole =
    '> Could you present the results at the team meeting next week? We have the room from ten until noon, so there is plenty of time for questions, and I will order coffee for everyone who comes along to the meeting.\n>\n> Ann';

  it.each([1, 2, 3])('reads a quote cut after its line %i as one quote, its sentence whole', async (cut) => {
    const md = await markdown([[...FILL, '', wrote, ...quoted.slice(0, cut)], quoted.slice(cut)]);
    expect(md).toContain(`${wrote}\n\n${whole}`);
    expect(md).not.toContain('wrote: >');
  });

  it('reads a quote whose last line opens the next page as one quote', async () => {
    const md = await markdown([[...FILL.slice(0, 36), '', wrote, ...quoted.slice(0, 5)], quoted.slice(5)]);
    expect(md).toContain(`${wrote}\n\n${whole}`);
  });

  it('joins a quote within the quote that the break cuts', async () => {
    const md = await markdown([
      [...FILL, '', 'Bob Ray wrote:', '> Tuesday is fine by me.', '>', '> > Shall we meet next week to go over'],
      ['> > the figures before the board sees them?', '', 'Thanks, Carol'],
    ]);
    expect(md).toContain(
      'Bob Ray wrote:\n\n> Tuesday is fine by me.\n>\n> > Shall we meet next week to go over the figures before the board sees them?\n\nThanks, Carol',
    );
  });

  it('gives the quote its later page: the block a part on page 2, the chunks the pages of their own text', async () => {
    const data = await parsed([[...FILL, '', wrote, ...quoted.slice(0, 2)], quoted.slice(2)]);
    const item = data.blocks?.[0]?.items.at(-1);
    expect(item?.type).toBe('blockquote');
    expect(item?.content).toBe(whole);
    const part = item?.continued?.[0];
    expect(part).toMatchObject({ pageNumber: 2, line: 0 });
    expect(item?.content.slice(part?.offset)).toMatch(/^questions, and I will order coffee/);
    expect(part?.bbox?.[1]).toBeLessThan(100);
    // The part's box holds all the quote printed on page 2, down to "Ann" (its fourth line there, near 111 from the top).
    expect(part?.bbox?.[3]).toBeGreaterThan(105);
    expect(data.blocks?.[1]?.status).toBe('ok');
    const chunks = data.chunks ?? [];
    expect(chunks.find((c) => c.text.includes('Line 1 of the answer'))?.pages).toEqual([1]);
    const pagesOf = (s: string) => chunks.find((c) => c.text.includes(s))?.pages;
    expect(pagesOf('Line 1 of the answer')).toEqual([1]);
    expect(pagesOf('Could you present the results')).toEqual([1]);
    // The sentence the break cuts reads on over both pages.
    expect(pagesOf('plenty of time for questions')).toEqual([1, 2]);
    expect(chunks.find((c) => c.text.includes('> Ann'))?.bbox?.map((b) => b.page)).toContain(2);
  });

  it('reads the quote over the break between running heads and page numbers', async () => {
    const framed = (lines: readonly string[], n: number) =>
      [
        textAt(72, 760, 'Re: Results for the team meeting', 9, 'F1'),
        page(lines),
        textAt(300, 40, `Page ${n} of 2`, 9, 'F1'),
      ].join('\n');
    const data = await engineFor(backend).parse(
      pagesPdf([framed([...FILL, '', wrote, ...quoted.slice(0, 1)], 1), framed(quoted.slice(1), 2)]),
      { parsers: [{ type: 'pdf', mode: 'fast' }] },
      { filename: 'printed.pdf' },
    );
    expect(data.markdown).toContain(`${wrote}\n\n${whole}`);
  });

  it('keeps two quotes apart where the first ends mid-page or the next page sets its quote at another edge', async () => {
    const midPage = await markdown([
      ['Short reply.', '', wrote, '> First quoted message line one here', '> and its second line.'],
      ['> A different quote from another thread opens', '> the second page, on its own.', '', 'Reply two.'],
    ]);
    expect(midPage).toContain(
      '> First quoted message line one here and its second line.\n\n> A different quote from another thread opens the second page',
    );
    const data = await engineFor(backend).parse(
      pagesPdf([
        page([...FILL, '', wrote, ...quoted.slice(0, 2)]),
        page(['> questions and more.', '> Second line.']).replaceAll('Tf 72 ', 'Tf 200 '),
      ]),
      { parsers: [{ type: 'pdf', mode: 'fast' }] },
      { filename: 'thread.pdf' },
    );
    expect(data.markdown).toContain('plenty of time for\n\n> questions and more.');
  });

  it('places a block of the quote on its later page where its words stand earlier in the quote too', async () => {
    const data = await parsed([
      [
        ...FILL.slice(0, 35),
        '',
        wrote,
        '> Could you ask Ann to present the results at the team meeting next week? We',
        '> have the room from ten until noon, so there is plenty of time for questions,',
        '> and I will order coffee and biscuits for everyone who comes along to the',
        '> meeting on the second floor of the main building by the car park.',
        '>',
      ],
      ['> Ann', '', 'Thanks, Carol'],
    ]);
    const item = data.blocks?.[0]?.items.at(-1);
    expect(item?.type).toBe('blockquote');
    const part = item?.continued?.[0];
    expect(part).toMatchObject({ pageNumber: 2, line: 2 });
    expect(item?.content.slice(part?.offset)).toBe('Ann');
    expect(data.chunks?.find((c) => c.text.includes('coffee and biscuits'))?.pages).toEqual([1]);
  });

  it('reads lines the break parts as the quote the two parts make: thresholds and a quote then a reply stay apart', async () => {
    const thresholds = await markdown([
      [...FILL, '', 'Marks are given as follows:', '> 90 % is a first'],
      ['> 75 % is a second', '', 'and the rest pass.'],
    ]);
    expect(thresholds).not.toMatch(/^>/m);
    const lone = await markdown([
      [...FILL, '', 'Most of the people we asked use the tool every day, and the share of them'],
      ['> 50 % is what the team had hoped to reach in the first year of the trial.'],
    ]);
    expect(lone).not.toMatch(/^>/m);
    const reply = await markdown([
      [...FILL, '', wrote, ...quoted],
      ['Thanks, that works for me. I will bring the slides on Tuesday.'],
    ]);
    expect(reply).toContain(`${whole}\n\nThanks, that works for me.`);
  });
});
