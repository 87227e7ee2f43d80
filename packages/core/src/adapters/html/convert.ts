import { throwIfAborted } from '../../errors.ts';
import {
  blockquote,
  cell,
  code,
  heading,
  image,
  link,
  list,
  listItem,
  paragraph,
  row,
  table,
  text,
} from '../../tree/build.ts';
import type { Block, Image, Inline, ListItem, Table, TableRow } from '../../tree/types.ts';
import { append, minOf } from '../../util/arrays.ts';
import { isScriptUrl } from '../../util/script-url.ts';
import { tidyInlines } from './inline.ts';
import { largestSrcset, resolveUrl } from './urls.ts';

/** DOM → block tree. One handler per element family; unknown elements are transparent. */

export interface ConvertContext {
  base: string | undefined;
  signal: AbortSignal;
  /** Elements visited, to check the abort signal every so often without a timer. */
  visited: number;
}

/** Deeper nesting than this is flattened to text: real pages stay far below it. */
const MAX_DEPTH = 400;

const SKIPPED = new Set([
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'TEMPLATE',
  'HEAD',
  'META',
  'LINK',
  'TITLE',
  'BASE',
  'IFRAME',
  'OBJECT',
  'EMBED',
  'SVG',
  'CANVAS',
  'SELECT',
  'TEXTAREA',
  'BUTTON',
  'MAP',
  'AUDIO',
  'VIDEO',
  'SOURCE',
  'TRACK',
  'DIALOG',
  // A browser's DOMParser keeps foreign elements' names as written (linkedom upper-cases them).
  'svg',
]);

/** Elements that start a block of their own; everything else is inline content. */
const BLOCKS = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'BODY',
  'CENTER',
  'DD',
  'DETAILS',
  'DIV',
  'DL',
  'DT',
  'FIELDSET',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'FORM',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HEADER',
  'HGROUP',
  'HR',
  'HTML',
  'LEGEND',
  'LI',
  'MAIN',
  'MENU',
  'NAV',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'SUMMARY',
  'TABLE',
  'UL',
]);

const ELEMENT = 1;
const TEXT = 3;

function isElement(n: Node): n is Element {
  return n.nodeType === ELEMENT;
}

export function collapse(s: string): string {
  return s.replace(/[\t\n\r\f \u00a0]+/g, ' ');
}

/** An inline element that wraps blocks (`<a><div>…</div></a>`) is treated as a container. */
function actsAsBlock(el: Element): boolean {
  return BLOCKS.has(el.tagName) || containsBlock(el);
}

/** Tag-name walk instead of `querySelector`: linkedom compiles a selector on every call. */
function containsBlock(el: Element): boolean {
  const stack: Element[] = [...el.children];
  while (stack.length) {
    const next = stack.pop() as Element;
    if (BLOCKS.has(next.tagName)) return true;
    if (SKIPPED.has(next.tagName)) continue;
    for (const child of next.children) stack.push(child);
  }
  return false;
}

function tick(c: ConvertContext): void {
  if (++c.visited % 2048 === 0) throwIfAborted(c.signal);
}

export function blocksOf(parent: Element, c: ConvertContext, depth = 0): Block[] {
  return blocksOfNodes(parent.childNodes, c, depth);
}

/** Blocks of a run of sibling nodes (an element's children, or the matches of `includeTags`). */
export function blocksOfNodes(nodes: Iterable<Node>, c: ConvertContext, depth = 0): Block[] {
  const out: Block[] = [];
  let run: Inline[] = [];
  const flush = () => {
    const tidy = tidyInlines(run);
    if (tidy.length) out.push(paragraph(tidy));
    run = [];
  };
  for (const node of nodes) {
    if (node.nodeType === TEXT) {
      run.push(text(collapse(node.nodeValue ?? '')));
      continue;
    }
    if (!isElement(node) || SKIPPED.has(node.tagName)) continue;
    tick(c);
    if (depth >= MAX_DEPTH) {
      run.push(text(collapse(` ${node.textContent ?? ''} `)));
    } else if (actsAsBlock(node)) {
      flush();
      append(out, blockOf(node, c, depth + 1));
    } else {
      append(run, inlineOf(node, c, depth + 1));
    }
  }
  flush();
  return out;
}

function blockOf(el: Element, c: ConvertContext, depth: number): Block[] {
  const tag = el.tagName;
  switch (tag) {
    case 'H1':
    case 'H2':
    case 'H3':
    case 'H4':
    case 'H5':
    case 'H6': {
      const content = tidyInlines(inlinesOf(el, c, depth));
      return content.length ? [heading(Number(tag[1]), content)] : [];
    }
    case 'UL':
    case 'OL':
    case 'MENU':
      return [listOf(el, c, depth)];
    case 'DL':
      return definitionList(el, c, depth);
    case 'TABLE':
      return tableOf(el, c, depth);
    case 'PRE':
      return preOf(el);
    case 'BLOCKQUOTE': {
      const inner = blocksOf(el, c, depth);
      return inner.length ? [blockquote(inner)] : [];
    }
    case 'HR':
      return [{ type: 'thematicBreak' }];
    default:
      return blocksOf(el, c, depth);
  }
}

/** Inline content of an element's children. */
function inlinesOf(el: Element, c: ConvertContext, depth: number): Inline[] {
  const out: Inline[] = [];
  for (const node of el.childNodes) {
    if (node.nodeType === TEXT) out.push(text(collapse(node.nodeValue ?? '')));
    else if (isElement(node) && !SKIPPED.has(node.tagName)) {
      if (depth >= MAX_DEPTH) out.push(text(collapse(node.textContent ?? '')));
      // A block inside inline-only content (a heading's <p>, say) contributes its words.
      else if (BLOCKS.has(node.tagName)) out.push(text(' '), ...inlinesOf(node, c, depth + 1), text(' '));
      else append(out, inlineOf(node, c, depth + 1));
    }
  }
  return out;
}

function inlineOf(el: Element, c: ConvertContext, depth: number): Inline[] {
  tick(c);
  switch (el.tagName) {
    case 'BR':
      return [{ type: 'break' }];
    case 'STRONG':
    case 'B':
      return [{ type: 'strong', children: inlinesOf(el, c, depth) }];
    case 'EM':
    case 'I':
    case 'VAR':
    case 'CITE':
    case 'DFN':
      return [{ type: 'emphasis', children: inlinesOf(el, c, depth) }];
    case 'S':
    case 'DEL':
    case 'STRIKE':
      return [{ type: 'strikethrough', children: inlinesOf(el, c, depth) }];
    case 'SUP':
      return [{ type: 'superscript', children: inlinesOf(el, c, depth) }];
    case 'SUB':
      return [{ type: 'subscript', children: inlinesOf(el, c, depth) }];
    case 'CODE':
    case 'KBD':
    case 'SAMP':
    case 'TT': {
      const value = collapse(el.textContent ?? '').trim();
      return value ? [{ type: 'inlineCode', value }] : [];
    }
    case 'A':
      return linkOf(el, c, depth);
    case 'IMG': {
      const img = imageOf(el, c);
      return img ? [img] : [];
    }
    case 'INPUT': {
      const type = (el.getAttribute('type') ?? '').toLowerCase();
      // Only a labelled box is content; bare ones are CSS tricks (menu toggles and the like).
      const labelled = (el.parentElement?.textContent ?? '').trim() !== '';
      if ((type === 'checkbox' || type === 'radio') && labelled)
        return [text(el.hasAttribute('checked') ? '☒ ' : '☐ ')];
      return [];
    }
    default:
      return inlinesOf(el, c, depth);
  }
}

function linkOf(el: Element, c: ConvertContext, depth: number): Inline[] {
  const children = inlinesOf(el, c, depth);
  const raw = el.getAttribute('href');
  if (raw === null || isScriptUrl(raw) || raw.trim() === '') return children;
  // "Skip to content" links are keyboard navigation aids, not part of the page's text.
  // Heading permalinks (`#`, `¶`, or an invisible anchor) only repeat the heading.
  const label = (el.textContent ?? '').replace(/[\s\u200b#¶§🔗]/gu, '');
  if (
    raw.trim().startsWith('#') &&
    (/^\s*(skip|jump) to\b/i.test(el.textContent ?? '') || (!label && !el.querySelector('img')))
  )
    return [];
  const title = el.getAttribute('title') ?? undefined;
  return [link(resolveUrl(raw, c.base), children, title || undefined)];
}

export function imageSource(el: Element, base: string | undefined): string | undefined {
  const srcset = el.getAttribute('srcset');
  const picked =
    (srcset && largestSrcset(srcset)) || el.getAttribute('src') || el.getAttribute('data-src') || undefined;
  return picked ? resolveUrl(picked, base) : undefined;
}

function imageOf(el: Element, c: ConvertContext): Image | undefined {
  const url = imageSource(el, c.base);
  const alt = collapse(el.getAttribute('alt') ?? el.getAttribute('title') ?? '').trim();
  if (!url && !alt) return undefined;
  const fields: Omit<Image, 'type' | 'alt'> = {};
  if (url) fields.url = url;
  const title = el.getAttribute('title');
  if (title && title !== alt) fields.title = title;
  return image(alt, fields);
}

function listOf(el: Element, c: ConvertContext, depth: number) {
  const items: ListItem[] = [];
  let stray: Block[] = [];
  const flushStray = () => {
    if (stray.length) items.push(listItem(stray));
    stray = [];
  };
  for (const node of el.childNodes) {
    if (isElement(node) && node.tagName === 'LI') {
      flushStray();
      items.push(itemOf(node, c, depth));
    } else if (isElement(node) && (node.tagName === 'UL' || node.tagName === 'OL')) {
      // A list directly inside a list (invalid but common) belongs to the previous item.
      const nested = listOf(node, c, depth + 1);
      const prev = items[items.length - 1];
      if (prev && !stray.length) prev.children.push(nested);
      else stray.push(nested);
    } else if (isElement(node) && !SKIPPED.has(node.tagName)) {
      append(stray, actsAsBlock(node) ? blockOf(node, c, depth + 1) : wrapInline(inlineOf(node, c, depth + 1)));
    } else if (node.nodeType === TEXT && (node.nodeValue ?? '').trim()) {
      append(stray, wrapInline([text(collapse(node.nodeValue ?? ''))]));
    }
  }
  flushStray();
  const start = Number.parseInt(el.getAttribute('start') ?? '', 10);
  const ordered = el.tagName === 'OL';
  return list(ordered, items, ordered && Number.isFinite(start) ? start : undefined);
}

function wrapInline(inlines: Inline[]): Block[] {
  const tidy = tidyInlines(inlines);
  return tidy.length ? [paragraph(tidy)] : [];
}

function itemOf(li: Element, c: ConvertContext, depth: number): ListItem {
  // A task list item starts with a checkbox, directly or as the first thing of its paragraph.
  const first = li.firstElementChild;
  const box = first?.tagName === 'P' ? first.firstElementChild : first;
  let checked: boolean | undefined;
  if (box?.tagName === 'INPUT' && (box.getAttribute('type') ?? '').toLowerCase() === 'checkbox') {
    checked = box.hasAttribute('checked');
    box.remove();
  }
  return listItem(blocksOf(li, c, depth), checked);
}

/** `<dl>`: each term a bold item, its descriptions a nested list under it. */
function definitionList(dl: Element, c: ConvertContext, depth: number): Block[] {
  const items: ListItem[] = [];
  let current: { item: ListItem; details: ListItem[] } | undefined;
  const close = () => {
    if (current?.details.length) current.item.children.push(list(false, current.details));
    current = undefined;
  };
  const visit = (parent: Element) => {
    for (const node of parent.children) {
      if (node.tagName === 'DT') {
        close();
        const term = tidyInlines(inlinesOf(node, c, depth));
        const item = listItem(term.length ? [paragraph([{ type: 'strong', children: term }])] : []);
        items.push(item);
        current = { item, details: [] };
      } else if (node.tagName === 'DD') {
        const detail = listItem(blocksOf(node, c, depth));
        if (!detail.children.length) continue;
        if (current) current.details.push(detail);
        else items.push(detail);
      } else if (node.tagName === 'DIV') {
        visit(node);
      }
    }
  };
  visit(dl);
  close();
  return items.length ? [list(false, items)] : [];
}

function spanOf(el: Element, attr: string, cap: number): number {
  const n = Number.parseInt(el.getAttribute(attr) ?? '1', 10);
  return Number.isFinite(n) && n > 1 ? Math.min(n, cap) : 1;
}

/** Table sections in source order (a browser's `rows`, without nested tables' rows). */
function rowElements(el: Element): Array<{ tr: Element; head: boolean }> {
  const trs: Array<{ tr: Element; head: boolean }> = [];
  for (const part of el.children) {
    if (part.tagName === 'TR') trs.push({ tr: part, head: false });
    else if (part.tagName === 'THEAD' || part.tagName === 'TBODY' || part.tagName === 'TFOOT') {
      for (const tr of part.children) if (tr.tagName === 'TR') trs.push({ tr, head: part.tagName === 'THEAD' });
    }
  }
  return trs;
}

const cellsOf = (tr: Element): Element[] => [...tr.children].filter((td) => td.tagName === 'TD' || td.tagName === 'TH');

/** Block-level content that a data cell does not hold: whole sections, lists of paragraphs, tables. */
const LAYOUT_BLOCKS = new Set([...BLOCKS].filter((t) => t !== 'CENTER' && t !== 'BR'));

function holdsBlocks(td: Element): boolean {
  let blocks = 0;
  const stack: Element[] = [...td.children];
  while (stack.length) {
    const el = stack.pop() as Element;
    if (el.tagName === 'TABLE') return true;
    if (LAYOUT_BLOCKS.has(el.tagName) && ++blocks >= 2) return true;
    if (/^H[1-6]$/.test(el.tagName) || el.tagName === 'UL' || el.tagName === 'OL') return true;
    if (!SKIPPED.has(el.tagName)) for (const child of el.children) stack.push(child);
  }
  return false;
}

/**
 * A table used for page layout rather than data: every row a single cell (a column of boxes), or
 * every cell holding blocks (headings, lists, several paragraphs, a nested table). Data tables
 * nested inside one are still tables: only this frame is dropped.
 */
function isLayoutTable(el: Element, trs: ReadonlyArray<{ tr: Element; head: boolean }>): boolean {
  const rows = trs.map(({ tr }) => cellsOf(tr)).filter((cells) => cells.length);
  if (!rows.length) return false;
  // A one-column list with a header or caption is still data (a column of names under "Members").
  const labelled =
    trs.some((t) => t.head) ||
    rows.some((cells) => cells.some((td) => td.tagName === 'TH')) ||
    [...el.children].some((child) => child.tagName === 'CAPTION');
  const spans = rows.some((cells) => cells.some((td) => spanOf(td, 'colspan', 2) > 1 || spanOf(td, 'rowspan', 2) > 1));
  if (rows.every((cells) => cells.length === 1) && !spans && (rows.length === 1 || !labelled)) return true;
  // Header cells make it data even when every cell holds a list (a "pros / cons" comparison).
  if (labelled) return false;
  const filled = rows.flat().filter((td) => (td.textContent ?? '').trim() || td.querySelector('img, table'));
  return filled.length > 0 && filled.every(holdsBlocks);
}

/** Cell content that is bold and nothing else, as legacy pages write header cells. */
function boldOnly(blocks: readonly Block[]): boolean {
  if (blocks.length !== 1 || blocks[0]?.type !== 'paragraph') return false;
  const inl = blocks[0].children.filter((n) => !(n.type === 'text' && !n.value.trim()));
  return inl.length > 0 && inl.every((n) => n.type === 'strong');
}

/** A first row of bold-only cells over plain ones is the header (no `<th>` on old pages). */
function promoteBoldHeader(rows: TableRow[]): void {
  const first = rows[0];
  if (rows.length < 2 || !first || first.children.length < 2) return;
  if (rows.some((r) => r.children.some((c) => c.header))) return;
  const filled = first.children.filter((c) => c.children.length);
  if (filled.length < first.children.length / 2 || !filled.every((c) => boldOnly(c.children))) return;
  if (rows.slice(1).every((r) => r.children.every((c) => !c.children.length || boldOnly(c.children)))) return;
  for (const c of first.children) {
    c.header = true;
    const para = c.children[0];
    if (para?.type === 'paragraph')
      para.children = tidyInlines(para.children.flatMap((n) => (n.type === 'strong' ? n.children : [n])));
  }
}

function tableOf(el: Element, c: ConvertContext, depth: number): Block[] {
  const trs = rowElements(el);
  // A layout frame gives up its cells' content in reading order (row by row).
  if (isLayoutTable(el, trs)) return trs.flatMap(({ tr }) => cellsOf(tr).flatMap((td) => blocksOf(td, c, depth)));
  const rows: TableRow[] = [];
  trs.forEach(({ tr, head }, r) => {
    const cells = cellsOf(tr).map((td) =>
      cell(blocksOf(td, c, depth), {
        header: head || td.tagName === 'TH',
        rowSpan: spanOf(td, 'rowspan', trs.length - r),
        colSpan: spanOf(td, 'colspan', 1000),
      }),
    );
    if (cells.length) rows.push(row(cells));
  });
  if (!rows.length) return [];
  promoteBoldHeader(rows);
  const node: Table = table(rows);
  const caption = [...el.children].find((child) => child.tagName === 'CAPTION');
  if (caption) {
    const inl = tidyInlines(inlinesOf(caption, c, depth));
    if (inl.length) node.caption = inl;
  }
  return [node];
}

function preOf(el: Element): Block[] {
  let value = (el.textContent ?? '').replace(/\r\n?/g, '\n').replace(/^\n/, '');
  value = value.replace(/\s+$/, '');
  // Indentation shared by every line comes from the HTML source layout, not from the code.
  const lines = value.split('\n');
  const indents = lines.filter((l) => l.trim()).map((l) => /^[ \t]*/.exec(l)?.[0].length ?? 0);
  const common = minOf(indents, 0);
  if (common > 0) value = lines.map((l) => l.slice(common)).join('\n');
  if (!value.trim()) return [];
  const cls = `${el.getAttribute('class') ?? ''} ${el.querySelector('code')?.getAttribute('class') ?? ''}`;
  const lang = /(?:^|\s)(?:language|lang)-([\w+#.-]+)/.exec(cls)?.[1];
  return [code(value, lang)];
}
