import { blockquote, cell, heading, image, list, listItem, paragraph, row, table, text } from '../../tree/build.ts';
import type { Block, Inline, ListItem, TableCell, TableRow } from '../../tree/types.ts';
import { append } from '../../util/arrays.ts';
import { attr, deep, kid, kids, localName, walk, type XmlElement } from '../../util/xml.ts';
import { chartBlocks, chartSpace } from '../ooxml/chart.ts';
import { commentBlocks } from './comments.ts';
import type { Package, Rel } from './package.ts';
import { bodyInlines, inlineText, textBlocks } from './text.ts';

/** Maps child coordinates of a group to slide coordinates. */
type Transform = (x: number, y: number) => [number, number];
const identity: Transform = (x, y) => [x, y];

interface Placeholder {
  type: string;
  idx: string | undefined;
}

interface Item {
  el: XmlElement;
  kind: 'sp' | 'pic' | 'graphicFrame' | 'grpSp';
  ph: Placeholder | undefined;
  x: number;
  y: number;
  order: number;
}

export interface SlideEnv {
  pkg: Package;
  part: string;
  rels: Map<string, Rel>;
  /** Positions of layout/master placeholders, for slide placeholders that inherit theirs. */
  inherited: Map<string, [number, number]>;
}

const num = (v: string | undefined) => (v === undefined ? Number.NaN : Number(v));

function placeholderOf(el: XmlElement): Placeholder | undefined {
  const nv = kids(el).find((k) => localName(k.name).startsWith('nv'));
  const ph = walk(nv, 'nvPr', 'ph');
  if (!ph) return undefined;
  return { type: attr(ph, 'type') ?? 'body', idx: attr(ph, 'idx') };
}

const phKeys = (ph: Placeholder): string[] => [
  ...(ph.idx !== undefined ? [`idx:${ph.idx}`] : []),
  `type:${ph.type === 'ctrTitle' ? 'title' : ph.type}`,
];

function offsetOf(el: XmlElement): [number, number] | undefined {
  const props = kids(el).find((k) => ['spPr', 'grpSpPr', 'xfrm'].includes(localName(k.name)));
  const xfrm = props && localName(props.name) === 'xfrm' ? props : kid(props, 'xfrm');
  const off = kid(xfrm, 'off');
  const x = num(attr(off, 'x'));
  const y = num(attr(off, 'y'));
  return Number.isFinite(x) && Number.isFinite(y) ? [x, y] : undefined;
}

/** The drawable children of a shape tree, unwrapping markup-compatibility blocks. */
function drawables(tree: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of kids(tree)) {
    const n = localName(c.name);
    if (n === 'AlternateContent') {
      const pick = kid(c, 'Fallback') ?? kid(c, 'Choice');
      if (pick) append(out, drawables(pick));
    } else if (n === 'sp' || n === 'pic' || n === 'graphicFrame' || n === 'grpSp') out.push(c);
  }
  return out;
}

/** Placeholder positions declared by a layout or master shape tree (first declaration wins). */
export function collectPositions(tree: XmlElement | undefined, into: Map<string, [number, number]>): void {
  if (!tree) return;
  for (const el of drawables(tree)) {
    const ph = placeholderOf(el);
    const pos = offsetOf(el);
    if (!ph || !pos) continue;
    for (const k of phKeys(ph)) if (!into.has(k)) into.set(k, pos);
  }
}

const isTitle = (ph: Placeholder | undefined) => ph?.type === 'title' || ph?.type === 'ctrTitle';

/** Reading order: titles, then top-to-bottom, left-to-right; shapes without a position keep document order. */
function ordered(tree: XmlElement, tf: Transform, env: SlideEnv): Item[] {
  const items: Item[] = drawables(tree).map((el, order) => {
    const ph = placeholderOf(el);
    let pos = offsetOf(el);
    if (!pos && ph)
      pos = phKeys(ph)
        .map((k) => env.inherited.get(k))
        .find((p) => p !== undefined);
    const [x, y] = pos ? tf(pos[0], pos[1]) : [Number.NaN, Number.NaN];
    return { el, kind: localName(el.name) as Item['kind'], ph, x, y, order };
  });
  const titles = items.filter((i) => isTitle(i.ph));
  const placed = items
    .filter((i) => !isTitle(i.ph) && !Number.isNaN(i.y))
    .sort((a, b) => a.y - b.y || a.order - b.order);
  // Shapes whose tops are within a band of each other sit side by side (columns): read them left to right.
  let band = 0;
  let bandTop = Number.NEGATIVE_INFINITY;
  const bands = new Map<Item, number>();
  for (const i of placed) {
    if (i.y - bandTop > ROW_TOLERANCE) {
      band++;
      bandTop = i.y;
    }
    bands.set(i, band);
  }
  placed.sort((a, b) => (bands.get(a) ?? 0) - (bands.get(b) ?? 0) || a.x - b.x || a.y - b.y || a.order - b.order);
  const loose = items.filter((i) => !isTitle(i.ph) && Number.isNaN(i.y));
  return [...titles, ...placed, ...loose];
}

/** A quarter inch in EMU: tops closer than this count as one row. */
const ROW_TOLERANCE = 228600;

function groupTransform(grp: XmlElement, outer: Transform): Transform {
  const xfrm = walk(grp, 'grpSpPr', 'xfrm');
  const off = kid(xfrm, 'off');
  const ext = kid(xfrm, 'ext');
  const chOff = kid(xfrm, 'chOff');
  const chExt = kid(xfrm, 'chExt');
  const ox = num(attr(off, 'x')) || 0;
  const oy = num(attr(off, 'y')) || 0;
  const cx = num(attr(chOff, 'x')) || 0;
  const cy = num(attr(chOff, 'y')) || 0;
  const sx = num(attr(ext, 'cx')) / num(attr(chExt, 'cx'));
  const sy = num(attr(ext, 'cy')) / num(attr(chExt, 'cy'));
  const fx = Number.isFinite(sx) && sx > 0 ? sx : 1;
  const fy = Number.isFinite(sy) && sy > 0 ? sy : 1;
  return (x, y) => outer(ox + (x - cx) * fx, oy + (y - cy) * fy);
}

function tableBlock(tbl: XmlElement, rels: Map<string, Rel>): Block | undefined {
  const rows: TableRow[] = [];
  kids(tbl, 'tr').forEach((tr, r) => {
    const cells: TableCell[] = [];
    for (const tc of kids(tr, 'tc')) {
      // Continuation cells of a merge carry no content of their own.
      if (attr(tc, 'hMerge') === '1' || attr(tc, 'vMerge') === '1') continue;
      const inl = bodyInlines(kid(tc, 'txBody'), rels);
      cells.push(
        cell(inl.length ? [paragraph(inl)] : [], {
          header: r === 0,
          colSpan: Number(attr(tc, 'gridSpan') ?? 1) || 1,
          rowSpan: Number(attr(tc, 'rowSpan') ?? 1) || 1,
        }),
      );
    }
    rows.push(row(cells));
  });
  return rows.length ? table(rows) : undefined;
}

const MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  bmp: 'image/bmp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  svg: 'image/svg+xml',
  emf: 'image/emf',
  wmf: 'image/wmf',
  webp: 'image/webp',
};

/**
 * Alt text as a reader would want it: PowerPoint's boilerplate disclaimer on generated descriptions
 * and descriptions that are only the inserted file's name say nothing about the picture.
 */
function cleanAlt(descr: string): string {
  const alt = descr
    .replace(/\s+/g, ' ')
    .replace(/\s*AI-generated content may be incorrect\.?$/i, '')
    .trim();
  return /^[^\s/\\]+\.(png|jpe?g|gif|bmp|tiff?|svg|emf|wmf|webp)$/i.test(alt) ? '' : alt;
}

function pictureBlock(pic: XmlElement, env: SlideEnv): Block | undefined {
  const nv = walk(pic, 'nvPicPr', 'cNvPr');
  const alt = cleanAlt(attr(nv, 'descr') ?? '');
  const blip = deep(kid(pic, 'blipFill'), 'blip')[0];
  const rid = attr(blip, 'r:embed') ?? attr(blip, 'r:link');
  const rel = rid ? env.rels.get(rid) : undefined;
  if (!rel) return undefined;
  if (rel.external) return image(alt, { url: rel.target });
  if (!env.pkg.zip.has(rel.target)) return undefined;
  const ext = rel.target.split('.').pop()?.toLowerCase() ?? '';
  const mime = MIME[ext];
  return image(alt, mime ? { ref: rel.target, mime } : { ref: rel.target });
}

async function frameBlocks(frame: XmlElement, env: SlideEnv): Promise<Block[]> {
  const data = walk(frame, 'graphic', 'graphicData');
  const tbl = kid(data, 'tbl');
  if (tbl) {
    const t = tableBlock(tbl, env.rels);
    return t ? [t] : [];
  }
  const diagram = kid(data, 'relIds');
  const dm = env.rels.get(attr(diagram, 'r:dm') ?? '');
  if (diagram && dm && !dm.external) return diagramBlocks(await env.pkg.xml(dm.target), env.rels);
  const chartRef = kid(data, 'chart');
  const rid = attr(chartRef, 'r:id');
  const rel = rid ? env.rels.get(rid) : undefined;
  if (rel && !rel.external) return chartBlocks(chartSpace(await env.pkg.xml(rel.target)));
  return [];
}

/** SmartArt: the text of its content nodes (not connectors or layout points), as a flat list. */
function diagramBlocks(model: XmlElement | undefined, rels: Map<string, Rel>): Block[] {
  const items: ListItem[] = [];
  for (const pt of deep(kid(model, 'ptLst'), 'pt')) {
    const type = attr(pt, 'type') ?? 'node';
    if (type !== 'node') continue;
    const inl = bodyInlines(kid(pt, 't'), rels);
    if (inlineText(inl).trim()) items.push(listItem([paragraph(inl)]));
  }
  return items.length ? [list(false, items)] : [];
}

/** Blocks of one shape tree (slide or group); the title, when asked for, is returned separately. */
export async function treeBlocks(
  tree: XmlElement,
  env: SlideEnv,
  tf: Transform = identity,
  title?: { inlines: Inline[] | undefined },
): Promise<Block[]> {
  const out: Block[] = [];
  for (const item of ordered(tree, tf, env)) {
    if (item.kind === 'grpSp') append(out, await treeBlocks(item.el, env, groupTransform(item.el, tf)));
    else if (item.kind === 'pic') {
      const b = pictureBlock(item.el, env);
      if (b) out.push(b);
    } else if (item.kind === 'graphicFrame') append(out, await frameBlocks(item.el, env));
    else {
      const body = kid(item.el, 'txBody');
      if (title && isTitle(item.ph) && !title.inlines) {
        const inl = bodyInlines(body, env.rels).map((i) => (i.type === 'break' ? text(' ') : i));
        if (inlineText(inl).trim()) {
          title.inlines = inl;
          continue;
        }
      }
      const bullets = !!item.ph && !['title', 'ctrTitle', 'subTitle', 'dt', 'ftr', 'sldNum'].includes(item.ph.type);
      // Date, footer and slide-number placeholders repeat on every slide: furniture, not content.
      if (item.ph && ['dt', 'ftr', 'sldNum', 'hdr'].includes(item.ph.type) && env.pkg.ctx.options.onlyMainContent)
        continue;
      append(out, textBlocks(body, { rels: env.rels, bulletsByDefault: bullets }));
    }
  }
  return out;
}

/** The slide's title heading (or "Slide N"), its content, then its speaker notes as a quote. */
export async function slideBlocks(slide: XmlElement, number: number, env: SlideEnv): Promise<Block[]> {
  const tree = walk(slide, 'cSld', 'spTree');
  const title: { inlines: Inline[] | undefined } = { inlines: undefined };
  const body = tree ? await treeBlocks(tree, env, identity, title) : [];
  const out: Block[] = [
    title.inlines ? heading(1, title.inlines) : heading(2, `Slide ${number}`),
    ...body,
    ...(await commentBlocks(env.pkg, env.rels)),
  ];
  const notesRel = [...env.rels.values()].find((r) => r.type === 'notesSlide' && !r.external);
  if (notesRel) {
    const notes = await env.pkg.xml(notesRel.target);
    const nt = walk(notes, 'cSld', 'spTree');
    const rels = await env.pkg.rels(notesRel.target);
    const blocks: Block[] = [];
    for (const el of nt ? drawables(nt) : []) {
      if (placeholderOf(el)?.type !== 'body') continue;
      append(blocks, textBlocks(kid(el, 'txBody'), { rels, bulletsByDefault: false }));
    }
    if (blocks.length) out.push(blockquote(blocks));
  }
  return out;
}
