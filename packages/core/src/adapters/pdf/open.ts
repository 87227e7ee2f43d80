import type { PdfBackendName, PdfSource } from './backend/types.ts';

/**
 * `openPdf` as core exports it: the backends (PDFium glue, run building, pdf.js) load on the first
 * call, so an app that imports core and parses a CSV never downloads any of the PDF code.
 */
export async function openPdf(
  bytes: Uint8Array,
  options: { backend?: PdfBackendName | undefined; password?: string | undefined } = {},
): Promise<PdfSource> {
  return (await import('./backend/index.ts')).openPdf(bytes, options);
}
