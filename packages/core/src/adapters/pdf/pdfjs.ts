import { badInput } from '../../errors.ts';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
export type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;
export type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;

let loading: Promise<PdfJs> | undefined;

/**
 * pdf.js is imported on first use only. In Node it runs its worker code on the main thread (its
 * "fake worker", loaded by pdf.js itself from the module beside pdf.mjs), which is what we want:
 * one parse is one task, and no worker thread outlives it.
 */
export function loadPdfJs(): Promise<PdfJs> {
  loading ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return loading;
}

/** Opens a document; password and structural failures become 400s with a message users can act on. */
export async function openDocument(pdfjs: PdfJs, bytes: Uint8Array): Promise<PdfDocument> {
  // pdf.js transfers (detaches) the buffer it is given; the caller's bytes must stay usable.
  const task = pdfjs.getDocument({
    data: bytes.slice(),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  try {
    return await task.promise;
  } catch (err) {
    await task.destroy().catch(() => undefined);
    const name = (err as { name?: string })?.name;
    if (name === 'PasswordException') {
      throw badInput(
        'The PDF is password-protected; docmill cannot open encrypted documents without the password.',
        err,
      );
    }
    const detail = err instanceof Error ? err.message : String(err);
    throw badInput(`The PDF is damaged and could not be read (${detail}).`, err);
  }
}
