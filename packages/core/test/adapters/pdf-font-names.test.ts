import { describe, expect, it } from 'vitest';
import { boldByName, italicByName } from '../../src/adapters/pdf/backend/font-names.ts';
import { corpusFile, corpusSkipReason, hasCorpus } from '../helpers/corpus.ts';
import { engineFor, pdfBackends } from '../helpers/pdf-backends.ts';

describe('font faces by name', () => {
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
  },
);
