import { describe, expect, it } from 'vitest';
import { DocmillError } from '../../src/errors.ts';
import { corpusFile, corpusPairs, corpusSkipReason, hasCorpus } from '../helpers/corpus.ts';
import { headingF1, mean, tableNeighbourF1, textSimilarity } from '../helpers/metrics.ts';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';
import { NO_DEADLINE } from '../helpers/timeouts.ts';

const fast = { parsers: [{ type: 'pdf' as const, mode: 'fast' as const }] };
const bench = (name: string) => corpusFile('pdfbench', name);

describe.skipIf(!hasCorpus).each(pdfBackends)(
  `pdf adapter on the corpus (${hasCorpus ? 'present' : corpusSkipReason}, %s)`,
  (backend) => {
    const { parse } = engineFor(backend);
    /** A docling PDF source in fast mode. */
    const doclingFast = (name: string) =>
      parse(corpusFile('docling', 'pdf', 'sources', name), { ...fast, ...NO_DEADLINE }, { filename: name });
    it('reads a two-column paper column by column, title and abstract first', async () => {
      const r = await parse(
        bench('unstructured_pdf_multi-column.pdf'),
        { ...fast, ...NO_DEADLINE },
        {
          filename: 'multi-column.pdf',
        },
      );
      const md = r.markdown ?? '';
      const order = [
        'Dense Passage Retrieval for Open-Domain Question Answering',
        'Open-domain question answering relies on efficient passage retrieval',
        'benchmarks.',
        '1 Introduction',
        'Open-domain question answering (QA) (Voorhees, 1999)',
        'Retrieval in open-domain QA is usually implemented using TF-IDF',
      ];
      const at = order.map((s) => md.indexOf(s));
      for (const [i, p] of at.entries()) expect(p, order[i]).toBeGreaterThanOrEqual(0);
      for (let i = 1; i < at.length; i++) expect(at[i], order[i]).toBeGreaterThan(at[i - 1] as number);
      // No line of the left column is glued to one of the right column.
      expect(md).not.toMatch(/relies on ef\S* .*Retrieval in open-domain QA/);
    });

    it('removes running page headers that pdf.js text repeats on every other page', async () => {
      const r = await parse(bench('unstructured_pdf_layout-parser-paper-with-empty-pages.pdf'), fast, {
        filename: 'lp.pdf',
      });
      const md = r.markdown ?? '';
      expect(md).toContain('LayoutParser');
      expect((md.match(/Z\. Shen et al\./g) ?? []).length).toBeLessThanOrEqual(1);
      expect(md).not.toContain('LayoutParser: A Unified Toolkit for DL-Based DIA');
    });

    it('truncates at maxPages, warns and still reports the true page count', async () => {
      const r = await parse(
        bench('unstructured_pdf_DA-619p.pdf'),
        { parsers: [{ type: 'pdf', mode: 'fast', maxPages: 5, pages: true, pageMarkers: true }] },
        { filename: 'DA-619p.pdf' },
      );
      expect(r.metadata.numPages).toBe(5);
      expect(r.metadata.totalPages).toBe(619);
      expect(r.warning).toMatch(/first 5 of 619/);
      expect(r.pages?.map((p) => p.pageNumber)).toEqual([1, 2, 3, 4, 5]);
      expect(r.markdown).toContain('<!-- page 5 -->');
      expect(r.markdown).not.toContain('<!-- page 6 -->');
    });

    it('reads only what each crop box shows of a spread cut into two pages', async () => {
      const r = await parse(
        bench('unstructured_pdf_reliance.pdf'),
        { parsers: [{ type: 'pdf', mode: 'fast', pages: true }] },
        { filename: 'reliance.pdf' },
      );
      const [, left, right] = r.pages ?? [];
      expect(left?.markdown).toContain('largest corporate value creator');
      expect(right?.markdown).not.toContain('largest corporate value creator');
      expect(right?.markdown).toContain('Reliance');
    });

    it('stops a long document at the timeout', { timeout: 30_000 }, async () => {
      const t0 = Date.now();
      const err = await parse(
        bench('unstructured_pdf_DA-619p.pdf'),
        { timeout: 1000, ...fast },
        { filename: 'da.pdf' },
      ).then(
        () => null,
        (e: unknown) => e,
      );
      expect((err as DocmillError)?.status).toBe(408);
      expect(Date.now() - t0).toBeLessThan(3000);
    });

    it('gives blocks with page sizes and boxes inside the page', async () => {
      const r = await parse(
        bench('unstructured_pdf_multi-column.pdf'),
        { parsers: [{ type: 'pdf', mode: 'fast', blocks: true }] },
        { filename: 'multi-column.pdf' },
      );
      const page = r.blocks?.[0];
      expect(page?.width).toBeCloseTo(595.28, 1);
      expect(page?.items.length).toBeGreaterThan(5);
      for (const it of page?.items ?? []) {
        const [x0, y0, x1, y1] = it.bbox ?? [0, 0, 0, 0];
        expect(x0).toBeLessThanOrEqual(x1);
        expect(y0).toBeLessThanOrEqual(y1);
        expect(y1).toBeLessThanOrEqual((page?.height ?? 0) + 1);
        expect(r.markdown?.slice(...(it.markdownSpan ?? [0, 0]))).toBe(it.content);
      }
      expect(page?.items[0]?.label).toBe('title');
    });

    it('turns link annotations into links in auto mode', async () => {
      const r = await parse(
        bench('unstructured_pdf_embedded-link.pdf'),
        { formats: ['markdown', 'links'], parsers: ['pdf'] },
        {
          filename: 'embedded-link.pdf',
        },
      );
      expect(r.markdown).toContain('[link](https://github.com/Unstructured-IO/unstructured)');
      expect(r.links).toContain('mailto:unstructuredai@earlygrowth.com');
    });

    it('answers a password-protected file with a 400 that says so', async () => {
      const err = await parse(bench('unstructured_pdf_password.pdf'), fast, { filename: 'password.pdf' }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(DocmillError);
      expect((err as DocmillError).status).toBe(400);
      expect((err as DocmillError).message).toContain('password-protected');
    });

    it('takes outline headings and right-to-left text', async () => {
      const rtl = await doclingFast('right_to_left_01.pdf');
      expect(rtl.markdown).toContain('تحسين');
      expect(rtl.metadata.language).toBe('en-US');
    });

    // PDFium tells a lam-alef glyph by its letters' shared box, pdf.js by its drawing instructions.
    it('reads a lam-alef ligature as lam then alef', async () => {
      const r = await doclingFast('right_to_left_01.pdf');
      const md = r.markdown ?? '';
      // The title: "… المشكلات من خلال …" (the problems, through), each with a lam-alef glyph.
      expect(md).toMatch(/^#+ تحسين الإنتاجية وحل المشكلات من خلال البرمجة/m);
      expect(md).toContain('لإدارة البيانات');
      expect(md).not.toContain('المشكالت');
      const fa = await doclingFast('right_to_left_03.pdf');
      expect(fa.markdown).toContain('فولادهای');
    });

    it('keeps numbers inside right-to-left lines left to right, brackets the right way round', async () => {
      const fa = await doclingFast('right_to_left_03.pdf');
      const md = fa.markdown ?? '';
      // Digits drawn as separate runs ("4" "7.500", "%" "5" "0") read in their own order.
      expect(md).toContain('حداقل %50 از توليد ساليانه يا 47.500 تن');
      expect(md).toMatch(/^5% آخرين محموله/m);
      expect(md).toMatch(/^#+ -2-5 استاندارد کالا$/m);
      const ar = await doclingFast('right_to_left_02.pdf');
      // A parenthesis broken over two lines, its brackets filed under the characters meant (their
      // glyphs mirrored); PDFium reports them mirrored, pdf.js as filed.
      expect(ar.markdown).toContain('لور (2024 - 2026) تح');
      // Brackets of their own, filed under the glyphs drawn (")" on the right opens), and blanks
      // drawn with the bracket and after the words.
      const name = 'indictb1h_14.pdf';
      const he = await parse(corpusFile('tables', 'pdfs', name), { ...fast, ...NO_DEADLINE }, { filename: name });
      expect(he.markdown).toContain('| תעשייה (ללא יהלומים) |');
      expect(he.markdown).toContain('| ההוצאה לצריכה אינדיבידואלית (1) לנפש |');
    });

    it('reads the check marks of an embedded Dingbats font as check marks (multi-column, Table 3)', async () => {
      const r = await parse(bench('unstructured_pdf_multi-column.pdf'), NO_DEADLINE, { filename: 'dpr.pdf' });
      expect(r.markdown).toContain('| Random | 7 | ✗ | 47.0 | 64.3 | 77.8 |');
      expect(r.markdown).toContain('| Gold | 7 | ✓ | 51.1 | 69.1 | 80.8 |');
    });

    it('reads a line drawn whole and again word by word once', async () => {
      const r = await doclingFast('redp5110_sampled.pdf');
      const md = r.markdown ?? '';
      expect(md).toMatch(/ENFORCED FOR ALL ACCESS$/m);
      expect(md).not.toContain('ACCESSENFORCED');
      expect(md).toContain('Signed on as ALICE');
      expect(md).not.toContain('Signed on as ALICE Signed');
    });

    // pdf.js asks for rulings only where lines break into three runs or more (its graphics cost).
    it.skipIf(backend !== 'pdfium')('reads a two-column table ruled as a full grid', async () => {
      const r = await doclingFast('redp5110_sampled.pdf');
      const md = r.markdown ?? '';
      expect(md).toContain('| Special register | Corresponding value |');
      expect(md).toContain('| USER or SESSION_USER | The effective user of the thread excluding adopted authority. |');
      expect(md).toContain('| SYSTEM_USER | The authorization ID that initiated the connection. |');
      // The figure on the same page, boxes and arrows round its text, stays text.
      expect(md).toMatch(/^[^|\n]*CALL proc1/m);
    });

    it('keeps an author line with a footnote mark under the title as text', async () => {
      const r = await doclingFast('normal_4pages.pdf');
      const md = r.markdown ?? '';
      expect(md).toMatch(/^#+ 코로나-19 관련 보험약관상 재해보험금 지급문제 및 개선과제$/m);
      expect(md).toMatch(/^김 창 호\\\*$/m);
    });

    it('joins a title whose second line is set a little smaller', async () => {
      const r = await doclingFast('redp5110_sampled.pdf');
      const titles = (r.markdown ?? '').match(/^#+ Row and Column Access Control.*$/gm) ?? [];
      // Front cover (one size) and back cover (33 pt, then 30 pt).
      expect(titles.map((t) => t.replace(/^#+ /, ''))).toEqual([
        'Row and Column Access Control Support in IBM DB2 for i',
        'Row and Column Access Control Support in IBM DB2 for i',
      ]);
    });

    it('reads a right-to-left form row by row, label before value, labels as text', async () => {
      const r = await doclingFast('right_to_left_03.pdf');
      const md = (r.markdown ?? '').replace(/\*\*/g, '');
      // Each label (right) is followed by its value (left), numbers included.
      const rows = [
        ['مرجع صادرکننده استاندارد', 'سازمان ملی استاندارد ايران'],
        ['تاريخ پذيرش', '1403/10/04'],
        ['شماره جلسه کميته عرضه', '436'],
        ['تاريخ درج اميدنامه', '1403/10/05'],
        ['مشاور پذيرش', 'کارگزاری آرمون بورس'],
      ];
      for (const [label, value] of rows) expect(md).toContain(`${label}\n\n${value}\n`);
      expect(md).not.toMatch(/^#+ (مرجع صادرکننده|تاريخ پذيرش|مشاور پذيرش)/m);
    });

    it('keeps each contents entry and its page apart from the next: a row of the contents table', async () => {
      const r = await doclingFast('redp5110_sampled.pdf');
      const md = r.markdown ?? '';
      expect(md).toContain('\n| 1.1 Security fundamentals | 2 |\n| 1.2 Current state of IBM i security | 2 |\n');
      expect(md).toContain('\n| Authors | xi |\n');
    });

    it('sizes a line by its words: a large checkbox glyph before "No" makes no heading', async () => {
      const r = await doclingFast('table_mislabeled_as_picture.pdf');
      // The answer options of question 24 are one list-like run of body lines, "No" among them.
      expect(r.markdown).toContain('Yes, at the local (municipal) level');
      expect(r.markdown).toMatch(/^[^#\n]*\bNo$/m);
      expect(r.markdown).not.toMatch(/^#+\s.*\bNo$/m);
    });

    it('uses an invisible text layer (render mode 3) laid over a scan', async () => {
      const r = await parse(corpusFile('docling', 'pdf', 'invisible_text_layer.pdf'), {}, { filename: 'scan.pdf' });
      expect(r.markdown).toContain('Invisible OCR text layer');
      expect(r.warning ?? '').not.toMatch(/look scanned/);
    });

    it.skipIf(backend !== 'pdfium')('measures image coverage of pages that also have text (auto mode)', async () => {
      const { createEngine } = await import('../../src/index.ts');
      const r = await createEngine({ pdf: { backend } }).parseTree(
        corpusFile('docling', 'pdf', 'sources', 'picture_classification.pdf'),
        {},
        { filename: 'pictures.pdf' },
      );
      const info = r.output.pageInfo ?? {};
      expect(Object.keys(info)).toEqual(['1', '2']);
      for (const c of Object.values(info)) {
        expect(c.text).toBe('text');
        expect(c.imageCoverage).toBeGreaterThan(0.05);
        expect(c.imageCoverage).toBeLessThan(0.5);
      }
    });

    it('meets the text, table and heading targets on the docling PDFs', async () => {
      const pairs = corpusPairs('docling/pdf/sources', '.pdf').filter((p) => p.truth);
      expect(pairs.length).toBeGreaterThanOrEqual(10);
      const texts: number[] = [];
      const heads: number[] = [];
      const tables: number[] = [];
      for (const p of pairs) {
        const r = await parse(corpusFile('docling', 'pdf', 'sources', p.name), NO_DEADLINE, { filename: p.name });
        texts.push(textSimilarity(r.markdown ?? '', p.truth as string));
        const h = headingF1(r.markdown ?? '', p.truth as string);
        if (h !== null && h !== undefined) heads.push(h);
        const t = tableNeighbourF1(r.markdown ?? '', p.truth as string);
        if (t !== null) tables.push(t);
      }
      expect(tables.length).toBeGreaterThanOrEqual(4);
      expect(mean(tables)).toBeGreaterThanOrEqual(0.6);
      expect(mean(texts)).toBeGreaterThanOrEqual(0.93);
      expect(mean(heads)).toBeGreaterThanOrEqual(0.7);
    });
  },
);
