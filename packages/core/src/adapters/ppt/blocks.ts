import * as b from '../../tree/build.ts';
import type { Block, Inline, List, TableCell } from '../../tree/types.ts';
import { append } from '../../util/arrays.ts';
import type { Item } from './shapes.ts';
import { bulletByDefault, isTitleType, type TextBox, type TextPara } from './text.ts';

const lineInlines = (lines: string[]): Inline[] => {
  const out: Inline[] = [];
  lines.forEach((l, i) => {
    if (i > 0 && out.length) out.push({ type: 'break' });
    if (l) out.push(b.text(l));
  });
  while (out[out.length - 1]?.type === 'break') out.pop();
  return out;
};

const hasText = (p: TextPara): boolean => p.lines.some((l) => l !== '');

/** Paragraphs and bulleted lists (nested by indent level) of one text box. */
export function boxBlocks(box: TextBox): Block[] {
  const out: Block[] = [];
  let stack: List[] = [];
  for (const p of box.paras) {
    if (!hasText(p)) {
      stack = [];
      continue;
    }
    const inl = lineInlines(p.lines);
    if (!(p.bullet ?? bulletByDefault(box.type))) {
      stack = [];
      out.push(b.paragraph(inl));
      continue;
    }
    const depth = p.indent;
    const ordered = p.numbered === true;
    while (stack.length > depth + 1) stack.pop();
    const top = stack[stack.length - 1];
    if (top && stack.length === depth + 1 && top.ordered !== ordered) stack.pop();
    while (stack.length < depth + 1) {
      const fresh = b.list(ordered, []);
      const parent = stack[stack.length - 1];
      const host = parent?.children[parent.children.length - 1];
      if (host) host.children.push(fresh);
      else out.push(fresh);
      stack.push(fresh);
    }
    (stack[stack.length - 1] as List).children.push(b.listItem([b.paragraph(inl)]));
  }
  return out;
}

const cellBlocks = (box: TextBox | undefined): Block[] =>
  box ? box.paras.filter(hasText).map((p) => b.paragraph(lineInlines(p.lines))) : [];

/**
 * Without a title placeholder, a first (topmost) box holding one short unbulleted line reads as the
 * title, as writers that do not emit placeholders (LibreOffice from plain frames) leave it.
 */
function impliedTitle(items: Item[]): number {
  const first = items[0];
  if (first?.kind !== 'text' || items.length < 2) return -1;
  const paras = first.box.paras.filter(hasText);
  const only = paras[0];
  if (paras.length !== 1 || !only || (only.bullet ?? bulletByDefault(first.box.type))) return -1;
  const line = only.lines.join(' ').trim();
  return line.length <= 80 && !/[.:;,]$/.test(line) ? 0 : -1;
}

/** Blocks of one slide: its title as a heading (or `Slide N`), then the other items, then notes. */
export function slideBlocks(
  number: number,
  items: Item[],
  notes: Item[],
  picture: (blip: number) => Block | undefined,
): Block[] {
  const out: Block[] = [];
  let titleIndex = items.findIndex(
    (it) => it.kind === 'text' && isTitleType(it.box.type) && it.box.paras.some(hasText),
  );
  if (titleIndex < 0) titleIndex = impliedTitle(items);
  const title = items[titleIndex];
  if (title?.kind === 'text') {
    const words = title.box.paras.flatMap((p) => p.lines).filter(Boolean);
    out.push(b.heading(1, words.join(' ')));
  } else {
    out.push(b.heading(2, `Slide ${number}`));
  }
  items.forEach((it, i) => {
    if (i === titleIndex) return;
    if (it.kind === 'text') append(out, boxBlocks(it.box));
    else if (it.kind === 'image') {
      const img = picture(it.blip);
      if (img) out.push(img);
    } else {
      const rows: TableCell[][] = Array.from({ length: it.rows }, () => []);
      for (const c of it.cells) {
        rows[c.row]?.push(b.cell(cellBlocks(c.box), { header: c.row === 0, rowSpan: c.rowSpan, colSpan: c.colSpan }));
      }
      out.push(b.table(rows.filter((r) => r.length).map((r) => b.row(r))));
    }
  });
  const noteBlocks = notes.flatMap((it) => (it.kind === 'text' ? boxBlocks({ ...it.box, type: 2 }) : []));
  if (noteBlocks.length) out.push(b.blockquote(noteBlocks));
  return out;
}
