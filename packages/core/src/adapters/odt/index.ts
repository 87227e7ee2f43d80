import { throwIfAborted } from '../../errors.ts';
import { root } from '../../tree/build.ts';
import type { Block } from '../../tree/types.ts';
import { append } from '../../util/arrays.ts';
import { child, elements } from '../../util/xml.ts';
import { inlineImages } from '../common/images.ts';
import { notesOnLastPage } from '../common/page-turns.ts';
import { readBlocks } from '../odf/blocks.ts';
import { createEnv, TOP } from '../odf/env.ts';
import { readMeta, storedPageCount } from '../odf/meta.ts';
import { loadObjects } from '../odf/objects.ts';
import { officeBody, openOdf } from '../odf/package.ts';
import { elementPages } from '../odf/pages.ts';
import { OdfStyles } from '../odf/styles.ts';
import type { Adapter } from '../types.ts';
import { masterBlocks } from './master.ts';

/** OpenDocument text (.odt): body in order, notes at the end, page headers/footers on request. */
export const adapter: Adapter = {
  name: 'odt',
  kinds: ['odt'],
  async parse(bytes, ctx) {
    const pkg = await openOdf(bytes, ctx);
    const body = officeBody(pkg, 'office:text', 'text document');
    const common = child(pkg.styles, 'office:styles');
    const styles = new OdfStyles([
      child(pkg.styles, 'office:font-face-decls'),
      child(pkg.content, 'office:font-face-decls'),
      common,
      child(pkg.content, 'office:automatic-styles'),
    ]);
    const objects = await loadObjects(pkg, ctx);
    throwIfAborted(ctx.signal);
    const env = createEnv(ctx, styles, objects);
    const layout = pkg.softPageBreaks ? elementPages(elements(body)) : undefined;
    if (layout) env.unitPages = layout.units;
    const blocks: Block[] = readBlocks(body.children, env, TOP, layout);
    notesOnLastPage(env.notes, layout?.last);
    append(blocks, env.notes);
    throwIfAborted(ctx.signal);
    if (!ctx.options.onlyMainContent && pkg.styles) {
      // Header and footer text lives in styles.xml, with that part's own automatic styles.
      const masterStyles = new OdfStyles([
        child(pkg.styles, 'office:font-face-decls'),
        common,
        child(pkg.styles, 'office:automatic-styles'),
      ]);
      const masterEnv = createEnv(ctx, masterStyles, new Map());
      const { headers, footers } = masterBlocks(pkg.styles, masterEnv);
      blocks.unshift(...headers);
      append(blocks, footers);
      append(env.images, masterEnv.images);
    }
    await inlineImages(env.images, pkg.zip, ctx);
    const metadata = readMeta(pkg.meta);
    const pages = storedPageCount(pkg.meta);
    if (pages !== undefined) metadata.numPages = pages;
    return { tree: root(blocks, metadata) };
  },
};
