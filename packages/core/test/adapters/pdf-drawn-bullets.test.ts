import { describe, expect, it } from 'vitest';
import { engineFor, pageMarkdown } from '../helpers/pdf-backends.ts';
import { gridRulings as grid, pagesPdf, textAt } from '../helpers/pdf-build.ts';

/**
 * Bullets drawn as shapes, as a browser prints a list: Chromium draws a `<ul>`'s discs, its nested
 * lists' circles and squares as paths, so their items read as plain lines run together ("Step
 * instruction text Nested detail 1") and a cell's list as one line. PDFium reads every page's
 * drawing in either mode; pdf.js reads it where it asks for rulings (a table's page in auto mode).
 */

/** Four curves round (`cx`, `cy`): how browsers draw a disc or a circle. */
function round(cx: number, cy: number, r: number): string {
  const k = 0.5523 * r;
  return [
    `${cx + r} ${cy} m`,
    `${cx + r} ${cy + k} ${cx + k} ${cy + r} ${cx} ${cy + r} c`,
    `${cx - k} ${cy + r} ${cx - r} ${cy + k} ${cx - r} ${cy} c`,
    `${cx - r} ${cy - k} ${cx - k} ${cy - r} ${cx} ${cy - r} c`,
    `${cx + k} ${cy - r} ${cx + r} ${cy - k} ${cx + r} ${cy} c`,
  ].join(' ');
}

type Shape = 'disc' | 'ring' | 'square';

/** A shape of `size`'s bullet at `x`, its middle where a letter's is, on the line at baseline `y`. */
function shape(kind: Shape, x: number, y: number, size: number, r = 0.155 * size, lift = 0.3): string {
  const cy = y + lift * size;
  if (kind === 'square') return `${x} ${cy - r} ${2 * r} ${2 * r} re f`;
  return kind === 'disc' ? `${round(x + r, cy, r)} f` : `0.6 w ${round(x + r, cy, r)} S`;
}

/** An item: its bullet drawn at `x`, its text 12 pt further in (Chromium's 0.7 of a size and the disc). */
const drawn = (kind: Shape, x: number, y: number, text: string, size = 12): string[] => [
  shape(kind, x, y, size),
  textAt(x + 12, y, text, size),
];

/** A ruled table of three columns, its middle cell a list of three items with drawn discs. */
const GARDEN = [
  ...grid([72, 250, 420, 540], [700, 684, 620]),
  textAt(78, 689, 'Area', 10),
  textAt(256, 689, 'Tasks', 10),
  textAt(426, 689, 'Owner', 10),
  textAt(78, 672, 'Garden', 10),
  ...drawn('disc', 256, 672, 'Mow the lawn', 10),
  ...drawn('disc', 256, 658, 'Weed the beds', 10),
  ...drawn('disc', 256, 644, 'Rake the leaves', 10),
  textAt(426, 672, 'Sam', 10),
];
const GARDEN_ROW = '| Garden | - Mow the lawn<br>- Weed the beds<br>- Rake the leaves | Sam |';

const LEAD = 'Before the walk, check that each of these is in the bag by the door:';

describe.each(['fast', 'auto'] as const)('bullets drawn as shapes (pdfium, %s)', (mode) => {
  const md = (ops: string[]) => pageMarkdown('pdfium', ops, mode);

  it('reads discs drawn before lines as a list under its lead-in', async () => {
    const out = await md([
      textAt(72, 720, 'Packing list', 20, 'F2'),
      textAt(72, 690, LEAD, 12),
      ...drawn('disc', 90, 668, 'A warm coat'),
      ...drawn('disc', 90, 654, 'Boots for the snow'),
      ...drawn('disc', 90, 640, 'A flask of tea'),
      textAt(72, 612, 'Leave the rest at home.', 12),
    ]);
    expect(out).toContain(
      `${LEAD}\n\n- A warm coat\n- Boots for the snow\n- A flask of tea\n\nLeave the rest at home.`,
    );
    expect(out).not.toContain('•');
  });

  it('nests circles and squares under discs by their indent', async () => {
    const out = await md([
      textAt(72, 720, 'Nested list in divs', 16, 'F2'),
      ...drawn('disc', 52, 690, 'Step instruction text'),
      ...drawn('ring', 82, 676, 'Nested detail 1'),
      ...drawn('ring', 82, 662, 'Nested detail 2'),
      ...drawn('square', 112, 648, 'Deeper detail'),
      ...drawn('disc', 52, 634, 'Second step'),
    ]);
    expect(out).toContain(
      [
        '- Step instruction text',
        '  - Nested detail 1',
        '  - Nested detail 2',
        '    - Deeper detail',
        '- Second step',
      ].join('\n'),
    );
  });

  it("keeps an item's wrapped line in its item", async () => {
    const out = await md([
      textAt(72, 720, LEAD, 12),
      ...drawn('disc', 90, 698, 'A map of the valley, folded to the path we take on the first'),
      textAt(102, 684, 'morning, in its plastic sleeve', 12),
      ...drawn('disc', 90, 670, 'A whistle'),
    ]);
    expect(out).toContain(
      '- A map of the valley, folded to the path we take on the first morning, in its plastic sleeve\n- A whistle',
    );
  });

  it('reads a list drawn in a ruled cell as a list in the cell', async () => {
    const out = await md(GARDEN);
    expect(out).toContain(GARDEN_ROW);
  });

  it('reads no bullet from a shape alone on its page before a heading', async () => {
    const out = await md([
      shape('disc', 72, 720, 20),
      textAt(90, 720, 'Diagnosis', 20, 'F2'),
      textAt(72, 690, 'Tests find out what is wrong and how far it has gone, and they take a few days.', 12),
    ]);
    expect(out).toMatch(/^#+ Diagnosis$/m);
    expect(out).not.toMatch(/[•◦]/);
  });

  it('reads no bullet from dots of a pattern, a mark after text, an ornament or a letter-high shape', async () => {
    const dots: string[] = [];
    for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) dots.push(`${round(60 + 5 * i, 702 + 5 * j, 1.5)} f`);
    const out = await md([
      ...dots,
      textAt(80, 712, 'Threats highlight the importance of leadership', 12),
      textAt(80, 698, 'in cybersecurity and of a national strategy', 12),
      // A status dot after its label, on two lines.
      textAt(72, 660, 'Status', 12),
      shape('disc', 110, 660, 12),
      textAt(118, 660, 'Active', 12),
      textAt(72, 646, 'Backup', 12),
      shape('disc', 112, 646, 12),
      textAt(120, 646, 'Paused', 12),
      // Shapes larger than a letter before two lines (a logo's rings).
      shape('ring', 72, 610, 12, 5),
      textAt(96, 610, 'Northern Rail Services', 12),
      shape('ring', 72, 580, 12, 5),
      textAt(96, 580, 'Southern Coach Lines', 12),
      // Small shapes level with the capitals' tops (a figure's marks).
      shape('disc', 72, 540, 12, 1.8, 0.85),
      textAt(84, 540, 'Revenue grew in every quarter', 12),
      shape('disc', 72, 526, 12, 1.8, 0.85),
      textAt(84, 526, 'Costs fell in the second half', 12),
    ]);
    expect(out).not.toMatch(/[•◦▪]/);
    expect(out).not.toMatch(/^- /m);
    expect(out).toContain('Status Active');
    expect(out).toContain('Threats highlight the importance of leadership in cybersecurity');
  });

  it('reads no bullet from a wide pattern of dots beside a paragraph, radio buttons or open arcs', async () => {
    const dots: string[] = [];
    for (let i = 0; i < 3; i++) for (let j = 0; j < 8; j++) dots.push(`${round(40 + 9 * i, 704 - 14 * j, 0.75)} f`);
    const lines = ['Threats highlight the importance', 'of leadership in cybersecurity', 'and of a national strategy'];
    const out = await md([
      ...dots,
      ...lines.map((l, j) => textAt(72, 700 - 14 * j, l, 12)),
      // A question's radio buttons, the first at the line's start.
      shape('ring', 72, 600, 11),
      textAt(82, 600, 'Yes', 11),
      shape('ring', 122, 600, 11),
      textAt(132, 600, 'No', 11),
      textAt(176, 600, 'I smoke daily.', 11),
      shape('ring', 72, 580, 11),
      textAt(82, 580, 'Yes', 11),
      shape('ring', 122, 580, 11),
      textAt(132, 580, 'No', 11),
      textAt(176, 580, 'I drink weekly.', 11),
      // Three quarters of a circle before each of two actions (a refresh icon).
      '0.6 w 79 544 m 79 545.7 77.7 547 76 547 c 74.3 547 73 545.7 73 544 c 73 542.3 74.3 541 76 541 c S',
      textAt(84, 540, 'Refresh the page', 12),
      '0.6 w 79 530 m 79 531.7 77.7 533 76 533 c 74.3 533 73 531.7 73 530 c 73 528.3 74.3 527 76 527 c S',
      textAt(84, 526, 'Reload the data', 12),
    ]);
    expect(out).not.toMatch(/[•◦▪]/);
    expect(out).not.toMatch(/^- /m);
    expect(out).toContain(lines.join(' '));
    expect(out).toContain('Yes No I smoke daily.');
  });

  it("reads a chart's keys along a row as no list, and lists side by side as lists", async () => {
    const keys = [
      textAt(72, 720, 'Quarterly results', 16, 'F2'),
      ...['Revenue', 'Costs', 'Profit'].flatMap((t, i) => [
        shape('disc', 100 + 80 * i, 620, 10),
        textAt(110 + 80 * i, 620, t),
      ]),
    ];
    const keysMd = await md(keys);
    expect(keysMd).toContain('Revenue Costs Profit');
    expect(keysMd).not.toMatch(/^- /m);
    const sides = await md([
      textAt(72, 720, 'Trade-offs', 16, 'F2'),
      textAt(90, 690, 'Pros', 12, 'F2'),
      textAt(320, 690, 'Cons', 12, 'F2'),
      ...drawn('disc', 90, 670, 'Fast start'),
      ...drawn('disc', 320, 670, 'High price'),
      ...drawn('disc', 90, 656, 'Low noise'),
      ...drawn('disc', 320, 656, 'Heavy'),
      ...drawn('disc', 90, 642, 'Small size'),
    ]);
    expect(sides).toContain('- Fast start\n- Low noise\n- Small size');
    expect(sides).toContain('- High price\n- Heavy');
  });

  it("reads a column of dots between a borderless table's cells as no list", async () => {
    const rows = [
      ['Mail', 'Active', 'Ann'],
      ['Backup', 'Paused', 'Bob'],
      ['Web', 'Active', 'Cy'],
    ];
    const ops = [textAt(72, 720, 'Services', 16, 'F2')];
    for (const [i, [a, b, c]] of rows.entries()) {
      const y = 690 - 20 * i;
      ops.push(textAt(72, y, a as string, 11), shape('disc', 160, y, 11), textAt(170, y, b as string, 11));
      ops.push(textAt(300, y, c as string, 11));
    }
    const out = await md(ops);
    expect(out).not.toMatch(/^- /m);
    expect(out).toContain('| Mail | Active | Ann |');
  });

  it("reads an item set with its font's bullet over a drawn disc with one bullet", async () => {
    const out = await md([
      textAt(72, 720, 'Packing list', 16, 'F2'),
      ...['A warm coat', 'Boots for the snow', 'A flask of tea'].flatMap((t, i) => [
        shape('disc', 90, 690 - 14 * i, 12),
        `BT /F1 12 Tf 90 ${690 - 14 * i} Td (\\225 ${t}) Tj ET`,
      ]),
    ]);
    expect(out).toContain('- A warm coat\n- Boots for the snow\n- A flask of tea');
    expect(out).not.toContain('•');
  });

  it("keeps the bullet of a list's last item alone on the next page", async () => {
    const first = [
      textAt(72, 720, 'Packing list', 16, 'F2'),
      ...drawn('disc', 90, 690, 'A warm coat'),
      ...drawn('disc', 90, 676, 'Boots for the snow'),
      ...drawn('disc', 90, 662, 'A flask of tea'),
    ];
    const second = [...drawn('disc', 90, 720, 'A torch with new batteries'), textAt(72, 690, 'Leave the rest.', 12)];
    const result = await engineFor('pdfium').parse(
      pagesPdf([first.join('\n'), second.join('\n')]),
      { parsers: [{ type: 'pdf', mode }] },
      { filename: 'doc.pdf' },
    );
    expect(result.markdown).toMatch(/^- A torch with new batteries\n\nLeave the rest\.$/m);
  });
});

describe('bullets drawn as shapes over a document (pdfium, fast)', () => {
  it("reads a list on a document's twelfth page once its first pages drew one", async () => {
    const list = (n: number) =>
      [
        textAt(72, 720, `Section ${n}`, 16, 'F2'),
        textAt(72, 690, LEAD, 12),
        ...drawn('disc', 90, 668, `Coat for day ${n}`),
        ...drawn('disc', 90, 654, `Boots for day ${n}`),
      ].join('\n');
    const prose = (n: number) => textAt(72, 720, `Page ${n} holds one paragraph of plain prose and nothing else.`, 12);
    const pages = Array.from({ length: 12 }, (_, i) => (i === 0 || i === 11 ? list(i + 1) : prose(i + 1)));
    const result = await engineFor('pdfium').parse(
      pagesPdf(pages),
      { parsers: [{ type: 'pdf', mode: 'fast' }] },
      { filename: 'doc.pdf' },
    );
    expect(result.markdown).toContain('- Coat for day 1\n- Boots for day 1');
    expect(result.markdown).toContain('- Coat for day 12\n- Boots for day 12');
  });
});

describe('bullets drawn as shapes (pdfjs)', () => {
  it('reads a list drawn in a cell of a ruled table in auto mode', async () => {
    const out = await pageMarkdown('pdfjs', GARDEN, 'auto');
    expect(out).toContain(GARDEN_ROW);
  });
});
