import { describe, expect, it } from 'vitest';
import { corpusFile, corpusSkipReason, hasCorpus } from '../helpers/corpus.ts';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';
import { pagesPdf, textAt } from '../helpers/pdf-build.ts';

/**
 * Text in a typewriter face broken into lines on purpose (a receipt, a printout) keeps its lines;
 * wrapped typewriter prose (a typed letter) still reads as paragraphs.
 */
const courier = ['<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>'];
/** A page of Courier lines (`F3`, 10 pt) from the top, 12 pt apart, each set in by its leading blanks. */
const typed = (lines: readonly string[]) =>
  pagesPdf(
    [
      lines
        .map((l, k) => textAt(72 + 6 * (l.length - l.trimStart().length), 720 - k * 12, l.trimStart(), 10, 'F3'))
        .join('\n'),
    ],
    612,
    792,
    courier,
  );

describe.each(pdfBackends)('pdf typewriter lines (%s)', (backend) => {
  const { parse } = engineFor(backend);
  const read = async (lines: readonly string[]) =>
    (await parse(typed(lines), {}, { filename: 'typed.pdf' })).markdown ?? '';

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
