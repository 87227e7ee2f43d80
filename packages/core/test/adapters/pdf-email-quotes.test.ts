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
