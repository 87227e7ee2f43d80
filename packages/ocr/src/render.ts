import { DocmillError } from '@docmill/core';
import { type Gray, toGray } from './raster.ts';

/**
 * Renders PDF pages to grey rasters for OCR. This is pdf.js with its own canvas factory (the
 * `@napi-rs/canvas` version it pins; a second major of that package in one process crashes it);
 * it is the one function to swap for the PDF backend's `render(page, dpi)` once core has one.
 */
export interface PageRenderer {
  pageCount(): number;
  render(page: number, dpi: number): Promise<Gray>;
  close(): Promise<void>;
}

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let loading: Promise<PdfJs> | undefined;

interface CanvasPair {
  canvas: { width: number; height: number };
  context: { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
}
interface CanvasFactory {
  create(w: number, h: number): CanvasPair;
  destroy(pair: CanvasPair): void;
}

/**
 * Non-embedded fonts (the standard 14, CJK CMaps) render from pdf.js's own data files; without
 * them every glyph is drawn as a box and OCR reads nothing. Node resolves them from the package.
 */
async function assetUrls(): Promise<{ standardFontDataUrl?: string; cMapUrl?: string; cMapPacked?: boolean }> {
  if (typeof globalThis.process?.versions?.node !== 'string') return {};
  const { createRequire } = await import('node:module');
  const { dirname, join } = await import('node:path');
  const dir = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  return {
    standardFontDataUrl: `${join(dir, 'standard_fonts')}/`,
    cMapUrl: `${join(dir, 'cmaps')}/`,
    cMapPacked: true,
  };
}

export async function openRenderer(bytes: Uint8Array): Promise<PageRenderer> {
  loading ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  const pdfjs = await loading;
  const task = pdfjs.getDocument({
    data: bytes.slice(),
    isEvalSupported: false,
    useSystemFonts: false,
    verbosity: 0,
    ...(await assetUrls()),
  });
  let doc: Awaited<typeof task.promise>;
  try {
    doc = await task.promise;
  } catch (err) {
    await task.destroy().catch(() => undefined);
    throw new DocmillError(
      400,
      'BAD_REQUEST',
      `The PDF could not be opened for OCR (${err instanceof Error ? err.message : String(err)}).`,
    );
  }
  const factory = (doc as unknown as { canvasFactory: CanvasFactory }).canvasFactory;
  return {
    pageCount: () => doc.numPages,
    async render(n, dpi) {
      const page = await doc.getPage(n);
      try {
        const viewport = page.getViewport({ scale: dpi / 72 });
        const pair = factory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
        try {
          await page.render({ canvasContext: pair.context, viewport, canvas: pair.canvas } as never).promise;
          const { width, height } = pair.canvas;
          return toGray(width, height, pair.context.getImageData(0, 0, width, height).data);
        } finally {
          factory.destroy(pair);
        }
      } finally {
        page.cleanup();
      }
    },
    async close() {
      await doc.destroy().catch(() => undefined);
    },
  };
}
