import { link, list, listItem, paragraph, text } from '../../tree/build.ts';
import type { Block, Inline, List } from '../../tree/types.ts';
import { append, minOf } from '../../util/arrays.ts';
import { attr, kid, kids, textOf, type XmlElement } from '../../util/xml.ts';
import type { Rel } from './package.ts';

export interface TextContext {
  rels: Map<string, Rel>;
  /** Body placeholders inherit bullets from the master; plain text boxes do not. */
  bulletsByDefault: boolean;
}

const MAX_LEVEL = 8;

const on = (v: string | undefined) => v === '1' || v === 'true';

function runInlines(r: XmlElement, rels: Map<string, Rel>): Inline[] {
  const value = textOf(kid(r, 't'));
  if (!value) return [];
  const rPr = kid(r, 'rPr');
  let node: Inline = text(value);
  if (on(attr(rPr, 'i'))) node = { type: 'emphasis', children: [node] };
  if (on(attr(rPr, 'b'))) node = { type: 'strong', children: [node] };
  const rid = attr(kid(rPr, 'hlinkClick'), 'r:id');
  const rel = rid ? rels.get(rid) : undefined;
  if (rel?.external && rel.target) node = link(rel.target, [node]);
  return [node];
}

/** Inline content of one a:p; adjacent links to the same target are merged by the renderer anyway. */
export function paragraphInlines(p: XmlElement, rels: Map<string, Rel>): Inline[] {
  const out: Inline[] = [];
  for (const c of kids(p)) {
    const n = c.name.slice(c.name.indexOf(':') + 1);
    if (n === 'r' || n === 'fld') append(out, runInlines(c, rels));
    else if (n === 'br') out.push({ type: 'break' });
  }
  while (out.length && out[out.length - 1]?.type === 'break') out.pop();
  return out;
}

const plain = (inl: Inline[]): string =>
  inl.map((i) => ('value' in i ? i.value : 'children' in i ? plain(i.children as Inline[]) : '')).join('');

interface Item {
  level: number;
  ordered: boolean;
  start: number;
  inlines: Inline[];
}

function nest(items: Item[]): List {
  const base = items[0] as Item;
  const top = list(base.ordered, [], base.start);
  let i = 0;
  while (i < items.length) {
    const it = items[i] as Item;
    let j = i + 1;
    while (j < items.length && (items[j] as Item).level > it.level) j++;
    const li = listItem([paragraph(it.inlines)]);
    if (j > i + 1) li.children.push(nest(items.slice(i + 1, j)));
    top.children.push(li);
    i = j;
  }
  return top;
}

/** Paragraphs of a text body as blocks: bulleted runs of paragraphs become (nested) lists. */
export function textBlocks(body: XmlElement | undefined, tc: TextContext): Block[] {
  const out: Block[] = [];
  let pending: Item[] = [];
  const flush = () => {
    if (!pending.length) return;
    // Items at a lower level than the first would be lost by nest(): shift levels relative to the minimum.
    const min = minOf(pending.map((p) => p.level));
    out.push(nest(pending.map((p) => ({ ...p, level: p.level - min }))));
    pending = [];
  };
  for (const p of kids(body, 'p')) {
    const inlines = paragraphInlines(p, tc.rels);
    if (!plain(inlines).trim()) continue;
    const pPr = kid(p, 'pPr');
    // DrawingML has nine outline levels (0–8); a larger one would nest a list per paragraph.
    const level = Math.min(MAX_LEVEL, Math.max(0, Math.trunc(Number(attr(pPr, 'lvl') ?? 0) || 0)));
    const autoNum = kid(pPr, 'buAutoNum');
    const bullet = kid(pPr, 'buNone')
      ? false
      : autoNum || kid(pPr, 'buChar') || kid(pPr, 'buBlip')
        ? true
        : tc.bulletsByDefault;
    if (!bullet) {
      flush();
      out.push(paragraph(inlines));
      continue;
    }
    const ordered = !!autoNum;
    const start = Number(attr(autoNum, 'startAt') ?? 1) || 1;
    const first = pending[0];
    if (first && first.level === level && first.ordered !== ordered && pending.every((x) => x.level >= level)) flush();
    pending.push({ level, ordered, start, inlines });
  }
  flush();
  return out;
}

/** A text body flattened to inlines with line breaks between paragraphs (table cells, titles). */
export function bodyInlines(body: XmlElement | undefined, rels: Map<string, Rel>): Inline[] {
  const out: Inline[] = [];
  for (const p of kids(body, 'p')) {
    const inl = paragraphInlines(p, rels);
    if (!plain(inl).trim()) continue;
    if (out.length) out.push({ type: 'break' });
    append(out, inl);
  }
  return out;
}

export const inlineText = plain;
