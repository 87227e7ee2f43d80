import { describe, expect, it } from 'vitest';
import { pageMarkdown, pdfBackends } from '../helpers/pdf-backends.ts';
import { gridRulings as grid, textAt } from '../helpers/pdf-build.ts';

/**
 * Rich cells of ruled tables, as a word processor prints them. Lists: each item's marker a run of
 * its own, its text a tab further in; the items' lines beside each other across two cells read as
 * rows of their own, or the grid as a frame around a layout (a marker's tab is as wide as a column
 * gap), and a cell's items ran together as one line. Nested tables: a grid inside a cell, clear of
 * its walls, added its columns to every row of the outer table. Two-column grids are read on PDFium
 * only (pdf.js asks for rulings where lines break into three runs: see pdf-small-ruled.test.ts).
 */

/** An item: its marker (a bullet by default) drawn as a run of its own at `x`, its text a tab further in. */
const item = (x: number, y: number, text: string, marker = '\\225'): string[] => [
  `BT /F1 10 Tf ${x} ${y} Td (${marker}) Tj ET`,
  textAt(x + 18, y, text),
];

describe.each(pdfBackends)('lists in ruled cells (%s)', (backend) => {
  // pdf.js reads rulings in auto mode only (fast mode reads its text layer alone).
  const ruledModes = backend === 'pdfium' ? (['fast', 'auto'] as const) : (['auto'] as const);

  it.skipIf(backend !== 'pdfium').each(['fast', 'auto'] as const)(
    'reads two cells of lists side by side as one row, each list under its lead-in (%s)',
    async (mode) => {
      const ops = [
        textAt(72, 720, 'Table with lists', 16, 'F2'),
        ...grid([72, 306, 540], [700, 684, 616, 556]),
        textAt(78, 689, 'Column A'),
        textAt(312, 689, 'Column B'),
        textAt(78, 672, 'This is a list:'),
        ...item(96, 658, 'A First'),
        ...item(96, 644, 'A Second'),
        ...item(96, 630, 'A Third'),
        textAt(312, 672, 'This is a formatted list:'),
        ...item(330, 658, 'B First'),
        ...item(330, 644, 'B Second'),
        ...item(330, 630, 'B Third'),
        textAt(78, 604, 'A paragraph before a numbered list'),
        ...item(96, 590, 'Number one', '1.'),
        ...item(96, 576, 'Number two', '2.'),
        ...item(96, 562, 'Number three', '3.'),
        textAt(312, 604, 'Plain text'),
        textAt(72, 530, 'After the table.'),
      ];
      expect((await pageMarkdown(backend, ops, mode)).trim()).toBe(
        [
          '# Table with lists',
          '',
          '| Column A | Column B |',
          '| --- | --- |',
          '| This is a list:<br>- A First<br>- A Second<br>- A Third | This is a formatted list:<br>- B First<br>- B Second<br>- B Third |',
          '| A paragraph before a numbered list<br>1. Number one<br>2. Number two<br>3. Number three | Plain text |',
          '',
          'After the table.',
        ].join('\n'),
      );
    },
  );

  it.skipIf(backend !== 'pdfium')('reads a grid whose every cell holds a list, with no lead-in', async () => {
    const ops = [
      textAt(72, 720, 'Multiple columns with lists', 16, 'F2'),
      ...grid([72, 288, 504], [700, 670, 640]),
      ...item(78, 688, 'R1C1 item 1'),
      ...item(78, 676, 'R1C1 item 2'),
      ...item(294, 688, 'R1C2 item 1'),
      ...item(294, 676, 'R1C2 item 2'),
      ...item(78, 658, 'R2C1 item 1'),
      ...item(78, 646, 'R2C1 item 2'),
      ...item(294, 658, 'R2C2 item 1'),
      ...item(294, 646, 'R2C2 item 2'),
    ];
    expect(await pageMarkdown(backend, ops)).toContain(
      [
        '| - R1C1 item 1<br>- R1C1 item 2 | - R1C2 item 1<br>- R1C2 item 2 |',
        '| --- | --- |',
        '| - R2C1 item 1<br>- R2C1 item 2 | - R2C2 item 1<br>- R2C2 item 2 |',
      ].join('\n'),
    );
  });

  it.each(ruledModes)('keeps a wrapped label beside a cell of items in one row of three columns (%s)', async (mode) => {
    const ops = [
      ...grid([72, 220, 420, 540], [700, 684, 630, 600]),
      textAt(78, 689, 'Requirement'),
      textAt(226, 689, 'Formats'),
      textAt(426, 689, 'Status'),
      textAt(78, 672, 'Export reports in the'),
      textAt(78, 658, 'formats the auditors'),
      textAt(78, 644, 'accept'),
      ...item(226, 672, 'PDF'),
      ...item(226, 658, 'CSV'),
      ...item(226, 644, 'XLSX'),
      textAt(426, 672, 'Done'),
      textAt(78, 612, 'Import'),
      textAt(226, 612, 'JSON only'),
      textAt(426, 612, 'Open'),
    ];
    expect(await pageMarkdown(backend, ops, mode)).toContain(
      [
        '| Requirement | Formats | Status |',
        '| --- | --- | --- |',
        '| Export reports in the formats the auditors accept | - PDF<br>- CSV<br>- XLSX | Done |',
        '| Import | JSON only | Open |',
      ].join('\n'),
    );
  });

  it.each(ruledModes)('reads items marked by dashes in a cell, and leaves signed figures (%s)', async (mode) => {
    const ops = [
      ...grid([72, 180, 260, 540], [700, 684, 630, 600]),
      textAt(78, 689, 'Column'),
      textAt(186, 689, 'Change'),
      textAt(266, 689, 'Description'),
      textAt(78, 672, 'USAGE'),
      textAt(186, 672, '- 4.5'),
      textAt(186, 658, '- 2.0'),
      textAt(266, 672, 'Usage setting:'),
      textAt(266, 658, '- ALLOWED: the profile may use it.'),
      textAt(266, 644, '- DENIED: the profile may not.'),
      textAt(78, 612, 'USER_TYPE'),
      'BT /F1 10 Tf 186 612 Td (\\226) Tj ET',
      textAt(266, 612, 'Type of user profile.'),
    ];
    expect(await pageMarkdown(backend, ops, mode)).toContain(
      [
        '| Column | Change | Description |',
        '| --- | --- | --- |',
        '| USAGE | - 4.5 - 2.0 | Usage setting:<br>- ALLOWED: the profile may use it.<br>- DENIED: the profile may not. |',
        '| USER_TYPE | – | Type of user profile. |',
      ].join('\n'),
    );
  });

  it.each(ruledModes)('reads rows that each open with a bullet as rows (%s)', async (mode) => {
    // Ruled at the top, under the head and at the foot only: nothing but the lines tells the rows.
    const ops = [
      ...grid([72, 200, 320, 440], [700, 684, 630]),
      textAt(78, 689, 'Task'),
      textAt(206, 689, 'Owner'),
      textAt(326, 689, 'Due'),
      ...item(78, 672, 'Alpha'),
      textAt(206, 672, 'Kim'),
      textAt(326, 672, 'May'),
      ...item(78, 658, 'Beta'),
      textAt(206, 658, 'Lee'),
      textAt(326, 658, 'June'),
      ...item(78, 644, 'Gamma'),
      textAt(206, 644, 'Ng'),
      textAt(326, 644, 'July'),
    ];
    expect(await pageMarkdown(backend, ops, mode)).toContain(
      ['| Task | Owner | Due |', '| --- | --- | --- |', '| • Alpha | Kim | May |', '| • Beta | Lee | June |'].join(
        '\n',
      ),
    );
  });

  it.each(ruledModes)(
    'reads a feature matrix of bullets, ruled at its head and foot, row by row (%s)',
    async (mode) => {
      const dot = (x: number, y: number, text = ''): string => `BT /F1 10 Tf ${x} ${y} Td (\\225${text}) Tj ET`;
      const ops = [
        ...grid([72, 220, 320, 420], [700, 684, 616]),
        textAt(78, 689, 'Feature'),
        textAt(226, 689, 'Basic'),
        textAt(326, 689, 'Pro'),
        textAt(78, 672, 'Export'),
        dot(226, 672),
        dot(326, 672, ' Yes'),
        textAt(78, 658, 'Import'),
        textAt(226, 658, 'No'),
        dot(326, 658, ' Yes'),
        textAt(78, 644, 'Sync'),
        dot(226, 644),
        dot(326, 644, ' Yes'),
        textAt(78, 630, 'Audit'),
        textAt(226, 630, 'No'),
        dot(326, 630, ' Yes'),
      ];
      expect(await pageMarkdown(backend, ops, mode)).toContain(
        [
          '| Feature | Basic | Pro |',
          '| --- | --- | --- |',
          '| Export | • | • Yes |',
          '| Import | No | • Yes |',
          '| Sync | • | • Yes |',
          '| Audit | No | • Yes |',
        ].join('\n'),
      );
    },
  );

  it.each(ruledModes)('reads bulleted sub-rows under a row, each with its value (%s)', async (mode) => {
    const ops = [
      ...grid([72, 260, 360, 440], [700, 684, 616]),
      textAt(78, 689, 'Item'),
      textAt(266, 689, 'Cost'),
      textAt(366, 689, 'Share'),
      textAt(78, 672, 'Hardware'),
      textAt(266, 672, '300'),
      textAt(366, 672, '86%'),
      ...item(90, 658, 'Servers'),
      textAt(266, 658, '200'),
      textAt(366, 658, '57%'),
      ...item(90, 644, 'Switches'),
      textAt(266, 644, '100'),
      textAt(366, 644, '29%'),
      textAt(78, 630, 'Software'),
      textAt(266, 630, '50'),
      textAt(366, 630, '14%'),
    ];
    expect(await pageMarkdown(backend, ops, mode)).toContain(
      [
        '| Hardware | 300 | 86% |',
        '| • Servers | 200 | 57% |',
        '| • Switches | 100 | 29% |',
        '| Software | 50 | 14% |',
      ].join('\n'),
    );
  });

  it.each(ruledModes)('keeps initials and a lone numbered line in a cell as text (%s)', async (mode) => {
    const ops = [
      ...grid([72, 200, 360, 480], [700, 684, 626, 596]),
      textAt(78, 689, 'Team'),
      textAt(206, 689, 'Members'),
      textAt(366, 689, 'Notes'),
      textAt(78, 672, 'North'),
      textAt(206, 672, 'A. Smith'),
      textAt(206, 658, 'B. Jones'),
      textAt(366, 672, 'Meets after'),
      textAt(366, 658, '2. floor'),
      textAt(366, 644, '(1) Clause one'),
      textAt(366, 630, '(2) Clause two'),
      textAt(206, 644, '1.'),
      textAt(206, 630, '2.'),
      textAt(78, 608, 'South'),
      textAt(206, 608, 'C. Brown'),
      textAt(366, 608, 'Remote'),
    ];
    expect(await pageMarkdown(backend, ops, mode)).toContain(
      [
        '| Team | Members | Notes |',
        '| --- | --- | --- |',
        '| North | A. Smith B. Jones 1. 2. | Meets after 2. floor (1) Clause one (2) Clause two |',
        '| South | C. Brown | Remote |',
      ].join('\n'),
    );
  });
});

describe.each(pdfBackends)('tables nested in ruled cells (%s)', (backend) => {
  const ruledModes = backend === 'pdfium' ? (['fast', 'auto'] as const) : (['auto'] as const);

  it.each(ruledModes)('reads a table nested in a cell as a table inside that cell (%s)', async (mode) => {
    const ops = [
      textAt(72, 720, 'Table with nested table', 16, 'F2'),
      ...grid([72, 306, 540], [700, 684, 654, 580]),
      textAt(78, 689, 'Column A'),
      textAt(312, 689, 'Column B'),
      textAt(78, 672, 'Simple cell upper left'),
      textAt(312, 672, 'Simple cell with text'),
      textAt(312, 658, 'over two lines'),
      // Three columns in two rows inside the first cell, clear of its walls by a cell's padding.
      ...grid([78, 152, 226, 300], [654, 639, 624]),
      textAt(84, 643, 'A'),
      textAt(158, 643, 'B'),
      textAt(232, 643, 'C'),
      textAt(84, 628, 'Cell 1'),
      textAt(158, 628, 'Cell 2'),
      textAt(232, 628, 'Cell 3'),
      textAt(312, 643, 'Rich cell'),
      textAt(312, 629, 'with a note'),
      textAt(72, 560, 'After the table.'),
    ];
    expect(await pageMarkdown(backend, ops, mode)).toContain(
      [
        '| Column A | Column B |',
        '| --- | --- |',
        '| Simple cell upper left | Simple cell with text over two lines |',
        '| A \\| B \\| C<br>Cell 1 \\| Cell 2 \\| Cell 3 | Rich cell with a note |',
      ].join('\n'),
    );
  });

  it.each(ruledModes)('leaves a grid across an outer table’s text rows where its rows fall (%s)', async (mode) => {
    // The outer table is ruled at its head and foot only: its rows come from its text, and the grid
    // in its middle column runs across four of them.
    const ops = [
      ...grid([72, 200, 380, 540], [700, 684, 600]),
      textAt(78, 689, 'Name'),
      textAt(206, 689, 'Detail'),
      textAt(386, 689, 'Owner'),
      ...['Alpha', 'Beta', 'Gamma', 'Delta'].map((t, k) => textAt(78, 672 - 14 * k, t)),
      ...['Kim', 'Lee', 'Ng', 'Ann'].map((t, k) => textAt(386, 672 - 14 * k, t)),
      ...grid([206, 290, 374], [684, 668, 654, 640, 626]),
      ...[1, 2, 3, 4].flatMap((n, k) => [textAt(212, 672 - 14 * k, `k${n}`), textAt(296, 672 - 14 * k, `v${n}`)]),
    ];
    const md = await pageMarkdown(backend, ops, mode);
    // Each key and value once, beside its row's name.
    for (const n of [1, 2, 3, 4]) expect(md.split(`k${n}`).length).toBe(2);
    expect(md).toContain('| Alpha | k1 v1 | Kim |');
  });

  it.each(ruledModes)('keeps the rows of a table set in one of a frame’s two columns (%s)', async (mode) => {
    // The table hangs from the rule under the frame's heads: one grid with the frame.
    const ops = [
      ...grid([60, 306, 552], [710, 690, 560]),
      textAt(66, 696, 'Quarterly figures', 12, 'F2'),
      textAt(312, 696, 'Notes', 12, 'F2'),
      ...grid([72, 150, 228, 294], [690, 674, 658, 642]),
      textAt(78, 679, 'Region'),
      textAt(156, 679, 'Q1'),
      textAt(234, 679, 'Q2'),
      textAt(78, 663, 'North'),
      textAt(156, 663, '12'),
      textAt(234, 663, '15'),
      textAt(78, 647, 'South'),
      textAt(156, 647, '9'),
      textAt(234, 647, '11'),
      textAt(312, 670, 'Figures are in thousands'),
      textAt(312, 656, 'of units.'),
    ];
    expect(await pageMarkdown(backend, ops, mode)).toContain(
      [
        '| Quarterly figures | Notes |',
        '| --- | --- |',
        '| Region \\| Q1 \\| Q2<br>North \\| 12 \\| 15<br>South \\| 9 \\| 11 | Figures are in thousands of units. |',
      ].join('\n'),
    );
  });
});
