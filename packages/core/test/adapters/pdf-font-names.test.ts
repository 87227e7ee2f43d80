import { describe, expect, it } from 'vitest';
import { boldByName, italicByName } from '../../src/adapters/pdf/backend/font-names.ts';
import { monospacedByName } from '../../src/util/fonts.ts';
import { corpusFile, corpusSkipReason, hasCorpus } from '../helpers/corpus.ts';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';
import { pdfOf } from '../helpers/pdf-build.ts';

describe('font faces by name', () => {
  it('reads monospaced faces by name as Office and PDFs write them, and no Monotype, Monoton or Monofett face as one', () => {
    for (const name of [
      'Courier New',
      'CourierNewPSMT',
      'Consolas',
      'Lucida Console',
      'Menlo-Regular',
      'DejaVuSansMono',
      'Source Code Pro',
      'SourceCodePro-Regular',
      'FiraCode-Retina',
      'Cascadia Code',
      'CMTT9',
      'RGZAFB+CMTT9',
      'SFTT1000',
      'txtt',
      'TeXGyreCursor-Regular',
      'LetterGothicStd',
      'NimbusMonL-Regu',
      'Monotype.com',
    ])
      expect(monospacedByName(name), name).toBe(true);
    for (const name of [
      'Monotype Corsiva',
      'MonotypeCorsiva',
      'American Typewriter',
      'Andale Sans',
      'Code Pro',
      'Code 128',
      'CMR10',
      'ArialMT',
      'Calibri',
      'BookMasterGothic-Roman',
      // Display faces named Mono…: an outline face and a fat one, both proportional.
      'Monoton',
      'Monoton-Regular',
      'MonotonRegular',
      'ABCDEF+Monofett',
    ])
      expect(monospacedByName(name), name).toBe(false);
  });

  it("reads TeX's abbreviated bold faces as bold, subset prefix or not", () => {
    for (const name of ['CMBX12', 'FIMLFA+CMBX9', 'CMB10', 'CMSSBX10', 'CMBXTI10', 'SFBX1000', 'ECBX1200', 'EUB10']) {
      expect(boldByName(name), name).toBe(true);
    }
  });

  it('keeps the regular TeX faces and look-alike names regular', () => {
    // CMBR is Computer Modern Bright, MSBM the blackboard symbols: neither is a bold text face.
    for (const name of ['CMR10', 'CMTI10', 'CMMI10', 'CMBR10', 'MSBM10', 'SFRM1000', 'ArialMT', 'TimesNewRomanPSMT']) {
      expect(boldByName(name), name).toBe(false);
    }
  });

  it('keeps the named weights and foundry abbreviations it read before', () => {
    for (const name of [
      'Arial,Bold',
      'TimesNewRomanPS-BoldMT',
      'HelveticaNeueLTPro-Bd',
      'MyriadPro-Black',
      'Avenir-Heavy',
    ]) {
      expect(boldByName(name), name).toBe(true);
    }
    expect(italicByName('Arial-ItalicMT')).toBe(true);
    expect(italicByName('Helvetica-Oblique')).toBe(true);
    expect(italicByName('ArialMT')).toBe(false);
  });

  it('reads weights in figures from 600 and W6 up, Semibold and Demi as bold; Medium and lighter figures as regular', () => {
    for (const name of [
      'Inter-600',
      'ABCDEF+Montserrat-700Italic',
      'Poppins-800',
      'HiraKakuProN-W6',
      'HiraMinProN-W9',
      'MyriadPro-Semibold',
      'Lato-SemiBold',
      'URWGothicL-Demi',
      'NimbusRomNo9L-Medi',
      'EUKJCJ+NimbusRomNo9L-MediItal',
    ]) {
      expect(boldByName(name), name).toBe(true);
    }
    for (const name of [
      'Inter-500',
      'Roboto-Medium',
      'Tajawal-Medium',
      'HelveticaNeueLTPro-Md',
      'HiraKakuProN-W3',
      'HelveticaNeue-MediumItalic',
      'Univers-55Roman',
      'NimbusSanL-Regu',
      'F6',
    ]) {
      expect(boldByName(name), name).toBe(false);
    }
  });

  it("reads foundries' shortened italics and TeX's italic faces as italic, and look-alikes as upright", () => {
    for (const name of [
      'MinionPro-It',
      'AdobeCorpID-MyriadBdIt',
      'HelveticaNeueLTStd-It',
      'EUKJCJ+NimbusRomNo9L-ReguItal',
      'CMTI10',
      'CMBXTI10',
      'CMMI10',
      'SFTI1000',
    ]) {
      expect(italicByName(name), name).toBe(true);
    }
    for (const name of ['Summit', 'NimbusRomNo9L-Regu', 'CMR10', 'CMBX12', 'CMSY10', 'SFRM1000', 'Digit']) {
      expect(italicByName(name), name).toBe(false);
    }
  });
});

describe.skipIf(!hasCorpus).each(pdfBackends)(
  `TeX bold faces on the pdfbench corpus (%s)${hasCorpus ? '' : ` - ${corpusSkipReason}`}`,
  (backend) => {
    const { parse } = engineFor(backend);

    it('sets the run-in labels of a LaTeX paper (CMBX9) in bold', async () => {
      const bytes = corpusFile('pdfbench', 'unstructured_pdf_layout-parser-paper-fast.pdf');
      const md = (await parse(bytes, {}, { filename: 'paper.pdf' })).markdown ?? '';
      expect(md).toContain('\n\n**Abstract.** Recent advances in document image analysis (DIA)');
      expect(md).toContain('\n\n**Keywords:** Document Image Analysis · Deep Learning');
    });

    it("sets a Times paper's run-in heads (NimbusRomNo9L-Medi, URW's bold) in bold, in their paragraph", async () => {
      const md = (await parse(corpusFile('pdfbench', 'unstructured_pdf_multi-column.pdf'))).markdown ?? '';
      expect(md).toContain('\n\n**Positive and negative passages** For retrieval problems, it is often the case');
      expect(md).toContain('\n\n**Vladimir Karpukhin**');
    });
  },
);

/**
 * A line of Helvetica with words in a second font: a face named by its weight, non-embedded, its
 * descriptor giving `weight`, `flags` and `stemV` (PDFium reads the last two; pdf.js hands over
 * none of them, and the descriptor is read from the file).
 */
function weightPdf(face: string, weight: number, flags = 32, stemV = 120): Uint8Array {
  const content = [
    'BT /F1 10 Tf 72 720 Td (The figures in this part of the report are ) Tj /F2 10 Tf (set in the other face) Tj /F1 10 Tf ( and the rest in the body face.) Tj ET',
  ].join('\n');
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 7 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Type /Font /Subtype /TrueType /BaseFont /${face} /FirstChar 32 /LastChar 126 /Encoding /WinAnsiEncoding /FontDescriptor 6 0 R >>`,
    `<< /Type /FontDescriptor /FontName /${face} /Flags ${flags} /FontBBox [-200 -250 1200 950] /ItalicAngle 0 /Ascent 900 /Descent -220 /CapHeight 700 /StemV ${stemV} /FontWeight ${weight} >>`,
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ]);
}

describe.each(pdfBackends)('font weights named by the face (%s)', (backend) => {
  const { parse } = engineFor(backend);

  it('sets words in a face named by a weight of 600 in bold', async () => {
    const md = (await parse(weightPdf('Inter-600', 600))).markdown ?? '';
    expect(md).toContain('**set in the other face**');
  });

  it('sets words in a Medium face as regular, whatever weight its descriptor gives', async () => {
    const md = (await parse(weightPdf('Roboto-Medium', 700))).markdown ?? '';
    expect(md).toContain('report are set in the other face and the rest');
    expect(md).not.toContain('**');
  });

  it('sets words in a face its descriptor forces bold (flag bit 19) in bold, whatever its name', async () => {
    const md = (await parse(weightPdf('Frutiger-Roman', 400, 32 | (1 << 18)))).markdown ?? '';
    expect(md).toContain('**set in the other face**');
  });

  it("sets words in a face named by a foundry's figure in bold where its stem width makes it bold", async () => {
    // Yoon Gothic's "780" is no CSS weight: PDFium's weight from StemV 144 (716) decides.
    expect((await parse(weightPdf('YoonGothicPro780', 700, 4, 144))).markdown ?? '').toContain(
      '**set in the other face**',
    );
    const light = (await parse(weightPdf('YoonGothicPro740', 400, 4, 76))).markdown ?? '';
    expect(light).toContain('report are set in the other face and the rest');
    expect(light).not.toContain('**');
  });

  it('sets words in a face its descriptor flags italic in italic, whatever its name', async () => {
    const md = (await parse(weightPdf('Frutiger-Roman', 400, 32 | 64))).markdown ?? '';
    expect(md).toContain('*set in the other face*');
  });

  it("reads the descriptor's flags and stem width in fast mode too", async () => {
    const fast = { parsers: [{ type: 'pdf' as const, mode: 'fast' as const }] };
    expect((await parse(weightPdf('Frutiger-Roman', 400, 32 | (1 << 18)), fast)).markdown ?? '').toContain(
      '**set in the other face**',
    );
    expect((await parse(weightPdf('Frutiger-Roman', 400, 32 | 64), fast)).markdown ?? '').toMatch(
      /[^*]\*set in the other face\*[^*]/,
    );
    expect((await parse(weightPdf('YoonGothicPro780', 700, 4, 144), fast)).markdown ?? '').toContain(
      '**set in the other face**',
    );
  });
});
