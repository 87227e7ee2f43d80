import { badInput, throwIfAborted } from '../../errors.ts';
import { root } from '../../tree/build.ts';
import type { Block } from '../../tree/types.ts';
import { append } from '../../util/arrays.ts';
import { attr, type XmlElement } from '../../util/xml.ts';
import { inlineImages } from '../common/images.ts';
import { notesOnLastPage } from '../common/page-turns.ts';
import type { Adapter, AdapterContext } from '../types.ts';
import { readBlocks, readBody } from './blocks.ts';
import type { DocxEnv, DocxShared, NoteSource } from './env.ts';
import { readMeta } from './meta.ts';
import { DocxNumbering } from './numbering.ts';
import { type DocxPackage, openDocx } from './package.ts';
import { DocxStyles } from './styles.ts';
import { readWordMl2003 } from './wordml2003.ts';
import { find, kid, kids } from './xml.ts';

async function loadNotes(pkg: DocxPackage, type: string, local: string): Promise<NoteSource | undefined> {
  const part = await pkg.related(type);
  if (!part) return undefined;
  const el = await pkg.optionalXml(part);
  if (!el) return undefined;
  const bodies = new Map<string, XmlElement>();
  for (const n of kids(el, local)) {
    const id = attr(n, 'w:id');
    // Separator and continuation notes are typography, not content.
    const type = attr(n, 'w:type');
    if (id !== undefined && (!type || type === 'normal')) bodies.set(id, n);
  }
  return { part, rels: await pkg.rels(part), bodies };
}

/** Header or footer parts referenced by the section properties, in order, each once. */
async function headerFooter(
  pkg: DocxPackage,
  body: XmlElement,
  shared: DocxShared,
  which: 'headerReference' | 'footerReference',
): Promise<Block[]> {
  const rels = await pkg.rels(pkg.main);
  const seen = new Set<string>();
  const out: Block[] = [];
  for (const sect of find(body, 'sectPr')) {
    for (const ref of kids(sect, which)) {
      const rel = rels.get(attr(ref, 'r:id') ?? '');
      if (!rel || rel.external || seen.has(rel.target)) continue;
      seen.add(rel.target);
      throwIfAborted(shared.ctx.signal);
      const el = await pkg.optionalXml(rel.target);
      if (!el) continue;
      const env: DocxEnv = { shared, part: rel.target, rels: await pkg.rels(rel.target), fields: [], depth: 0 };
      append(out, readBlocks(el.children, env));
    }
  }
  return out;
}

/** Reading state shared by every part of one document (DOCX or Word 2003 XML). */
function sharedState(
  ctx: AdapterContext,
  styles: DocxStyles,
  numbering: DocxNumbering,
  charts: Map<string, XmlElement>,
): DocxShared {
  return { charts, ctx, styles, numbering, notes: [], noteIds: new Map(), images: [], readBlocks };
}

async function parseDocx(bytes: Uint8Array, ctx: AdapterContext) {
  const pkg = await openDocx(bytes, ctx);
  const doc = await pkg.xml(pkg.main);
  const body = kid(doc, 'body');
  if (!doc || !body) throw badInput(`The Word document has no body (${pkg.main} is not WordprocessingML).`);
  throwIfAborted(ctx.signal);
  const stylesPart = await pkg.related('styles');
  const styles = new DocxStyles(stylesPart ? await pkg.optionalXml(stylesPart) : undefined);
  const numberingPart = await pkg.related('numbering');
  const numbering = new DocxNumbering(
    numberingPart ? await pkg.optionalXml(numberingPart) : undefined,
    (id) => styles.numbering(id)?.numId,
  );
  throwIfAborted(ctx.signal);
  const charts = new Map<string, XmlElement>();
  for (const rel of (await pkg.rels(pkg.main)).values()) {
    if (rel.type !== 'chart' || rel.external || charts.has(rel.target)) continue;
    const el = await pkg.optionalXml(rel.target);
    if (el) charts.set(rel.target, el);
  }
  const shared = sharedState(ctx, styles, numbering, charts);
  const footnotes = await loadNotes(pkg, 'footnotes', 'footnote');
  if (footnotes) shared.footnotes = footnotes;
  const endnotes = await loadNotes(pkg, 'endnotes', 'endnote');
  if (endnotes) shared.endnotes = endnotes;
  throwIfAborted(ctx.signal);

  const env: DocxEnv = { shared, part: pkg.main, rels: await pkg.rels(pkg.main), fields: [], depth: 0 };
  const blocks = readBody(body.children, env);
  notesOnLastPage(shared.notes, shared.lastPage);
  append(blocks, shared.notes);
  throwIfAborted(ctx.signal);
  if (!ctx.options.onlyMainContent) {
    blocks.unshift(...(await headerFooter(pkg, body, shared, 'headerReference')));
    append(blocks, await headerFooter(pkg, body, shared, 'footerReference'));
  }
  await inlineImages(shared.images, pkg.zip, ctx);
  const corePart = (await pkg.rels('')).values();
  let core: XmlElement | undefined;
  let app: XmlElement | undefined;
  for (const rel of corePart) {
    if (rel.external) continue;
    if (rel.type === 'core-properties') core = await pkg.optionalXml(rel.target);
    else if (rel.type === 'extended-properties') app = await pkg.optionalXml(rel.target);
  }
  core ??= await pkg.optionalXml('docProps/core.xml');
  app ??= await pkg.optionalXml('docProps/app.xml');
  return { tree: root(blocks, readMeta(core, app)) };
}

/** Word 2003 XML: rewritten into DOCX shapes, then read by the same block reader. */
async function parseWordMl(bytes: Uint8Array, ctx: AdapterContext) {
  const doc = await readWordMl2003(bytes, ctx);
  if (!doc) throw badInput('The file is not a Word 2003 XML document (no w:wordDocument body).');
  const styles = new DocxStyles(doc.styles);
  const numbering = new DocxNumbering(doc.numbering, (id) => styles.numbering(id)?.numId);
  const shared = sharedState(ctx, styles, numbering, new Map());
  // Notes are written inline in this format; their bodies resolve links through the same relationships.
  if (doc.footnotes.size) shared.footnotes = { part: '', rels: doc.rels, bodies: doc.footnotes };
  if (doc.endnotes.size) shared.endnotes = { part: '', rels: doc.rels, bodies: doc.endnotes };
  const env: DocxEnv = { shared, part: '', rels: doc.rels, fields: [], depth: 0 };
  const blocks = readBody(doc.body.children, env);
  notesOnLastPage(shared.notes, shared.lastPage);
  append(blocks, shared.notes);
  await inlineImages(shared.images, doc.media, ctx);
  return { tree: root(blocks, readMeta(doc.core, doc.app)) };
}

/**
 * Word documents (.docx, .docm, and Word 2003 XML): body in order, notes at the end, headers/footers
 * on request.
 */
export const adapter: Adapter = {
  name: 'docx',
  kinds: ['docx', 'docm', 'wordml'],
  parse: (bytes, ctx) => (ctx.kind === 'wordml' ? parseWordMl(bytes, ctx) : parseDocx(bytes, ctx)),
};
