import { throwIfAborted } from '../../errors.ts';
import { root, section } from '../../tree/build.ts';
import type { DocumentMetadata, Section } from '../../tree/types.ts';
import { selectAll } from '../../tree/walk.ts';
import { attr, kid, kids, textOf, type XmlElement } from '../../util/xml.ts';
import { inlineImages } from '../common/images.ts';
import type { AdapterContext, AdapterOutput } from '../types.ts';
import { openPackage, type Package } from './package.ts';
import { collectPositions, slideBlocks } from './shapes.ts';

async function metadataOf(pkg: Package): Promise<DocumentMetadata> {
  const core = await pkg.xml('docProps/core.xml');
  const meta: DocumentMetadata = {};
  const title = textOf(kid(core, 'title')).trim();
  const author = textOf(kid(core, 'creator')).trim();
  const description = textOf(kid(core, 'description')).trim();
  if (title) meta.title = title;
  if (author) meta.author = author;
  if (description) meta.description = description;
  return meta;
}

/**
 * Layout then master placeholder positions, so inherited placeholders can be ordered too; collected
 * once per layout (`byLayout`), which slides share.
 */
async function inheritedPositions(
  pkg: Package,
  slidePart: string,
  byLayout: Map<string, Map<string, [number, number]>>,
): Promise<Map<string, [number, number]>> {
  const layoutRel = [...(await pkg.rels(slidePart)).values()].find((r) => r.type === 'slideLayout' && !r.external);
  if (!layoutRel) return new Map();
  const known = byLayout.get(layoutRel.target);
  if (known) return known;
  const out = new Map<string, [number, number]>();
  // Only the shape trees of layouts and masters are read (their text styles are most of them).
  collectPositions(kid(await pkg.section(layoutRel.target, 'cSld'), 'spTree'), out);
  const masterRel = [...(await pkg.rels(layoutRel.target)).values()].find((r) => r.type === 'slideMaster');
  if (masterRel && !masterRel.external)
    collectPositions(kid(await pkg.section(masterRel.target, 'cSld'), 'spTree'), out);
  byLayout.set(layoutRel.target, out);
  return out;
}

function slideParts(slideList: XmlElement | undefined, rels: Map<string, { type: string; target: string }>) {
  const parts: string[] = [];
  for (const id of kids(slideList, 'sldId')) {
    const rel = rels.get(attr(id, 'r:id') ?? '');
    if (rel && rel.type === 'slide') parts.push(rel.target);
  }
  return parts;
}

export async function readPresentation(bytes: Uint8Array, ctx: AdapterContext): Promise<AdapterOutput> {
  const pkg = await openPackage(bytes, ctx);
  // The slide list is all that is read of the presentation part (its default text style is most of it).
  const slideList = await pkg.section('ppt/presentation.xml', 'sldIdLst');
  const parts = slideParts(slideList, await pkg.rels('ppt/presentation.xml'));
  const sections: Section[] = [];
  const byLayout = new Map<string, Map<string, [number, number]>>();
  let number = 0;
  for (const part of parts) {
    throwIfAborted(ctx.signal);
    number++;
    const slide = await pkg.xml(part);
    if (!slide) {
      ctx.warn(`Slide ${number} (${part}) is missing from the package; skipped.`);
      continue;
    }
    // Hidden slides are still part of the deck's content; keep them like PowerPoint's outline does.
    const env = { pkg, part, rels: await pkg.rels(part), inherited: await inheritedPositions(pkg, part, byLayout) };
    const name = attr(kid(slide, 'cSld'), 'name')?.trim();
    sections.push(section('slide', number, await slideBlocks(slide, number, env), name ? { name } : {}));
    ctx.progress?.(number, parts.length, 'slides');
  }
  const tree = root(sections, await metadataOf(pkg));
  await inlineImages(selectAll(tree, 'image'), pkg.zip, ctx);
  tree.metadata.numPages = parts.length;
  tree.metadata.totalPages = parts.length;
  return { tree };
}
