import { describe, expect, it } from 'vitest';
import { corpusFile, hasCorpus } from '../helpers/corpus.ts';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';
import { pdfOf, ucs2 } from '../helpers/pdf-build.ts';
import { NO_DEADLINE } from '../helpers/timeouts.ts';

/**
 * A line of text: `[x, y, size, text]`, or with a font of its own (`F1` Helvetica, `F2` its bold,
 * `K1` Korean, `S1` a second copy of Helvetica under a subset name, as redp5110 sets its bullets,
 * `M1` a font whose code 2 draws a glyph of a name no map knows, as redp5110's BookMaster bullet:
 * its text is hex codes, `C1` Courier).
 */
type Run = readonly [number, number, number, string] | readonly [number, number, number, string, string];

/**
 * One page of runs, each its own text object: Helvetica and Helvetica-Bold, and a Korean font
 * (a predefined CMap, no embedded program, as Korean office files set it).
 */
function linesPdf(lines: readonly Run[]): Uint8Array {
  const content = lines
    .map(([x, y, size, t, font = 'F1']) =>
      font === 'K1'
        ? `BT /K1 ${size} Tf ${x} ${y} Td <${ucs2(t)}> Tj ET`
        : font === 'M1'
          ? `BT /M1 ${size} Tf ${x} ${y} Td <${t}> Tj ET`
          : `BT /${font} ${size} Tf ${x} ${y} Td (${t.replace(/[\\()]/g, '\\$&')}) Tj ET`,
    )
    .join('\n');
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R /F2 5 0 R /K1 6 0 R /S1 10 0 R /M1 11 0 R /C1 12 0 R >> >> /Contents 9 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type0 /BaseFont /HYSMyeongJo-Medium /Encoding /UniKS-UCS2-H /DescendantFonts [7 0 R] >>',
    '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /HYSMyeongJo-Medium /CIDSystemInfo << /Registry (Adobe) /Ordering (Korea1) /Supplement 2 >> /FontDescriptor 8 0 R /DW 1000 >>',
    '<< /Type /FontDescriptor /FontName /HYSMyeongJo-Medium /Flags 6 /FontBBox [-6 -145 1003 880] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 880 /StemV 93 >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /BCDEFG+Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /BookMaster /FirstChar 0 /LastChar 2 /Widths [500 500 500] /Encoding << /Type /Encoding /Differences [2 /SM590000] >> >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>',
  ]);
}

/** Lines of prose set at `pitch` from `top`, each wrapped into the next. */
const prose = (texts: readonly string[], top: number, pitch: number, size = 10): Run[] =>
  texts.map((t, k) => [72, top - k * pitch, size, t] as const);

const report = [
  'Achieving net-zero emissions and carbon-free energy by the end of the',
  'decade are extremely ambitious goals, which is what we call moonshots,',
  'and we also know that our path to them will not be easy or linear: it',
  'may require us to navigate significant uncertainty and deploy systems',
  'across our business, and some of our plans will take years to deliver.',
];
const decade = [
  'we cannot achieve our goals alone, and the transition to a carbon-free',
  'future will require stronger government policies and partnerships with',
  'many other organizations, as well as new technologies and changes to the',
  'broader systems that serve our operations and our whole value chain.',
];

const topics = [
  'Database performance and scalability',
  'Advanced SQL knowledge and skills transfer',
  'Business intelligence and analytics',
  'DB2 Web Query',
];

describe.each(pdfBackends)('PDF prose (%s)', (backend) => {
  const { parse } = engineFor(backend);

  it('reads a small letter before each line as a bullet (a box glyph mapped to "r")', async () => {
    const pdf = linesPdf([
      [72, 720, 10, 'Global engagements of the centre cover topics including the following ones:'],
      ...topics.flatMap((t, k): Run[] => [
        [72, 696 - k * 14, 7, 'r ', 'S1'],
        [82, 696 - k * 14, 10, t],
      ]),
    ]);
    const md = (await parse(pdf)).markdown ?? '';
    expect(md).toContain(topics.map((t) => `- ${t}`).join('\n'));
    expect(md).not.toMatch(/\br Database/);
    // Fast mode reads the text alone: the fonts' names come with it.
    const fast = (await parse(pdf, { parsers: [{ type: 'pdf', mode: 'fast' }] })).markdown ?? '';
    expect(fast).toContain(topics.map((t) => `- ${t}`).join('\n'));
    expect(fast).not.toMatch(/\br Database/);
  });

  it('reads a glyph mapped to no character before each line’s words as a bullet, not one mid-line', async () => {
    const pdf = linesPdf([
      [72, 720, 10, 'This chapter describes how you can secure your data. The following topics are covered:'],
      ...topics.flatMap((t, k): Run[] => [
        [72, 696 - k * 14, 10, '02', 'M1'],
        [86.4, 696 - k * 14, 10, t],
      ]),
      [72, 630, 10, 'Each topic is covered in a chapter of its own, with examples from real systems.'],
      // Mid-line the glyph is an icon in the sentence, no bullet.
      [72, 606, 10, 'Press the'],
      [122, 606, 10, '02', 'M1'],
      [136, 606, 10, 'button to continue with the setup.'],
    ]);
    const md = (await parse(pdf)).markdown ?? '';
    expect(md).toContain(topics.map((t) => `- ${t}`).join('\n'));
    // PDFium names the glyph "-" (the font's own map), pdf.js no character: either way no list item.
    const mid = backend === 'pdfium' ? 'Press the - button' : 'Press the button';
    expect(md).toContain(`\n${mid} to continue with the setup.\n`);
    expect(md).not.toContain('\u2022');
  });

  it('keeps a small letter set in the words’ own font before them: a code, not a bullet', async () => {
    const grades = [
      ['A', 'Excellent: all parts answered correctly'],
      ['B', 'Good: most parts answered correctly'],
      ['C', 'Fair: some parts answered'],
      ['F', 'Fail: no part answered'],
    ];
    const pdf = linesPdf([
      [72, 720, 10, 'Each answer is marked with one of the letters below.'],
      ...grades.flatMap(([letter, text], k): [number, number, number, string][] => [
        [72, 696 - k * 16, 7, letter as string],
        [80, 696 - k * 16, 10, text as string],
      ]),
    ]);
    const md = (await parse(pdf)).markdown ?? '';
    for (const [letter, text] of grades) expect(md).toContain(`${letter} ${text}`);
    expect(md).not.toContain('- Excellent');
  });

  it('keeps a first line with bold words among plain ones in its paragraph, not a heading', async () => {
    const pdf = linesPdf([
      ...prose([...report, ...report], 740, 18),
      [72, 740 - 11 * 18, 10, 'In our '],
      [104.5, 740 - 11 * 18, 10, 'third decade of climate action, the one', 'F2'],
      [287, 740 - 11 * 18, 10, ' we recognize that'],
      ...prose(decade, 740 - 12 * 18, 18),
    ]);
    const md = (await parse(pdf)).markdown ?? '';
    expect(md).not.toMatch(/^#+ In our/m);
    expect(md).toContain('In our **third decade of climate action, the one** we recognize that we cannot achieve');
  });

  it('keeps the first line of a widely leaded paragraph in a script without case in its paragraph', async () => {
    // Justified Korean at 1.7 times its size: every line as wide as the next, the last one short.
    const korean = [
      '정부는 다음 단계에서 국민의 삶을 바꾸는 정책을 계속 추진하며',
      '이를 위하여 모든 부처가 함께 협력하는 체계를 새롭게 마련하고',
      '지역과 산업의 균형 있는 발전을 이루기 위한 투자를 확대하는 등',
      '국가의 미래를 준비하는 과제를 차례로 실천해 나갈 것이라고 밝혀',
      '많은 사람들의 관심과 기대를 모으고 있다.',
    ];
    const pdf = linesPdf([
      [72, 740, 10, 'The plan of the government for the coming years, in its own words:'],
      ...korean.map((t, k): Run => [72, 700 - k * 17, 10, t, 'K1']),
    ]);
    const md = (await parse(pdf)).markdown ?? '';
    expect(md.replace(/ +/g, ' ')).toContain(`${korean[0]} ${korean[1]} ${korean[2]}`);
  });

  it('nests sub-notes set in by leading space glyphs under their note', async () => {
    // Notes at one edge; the second note's sub-notes drawn from the same edge, two spaces first.
    const pdf = linesPdf([
      [72, 720, 10, 'The cover pays for an accident as the terms define it, and for no illness at all.'],
      [72, 690, 8, '1) Damage insurance pays for a bodily injury caused by a sudden outside accident.'],
      [72, 678, 8, '2) Life insurance calls an accident one of the following events, in its terms:'],
      [72, 666, 8, '  1) an injury classed under the codes for outside causes of harm'],
      [72, 654, 8, '  2) an infectious disease named in the law on infectious diseases'],
    ]);
    const md = (await parse(pdf)).markdown ?? '';
    expect(md).toMatch(
      /^2\. Life insurance calls an accident one of the following events, in its terms:\n {3}1\. an injury classed under the codes for outside causes of harm\n {3}2\. an infectious/m,
    );
  });

  it('keeps an item’s lines wrapped back to its marker’s edge in the item while its sentence goes on', async () => {
    // Notes set flush: each note's second line starts under its number, not under its text.
    const pdf = linesPdf([
      [72, 720, 10, 'The figures below come from the national survey of the year before last.'],
      [72, 696, 10, '(1) The shares are computed over the valid replies to the question, leaving out'],
      [72, 684, 10, 'those who did not answer it or gave more than one answer.'],
      [72, 672, 10, '(2) The margin stands for the accuracy reached with the size of the sample and'],
      [72, 660, 10, 'the level of confidence chosen for the survey as a whole.'],
      [72, 636, 10, '(3) Regions with fewer than fifty replies are left out of the maps'],
      [72, 624, 10, 'Replies came in from every region of the country over six weeks.'],
    ]);
    const md = (await parse(pdf)).markdown ?? '';
    expect(md.trim().split('\n')).toEqual([
      'The figures below come from the national survey of the year before last.',
      '',
      '1. The shares are computed over the valid replies to the question, leaving out those who did not answer it or gave more than one answer.',
      '2. The margin stands for the accuracy reached with the size of the sample and the level of confidence chosen for the survey as a whole.',
      '3. Regions with fewer than fifty replies are left out of the maps',
      '',
      // A capital after a line with no stop opens the next paragraph, as under any item.
      'Replies came in from every region of the country over six weeks.',
    ]);
  });

  it('keeps an item’s line wrapped back to its marker’s edge when it opens with a figure its sentence goes on to', async () => {
    const pdf = linesPdf([
      [72, 720, 10, '1. The yield is ten per cent higher than last year, mostly from soybeans and corn'],
      [72, 708, 10, 'that grew in yield by'],
      [72, 696, 10, '22.4% and 11.5%, respectively.'],
      [72, 672, 10, '2. The sown area stayed level with the year before'],
      // A stop above: the figure opens a paragraph of its own, as a capital would.
      [72, 660, 10, 'and was the same in every region.'],
      // A year (or a count) may open a sentence of its own, even under an item with no stop.
      [72, 648, 10, '3. Prices rose in most of the regions'],
      [72, 636, 10, '2018 saw the first rise in prices since the series began.'],
      [72, 612, 10, '2019 was the last year of the old series of the survey.'],
    ]);
    const md = (await parse(pdf)).markdown ?? '';
    expect(md.trim().split('\n')).toEqual([
      '1. The yield is ten per cent higher than last year, mostly from soybeans and corn that grew in yield by 22.4% and 11.5%, respectively.',
      '2. The sown area stayed level with the year before and was the same in every region.',
      '3. Prices rose in most of the regions',
      '',
      '2018 saw the first rise in prices since the series began.',
      '',
      '2019 was the last year of the old series of the survey.',
    ]);
  });

  it('reads a small "o" in a monospaced font before an item’s text as a bullet, as Word sets a list’s second level', async () => {
    const pdf = linesPdf([
      [72, 720, 10, 'The replies are classified as follows:'],
      [90, 696, 10, 'o', 'C1'],
      [108, 696, 10, 'Replies per country, by the first question of the'],
      [108, 684, 10, 'questionnaire sent out in the spring'],
      [90, 666, 10, 'o', 'C1'],
      [108, 666, 10, 'Replies per field of research'],
      // The letter in the body font opens a sentence, not an item.
      [72, 640, 10, 'o stands for the outer ring in the figures that follow.'],
    ]);
    const md = (await parse(pdf)).markdown ?? '';
    expect(md.trim().split('\n')).toEqual([
      'The replies are classified as follows:',
      '',
      '- Replies per country, by the first question of the questionnaire sent out in the spring',
      '- Replies per field of research',
      '',
      'o stands for the outer ring in the figures that follow.',
    ]);
  });

  it.skipIf(!hasCorpus)(
    'reads eu-017’s Courier "o" as the bullet of its item, its second line in the item',
    async () => {
      const md = (await parse(corpusFile('tables', 'pdfs', 'eu-017.pdf'), NO_DEADLINE)).markdown ?? '';
      expect(md).toContain('\n- SI1.1:% distribution per country (QC: response to question 1 of the questionnaire)\n');
      expect(md).not.toMatch(/^o SI1\.1/m);
    },
  );

  it('reads a line once where a copy of some of its letters is drawn over it', async () => {
    // Courier: every letter is 6 pt wide at 10 pt, so a copy with letters left out as blanks puts
    // the letters it keeps over the same letters of the whole line.
    const whole = 'Specifies that the row permission is to be initially disabled';
    const kept = 'S   ifi   th t th   i i   i t b i iti ll di bl d';
    const partial = [...whole].map((c, k) => (kept[k] === c ? c : ' ')).join('');
    const pieces = [...partial.matchAll(/\S+/g)].map((m) => [72 + (m.index ?? 0) * 6, 700, 10, m[0], 'C1'] as const);
    const pdf = linesPdf([
      [72, 730, 10, 'The statement ends with one of two options:'],
      ...pieces,
      [72, 700, 10, whole, 'C1'],
      [72, 676, 10, 'Both options can be changed later with an ALTER statement.'],
    ]);
    const md = (await parse(pdf)).markdown ?? '';
    expect(md.trim().split('\n').filter(Boolean)).toEqual([
      'The statement ends with one of two options:',
      whole,
      'Both options can be changed later with an ALTER statement.',
    ]);
  });

  it.skipIf(!hasCorpus)('reads redp5110’s overdrawn figure line once', async () => {
    const md =
      (await parse(corpusFile('docling', 'pdf', 'sources', 'redp5110_sampled.pdf'), NO_DEADLINE)).markdown ?? '';
    expect(md).toContain('\nSpecifies that the row permission is to be initially disabled\n');
    expect(md).not.toContain('ifi th t th');
  });

  it('reads a styled first line whose last word a hyphen breaks into the next line as prose, not a heading', async () => {
    const pdf = linesPdf([
      [72, 700, 10, 'The encoder is trained on pairs of questions and passages in a batch.'],
      [72, 686, 10, 'Our Dense Passage Retriever is exception-', 'F2'],
      [72, 672, 10, 'ally strong: it outperforms the sparse baseline by a wide margin.'],
    ]);
    const md = (await parse(pdf)).markdown ?? '';
    expect(md).not.toMatch(/^#/m);
    expect(md).toContain('**Our Dense Passage Retriever is exception');
    expect(md.replace(/\*\*/g, '')).toContain('Retriever is exceptionally strong: it outperforms');
  });

  it.skipIf(!hasCorpus)(
    'reads the DPR paper’s "exception-" line as the start of its sentence, not a heading',
    async () => {
      const md = (await parse(corpusFile('pdfbench', 'unstructured_pdf_multi-column.pdf'), NO_DEADLINE)).markdown ?? '';
      expect(md).not.toContain('### Our *Dense Passage Retriever*');
      expect(md).toContain('Our *Dense Passage Retriever* (DPR) is exceptionally strong.');
    },
  );

  it('reads a justified line that its stretched word gap split in two as a line of its paragraph', async () => {
    // Courier, 6 pt a letter at 10 pt: every line ends at x 444; the second one's gap is 12 pt,
    // past a plain line's allowance, as justifying stretched it.
    const row = (a: string, b: string, gap: number): Run[] => [
      [72, 688, 10, a, 'C1'],
      [72 + a.length * 6 + gap, 688, 10, b, 'C1'],
    ];
    const caption = (second: Run[], third = 'examples, IB: in-batch training, and the two runs that follow.') =>
      linesPdf([
        [72, 700, 10, 'Table 3: Comparison of the training schemes, measured as top-k', 'C1'],
        ...second,
        [72, 676, 10, third, 'C1'],
        [72, 640, 10, 'The next paragraph starts here.', 'C1'],
      ]);
    const paragraphs = async (pdf: Uint8Array) => ((await parse(pdf)).markdown ?? '').trim().split('\n\n');
    const split = row('accuracy (development set).', '#N: a number of the negative ones', 12);
    expect((split[1]?.[0] as number) + 33 * 6).toBe(444);
    expect(await paragraphs(caption(split))).toEqual([
      'Table 3: Comparison of the training schemes, measured as top-k accuracy (development set). #N: a number of the negative ones examples, IB: in-batch training, and the two runs that follow.',
      'The next paragraph starts here.',
    ]);
    // A row ending a sentence, or short of the paragraph's right edge, is no line of it.
    const head = 'Table 3: Comparison of the training schemes, measured as top-k';
    const rest = ['examples, IB: in-batch training, and the two runs that follow.', 'The next paragraph starts here.'];
    const ended = row('accuracy (development set).', '#N: a number of negatives counted.', 12);
    expect(await paragraphs(caption(ended))).toEqual([
      `${head} accuracy (development set). #N: a number of negatives counted.`,
      ...rest,
    ]);
    const short = row('accuracy (development set).', '#N: negatives', 12);
    expect(await paragraphs(caption(short))).toEqual([`${head} accuracy (development set). #N: negatives`, ...rest]);
    // Three sizes apart: a form's label and value, or a borderless row's cells.
    const wide = row('accuracy (development set).', '#N: a number of the negative ones', 30);
    expect(await paragraphs(caption(wide))).toEqual([
      `${head} accuracy (development set). #N: a number of the negative ones`,
      ...rest,
    ]);
    // A form's rows, each value set flush right 18 pt after its label: rows of their own edge.
    const form: [string, string][] = [
      ['Name of applicant', 'Jonathan Smith, 14 Long Road, Springfield, IL 62704, Unite'],
      ['Occupation and employer of applicant', 'Senior engineer at Acme Tools Incorpora'],
      ['Telephone and email of applicant', 'office 555 0100, mobile 555 0199, jsmith at'],
    ];
    const fields = linesPdf([
      [72, 700, 10, 'Details of the person making the application', 'C1'],
      ...form.flatMap(([a, b], k): Run[] => [
        [72, 688 - 12 * k, 10, a, 'C1'],
        [540 - b.length * 6, 688 - 12 * k, 10, b, 'C1'],
      ]),
      [72, 600, 10, 'Sign and date the form overleaf.', 'C1'],
    ]);
    const read = await paragraphs(fields);
    for (const [a, b] of form.slice(1)) expect(read).toContain(`${a} ${b}`);
    // The same form under a line as wide as its rows: a value 18 pt (1.8 sizes) after its label is
    // no stretched word gap.
    const under = linesPdf([
      [72, 700, 10, 'Details of the person making the application, as given on the first page', 'C1'],
      ...form.flatMap(([a, b], k): Run[] => [
        [72, 688 - 12 * k, 10, a, 'C1'],
        [540 - b.length * 6, 688 - 12 * k, 10, b, 'C1'],
      ]),
    ]);
    const rows = await paragraphs(under);
    for (const [a, b] of form.slice(1)) expect(rows).toContain(`${a} ${b}`);
  });

  it.skipIf(!hasCorpus)(
    'reads the DPR paper’s Table 3 caption and DA-619p’s line, justified lines split at wide gaps, whole',
    async () => {
      const md = (await parse(corpusFile('pdfbench', 'unstructured_pdf_multi-column.pdf'), NO_DEADLINE)).markdown ?? '';
      expect(md).toContain(
        '(development set). #N: number of negative examples, IB: in-batch training. G.+BM25<sup>(1)</sup> and G.+BM25<sup>(2)</sup> denote in-batch training',
      );
      // DA-619p p. 74 stretches a gap to 1.55 sizes, as PDFium measures the piece before it with its
      // trailing blank; pdf.js measures it without (1.81 sizes, a form's gap) and keeps the two apart.
      const codex = (await parse(corpusFile('pdfbench', 'unstructured_pdf_DA-619p.pdf'), NO_DEADLINE)).markdown ?? '';
      const line = 'Beneath their gaze and their feet, the darkspawn retreat to the steps of our thaigs.';
      expect(codex.includes(line)).toBe(backend === 'pdfium');
    },
  );

  it('keeps a specification’s paragraph number (".1") with its paragraph, set a wide tab before it', async () => {
    const pdf = linesPdf([
      [54, 700, 11, '1.', 'F2'],
      [144, 700, 11, 'INTENT', 'F2'],
      [90, 664, 11, '.1'],
      [144, 664, 11, 'The intent of this request is to gather offers, in the format'],
      [144, 646, 11, 'set out in this document, from builders able to do the work.'],
      [90, 610, 11, '.2'],
      [144, 610, 11, 'Drawings of the site are included in the section that follows'],
      [144, 592, 11, 'these instructions.'],
    ]);
    const md = (await parse(pdf)).markdown ?? '';
    const paragraphs = md.trim().split('\n\n');
    expect(paragraphs.slice(1)).toEqual([
      '.1 The intent of this request is to gather offers, in the format set out in this document, from builders able to do the work.',
      '.2 Drawings of the site are included in the section that follows these instructions.',
    ]);
  });

  it.skipIf(!hasCorpus)('keeps masterformat_partial_numbering’s ".1" paragraphs whole', async () => {
    const md =
      (await parse(corpusFile('markitdown', 'masterformat_partial_numbering.pdf'), NO_DEADLINE)).markdown ?? '';
    expect(md).toContain(
      '\n.1 The intent of this Request for Proposal (RFP) is to solicit submissions, in the format detailed in this document, from qualified Construction Managers for the following project:\n',
    );
    expect(md).toContain(
      '\n.2 Available information relative to the project is included in Section 00 00 45 – Description of Project.\n',
    );
  });

  it('starts a glossary’s next entry at its term in bold, set at the definitions’ pitch', async () => {
    // Term over definition, entry under entry, one pitch throughout: definitions whose last line
    // runs near the column's edge gave no short line to end them.
    const pdf = linesPdf([
      [72, 720, 8, 'areola', 'F2'],
      [72, 709, 8, 'The brownish or pink rim of tissue'],
      [72, 698, 8, 'around the nipple of the breast wall.'],
      [72, 687, 8, 'aromatase inhibitors', 'F2'],
      [72, 676, 8, 'Drugs that help prevent the growth of'],
      [72, 665, 8, 'cancer cells that depend on oestrogen.'],
      [72, 654, 8, 'axilla', 'F2'],
      [72, 643, 8, 'The armpit.'],
    ]);
    const md = (await parse(pdf)).markdown ?? '';
    expect(md.trim().split('\n\n')).toEqual([
      '**areola** The brownish or pink rim of tissue around the nipple of the breast wall.',
      '**aromatase inhibitors** Drugs that help prevent the growth of cancer cells that depend on oestrogen.',
      '**axilla** The armpit.',
    ]);
  });

  it('keeps a sentence set in bold in its paragraph', async () => {
    const pdf = linesPdf([
      [72, 720, 10, 'Rinse the filter and the jug under running water, then dry them both well.'],
      [72, 708, 10, 'Never immerse the base of the unit in water or in any other liquid at all.', 'F2'],
      [72, 696, 10, 'Wipe it with a damp cloth and let it dry before you plug it in again.'],
    ]);
    const md = (await parse(pdf)).markdown ?? '';
    expect(md.trim().split('\n\n')).toHaveLength(1);
    expect(md).toContain('dry them both well. **Never immerse the base');
  });

  it.skipIf(!hasCorpus)('reads failure-after-repair’s glossary an entry a paragraph', async () => {
    const md =
      (await parse(corpusFile('pdfbench', 'unstructured_pdf_failure-after-repair.pdf'), NO_DEADLINE)).markdown ?? '';
    expect(md).toContain(
      '\n**areola** The brownish or pink rim of tissue around the nipple of the breast.\n\n**aromatase inhibitors** Drugs',
    );
    expect(md).toContain('\n**benign** Not cancerous or malignant.\n\n**biopsy** The removal');
  });

  it.skipIf(!hasCorpus)(
    'keeps a figure wrapped to the marker’s edge in its item (spreadsheet_no_bounding_frame)',
    async () => {
      const md =
        (await parse(corpusFile('tables', 'pdfs', 'spreadsheet_no_bounding_frame.pdf'), NO_DEADLINE)).markdown ?? '';
      expect(md).toContain('present increase in yield of 22.4% and 11.5%, respectively.');
      expect(md).not.toMatch(/^22\.4% and/m);
    },
  );

  it.skipIf(!hasCorpus)("keeps embedded-link's list items whole, each wrapped back to its number's edge", async () => {
    const md = (await parse(corpusFile('pdfbench', 'unstructured_pdf_embedded-link.pdf'), NO_DEADLINE)).markdown ?? '';
    expect(md).toContain(
      '1. This is to test the index where the list item was not captured correctly and the new line got detected as separate element.',
    );
    // Its last words are a link (auto mode reads the annotations).
    expect(md).toContain(
      '2. Now, what would happen if the embedded url is across two lines with [broken list item group capturing](http://www.apple.com)?',
    );
  });

  it('keeps a section number drawn after its title on the title’s line', async () => {
    // The title's text object comes first and its number second, a quad and more to the left
    // (normal_4pages' "1  들어가며"): on pdf.js, which keeps the drawing order, the number read
    // as a line of its own.
    const pdf = linesPdf([
      [72, 720, 10, 'The cover pays for an accident as the terms define it, and for no illness at all.'],
      [98.5, 690, 13.5, 'Introduction', 'F2'],
      [73.5, 690, 13.5, '1', 'F2'],
      ...prose(report, 664, 14),
      [98.5, 580, 13.5, 'Current cover', 'F2'],
      [73.5, 580, 13.5, '2', 'F2'],
      ...prose(decade, 554, 14),
    ]);
    const md = (await parse(pdf)).markdown ?? '';
    expect(md).toMatch(/^#+ 1 Introduction$/m);
    expect(md).toMatch(/^#+ 2 Current cover$/m);
    expect(md).not.toMatch(/^(?:\*\*)?1(?:\*\*)?$/m);
  });

  it.skipIf(!hasCorpus)("nests normal_4pages' sub-notes under their note", async () => {
    const md = (await parse(corpusFile('docling', 'pdf', 'sources', 'normal_4pages.pdf'), NO_DEADLINE)).markdown ?? '';
    expect(md).toMatch(
      /\n {3}1\. 한국표준질병·사인분류상의 ‘S80~Y84'에 해당하는 우발적인 외래의 사고\n {3}2\. 감염병의 예방/,
    );
  });

  it.skipIf(!hasCorpus)("reads pdf-bad-color-space's bold-led line as the start of its paragraph", async () => {
    const md =
      (await parse(corpusFile('pdfbench', 'unstructured_pdf_pdf-bad-color-space.pdf'), NO_DEADLINE)).markdown ?? '';
    expect(md).not.toMatch(/^#+ In our third decade/m);
    expect(md).toContain(
      'In our **third decade of climate action**, we recognize that we can’t achieve our goals alone.',
    );
  });

  it.skipIf(!hasCorpus)("keeps right_to_left_02's first line in its paragraph", async () => {
    const md =
      (await parse(corpusFile('pdfbench', 'docling_pdf_sources_right_to_left_02.pdf'), NO_DEADLINE)).markdown ?? '';
    expect(md).toContain('لوال المر اوة الم باوة تكايف السيد رئيس');
  });

  it.skipIf(!hasCorpus)('reads redp5110 p. 3 symbol bullets as list items', async () => {
    const md =
      (await parse(corpusFile('pdfbench', 'docling_pdf_sources_redp5110_sampled.pdf'), NO_DEADLINE)).markdown ?? '';
    expect(md).toContain('- Database performance and scalability\n- Advanced SQL knowledge and skills transfer\n');
    expect(md).toContain('- ISV education and enablement');
  });
});
