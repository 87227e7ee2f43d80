import { openPdf, type PdfBackendName } from '@docmill/core';
import { type Gray, toGray } from './raster.ts';

/** How the OCR stage gets pixels of a PDF page; swappable for tests or another renderer. */
export interface PageRenderer {
  pageCount(): number;
  render(page: number, dpi: number): Promise<Gray>;
  close(): Promise<void>;
}

/**
 * Renders through core's PDF backend seam (PDFium by default, white background, RGBA), turned to
 * grey at once so a page is a quarter of the bytes on its way to a worker.
 */
export async function openRenderer(bytes: Uint8Array, backend?: PdfBackendName): Promise<PageRenderer> {
  const src = await openPdf(bytes, { backend });
  return {
    pageCount: () => src.pageCount,
    async render(n, dpi) {
      const page = await src.render(n, dpi);
      return toGray(page.width, page.height, page.data);
    },
    close: () => src.close(),
  };
}
