import { createEngine, type PdfBackendName } from '../../src/index.ts';
import { pagesPdf } from './pdf-build.ts';

/** Every PDF backend: the PDF tests run once per backend, so both keep today's behaviour. */
export const pdfBackends: readonly PdfBackendName[] = ['pdfium', 'pdfjs'];

/** `parse`/`parseTree` of an engine pinned to one PDF backend. */
export function engineFor(backend: PdfBackendName) {
  const engine = createEngine({ pdf: { backend } });
  return { parse: engine.parse, parseTree: engine.parseTree };
}

/** The Markdown of a one-page PDF (612 × 792) its operators draw, read by `backend` in `mode`. */
export async function pageMarkdown(
  backend: PdfBackendName,
  ops: readonly string[],
  mode: 'fast' | 'auto' = 'fast',
): Promise<string> {
  const result = await engineFor(backend).parse(
    pagesPdf([ops.join('\n')]),
    { parsers: [{ type: 'pdf', mode }] },
    { filename: 'page.pdf' },
  );
  return result.markdown ?? '';
}
