import { image as makeImage } from '../../tree/build.ts';
import type { Block, Image } from '../../tree/types.ts';
import { append } from '../../util/arrays.ts';
import { attr, child, elements, isElement, localName, textOf, type XmlElement } from '../../util/xml.ts';
import { readBlocks } from './blocks.ts';
import { type ReaderEnv, TOP } from './env.ts';
import type { InlineResult } from './inline.ts';
import { objectContent } from './objects.ts';
import { readTable } from './table.ts';

/** Drawing elements that can carry text, images, tables or embedded objects. */
const SHAPES = new Set([
  'draw:frame',
  'draw:g',
  'draw:a',
  'draw:custom-shape',
  'draw:rect',
  'draw:ellipse',
  'draw:circle',
  'draw:polygon',
  'draw:polyline',
  'draw:regular-polygon',
  'draw:path',
  'draw:line',
  'draw:connector',
  'draw:caption',
  'draw:measure',
  'draw:control',
  'draw:page-thumbnail',
  'dr3d:scene',
]);

export const isShape = (el: XmlElement): boolean => SHAPES.has(el.name);

const MIME_BY_EXT: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  bmp: 'image/bmp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  wmf: 'image/wmf',
  emf: 'image/emf',
  pdf: 'application/pdf',
};

/** Formats a browser shows; among alternative renditions in one frame these win. */
const VIEWABLE = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/svg+xml', 'image/webp', 'image/bmp']);

export const normalizeHref = (href: string): string => href.replace(/^\.\//, '').replace(/\/+$/, '');

function mimeOf(img: XmlElement): string | undefined {
  const declared = attr(img, 'draw:mime-type') ?? attr(img, 'loext:mime-type');
  if (declared) return declared;
  const ext = /\.([a-z0-9]+)$/i.exec(attr(img, 'xlink:href') ?? '')?.[1]?.toLowerCase();
  return ext ? MIME_BY_EXT[ext] : undefined;
}

/** Description first (it is the alt text writers ask for), then the title. */
function altOf(frame: XmlElement): string {
  const text = (name: string) => textOf(child(frame, name)).replace(/\s+/g, ' ').trim();
  return text('svg:desc') || text('svg:title');
}

/** The image of a frame, choosing a viewable rendition when a frame offers several. */
export function frameImage(frame: XmlElement, env: ReaderEnv, alt = altOf(frame)): Image | undefined {
  const candidates = elements(frame, 'draw:image');
  const img = candidates.find((c) => VIEWABLE.has(mimeOf(c) ?? '')) ?? candidates[0];
  if (!img) return undefined;
  const href = (attr(img, 'xlink:href') ?? '').trim();
  const mime = mimeOf(img);
  const node = makeImage(alt);
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) node.url = href;
  else if (href) node.ref = normalizeHref(href);
  else {
    const data = textOf(child(img, 'office:binary-data')).replace(/\s+/g, '');
    if (!data) return undefined;
    node.url = `data:${mime ?? 'application/octet-stream'};base64,${data}`;
  }
  if (mime) node.mime = mime;
  env.images.push(node);
  return node;
}

/** What one drawing shape contributes: blocks, plus inline content when it is a lone image or formula. */
interface ShapeContent {
  blocks: Block[];
  inline?: InlineResult['inlines'];
}

function frameContent(frame: XmlElement, env: ReaderEnv): ShapeContent {
  const table = child(frame, 'table:table');
  if (table) {
    const t = readTable(table, env);
    return { blocks: t ? [t] : [] };
  }
  const box = child(frame, 'draw:text-box');
  if (box) return { blocks: readBlocks(box.children, env, TOP) };
  const object = child(frame, 'draw:object') ?? child(frame, 'draw:object-ole');
  if (object) {
    const content = objectContent(frame, object, env);
    if (content) return content;
  }
  const img = frameImage(frame, env);
  return img ? { blocks: [img], inline: [img] } : { blocks: [] };
}

function shapeContent(el: XmlElement, env: ReaderEnv): ShapeContent {
  if (env.depth >= 16) return { blocks: [] };
  env.depth++;
  try {
    switch (el.name) {
      case 'draw:frame':
        return frameContent(el, env);
      case 'draw:g':
      case 'draw:a':
        return { blocks: elements(el).flatMap((c) => (isShape(c) ? readShapeBlocks(c, env) : [])) };
      case 'draw:control':
      case 'draw:page-thumbnail':
      case 'dr3d:scene':
        return { blocks: [] };
      default:
        // Geometric shapes: only their text (paragraphs and lists) is content.
        return {
          blocks: readBlocks(
            el.children.filter((c) => isElement(c) && localName(c.name) !== 'enhanced-geometry'),
            env,
            TOP,
          ),
        };
    }
  } finally {
    env.depth--;
  }
}

/** A shape at block level (page-anchored frames, slide shapes). */
export function readShapeBlocks(el: XmlElement, env: ReaderEnv): Block[] {
  return shapeContent(el, env).blocks;
}

/** A shape anchored inside a paragraph: images and formulas stay inline, anything else follows the paragraph. */
export function readShapeInline(el: XmlElement, env: ReaderEnv, out: InlineResult): void {
  const content = shapeContent(el, env);
  if (content.inline) append(out.inlines, content.inline);
  else append(out.blocks, content.blocks);
}
