import { describe, expect, it } from 'vitest';
import { pageMarkdown, pdfBackends } from '../helpers/pdf-backends.ts';
import { textAt } from '../helpers/pdf-build.ts';

/**
 * A slide printed to PDF: its bullets set in 28 pt where the deck's small print (a table, notes)
 * sets the body size at 10. Large type read as headings, so each bullet was a heading of its own, or
 * the lead-in's heading took the first bullet in ("## Let's introduce a list • With foo"); and items
 * had to be set under 1.3 body sizes, so bullets in large type read as one paragraph. A bullet
 * opens an item however large it is set; an enumerator set large still numbers a heading.
 */

/** A bullet glyph (WinAnsi 0x95) drawn as its own run at `x`, its text at `x + 23`. */
const bulleted = (x: number, y: number, text: string, size: number): string[] => [
  `BT /F1 ${size} Tf ${x} ${y} Td (\\225) Tj ET`,
  textAt(x + 23, y, text, size),
];

const SMALL = 'Small print under the slide sets the size most of the characters of this page are in.';

function slide(lead: string[], bullets: string[]): string[] {
  const ops = [textAt(72, 740, 'Second slide title', 40)];
  let y = 690;
  for (const l of lead) {
    ops.push(textAt(72, y, l, 28));
    y -= 32;
  }
  y -= 8;
  for (const b of bullets) {
    ops.push(...bulleted(72, y, b, 28));
    y -= 40;
  }
  y -= 20;
  for (let i = 0; i < 12; i++) {
    ops.push(textAt(72, y, SMALL, 10));
    y -= 12;
  }
  return ops;
}

describe.each(pdfBackends)('pdf slide bullets set large (%s)', (backend) => {
  it('reads bullets set large as a list under their lead-in', async () => {
    const md = await pageMarkdown(backend, slide(["Let's introduce a", 'list'], ['With foo', 'Bar', 'And baz things']));
    expect(md).toContain(['- With foo', '- Bar', '- And baz things'].join('\n'));
    expect(md).toMatch(/^#+ Let's introduce a list$/m);
    expect(md).not.toMatch(/^#+ .*With foo/m);
  });

  it('reads bullets set large as a list with no lead-in', async () => {
    const md = await pageMarkdown(backend, slide([], ['Fast start', 'Low price', 'Quiet running']));
    expect(md).toContain(['# Second slide title', '', '- Fast start', '- Low price', '- Quiet running'].join('\n'));
  });

  it("reads bullets set large as items where a shape's text beside them is read between them", async () => {
    // powerpoint_sample printed: "A rectangle shape with this text" / "inside." in 14 pt on the right,
    // its lines on the bullets' rows, read between them row by row.
    const ops = slide(["Let's introduce a", 'list'], ['With foo', 'Bar', 'And baz things']);
    ops.push(textAt(330, 642, 'A rectangle shape with this text', 14), textAt(380, 602, 'inside.', 14));
    const md = await pageMarkdown(backend, ops);
    for (const b of ['With foo', 'Bar', 'And baz things']) expect(md).toMatch(new RegExp(`^- ${b}$`, 'm'));
    expect(md).toMatch(/^#+ Let's introduce a list$/m);
  });

  it("reads a large bullet's wrapped line as its item's", async () => {
    const ops = slide([], ['Low price', 'Quiet running']);
    // A first bullet wrapped onto a second line, set in under its text.
    ops.push(
      ...bulleted(72, 730, 'Fast start on every machine we', 28),
      textAt(95, 698, 'tested in the lab this year', 28),
    );
    const md = await pageMarkdown(
      backend,
      ops.filter((o) => !o.includes('Second slide title')),
    );
    expect(md).toContain(
      ['- Fast start on every machine we tested in the lab this year', '- Low price', '- Quiet running'].join('\n'),
    );
  });

  it('keeps a bulleted head alone over its paragraph, and a dash set large, as headings', async () => {
    const body = (y: number): string[] => [0, 1, 2].map((i) => textAt(72, y - 14 * i, SMALL));
    const heads = await pageMarkdown(backend, [
      `BT /F2 16 Tf 72 740 Td (\\225 Key findings) Tj ET`,
      ...body(716),
      `BT /F2 16 Tf 72 660 Td (\\225 Next steps) Tj ET`,
      ...body(636),
    ]);
    expect(heads).toMatch(/^#+ • Key findings$/m);
    expect(heads).toMatch(/^#+ • Next steps$/m);
    const cover = await pageMarkdown(backend, [
      textAt(150, 600, 'The Long Road Home', 36, 'F2'),
      `BT /F1 18 Tf 220 560 Td (\\227 A Novel \\227) Tj ET`,
      textAt(240, 500, 'Jane Q. Writer', 14),
      ...body(300),
      ...body(250),
    ]);
    expect(cover).toMatch(/^#+ — A Novel —$/m);
  });

  it('keeps a numbered line set large a heading', async () => {
    const ops = [textAt(72, 720, '1. Introduction', 18, 'F2')];
    let y = 690;
    for (let i = 0; i < 6; i++) {
      ops.push(textAt(72, y, SMALL, 10));
      y -= 12;
    }
    ops.push(textAt(72, y - 20, '2. Methods', 18, 'F2'));
    const md = await pageMarkdown(backend, ops);
    expect(md).toMatch(/^#+ 1\\?\. Introduction$/m);
    expect(md).toMatch(/^#+ 2\\?\. Methods$/m);
  });
});
