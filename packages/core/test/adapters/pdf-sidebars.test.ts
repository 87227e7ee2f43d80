import { describe, expect, it } from 'vitest';
import { pageMarkdown, pdfBackends } from '../helpers/pdf-backends.ts';
import { textAt } from '../helpers/pdf-build.ts';

/**
 * A sidebar: a short column of short lines (a box's "At a glance" over its figures, a margin note, a
 * newsletter's "In this issue") set beside running text, on a pitch of its own. Read row by row,
 * each of its lines fell between two lines of the paragraph beside it, cutting the paragraph into
 * pieces and the sidebar's list in two. It reads after the text beside it. Columns on the rows of
 * the text beside them (a programme's rooms, a form's labels) still read row by row.
 */

/** A line opening with a bullet glyph (WinAnsi 0x95, "•") in Helvetica at (x, y). */
const item = (x: number, y: number, text: string, size = 10): string =>
  `BT /F1 ${size} Tf ${x} ${y} Td (\\225 ${text}) Tj ET`;

const BODY = [
  'Last spring we asked everyone in the nine offices how they',
  'use their desks, rooms and kitchens during a normal week.',
  'The answers shaped the plan for the coming refit, which will',
  'start in the Leeds office and move south over the summer.',
];
const WISHES = ['More desks near the windows', 'Quiet rooms for calls', 'A second kitchen on each floor'];
const CLOSING = [
  'We will report on progress every month, starting in',
  'June, and the plan may change as the work goes on.',
];
const FIGURES = ['212 answers', '9 offices', '3 weeks', '41 comments'];

/** The survey page: a title, a paragraph, a lead-in over a bulleted list and a closing paragraph, 14 pt apart. */
function survey(): string[] {
  const ops = [textAt(72, 720, 'Office survey results', 16, 'F2')];
  let y = 690;
  for (const l of BODY) {
    ops.push(textAt(72, y, l));
    y -= 14;
  }
  ops.push(textAt(72, y - 10, 'What people asked for most:'));
  y -= 28;
  for (const l of WISHES) {
    ops.push(item(72, y, l));
    y -= 14;
  }
  y -= 10;
  for (const l of CLOSING) {
    ops.push(textAt(72, y, l));
    y -= 14;
  }
  return ops;
}

const SURVEY_MD = [
  '# Office survey results',
  '',
  BODY.join(' '),
  '',
  'What people asked for most:',
  '',
  ...WISHES.map((w) => `- ${w}`),
  '',
  CLOSING.join(' '),
  '',
];

const modes = ['fast', 'auto'] as const;

describe.each(pdfBackends)('PDF sidebars (%s)', (backend) => {
  const markdown = (ops: string[], mode: 'fast' | 'auto' = 'fast') => pageMarkdown(backend, ops, mode);

  it.each(modes)('reads a sidebar of figures under its head after the text beside it (%s)', async (mode) => {
    const side = [textAt(420, 690, 'At a glance', 11, 'F2')];
    FIGURES.forEach((f, k) => {
      side.push(item(420, 672 - 13 * k, f, 9));
    });
    expect(await markdown([...survey(), ...side], mode)).toBe(
      [...SURVEY_MD, '### At a glance', '', ...FIGURES.map((f) => `- ${f}`), ''].join('\n'),
    );
  });

  it('reads a margin note of three lines after the paragraph beside it', async () => {
    const note = ['Figures are for', 'the nine offices', 'as of 1 May.'];
    const side = note.map((l, k) => textAt(430, 681 - 11 * k, l, 8));
    expect(await markdown([...survey(), ...side])).toBe([...SURVEY_MD, note.join(' '), ''].join('\n'));
  });

  it.each(modes)('reads a sidebar of wrapped items between full-width paragraphs in place (%s)', async (mode) => {
    const intro = [
      'This note goes to every member of staff in the nine offices and sums up where the refit of the',
      'buildings stands at the end of the first quarter, what comes next and who to ask about it.',
    ];
    const leeds = [
      'The Leeds office was the first to close its old floor. The',
      'desks arrived a week late, but the builders made up the',
      'time by working two weekends, and the floor opened again',
      'on the first of March as planned.',
    ];
    const sheffield = [
      'Sheffield follows in April. Its staff will work from the',
      'Leeds office or from home for three weeks while the',
      'kitchen and the meeting rooms are rebuilt, and the desks',
      'move over the Easter weekend.',
    ];
    const footer = [
      'Questions about the refit go to the facilities team, who answer within two working days; urgent',
      'matters, such as a broken lock or a leak, go straight to the building manager on site.',
    ];
    const ops = [textAt(72, 740, 'Refit update', 16, 'F2')];
    const lines = (text: string[], top: number): void => {
      text.forEach((l, k) => {
        ops.push(textAt(72, top - 14 * k, l));
      });
    };
    lines(intro, 712);
    lines(leeds, 674);
    lines(sheffield, 604);
    lines(footer, 538);
    // Three dates, the first two wrapped under their bullets' text, 11 pt apart in 9 pt type.
    ops.push(
      textAt(400, 674, 'Key dates', 11, 'F2'),
      item(400, 657, 'Leeds reopened on', 9),
      textAt(408, 646, '1 March', 9),
      item(400, 632, 'Sheffield closes on', 9),
      textAt(408, 621, '6 April', 9),
      item(400, 607, 'York starts in June', 9),
    );
    expect(await markdown(ops, mode)).toBe(
      [
        '# Refit update',
        '',
        ...[intro, leeds, sheffield].flatMap((p) => [p.join(' '), '']),
        '### Key dates',
        '',
        '- Leeds reopened on 1 March',
        '- Sheffield closes on 6 April',
        '- York starts in June',
        '',
        footer.join(' '),
        '',
      ].join('\n'),
    );
  });

  it.each(modes)('reads a sidebar on the left after the text beside it, the title first (%s)', async (mode) => {
    const issue = ['Survey results', 'Refit dates', 'New starters', 'Letters'];
    const ops = [textAt(200, 720, 'Office survey results', 16, 'F2')];
    [...BODY, ...CLOSING].forEach((l, k) => {
      ops.push(textAt(200, 690 - 14 * k, l));
    });
    ops.push(textAt(60, 690, 'In this issue', 11, 'F2'));
    issue.forEach((l, k) => {
      ops.push(item(60, 672 - 13 * k, l, 9));
    });
    expect(await markdown(ops, mode)).toBe(
      [
        '# Office survey results',
        '',
        [...BODY, ...CLOSING].join(' '),
        '',
        '### In this issue',
        '',
        ...issue.map((l) => `- ${l}`),
        '',
      ].join('\n'),
    );
  });

  it('keeps labels on the rows of their values read row by row', async () => {
    // A site sheet: each label in smaller bold type set 2 pt higher than its value's line.
    const rows: [string, string][] = [
      ['Site:', 'The old print works on Canal Street, entrance by the gate'],
      ['Contact:', 'Ann Lee at the front desk, or the site manager on duty'],
      ['Access:', 'From seven in the morning until six in the evening daily'],
      ['Parking:', 'Four bays behind the loading dock, booked at the desk'],
    ];
    const sheet = (all: [string, string][]): string[] => {
      const ops = [textAt(130, 720, 'Site sheet', 16, 'F2')];
      all.forEach(([label, value], k) => {
        ops.push(textAt(60, 692 - 14 * k, label, 8, 'F2'));
        if (value) ops.push(textAt(130, 690 - 14 * k, value));
      });
      return ops;
    };
    expect(await markdown(sheet(rows))).toMatch(
      new RegExp(`^#+ Site sheet\\s+${rows.map(([l, v]) => `\\**${l}\\**\\s+${v}`).join('\\s+')}\\s+$`),
    );
    // An empty field off the rows' grid leaves them rows, its label no wrapped line of the label above.
    for (const at of [1, rows.length]) {
      const gap: [string, string][] = [...rows.slice(0, at), ['Phone:', ''], ...rows.slice(at)];
      expect(await markdown(sheet(gap))).toMatch(
        new RegExp(`^#+ Site sheet\\s+${gap.map(([l, v]) => `\\**${l}\\**${v ? `\\s+${v}` : ''}`).join('\\s+')}\\s+$`),
      );
    }
  });

  it('reads a sidebar between a running head and a running foot, each in place', async () => {
    const ops = [textAt(72, 750, 'Staff news', 9), textAt(450, 750, 'May 2024, page 2', 9)];
    [...BODY, ...CLOSING].forEach((l, k) => {
      ops.push(textAt(72, 720 - 14 * k, l));
    });
    ops.push(textAt(420, 720, 'At a glance', 11, 'F2'));
    FIGURES.forEach((f, k) => {
      ops.push(item(420, 702 - 13 * k, f, 9));
    });
    ops.push(textAt(72, 60, 'Staff news is published by the facilities team', 8), textAt(480, 60, 'Page 2 of 4', 8));
    const md = await markdown(ops);
    const at = (text: string): number => md.indexOf(text);
    expect(md).toContain([...BODY, ...CLOSING].join(' '));
    expect(at('May 2024, page 2')).toBeLessThan(at(BODY[0] as string));
    expect(at(CLOSING[1] as string)).toBeLessThan(at('At a glance'));
    expect(at('41 comments')).toBeLessThan(at('Staff news is published'));
  });

  it('reads the text beside a sidebar to its paragraph end, a table under it after the sidebar', async () => {
    const ops = [textAt(72, 720, 'Office survey results', 16, 'F2')];
    BODY.forEach((l, k) => {
      ops.push(textAt(72, 690 - 14 * k, l));
    });
    ops.push(textAt(420, 690, 'At a glance', 11, 'F2'));
    FIGURES.forEach((f, k) => {
      ops.push(item(420, 672 - 13 * k, f, 9));
    });
    ops.push(textAt(72, 590, 'Budget for the year:', 10, 'F2'));
    const costs = [
      ['Desks and chairs', 'GBP 40,000'],
      ['Kitchens', 'GBP 25,000'],
      ['Meeting rooms', 'GBP 18,000'],
    ];
    costs.forEach(([a, b], k) => {
      ops.push(textAt(72, 574 - 14 * k, a as string), textAt(400, 574 - 14 * k, b as string));
    });
    const md = await markdown(ops);
    expect(md.indexOf(BODY.join(' '))).toBeLessThan(md.indexOf('At a glance'));
    expect(md.indexOf('41 comments')).toBeLessThan(md.indexOf('Budget for the year:'));
    for (const [a, b] of costs) expect(md).toMatch(new RegExp(`${a}\\W+${b}`));
  });

  it('keeps the lines of a masthead over a sidebar on the left ahead of the title', async () => {
    const ops = [textAt(60, 745, 'Issue 12, May 2024', 9), textAt(200, 720, 'Office survey results', 16, 'F2')];
    BODY.forEach((l, k) => {
      ops.push(textAt(200, 690 - 14 * k, l));
    });
    ops.push(textAt(60, 690, 'In this issue', 11, 'F2'));
    ['Survey results', 'Refit dates', 'New starters', 'Letters'].forEach((l, k) => {
      ops.push(item(60, 672 - 13 * k, l, 9));
    });
    const md = await markdown(ops);
    expect(md.indexOf('Issue 12, May 2024')).toBeLessThan(md.indexOf('Office survey results'));
    expect(md.indexOf(BODY.join(' '))).toBeLessThan(md.indexOf('In this issue'));
  });

  // A programme: each session's room on its row, in the text's type or in smaller type set 2 pt
  // higher, one room wrapped onto a second line ("(upstairs)") or none.
  it.each([
    [10, 0, false],
    [8, 2, false],
    [8, 0, true],
  ])(
    'keeps a column on the rows of the text beside it read row by row (%d pt, %d pt up, wrapped %s)',
    async (size, up, wrapped) => {
      const rows: [string, string][] = [
        ['Welcome and a short look back at the year behind us', 'Main hall'],
        ['The new desks: what we ordered and when they arrive', 'Room four'],
        ['How the move will go on each floor of the building', 'Room four'],
        ['Questions from the floor, answered by the refit team', 'Main hall'],
        ['Lunch, served in the kitchen on the ground floor', 'Kitchen'],
      ];
      const ops = [textAt(72, 720, 'Programme', 16, 'F2')];
      rows.forEach(([text, room], k) => {
        ops.push(textAt(72, 690 - 14 * k, text), textAt(430, 690 + up - 14 * k, room, size));
      });
      if (wrapped) {
        ops.push(textAt(430, 690 - 14 - 8, '(upstairs)', size));
        rows[1] = [rows[1]?.[0] as string, 'Room four\\s+\\(upstairs\\)'];
      }
      // Each room next to its session (a paragraph of its own in the smaller type), the sessions in order.
      expect(await markdown(ops)).toMatch(
        new RegExp(`^# Programme\\s+${rows.map(([t, r]) => `${t}\\s+${r}`).join('\\s+')}\\s+$`),
      );
    },
  );
});
