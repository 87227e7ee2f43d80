import { throwIfAborted } from '../../errors.ts';
import { root, section } from '../../tree/build.ts';
import type { Section } from '../../tree/types.ts';
import { attr, child, elements } from '../../util/xml.ts';
import { inlineImages } from '../common/images.ts';
import { createEnv } from '../odf/env.ts';
import { readMeta } from '../odf/meta.ts';
import { loadObjects } from '../odf/objects.ts';
import { officeBody, openOdf } from '../odf/package.ts';
import { OdfStyles } from '../odf/styles.ts';
import type { Adapter } from '../types.ts';
import { slideBlocks } from './slide.ts';

/** OpenDocument presentation (.odp): one slide section per draw:page, notes as block quotes. */
export const adapter: Adapter = {
  name: 'odp',
  kinds: ['odp'],
  async parse(bytes, ctx) {
    const pkg = await openOdf(bytes, ctx);
    const body = officeBody(pkg, 'office:presentation', 'presentation');
    const styles = new OdfStyles([
      child(pkg.styles, 'office:font-face-decls'),
      child(pkg.content, 'office:font-face-decls'),
      child(pkg.styles, 'office:styles'),
      child(pkg.content, 'office:automatic-styles'),
    ]);
    const objects = await loadObjects(pkg, ctx);
    const env = createEnv(ctx, styles, objects);
    const pages = elements(body, 'draw:page');
    const sections: Section[] = [];
    pages.forEach((page, i) => {
      throwIfAborted(ctx.signal);
      // "page3"/"Slide3" are the names writers generate; only a name someone chose says anything.
      const raw = attr(page, 'draw:name')?.trim();
      const name = raw && !/^(page|slide)\s*\d+$/i.test(raw) ? raw : undefined;
      sections.push(section('slide', i + 1, slideBlocks(page, i + 1, env), name ? { name } : {}));
      ctx.progress?.(i + 1, pages.length, 'slides');
    });
    await inlineImages(env.images, pkg.zip, ctx);
    const metadata = readMeta(pkg.meta);
    metadata.numPages = pages.length;
    return { tree: root(sections, metadata) };
  },
};
