import { blockquote, heading } from '../../tree/build.ts';
import type { Block, Inline } from '../../tree/types.ts';
import { unbold } from '../../tree/walk.ts';
import { append } from '../../util/arrays.ts';
import { attr, elements, type XmlElement } from '../../util/xml.ts';
import type { ReaderEnv } from '../odf/env.ts';
import { isShape, readShapeBlocks } from '../odf/shapes.ts';
import { boxOf, positionalOrder } from './order.ts';

/** Placeholders that repeat on every slide (footer, date, number): margins, not content. */
const MARGIN_CLASSES = new Set(['page-number', 'footer', 'header', 'date-time']);

const classOf = (el: XmlElement) => attr(el, 'presentation:class');

/** Inline content of a title shape: its paragraphs joined by line breaks. */
function titleInlines(blocks: Block[]): Inline[] {
  const out: Inline[] = [];
  const visit = (b: Block) => {
    if (b.type === 'paragraph' || b.type === 'heading') {
      if (out.length) out.push({ type: 'break' });
      append(out, b.children);
    } else if (b.type === 'list') for (const item of b.children) item.children.forEach(visit);
  };
  blocks.forEach(visit);
  return out;
}

const plainLength = (nodes: Inline[]): number =>
  nodes.reduce(
    (n, x) =>
      n +
      (x.type === 'text' || x.type === 'inlineCode'
        ? x.value.trim().length
        : 'children' in x
          ? plainLength(x.children)
          : 0),
    0,
  );

/** Shapes of a slide in reading order, groups expanded with the same rule. */
function readShapes(shapes: XmlElement[], env: ReaderEnv, depth = 0): Block[] {
  return positionalOrder(shapes).flatMap((el) =>
    el.name === 'draw:g' && depth < 16
      ? readShapes(elements(el).filter(isShape), env, depth + 1)
      : readShapeBlocks(el, env),
  );
}

/**
 * Without a title placeholder, a lone short line above everything else on the slide is its title
 * (slides converted from other tools often draw titles as plain text shapes).
 */
function implicitTitle(free: XmlElement[], env: ReaderEnv): { el: XmlElement; inlines: Inline[] } | undefined {
  if (free.length < 2) return undefined;
  const [first, ...rest] = positionalOrder(free);
  const box = first && boxOf(first);
  if (!first || !box || first.name === 'draw:g') return undefined;
  const below = rest.every((el) => {
    const b = boxOf(el);
    return b !== undefined && b.y >= box.y + box.h - 0.1;
  });
  if (!below) return undefined;
  const blocks = readShapeBlocks(first, env);
  if (blocks.length !== 1 || blocks[0]?.type !== 'paragraph') return undefined;
  const inlines = blocks[0].children;
  const length = plainLength(inlines);
  return length > 0 && length <= 120 ? { el: first, inlines } : undefined;
}

function notesBlocks(page: XmlElement, env: ReaderEnv): Block[] {
  const notes = elements(page, 'presentation:notes')[0];
  if (!notes) return [];
  const shapes = elements(notes).filter(isShape);
  const marked = shapes.filter((s) => classOf(s) === 'notes');
  const chosen = marked.length
    ? marked
    : shapes.filter((s) => !MARGIN_CLASSES.has(classOf(s) ?? '') && classOf(s) !== 'page');
  return chosen.flatMap((s) => readShapeBlocks(s, env));
}

/** One slide: its title (or `Slide N`), placeholders in layout order, free shapes by position, notes. */
export function slideBlocks(page: XmlElement, number: number, env: ReaderEnv): Block[] {
  const keepMargins = !env.ctx.options.onlyMainContent;
  const shapes = elements(page).filter((el) => isShape(el) && (keepMargins || !MARGIN_CLASSES.has(classOf(el) ?? '')));
  const out: Block[] = [];
  let titleEl = shapes.find((el) => classOf(el) === 'title');
  let title = titleEl ? titleInlines(readShapeBlocks(titleEl, env)) : [];
  const placeholders = shapes.filter((el) => el !== titleEl && classOf(el) !== undefined);
  let free = shapes.filter((el) => el !== titleEl && classOf(el) === undefined);
  if (!plainLength(title) && !placeholders.length) {
    const implicit = implicitTitle(free, env);
    if (implicit) {
      titleEl = implicit.el;
      title = implicit.inlines;
      free = free.filter((el) => el !== titleEl);
    }
  }
  out.push(plainLength(title) ? heading(1, unbold(title)) : heading(2, `Slide ${number}`));
  for (const el of placeholders) append(out, readShapeBlocks(el, env));
  append(out, readShapes(free, env));
  const notes = notesBlocks(page, env);
  if (notes.length) out.push(blockquote(notes));
  return out;
}
