import { isPasswordError } from './errors.ts';
import { isMemoryRefusal, pdfiumBackend } from './pdfium.ts';
import { pdfjsBackend } from './pdfjs.ts';
import type { PdfBackend, PdfBackendName, PdfSource } from './types.ts';

export type * from './types.ts';

/** Engine-level PDF settings (`createEngine({ pdf: { backend: 'pdfjs' } })`). */
export interface PdfEngineConfig {
  /** 'pdfium' (default): PDFium in WebAssembly, with pdf.js tried when PDFium cannot open a file. */
  backend?: PdfBackendName;
}

export const pdfBackends: Record<PdfBackendName, PdfBackend> = { pdfium: pdfiumBackend, pdfjs: pdfjsBackend };

/**
 * Opens a PDF with the chosen backend. With PDFium (the default), a file PDFium rejects as damaged,
 * or opens without pages, is handed to pdf.js, whose repair of broken cross-reference tables
 * differs; an encrypted file is not (neither backend opens it without the password).
 */
export async function openPdf(
  bytes: Uint8Array,
  options: { backend?: PdfBackendName | undefined; password?: string | undefined } = {},
): Promise<PdfSource> {
  const open = { password: options.password };
  if (options.backend === 'pdfjs') return pdfjsBackend.open(bytes, open);
  let first: unknown;
  try {
    const src = await pdfiumBackend.open(bytes, open);
    if (src.pageCount > 0) return src;
    await src.close();
  } catch (err) {
    if (isPasswordError(err) || isMemoryRefusal(err)) throw err;
    first = err;
  }
  try {
    return await pdfjsBackend.open(bytes, open);
  } catch (err) {
    throw isPasswordError(err) || !first ? err : first;
  }
}
