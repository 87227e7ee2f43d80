import { describe, expect, it } from 'vitest';
import { fixture } from '../helpers/corpus.ts';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';
import { pdfOf } from '../helpers/pdf-build.ts';

/**
 * A PDF of pages each drawn by `content` (Helvetica as F1) with its widgets (annotation dictionaries,
 * `/Parent N` naming an entry of `extra` by its index, which are written first from object 5 on);
 * every widget and extra object is in the form's /Fields unless it has a /Parent, and a parent lists
 * its widgets as /Kids.
 */
function formPdf(pages: { content: string; widgets: string[] }[], extra: string[] = []): Uint8Array {
  const objects: string[] = [
    '',
    '',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    '<< /Type /XObject /Subtype /Form /BBox [0 0 12 12] /Length 0 >>\nstream\n\nendstream',
  ];
  const ref = (k: number) => `${k} 0 R`;
  const fields: number[] = [];
  const base = objects.length + 1;
  for (const e of extra) {
    objects.push(e.replace(/\/Parent (\d+)/g, (_, i) => `/Parent ${base + Number(i)} 0 R`));
    if (!e.includes('/Parent')) fields.push(objects.length);
  }
  const kids: number[] = [];
  const children = new Map<number, number[]>();
  for (const page of pages) {
    const annots: number[] = [];
    for (const w of page.widgets) {
      const parent = /\/Parent (\d+)/.exec(w);
      if (parent) children.set(Number(parent[1]), [...(children.get(Number(parent[1])) ?? []), objects.length + 1]);
      objects.push(
        `<< /Type /Annot /Subtype /Widget /F 4 ${w.replace(/\/Parent (\d+)/g, (_, i) => `/Parent ${base + Number(i)} 0 R`)} >>`,
      );
      annots.push(objects.length);
      if (!w.includes('/Parent')) fields.push(objects.length);
    }
    objects.push(`<< /Length ${page.content.length} >>\nstream\n${page.content}\nendstream`);
    const stream = objects.length;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${ref(stream)} /Annots [${annots.map(ref).join(' ')}] >>`,
    );
    kids.push(objects.length);
  }
  // A field lists its widgets, as the form's tree is read from the top.
  for (const [i, ks] of children) {
    const k = base - 1 + i;
    objects[k] = (objects[k] as string).replace(/>>$/, `/Kids [${ks.map(ref).join(' ')}] >>`);
  }
  objects[0] = `<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [${fields.map(ref).join(' ')}] /DA (/Helv 0 Tf 0 g) >> >>`;
  objects[1] = `<< /Type /Pages /Kids [${kids.map(ref).join(' ')}] /Count ${kids.length} >>`;
  return pdfOf(objects);
}
const text = (x: number, y: number, s: string) => `BT /F1 12 Tf ${x} ${y} Td (${s}) Tj ET\n`;
/** A box's appearances, on and off: object 4, an empty drawing. */
const states = (on: string) => `/AP << /N << /${on} 4 0 R /Off 4 0 R >> >>`;

/** The text of the line of Markdown holding `label` (a paragraph's or a table row's). */
const lineOf = (md: string, label: string): string => md.split('\n').find((l) => l.includes(label)) ?? '';

describe.each(pdfBackends)('pdf form fields: a filled form reads with its values (%s)', (backend) => {
  const { parse } = engineFor(backend);

  it.each(['fast', 'auto'] as const)(
    'puts each value beside its label, ticks as ☒ and ☐, nothing masked (%s)',
    async (mode) => {
      const options = { parsers: [{ type: 'pdf' as const, mode }] };
      const md =
        (await parse(fixture('pdf-patterns', 'form-fields.pdf'), options, { filename: 'form.pdf' })).markdown ?? '';
      // A value on its field (its widget a kid) with an appearance, one without, a drop-down's label.
      expect(lineOf(md, 'Name:')).toMatch(/Name:.*Jane Fairweather/);
      expect(lineOf(md, 'City:')).toMatch(/City:.*Leeds/);
      expect(lineOf(md, 'Colour:')).toMatch(/Colour:.*Blue/);
      // Ticks: a box ticked and one not; a radio group's chosen option.
      expect(lineOf(md, 'Member:')).toMatch(/Member:.*☒.*Newsletter:.*☐/);
      expect(lineOf(md, 'Plan:')).toMatch(/Plan:.*☐.*Monthly.*☒.*Annual/);
      // A field of several lines: both, in order.
      expect(lineOf(md, 'Comments:')).toMatch(/Comments:.*Arrives late\..*Needs parking\./);
      // What no viewer shows: a password, a hidden field.
      expect(md).not.toContain('hunter2');
      expect(md).not.toContain('Hidden reviewer note');
      expect(md).toContain('Signed on receipt of the fee.');
    },
  );

  it('reads boxes opening their lines as a list of tasks, ticked as the form is', async () => {
    const options = ['Single', 'Married', 'Divorced'];
    const content = text(72, 720, 'Marital status:') + options.map((o, i) => text(92, 700 - i * 20, o)).join('');
    const bytes = formPdf(
      [
        {
          content,
          widgets: options.map(
            (o, i) =>
              `/Parent 0 /AS /${o === 'Married' ? o : 'Off'} /Rect [72 ${697 - i * 20} 84 ${709 - i * 20}] ${states(o)}`,
          ),
        },
      ],
      ['<< /FT /Btn /Ff 49152 /T (status) /V /Married >>'],
    );
    const md = (await parse(bytes, { parsers: [{ type: 'pdf', mode: 'fast' }] }, { filename: 'status.pdf' })).markdown;
    expect(md).toBe('Marital status:\n\n- [ ] Single\n- [x] Married\n- [ ] Divorced\n');
  });

  it('reads choices on the row of their question in its line, in a grid of questions as cells, side by side as one list', async () => {
    // A box ticked or not at (x, y), its label a gap after it.
    const box = (x: number, y: number, on: boolean, name: string) =>
      `/FT /Btn /T (${name}) /V /${on ? 'On' : 'Off'} /AS /${on ? 'On' : 'Off'} /Rect [${x} ${y - 3} ${x + 12} ${y + 9}] ${states('On')}`;
    const choices = (question: string, y: number, yes: boolean) => ({
      content: text(72, y, question) + text(200, y, 'Yes') + text(250, y, 'No'),
      widgets: [box(185, y, yes, `yes${y}`), box(235, y, !yes, `no${y}`)],
    });
    const grid = ['Do you smoke?', 'Do you drink?', 'Are you diabetic?'].map((q, i) =>
      choices(q, 720 - i * 18, i !== 1),
    );
    const lone = choices('Do you drive?', 640, false);
    const content = [...grid, lone].map((r) => r.content).join('');
    const widgets = [...grid, lone].flatMap((r) => r.widgets);
    const rest = `${text(72, 600, 'Any allergies?')}${text(92, 580, 'Yes')}${text(142, 580, 'No')}${text(72, 540, 'Signed below by the applicant.')}`;
    const bytes = formPdf([
      { content: content + rest, widgets: [...widgets, box(72, 580, false, 'allergy'), box(125, 580, true, 'none')] },
    ]);
    for (const mode of ['fast', 'auto'] as const) {
      const md = (await parse(bytes, { parsers: [{ type: 'pdf', mode }] }, { filename: 'health.pdf' })).markdown;
      // Before: each question a paragraph over a list nested in a list ("☐ No" an item of "☒ Yes"),
      // and in the grid a box a cell apart from its label.
      expect(md).toBe(
        [
          '| Do you smoke? | ☒ Yes | ☐ No |',
          '| --- | --- | --- |',
          '| Do you drink? | ☐ Yes | ☒ No |',
          '| Are you diabetic? | ☒ Yes | ☐ No |',
          '',
          'Do you drive? ☐ Yes ☒ No',
          '',
          'Any allergies?',
          '',
          '- [ ] Yes',
          '- [x] No',
          '',
          'Signed below by the applicant.',
          '',
        ].join('\n'),
      );
    }
  });

  it("keeps a numbered question's choices in its item, a checklist beside its label whole, a box apart from what is not its label", async () => {
    // Runs of text and boxes ('☒' ticked, '☐' not) at (x, y), each box a widget.
    let field = 0;
    const read = async (cells: [number, number, string][]) => {
      let content = '';
      const widgets: string[] = [];
      for (const [x, y, t] of cells) {
        if (t !== '☒' && t !== '☐') content += text(x, y, t);
        else
          widgets.push(
            `/FT /Btn /T (box${field++}) /V /${t === '☒' ? 'On' : 'Off'} /AS /${t === '☒' ? 'On' : 'Off'} /Rect [${x} ${y - 3} ${x + 12} ${y + 9}] ${states('On')}`,
          );
      }
      return (await parse(formPdf([{ content, widgets }]), {}, { filename: 'form.pdf' })).markdown;
    };
    const rows = (cells: (y: number, k: number) => [number, number, string][]) =>
      [0, 1, 2].flatMap((k) => cells(700 - k * 18, k));
    // Before: the choices items of the numbered list, numbered on with the questions.
    expect(
      await read([
        [72, 700, '1. Do you smoke?'],
        [200, 700, '☒'],
        [215, 700, 'Yes'],
        [250, 700, '☐'],
        [265, 700, 'No'],
        [72, 680, '2. Do you drink alcohol every week?'],
        [300, 680, '☐'],
        [315, 680, 'Yes'],
        [350, 680, '☒'],
        [365, 680, 'No'],
      ]),
    ).toBe('1. Do you smoke? ☒ Yes ☐ No\n2. Do you drink alcohol every week? ☐ Yes ☒ No\n');
    // Before: "Packing list: ☐ Passport", the list's other items apart.
    expect(
      await read([
        [72, 700, 'Packing list:'],
        ...['Passport', 'Tickets', 'Money'].flatMap((w, k): [number, number, string][] => [
          [200, 700 - k * 16, k === 1 ? '☒' : '☐'],
          [216, 700 - k * 16, w],
        ]),
      ]),
    ).toBe('Packing list:\n\n- [ ] Passport\n- [x] Tickets\n- [ ] Money\n');
    // A box after its label, beside an owner's name, in a rating scale: its own cell (before, each
    // was joined to the cell on its right).
    const questions = ['Do you smoke?', 'Do you drink?', 'Are you diabetic?'];
    expect(
      await read(
        rows((y, k) => [
          [72, y, questions[k] as string],
          [200, y, 'Yes'],
          [225, y, k === 1 ? '☐' : '☒'],
          [260, y, 'No'],
          [280, y, k === 1 ? '☒' : '☐'],
        ]),
      ),
    ).toContain('| Do you drink? | Yes | ☐ | No | ☒ |');
    const tasks = ['Order the chairs', 'Book the hall', 'Print the menus'];
    expect(
      await read(
        rows((y, k) => [
          [72, y, tasks[k] as string],
          [250, y, k === 1 ? '☐' : '☒'],
          [300, y, ['Anna', 'Ben', 'Cara'][k] as string],
        ]),
      ),
    ).toContain('| Book the hall | ☐ | Ben |');
    const scale = await read(
      rows((y, k) => [
        [72, y, tasks[k] as string],
        ...[0, 1, 2, 3].map((c): [number, number, string] => [250 + c * 30, y, c === k ? '☒' : '☐']),
      ]),
    );
    expect(scale).toContain('| Book the hall | ☐ | ☒ | ☐ | ☐ |');
  });

  it("reads boxes set after their labels with them: in a question's line, and down a checklist as tasks", async () => {
    let field = 0;
    const box = (x: number, y: number, on: boolean) =>
      `/FT /Btn /T (after${field++}) /V /${on ? 'On' : 'Off'} /AS /${on ? 'On' : 'Off'} /Rect [${x} ${y - 3} ${x + 12} ${y + 9}] ${states('On')}`;
    const content = [
      text(72, 700, 'Do you smoke?'),
      text(200, 700, 'Yes'),
      text(260, 700, 'No'),
      text(72, 660, 'How did you hear of us?'),
      text(72, 640, 'Friend'),
      text(72, 624, 'Newspaper'),
      text(72, 608, 'Website'),
      text(72, 570, 'Signed below by the applicant.'),
    ].join('');
    const widgets = [
      box(225, 700, true),
      box(280, 700, false),
      box(150, 640, true),
      box(150, 624, false),
      box(150, 608, false),
    ];
    const bytes = formPdf([{ content, widgets }]);
    for (const mode of ['fast', 'auto'] as const) {
      const md = (await parse(bytes, { parsers: [{ type: 'pdf', mode }] }, { filename: 'survey.pdf' })).markdown;
      // Before: "Yes ☒ No" then "☐" a paragraph of its own, "☒ No" read as a task; each box of the
      // checklist a paragraph under its label, the first label in the question's line.
      expect(md).toBe(
        [
          'Do you smoke? Yes ☒ No ☐',
          '',
          'How did you hear of us?',
          '',
          '- [x] Friend',
          '- [ ] Newspaper',
          '- [ ] Website',
          '',
          'Signed below by the applicant.',
          '',
        ].join('\n'),
      );
    }
  });

  it('keeps a wrapped statement ending in a box whole, and ends a paragraph at a line ending in one', async () => {
    let field = 0;
    const box = (x: number, y: number, on: boolean) =>
      `/FT /Btn /T (consent${field++}) /V /${on ? 'On' : 'Off'} /AS /${on ? 'On' : 'Off'} /Rect [${x} ${y - 3} ${x + 12} ${y + 9}] ${states('On')}`;
    const content = [
      text(72, 700, 'I agree to be contacted by e-mail about future'),
      text(72, 686, 'events and meetings of the society.'),
      text(72, 664, 'I agree to my name being printed in the list of'),
      text(72, 650, 'members sent out each spring.'),
      text(72, 620, 'I have read the conditions above'),
      text(72, 606, 'Please return this form to the office by the end of the month.'),
    ].join('');
    const bytes = formPdf([{ content, widgets: [box(400, 686, true), box(400, 650, false), box(300, 620, false)] }]);
    const md = (await parse(bytes, { parsers: [{ type: 'pdf', mode: 'fast' }] }, { filename: 'consent.pdf' })).markdown;
    // Before the second reading: each statement's last line a task apart from its first, and the
    // line after a box read on in its sentence.
    expect(md).toBe(
      [
        'I agree to be contacted by e-mail about future events and meetings of the society. ☒',
        '',
        'I agree to my name being printed in the list of members sent out each spring. ☐',
        '',
        'I have read the conditions above ☐',
        '',
        'Please return this form to the office by the end of the month.',
        '',
      ].join('\n'),
    );
  });

  it('reads on past a box where the line below goes on in a small letter; a checklist of small letters is its tasks', async () => {
    let field = 0;
    const box = (x: number, y: number, on: boolean) =>
      `/FT /Btn /T (small${field++}) /V /${on ? 'On' : 'Off'} /AS /${on ? 'On' : 'Off'} /Rect [${x} ${y - 3} ${x + 12} ${y + 9}] ${states('On')}`;
    const options = ['by e-mail', 'by post', 'by telephone', 'not at all'];
    const content = [
      text(72, 700, 'I agree to my name being printed in the list of'),
      text(72, 686, 'members that is sent out to all branches each spring.'),
      text(72, 650, 'How would you like us to contact you?'),
      ...options.map((o, k) => text(92, 630 - k * 16, o)),
    ].join('');
    const widgets = [box(400, 700, false), ...options.map((_, k) => box(200, 630 - k * 16, k % 2 === 0))];
    const md = (await parse(formPdf([{ content, widgets }]), {}, { filename: 'contact.pdf' })).markdown;
    // Before the third reading: the statement cut after its box, the checklist one task.
    expect(md).toBe(
      [
        'I agree to my name being printed in the list of ☐ members that is sent out to all branches each spring.',
        '',
        'How would you like us to contact you?',
        '',
        '- [x] by e-mail',
        '- [ ] by post',
        '- [x] by telephone',
        '- [ ] not at all',
        '',
      ].join('\n'),
    );
  });

  it('reads boxes right after short labels in small letters, a row each, as lines of their own', async () => {
    let field = 0;
    const box = (x: number, y: number, on: boolean) =>
      `/FT /Btn /T (after${field++}) /V /${on ? 'On' : 'Off'} /AS /${on ? 'On' : 'Off'} /Rect [${x} ${y - 3} ${x + 12} ${y + 9}] ${states('On')}`;
    const options = ['by e-mail', 'by post', 'by telephone', 'not at all'];
    const content = [
      text(72, 700, 'How would you like us to contact you?'),
      ...options.map((o, k) => text(92, 680 - k * 16, o)),
    ].join('');
    // Each box a few points after its label's end (labels of different lengths: no column of boxes).
    const ends = [140, 134, 164, 150];
    const widgets = options.map((_, k) => box(ends[k] as number, 680 - k * 16, k === 1));
    const md = (await parse(formPdf([{ content, widgets }]), {}, { filename: 'contact.pdf' })).markdown;
    // Before the fourth reading: "by post ☒ by telephone ☐ not at all ☐", one paragraph; before
    // the next change, the question and its first entry one line.
    expect(md).toBe(
      'How would you like us to contact you?\n\nby e-mail ☐\n\nby post ☒\n\nby telephone ☐\n\nnot at all ☐\n',
    );
  });

  it('keeps a value filled in at the top of every page, and a list box by the labels of its choices', async () => {
    // The same name at the top of three pages, under labels that differ: no running head.
    const labels = ['Applicant:', 'Name of applicant:', 'Applicant name:'];
    const page = (label: string, k: number) => ({
      content: text(72, 740, label) + text(72, 400, `Body text of page ${k} goes here.`) + text(72, 300, 'Pick:'),
      widgets: [
        // The field just after its label, as a form sets it.
        `/Parent 0 /Rect [${80 + Math.ceil(label.length * 6.5)} 735 400 752]`,
        `/FT /Ch /Ff 2097152 /T (pick${k}) /Opt [[(a) (Apples)] [(b) (Bananas)] [(c) (Cherries)]] /V [(a) (c)] /Rect [110 295 300 312]`,
      ],
    });
    const bytes = formPdf(
      labels.map((l, k) => page(l, k)),
      ['<< /FT /Tx /T (name) /V (Jane Doe) >>'],
    );
    const md =
      (await parse(bytes, { parsers: [{ type: 'pdf', mode: 'fast' }] }, { filename: 'pages.pdf' })).markdown ?? '';
    for (const label of labels) expect(lineOf(md, label)).toBe(`${label} Jane Doe`);
    expect(md.match(/^Pick: Apples, Cherries$/gm)?.length).toBe(3);
  });

  it('reads the same Markdown on both backends', async () => {
    const options = { parsers: [{ type: 'pdf' as const, mode: 'fast' as const }] };
    const other = engineFor(backend === 'pdfium' ? 'pdfjs' : 'pdfium');
    const bytes = fixture('pdf-patterns', 'form-fields.pdf');
    const [a, b] = await Promise.all([
      parse(bytes, options, { filename: 'form.pdf' }),
      other.parse(bytes, options, { filename: 'form.pdf' }),
    ]);
    expect(a.markdown).toBe(b.markdown);
  });

  it('reads at most 2,000 widgets a page, and a field value over a million characters as none', async () => {
    // One field holding 1,100,000 characters, then 50 rows of 50 text fields (v0 … v2499): the long
    // one counts among the 2,000 read, and shows nothing.
    const widgets: string[] = [];
    for (let r = 0; r < 50; r++)
      for (let c = 0; c < 50; c++) {
        const x = 20 + c * 11.5;
        const y = 760 - r * 15;
        widgets.push(
          `<< /Type /Annot /Subtype /Widget /FT /Tx /T (f${r * 50 + c}) /V (v${r * 50 + c}) /Rect [${x} ${y} ${x + 11} ${y + 12}] /F 4 /DA (/Helv 5 Tf 0 g) >>`,
        );
      }
    const huge = `<< /Type /Annot /Subtype /Widget /FT /Tx /T (huge) /V (${'w'.repeat(1_100_000)}) /Rect [20 2 300 14] /F 4 /DA (/Helv 5 Tf 0 g) >>`;
    const first = 5;
    const annots = [huge, ...widgets];
    const refs = annots.map((_, k) => `${first + k} 0 R`).join(' ');
    const bytes = pdfOf([
      `<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [${refs}] /DA (/Helv 0 Tf 0 g) >> >>`,
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Annots [${refs}] >>`,
      '<< /Length 0 >>\nstream\n\nendstream',
      ...annots,
    ]);
    const md =
      (await parse(bytes, { parsers: [{ type: 'pdf', mode: 'fast' }] }, { filename: 'many.pdf' })).markdown ?? '';
    const values = md.match(/\bv\d+\b/g) ?? [];
    expect(values.length).toBe(1999);
    expect(new Set(values).size).toBe(1999);
    expect(values).toContain('v0');
    expect(values).toContain('v1998');
    expect(values).not.toContain('v1999');
    expect(md).not.toContain('www');
  });
});
