import { describe, expect, it } from 'vitest';
import { corpusFile, hasCorpus } from '../helpers/corpus.ts';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';
import { pdfOf, ucs2 } from '../helpers/pdf-build.ts';

const heading = '미래 보안기술 전망';
const latin = 'A page whose heading is set in a Korean font without an embedded program.';

/**
 * One page: a Korean line in a Type0 font that names a predefined CMap (`UniKS-UCS2-H`, Adobe-Korea1)
 * and embeds neither a program nor a ToUnicode map, as InDesign and Quartz write Korean headings;
 * then a line of Helvetica. The Korean text is read through the CMap alone.
 */
function predefinedCMapPdf(): Uint8Array {
  const content = [`BT /K1 18 Tf 72 720 Td <${ucs2(heading)}> Tj ET`, `BT /F1 11 Tf 72 690 Td (${latin}) Tj ET`].join(
    '\n',
  );
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /K1 4 0 R /F1 7 0 R >> >> /Contents 8 0 R >>',
    '<< /Type /Font /Subtype /Type0 /BaseFont /HYGoThic-Medium /Encoding /UniKS-UCS2-H /DescendantFonts [5 0 R] >>',
    '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /HYGoThic-Medium /CIDSystemInfo << /Registry (Adobe) /Ordering (Korea1) /Supplement 2 >> /FontDescriptor 6 0 R /DW 1000 >>',
    '<< /Type /FontDescriptor /FontName /HYGoThic-Medium /Flags 6 /FontBBox [-6 -145 1003 880] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 880 /StemV 93 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ]);
}

describe.each(pdfBackends)('PDF text of a font with a predefined CJK CMap (%s)', (backend) => {
  const { parse } = engineFor(backend);

  it('reads the Korean line, not only the Latin one', async () => {
    const md = (await parse(predefinedCMapPdf())).markdown ?? '';
    expect(md).toContain(latin);
    expect(md.replace(/\s+/g, ' ')).toContain(heading);
  });

  it.skipIf(!hasCorpus)('reads the first and last pages of skipped_2pages (Korean in Adobe-Korea1 fonts)', async () => {
    const md = (await parse(corpusFile('pdfbench', 'docling_pdf_sources_skipped_2pages.pdf'))).markdown ?? '';
    expect(md).toContain('78 ICT 기술변화에 따른 미래 보안기술 전망 보고서');
    expect(md).toContain('[그림 4-3] 미래 보안기술 도출 과정');
    expect(md).toContain('84 ICT 기술변화에 따른 미래 보안기술 전망 보고서');
  });
});
