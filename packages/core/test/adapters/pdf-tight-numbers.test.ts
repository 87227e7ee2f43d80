import { describe, expect, it } from 'vitest';
import { engineFor, pageMarkdown, pdfBackends } from '../helpers/pdf-backends.ts';
import { pagesPdf, textAt, ucs2 } from '../helpers/pdf-build.ts';

/**
 * LibreOffice prints a numbered item's number as a run of its own set right against the item's
 * text: "1)" ends a point before "Nested" starts, less than a blank's width, so the line read
 * "1)Nested list item a" and the nested items ran into the bullet above them ("- List item 2
 * 1)Nested list item a 1)Triple nested"). Widths are Helvetica's: "1)" and "2)" are 0.889 em.
 */
const NUMBER_EM = 0.889;

/** A number drawn as its own run at `x`, its text `gap` points after its right edge. */
const numbered = (x: number, y: number, number: string, text: string, size: number, gap: number): string[] => [
  textAt(x, y, number, size),
  textAt(x + NUMBER_EM * size + gap, y, text, size),
];

/** A bullet glyph (WinAnsi 0x95) drawn as its own run at `x`, its text at `x + 17`. */
const bulleted = (x: number, y: number, text: string, size: number): string[] => [
  `BT /F1 ${size} Tf ${x} ${y} Td (\\225) Tj ET`,
  textAt(x + 17, y, text, size),
];

describe.each(pdfBackends)('pdf numbers set right against their items (%s)', (backend) => {
  it('reads the numbered items nested under a bullet, as the slide shows them', async () => {
    const ops = [
      textAt(72, 720, 'Hello', 18),
      ...bulleted(72, 680, 'List item 1', 18),
      ...bulleted(72, 660, 'List item 2', 18),
      ...numbered(89, 640, '1)', 'Nested list item a', 18, 1),
      ...numbered(106, 620, '1)', 'Triple nested', 18, 1),
      ...numbered(89, 600, '2)', 'Nested list item b', 18, 1),
      ...bulleted(72, 580, 'closing', 18),
      textAt(72, 530, 'Next paragraph text', 18),
    ];
    const md = await pageMarkdown(backend, ops);
    expect(md).not.toContain('1)Nested');
    expect(md).toMatch(/^- List item 2$/m);
    expect(md).toMatch(/^ +1\. Nested list item a$/m);
    expect(md).toMatch(/^ +1\. Triple nested$/m);
    expect(md).toMatch(/^ +2\. Nested list item b$/m);
    expect(md).toMatch(/^- closing$/m);
    // Deeper items stand further in than the item they are nested under.
    const indent = (t: string): number => (new RegExp(`^( *)\\d\\. ${t}$`, 'm').exec(md)?.[1] ?? '').length;
    expect(indent('Triple nested')).toBeGreaterThan(indent('Nested list item a'));
  });

  it('reads a numbered list set tight in body text as a list', async () => {
    const ops = [textAt(72, 720, 'The steps to follow, in this order:', 11)];
    const steps = ['Open the lid of the box', 'Take the parts out', 'Check them against the list'];
    for (const [k, t] of steps.entries()) ops.push(...numbered(72, 700 - k * 16, `${k + 1})`, t, 11, 0.6));
    const md = await pageMarkdown(backend, ops);
    expect(md).toContain(
      ['1. Open the lid of the box', '2. Take the parts out', '3. Check them against the list'].join('\n'),
    );
  });

  it('leaves a number run into a word with no gap as the word it is', async () => {
    // A product code drawn in two runs that touch: no item.
    const ops = [textAt(72, 720, 'Order codes are printed on the label as follows:', 11)];
    ops.push(textAt(72, 700, '4)', 11), textAt(72 + NUMBER_EM * 11, 700, 'AX-series connectors only', 11));
    const md = await pageMarkdown(backend, ops);
    expect(md).toContain('4)AX-series connectors only');
    expect(md).not.toMatch(/^4\. /m);
  });

  it('leaves a letter and the word after it, drawn apart, one word', async () => {
    const ops = [
      textAt(72, 720, 'Some tools can help with this task, for instance automated checkers or', 11),
      ...numbered(72, 706, 'e.', 'g. linters that read the code before it runs, and others.', 11, 0.4),
    ];
    const md = await pageMarkdown(backend, ops);
    expect(md).not.toMatch(/^- e\./m);
    expect(md).toMatch(/checkers or e\. ?g\. linters/);
  });

  it('leaves a Korean heading numbered "1." a heading', async () => {
    // A Korean font without an embedded program, read through its predefined CMap.
    const fonts = [
      '<< /Type /Font /Subtype /Type0 /BaseFont /HYGoThic-Medium /Encoding /UniKS-UCS2-H /DescendantFonts [6 0 R] >>',
      '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /HYGoThic-Medium /CIDSystemInfo << /Registry (Adobe) /Ordering (Korea1) /Supplement 2 >> /FontDescriptor 7 0 R /DW 1000 >>',
      '<< /Type /FontDescriptor /FontName /HYGoThic-Medium /Flags 6 /FontBBox [-6 -145 1003 880] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 880 /StemV 93 >>',
    ];
    const korean = (x: number, y: number, text: string): string => `BT /F3 11 Tf ${x} ${y} Td <${ucs2(text)}> Tj ET`;
    // "1." is 0.834 em in Helvetica; the heading's words start half a point after it.
    const ops = [
      korean(72, 720, '이 보고서는 시스템의 전체 설계와 구현 방법을 설명합니다.'),
      textAt(72, 700, '1.', 11),
      korean(72 + 0.834 * 11 + 0.5, 700, '개요'),
      korean(72, 684, '이 시스템은 수집, 처리, 저장의 세 부분으로 구성됩니다.'),
    ];
    const result = await engineFor(backend).parse(
      pagesPdf([ops.join('\n')], 612, 792, fonts),
      { parsers: [{ type: 'pdf', mode: 'fast' }] },
      { filename: 'page.pdf' },
    );
    const md = result.markdown ?? '';
    expect(md).toMatch(/^#+ 1\.개요$/m);
    expect(md).not.toMatch(/^1\. 개요/m);
  });
});
