import { openRenderer, type PageRenderer } from '../src/index.ts';

/** The stage's default renderer, counting the pages it renders (a page rendered is a page OCR'd or found blank). */
export function countingRenderer(): { open: (bytes: Uint8Array) => Promise<PageRenderer>; count: () => number } {
  let n = 0;
  return {
    count: () => n,
    async open(bytes) {
      const r = await openRenderer(bytes);
      return {
        ...r,
        render: (page, dpi) => {
          n++;
          return r.render(page, dpi);
        },
      };
    },
  };
}
