import { createEngine, type PdfBackendName } from '../../src/index.ts';

/** Every PDF backend: the PDF tests run once per backend, so both keep today's behaviour. */
export const pdfBackends: readonly PdfBackendName[] = ['pdfium', 'pdfjs'];

/** `parse`/`parseTree` of an engine pinned to one PDF backend. */
export function engineFor(backend: PdfBackendName) {
  const engine = createEngine({ pdf: { backend } });
  return { parse: engine.parse, parseTree: engine.parseTree };
}
