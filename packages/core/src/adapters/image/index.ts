import { root } from '../../tree/build.ts';
import type { Adapter } from '../types.ts';

/**
 * Raster images carry no text layer: the adapter hands the OCR stage an empty document whose one
 * page is all image, and the stage fills it (one page per frame of a multi-page TIFF). The engine
 * refuses images up front when it has no OCR stage, so an empty success never goes out.
 */
export const adapter: Adapter = {
  name: 'image',
  kinds: ['image'],
  async parse(_bytes, ctx) {
    const tree = root([], {});
    if (ctx.mime) tree.metadata.contentType = ctx.mime;
    return { tree, pageInfo: { 1: { text: 'none', imageCoverage: 1 } } };
  },
};
