import { describe, expect, it } from 'vitest';
import { pdfBackends as backends } from '../../src/adapters/pdf/backend/index.ts';
import { pdfBackends } from '../helpers/pdf-backends.ts';
import { pdfOf } from '../helpers/pdf-build.ts';

/**
 * A photo drawn under a soft mask (an ExtGState's /SMask, its luminosity a form that draws a grey
 * copy of the photo), as invalid-pdf-structure sets its pictures, then a caption.
 */
function maskedPhotoPdf(): Uint8Array {
  const content = [
    'q /GS1 gs 200 0 0 150 150 500 cm /Im1 Do Q',
    'BT /F1 10 Tf 150 480 Td (Figure 1. The harbour at dawn, seen from the old lighthouse.) Tj ET',
  ].join('\n');
  const mask = 'q 200 0 0 150 150 500 cm /Im2 Do Q';
  const pixels = 'ff00ff00';
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> /ExtGState << /GS1 5 0 R >> /XObject << /Im1 7 0 R >> >> /Contents 9 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /ExtGState /SMask << /Type /Mask /S /Luminosity /G 6 0 R >> >>',
    `<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Group << /S /Transparency /CS /DeviceGray >> /Resources << /XObject << /Im2 8 0 R >> >> /Length ${mask.length} >>\nstream\n${mask}\nendstream`,
    `<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /ASCIIHexDecode /Length ${pixels.length + 1} >>\nstream\n${pixels}>\nendstream`,
    `<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /ASCIIHexDecode /Length ${pixels.length + 1} >>\nstream\n${pixels}>\nendstream`,
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ]);
}

describe.each(pdfBackends)('PDF soft masks (%s)', (backend) => {
  it('finds one image where a photo is drawn under a soft mask: the mask’s own drawing is not painted', async () => {
    const src = await backends[backend].open(maskedPhotoPdf());
    try {
      const page = await src.page(1);
      const { images } = await page.graphics();
      page.close();
      expect(images).toHaveLength(1);
      const [box] = images;
      expect([Math.round(box?.x0 ?? 0), Math.round(box?.x1 ?? 0)]).toEqual([150, 350]);
    } finally {
      await src.close();
    }
  });
});
