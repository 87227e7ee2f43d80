import { badInput } from '../../errors.ts';
import { root } from '../../tree/build.ts';
import type { DocumentMetadata } from '../../tree/types.ts';
import { openZip } from '../../util/zip.ts';
import type { Adapter } from '../types.ts';
import { readChapters } from './chapters.ts';
import { readPackage } from './package.ts';

/**
 * EPUB 2 and 3: the spine's XHTML documents, in reading order, each as a `chapter` section converted
 * by the HTML adapter. The navigation document and NCX give chapter names but are not repeated as
 * content.
 */
export const adapter: Adapter = {
  name: 'epub',
  kinds: ['epub'],
  async parse(bytes, ctx) {
    const zip = await openZip(bytes, ctx.limits, ctx.signal, ctx.warn, ctx.zipListing);
    const pkg = await readPackage(zip, ctx.limits);
    if (!pkg.spine.length) throw badInput('The EPUB package lists no documents in its spine.');
    const chapters = await readChapters(pkg, zip, ctx);
    const metadata: DocumentMetadata = { ...pkg.metadata, numPages: chapters.length };
    return { tree: root(chapters, metadata) };
  },
};
