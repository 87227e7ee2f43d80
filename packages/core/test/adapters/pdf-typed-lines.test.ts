import { describe, expect, it } from 'vitest';
import { corpusFile, corpusSkipReason, hasCorpus } from '../helpers/corpus.ts';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';
import { pagesPdf, pdfOf, textAt, ucs2 } from '../helpers/pdf-build.ts';

/**
 * Text in a typewriter face broken into lines on purpose (a receipt, a printout) keeps its lines;
 * wrapped typewriter prose (a typed letter) still reads as paragraphs.
 */
const courier = ['<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>'];
/**
 * A page of Courier lines (`F3`, `size` pt) from the top, `pitch` apart, each set in by its leading
 * blanks; an empty line leaves a line's space.
 */
const typed = (lines: readonly string[], size = 10, pitch = 12) =>
  pagesPdf(
    [
      lines
        .map((l, k) =>
          l
            ? textAt(72 + 0.6 * size * (l.length - l.trimStart().length), 720 - k * pitch, l.trimStart(), size, 'F3')
            : '',
        )
        .join('\n'),
    ],
    612,
    792,
    courier,
  );

/** A page of Courier lines, then Japanese ones in a monospaced CJK face named as one (10 pt, 12 pt apart). */
function japanesePdf(head: readonly string[], lines: readonly string[]): Uint8Array {
  const content = [
    ...head.map((l, k) => `BT /F1 10 Tf 72 ${720 - k * 12} Td (${l}) Tj ET`),
    ...lines.map((l, k) => `BT /J1 10 Tf 72 ${720 - (head.length + k) * 12} Td <${ucs2(l)}> Tj ET`),
  ].join('\n');
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /J1 4 0 R /F1 7 0 R >> >> /Contents 8 0 R >>',
    '<< /Type /Font /Subtype /Type0 /BaseFont /NotoSansMonoCJKjp-Regular /Encoding /UniJIS-UCS2-H /DescendantFonts [5 0 R] >>',
    '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /NotoSansMonoCJKjp-Regular /CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 6 >> /FontDescriptor 6 0 R /DW 1000 >>',
    '<< /Type /FontDescriptor /FontName /NotoSansMonoCJKjp-Regular /Flags 5 /FontBBox [0 -120 1000 880] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 733 /StemV 80 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ]);
}

describe.each(pdfBackends)('pdf typewriter lines (%s)', (backend) => {
  const { parse } = engineFor(backend);
  const read = async (lines: readonly string[], size?: number, pitch?: number) =>
    (await parse(typed(lines, size, pitch), {}, { filename: 'typed.pdf' })).markdown ?? '';

  it("keeps a receipt's lines, and a line going on in a small letter with the one above", async () => {
    const md = await read([
      'Store #0342 - Downtown SF',
      '11/23/2024 14:32:18 PST',
      'Cashier: Emily Rodriguez',
      '-----------------------------------',
      'USB-C Hub 7-in-1 Adapter',
      'with HDMI & Ethernet',
      'ACC-8834 2 @ $79.99',
      'Member Discount $-5.00',
      '$159.98',
      '-----------------------------------',
      'SUBTOTAL $863.91',
    ]);
    // Before: one paragraph of all of them ("Store #0342 - Downtown SF 11/23/2024 14:32:18 PST …").
    expect(md).toBe(
      [
        'Store #0342 - Downtown SF',
        '11/23/2024 14:32:18 PST',
        'Cashier: Emily Rodriguez',
        '\\-----------------------------------',
        'USB-C Hub 7-in-1 Adapter with HDMI & Ethernet',
        'ACC-8834 2 @ $79.99',
        'Member Discount $-5.00',
        '$159.98',
        '\\-----------------------------------',
        'SUBTOTAL $863.91\n',
      ].join('\n\n'),
    );
  });

  it("reads a typed letter's wrapped lines as its paragraph", async () => {
    const md = await read([
      'Thank you for your letter of the third of May about the',
      'repairs to the roof of the house on Mill Lane. We have',
      'asked the builder to call on Tuesday morning, when he will',
      'look at the gutters and the broken tiles over the kitchen,',
      'and he will send his estimate to you within the week.',
    ]);
    expect(md).toBe(
      'Thank you for your letter of the third of May about the repairs to the roof of the house on Mill Lane. We have asked the builder to call on Tuesday morning, when he will look at the gutters and the broken tiles over the kitchen, and he will send his estimate to you within the week.\n',
    );
  });

  it("keeps a typed letter's paragraphs whole under its address lines, a sentence wrapped before a capital too", async () => {
    const md = await read([
      'Mrs J. Holloway',
      '14 Mill Lane',
      'Leeds',
      'LS1 4AB',
      '',
      'Dear Mrs Holloway,',
      '',
      'Thank you for your letter about the state of the roof. The',
      'builder will call on Tuesday.',
      'Mr. Holloway at number 14 had the same work done last year.',
      'I will ask him which firm he used.',
      '     Our own builder, who has worked for us for many years, will',
      'look at the gutters too, and if it is agreeable to you he will',
      'send his estimate within the week and he will',
      'start on the first fine day after that.',
      '',
      'Yours sincerely,',
    ]);
    // Before the second reading: "… last year." and "I will ask him …" were two paragraphs; before
    // the third, an indented first line and a ragged line ("… and he will") ended theirs.
    expect(md).toContain(
      'Mr. Holloway at number 14 had the same work done last year. I will ask him which firm he used.',
    );
    expect(md).toContain('Thank you for your letter about the state of the roof. The builder will call on Tuesday.');
    expect(md).toContain(
      'Our own builder, who has worked for us for many years, will look at the gutters too, and if it is agreeable to you he will send his estimate within the week and he will start on the first fine day after that.',
    );
    expect(md).toContain('Mrs J. Holloway\n\n14 Mill Lane\n\nLeeds\n\nLS1 4AB');
  });

  it("joins a screenplay's wrapped dialogue and a poem's stanza as before, whatever the page's widest line", async () => {
    const md = await read([
      'INT. FARMHOUSE KITCHEN - NIGHT',
      '',
      'Rain hammers the windows. MARY stands at the stove, stirring a pot',
      'of soup that has long since gone cold, and does not turn round.',
      '',
      '                    MARY',
      '          I told him not to go out in this.',
      '          He never listens, not once in forty',
      '          years of marriage, and he will not',
      '          start tonight.',
      '',
      'We walked there in the autumn light',
      'when all the apples fell,',
      'and every tree stood bent with fruit',
      'beside the ruined well.',
    ]);
    // Before the third reading: each wrapped line of the dialogue a paragraph (it "fitted" within
    // the action lines' width), the stanza's long lines joined and its short ones kept.
    expect(md).toContain('He never listens, not once in forty years of marriage, and he will not start tonight.');
    expect(md).toContain(
      'We walked there in the autumn light when all the apples fell, and every tree stood bent with fruit beside the ruined well.',
    );
  });

  it('reads a printout at 10 pt on 10 pt leading by its blank lines: wrapped paragraphs whole, a list line by line', async () => {
    const md = await read(
      [
        'This document describes a protocol for use on networks where',
        'Transmission Control Protocol (TCP) connections are available.',
        'Implementations MUST follow the rules in Section 3.',
        '',
        '   o  Client',
        '   o  Server',
        '   o  Relay',
        '   o  Proxy',
        '',
        'The key words "MUST", "MUST NOT", "REQUIRED", "SHALL" and',
        '"SHOULD" and "MAY" in this document are to be read as described',
        'in BCP 14.',
      ],
      10,
      10,
    );
    // Before the second reading: a blank line (twice the leading) did not end a block, the list's
    // breaks made the page's all kept, and the paragraphs fell apart at their wrapped lines.
    expect(md).toContain(
      'This document describes a protocol for use on networks where Transmission Control Protocol (TCP) connections are available. Implementations MUST follow the rules in Section 3.',
    );
    expect(md).toContain(
      'The key words "MUST", "MUST NOT", "REQUIRED", "SHALL" and "SHOULD" and "MAY" in this document are to be read as described in BCP 14.',
    );
    for (const item of ['Client', 'Server', 'Relay', 'Proxy'])
      expect(md).toMatch(new RegExp(`^(?:- |o )?${item}$`, 'm'));
  });

  it('joins the wrapped lines of Japanese in a monospaced face, whose lines break anywhere', async () => {
    const md =
      (
        await parse(
          japanesePdf(
            ['Tokyo Office', '1-2-3 Chiyoda', 'Tokyo 100-0001'],
            [
              '本日は当社の新しい事務所の開設についてお知らせい',
              'たします。新事務所は駅から近く、多くの方に',
              'ご利用いただけます。',
            ],
          ),
          {},
          { filename: 'notice.pdf' },
        )
      ).markdown ?? '';
    expect(md).not.toMatch(/お知らせい\s*\n\s*\nたします/);
    expect(md.replace(/\s+/g, '')).toContain('お知らせいたします。新事務所は');
  });

  it("keeps an e-mail printout's header lines, and joins a title wrapped after 'THE'", async () => {
    const md = await read([
      'ANNUAL REPORT OF THE',
      'PARISH COUNCIL FOR THE',
      'YEAR ENDING MARCH 2024',
      '',
      'From: Peter Langley <peter@example.org>',
      'To: Sarah Khan <sarah.khan@example.org>',
      'Subject: Re: minutes of the March meeting',
      'Date: Tue, 12 Mar 2024 09:14:02 +0000',
      '',
      'Thank you for sending the minutes of the meeting on Monday evening.',
    ]);
    // Before the fourth reading: the header one paragraph (its addresses counted as words of
    // prose), the title three.
    expect(md).toContain('ANNUAL REPORT OF THE PARISH COUNCIL FOR THE YEAR ENDING MARCH 2024');
    expect(md).toContain(
      'To: Sarah Khan \\<sarah.khan@example.org>\n\nSubject: Re: minutes of the March meeting\n\nDate:',
    );
  });

  it("keeps a Japanese receipt's lines in a monospaced face", async () => {
    const lines = [
      '東京コーヒー店',
      '2024年3月12日 14:32',
      '--------------------------------',
      'ブレンドコーヒー 2 @ 350 ¥700',
      'チーズケーキ 1 @ 480 ¥480',
      '合計 ¥1,180',
    ];
    const md = (await parse(japanesePdf([], lines), {}, { filename: 'receipt.pdf' })).markdown ?? '';
    // Before the third reading: one paragraph of all five lines.
    expect(md).toContain('チーズケーキ 1 @ 480 ¥480\n\n合計 ¥1,180');
  });
});

describe.skipIf(!hasCorpus)(hasCorpus ? 'pdf typewriter lines, corpus' : corpusSkipReason, () => {
  it("reads markitdown's receipt line by line", async () => {
    const { parse } = engineFor('pdfium');
    const md =
      (await parse(corpusFile('markitdown', 'RECEIPT-2024-TXN-98765_retail_purchase.pdf'), {}, { filename: 'r.pdf' }))
        .markdown ?? '';
    for (const line of [
      'AUDIO-5521 1 @ $349.99',
      'Member Discount $-50.00',
      '$299.99',
      'Points Earned: 821',
      'Receipt required',
    ])
      expect(md.split('\n')).toContain(line);
  });
});
