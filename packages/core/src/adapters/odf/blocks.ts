import { code, heading, paragraph } from '../../tree/build.ts';
import type { Block, Inline, List, ListItem } from '../../tree/types.ts';
import { unbold } from '../../tree/walk.ts';
import { append } from '../../util/arrays.ts';
import { attr, child, elements, isElement, type XmlElement, type XmlNode } from '../../util/xml.ts';
import { type BodyPages, PageTurns } from '../common/page-turns.ts';
import type { ListScope, ReaderEnv } from './env.ts';
import { type InlineResult, readInlines } from './inline.ts';
import { isShape, readShapeBlocks } from './shapes.ts';
import type { TextFormat } from './styles.ts';
import { readTable } from './table.ts';

/** Block-level elements with nothing for the reader: declarations, change logs, index templates. */
const SKIP = new Set([
  'text:sequence-decls',
  'text:variable-decls',
  'text:user-field-decls',
  'text:dde-connection-decls',
  'text:tracked-changes',
  'text:soft-page-break',
  'text:index-title-template',
  'office:forms',
  'office:annotation',
  'office:annotation-end',
  'table:named-expressions',
  'table:calculation-settings',
  'table:content-validations',
  'table:label-ranges',
  'presentation:notes',
  'presentation:settings',
  'anim:par',
  'anim:seq',
]);

/**
 * Converts a sequence of ODF block elements (body, cell, list item, text box, note body). `pages`:
 * where LibreOffice last laid out the body, for the body's own blocks.
 */
export function readBlocks(nodes: readonly XmlNode[], env: ReaderEnv, scope: ListScope, pages?: BodyPages): Block[] {
  const out: Block[] = [];
  for (const node of nodes) if (isElement(node)) readBlock(node, env, scope, out, pages);
  if (pages) env.page = undefined;
  return tidy(out);
}

/** Whether the block reader reads an element's block children as its own (a section, an index body). */
export function wraps(el: XmlElement): boolean {
  const name = el.name;
  return !(BLOCKS.has(name) || SKIP.has(name) || name.endsWith('-source') || isShape(el));
}

const BLOCKS = new Set(['text:p', 'text:h', 'text:list', 'table:table']);

/** A block element, and the page it starts on when the body's layout is known. */
function readBlock(el: XmlElement, env: ReaderEnv, scope: ListScope, out: Block[], pages?: BodyPages): void {
  const page = pages?.blocks.get(el);
  if (page === undefined) {
    readElement(el, env, scope, out, pages);
    return;
  }
  env.page = page;
  const from = out.length;
  readElement(el, env, scope, out, pages, page);
  for (let i = from; i < out.length; i++) {
    const b = out[i] as Block;
    if (b.source?.page === undefined) b.source = { ...b.source, page };
  }
}

function readElement(
  el: XmlElement,
  env: ReaderEnv,
  scope: ListScope,
  out: Block[],
  pages: BodyPages | undefined,
  page?: number,
): void {
  const name = el.name;
  if (SKIP.has(name) || name.endsWith('-source')) return;
  switch (name) {
    case 'text:p':
    case 'text:h':
      append(out, readParagraph(el, env, page));
      return;
    case 'text:list':
      append(out, liftHeadings(readList(el, env, scope)));
      return;
    case 'table:table': {
      const t = readTable(el, env);
      if (t) out.push(t);
      return;
    }
    default:
      if (isShape(el)) {
        append(out, readShapeBlocks(el, env));
        return;
      }
      // Sections, index bodies, numbered paragraphs and unknown wrappers: their content counts.
      for (const c of el.children) if (isElement(c)) readBlock(c, env, scope, out, pages);
  }
}

const hasText = (nodes: readonly Inline[]): boolean =>
  nodes.some((n) =>
    n.type === 'text' || n.type === 'inlineCode'
      ? n.value.trim() !== ''
      : n.type === 'break'
        ? false
        : 'children' in n
          ? hasText(n.children)
          : true,
  );

/** Plain text of inline runs, for code blocks. */
function plain(nodes: readonly Inline[]): string {
  return nodes
    .map((n) =>
      n.type === 'text' || n.type === 'inlineCode'
        ? n.value
        : n.type === 'break'
          ? '\n'
          : 'children' in n
            ? plain(n.children)
            : '',
    )
    .join('');
}

export function headingDepth(el: XmlElement, env: ReaderEnv): number | undefined {
  const info = env.styles.paragraph(attr(el, 'text:style-name'));
  if (el.name === 'text:h') {
    const level = Number(attr(el, 'text:outline-level'));
    return Number.isInteger(level) && level > 0 ? level : (info.outlineLevel ?? 1);
  }
  if (info.role === 'title') return 1;
  if (info.role === 'subtitle') return 2;
  return info.outlineLevel;
}

function readParagraph(el: XmlElement, env: ReaderEnv, page?: number): Block[] {
  const info = env.styles.paragraph(attr(el, 'text:style-name'));
  const depth = headingDepth(el, env);
  const res: InlineResult = { inlines: [], blocks: [] };
  // Only a paragraph has parts: a heading or a code line is read without marks, whole.
  if (page !== undefined && depth === undefined && !info.format.mono) res.turns = new PageTurns(page);
  const base: TextFormat = depth === undefined ? { ...info.format, mono: false } : {};
  readInlines(el, env, base, res);
  const out: Block[] = [];
  if (hasText(res.inlines)) {
    if (depth !== undefined) out.push(heading(depth, unbold(res.inlines)));
    else if (info.format.mono) out.push(code(plain(res.inlines)));
    else out.push(paragraph(res.inlines));
  }
  append(out, res.blocks);
  return out;
}

/** The list style of the first paragraph inside a list, for lists that name none themselves. */
function paragraphListStyle(list: XmlElement, env: ReaderEnv): string | undefined {
  const item = child(list, 'text:list-item') ?? child(list, 'text:list-header');
  const p = item && elements(item).find((e) => e.name === 'text:p' || e.name === 'text:h');
  return env.styles.paragraph(attr(p, 'text:style-name')).listStyle;
}

function readList(el: XmlElement, env: ReaderEnv, scope: ListScope): List[] {
  const level = scope.level + 1;
  const style = attr(el, 'text:style-name') ?? scope.style ?? paragraphListStyle(el, env);
  const info = env.styles.listLevel(style, level) ?? { ordered: false, start: 1 };
  const inner: ListScope = style === undefined ? { level } : { style, level };
  const counters = env.counters;
  let start = info.start;
  if (info.ordered && level === 1) {
    const continueId = attr(el, 'text:continue-list');
    const previous =
      continueId !== undefined
        ? counters.byId.get(continueId)
        : attr(el, 'text:continue-numbering') === 'true'
          ? ((style !== undefined ? counters.byStyle.get(style) : undefined) ?? counters.last)
          : undefined;
    if (previous !== undefined) start = previous + 1;
  }
  const lists: List[] = [];
  let current: List = { type: 'list', ordered: info.ordered, children: [] };
  let currentStart = start;
  for (const item of elements(el)) {
    if (item.name !== 'text:list-item' && item.name !== 'text:list-header') continue;
    const restart = Number(attr(item, 'text:start-value'));
    if (
      info.ordered &&
      Number.isInteger(restart) &&
      restart >= 0 &&
      restart !== currentStart + current.children.length
    ) {
      // A restart inside a list: Markdown can only number from a list's start, so split there.
      if (current.children.length) lists.push(current);
      current = { type: 'list', ordered: true, children: [] };
      currentStart = restart;
    }
    if (current.children.length === 0 && info.ordered && currentStart !== 1) current.start = currentStart;
    // A list over pages: each item keeps its page, so its part of the list says where it was
    // printed, and a note it refers to is on that page.
    const page = env.unitPages?.get(item);
    const listPage = env.page;
    if (page !== undefined) env.page = page;
    const children = readBlocks(item.children, env, inner);
    env.page = listPage;
    if (!children.length) continue;
    const li: ListItem = { type: 'listItem', children };
    if (page !== undefined) li.source = { page };
    current.children.push(li);
  }
  if (current.children.length) lists.push(current);
  if (info.ordered && level === 1 && lists.length) {
    const lastList = lists[lists.length - 1] as List;
    const last = (lastList.start ?? 1) + lastList.children.length - 1;
    if (style !== undefined) counters.byStyle.set(style, last);
    const id = attr(el, 'xml:id');
    if (id) counters.byId.set(id, last);
    counters.last = last;
  }
  return lists;
}

const holdsHeading = (list: List): boolean =>
  list.children.some((i) => i.children.some((b) => b.type === 'heading' || (b.type === 'list' && holdsHeading(b))));

/**
 * Outline numbering wraps headings in list elements; a heading inside a list item would render as
 * `- # Title`, so such lists give up their items and the headings stand on their own.
 */
function liftHeadings(lists: List[]): Block[] {
  const out: Block[] = [];
  for (const list of lists) {
    if (!holdsHeading(list)) out.push(list);
    else
      for (const item of list.children)
        for (const b of item.children) {
          // A lifted block is on its item's page.
          const page = item.source?.page;
          if (page !== undefined && b.source?.page === undefined) b.source = { ...b.source, page };
          append(out, b.type === 'list' ? liftHeadings([b]) : [b]);
        }
  }
  return out;
}

/** An item with no content of its own, only a deeper list: how writers encode "skip a level". */
const isBare = (item: ListItem) => item.children.length > 0 && item.children.every((b) => b.type === 'list');

/**
 * Writers start a new list element whenever the list style changes, even mid-outline: a list whose
 * first item is bare continues the list just before it. Lists made only of bare items carry no
 * level of their own and are hoisted. Adjacent code paragraphs become one code block.
 */
function tidy(blocks: Block[]): Block[] {
  const out: Block[] = [];
  for (const b of blocks) {
    const prev = out[out.length - 1];
    if (b.type === 'list' && b.children[0] && isBare(b.children[0])) {
      if (prev?.type === 'list' && prev.children.length) {
        const items = [...b.children];
        const host = prev.children[prev.children.length - 1] as ListItem;
        while (items[0] && isBare(items[0])) append(host.children, (items.shift() as ListItem).children);
        append(prev.children, items);
        continue;
      }
      if (b.children.every(isBare)) {
        append(out, tidy(b.children.flatMap((i) => i.children)));
        continue;
      }
    }
    if (b.type === 'code' && prev?.type === 'code') {
      prev.value = `${prev.value}\n${b.value}`;
      continue;
    }
    out.push(b);
  }
  return out;
}
