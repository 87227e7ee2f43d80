import { tableGrid } from '../tree/grid.ts';
import type { Block, Image, Inline, ListItem, Root, Table, TableCell } from '../tree/types.ts';
import { escapeCell, escapeLineStarts, escapeText } from './escape.ts';
import { normalizeInlines } from './inline-normalize.ts';

export interface MarkdownOptions {
  /** Replace `data:` image URLs with `<Base64-Image-Removed>` (contract default true). */
  removeBase64Images?: boolean;
  /** Join page sections with `\n\n---\n\n<!-- page N -->\n\n` (compat notes). */
  pageMarkers?: boolean;
}

/** Where each top-level block (and each block inside a section, however deep) landed in the output. */
export type SpanMap = Map<Block, [start: number, end: number]>;

interface State {
  opts: Required<MarkdownOptions>;
  /** Inside a table cell: breaks become <br>, pipes escaped, blocks joined by <br>. */
  inCell: boolean;
}

const BASE64_REMOVED = '<Base64-Image-Removed>';

// ---------------------------------------------------------------- inline handlers

type InlineHandler<T extends Inline> = (node: T, state: State) => string;
type InlineHandlers = { [K in Inline['type']]: InlineHandler<Extract<Inline, { type: K }>> };

/**
 * A string's leading blanks, the rest, and its trailing blanks (all blanks: leading). By trimming,
 * not a pattern: a lazy pattern retries the trailing blanks at every position, quadratic in a long
 * run of blanks inside the string.
 */
function edges(s: string): [string, string, string] {
  const start = s.length - s.trimStart().length;
  const end = s.trimEnd().length;
  if (end <= start) return [s, '', ''];
  return [s.slice(0, start), s.slice(start, end), s.slice(end)];
}

/** Inline markup around content, moving edge blanks outside the delimiters so the mark stays valid. */
function wrap(inner: string, open: string, close = open): string {
  const [lead, core, trail] = edges(inner);
  if (core === '') return inner;
  return `${lead}${open}${core}${close}${trail}`;
}

function codeSpan(value: string): string {
  const v = value.replace(/\n/g, ' ');
  const runs = v.match(/`+/g) ?? [];
  const fence = '`'.repeat(Math.max(0, ...runs.map((r) => r.length)) + 1);
  const pad = v.startsWith('`') || v.endsWith('`') || (v.startsWith(' ') && v.endsWith(' ') && v.trim()) ? ' ' : '';
  return `${fence}${pad}${v}${pad}${fence}`;
}

function destination(url: string): string {
  return /[\s()<>]/.test(url) ? `<${url.replace(/[<>]/g, encodeURIComponent)}>` : url;
}

export function imageMarkdown(node: Image, opts: Required<MarkdownOptions>): string {
  const alt = node.alt
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[[\]\\]/g, (c) => `\\${c}`);
  let url = node.url ?? '';
  if (url.startsWith('data:') && opts.removeBase64Images) url = BASE64_REMOVED;
  if (!url && node.ref) url = opts.removeBase64Images ? BASE64_REMOVED : '';
  const dest = url === BASE64_REMOVED ? BASE64_REMOVED : destination(url);
  const title = node.title ? ` "${node.title.replace(/"/g, '\\"')}"` : '';
  return `![${alt}](${dest}${title})`;
}

const inlineHandlers: InlineHandlers = {
  text: (n, s) => {
    // A redaction placeholder is written as the contract shows it: `<EMAIL>`, not `\<EMAIL>`.
    if (n.data?.piiPlaceholder) return n.value;
    const escaped = escapeText(n.value);
    return s.inCell ? escaped.replace(/\r?\n/g, '<br>') : escaped;
  },
  strong: (n, s) => wrap(inlines(n.children, s), '**'),
  emphasis: (n, s) => wrap(inlines(n.children, s), '*'),
  strikethrough: (n, s) => wrap(inlines(n.children, s), '~~'),
  superscript: (n, s) => wrap(inlines(n.children, s), '<sup>', '</sup>'),
  subscript: (n, s) => wrap(inlines(n.children, s), '<sub>', '</sub>'),
  inlineCode: (n) => codeSpan(n.value),
  inlineMath: (n) => (n.value.trim() ? `$${n.value.trim()}$` : ''),
  link: (n, s) => {
    // Blanks at the label's edges are the words' separators: they stay, outside the brackets
    // ("at [site](…) or", not "at[site](…)or").
    const inner = inlines(n.children, s);
    if (!n.href) return inner;
    const [lead, label, trail] = edges(inner);
    const title = n.title ? ` "${n.title.replace(/"/g, '\\"')}"` : '';
    return `${lead}[${label || escapeText(n.href)}](${destination(n.href)}${title})${trail}`;
  },
  break: (_n, s) => (s.inCell ? '<br>' : '  \n'),
  footnoteReference: (n) => `[^${n.identifier}]`,
  image: (n, s) => imageMarkdown(n, s.opts),
};

function inlines(nodes: readonly Inline[], state: State): string {
  let out = '';
  for (const n of normalizeInlines(nodes)) {
    const handler = inlineHandlers[n.type] as InlineHandler<Inline>;
    out += handler(n, state);
  }
  return out;
}

/** Inline content of a paragraph-like block: whitespace tidied, line starts escaped. */
function phrasing(nodes: readonly Inline[], state: State): string {
  const raw = inlines(nodes, state)
    .replace(/[ \t]*\n[ \t]*/g, (m) => (m.startsWith('  ') ? '  \n' : '\n'))
    .replace(/[^\S\n]{2,}(?!\n)/g, ' ')
    .trim();
  return state.inCell ? raw : escapeLineStarts(raw);
}

// ---------------------------------------------------------------- block handlers

type BlockHandler<T extends Block> = (node: T, state: State) => string;
type BlockHandlers = { [K in Block['type']]: BlockHandler<Extract<Block, { type: K }>> };

const indent = (s: string, prefix: string, first = prefix) =>
  s
    .split('\n')
    .map((line, i) => (line === '' ? '' : (i === 0 ? first : prefix) + line))
    .join('\n');

function listItem(item: ListItem, marker: string, state: State): string {
  const task = item.checked === undefined ? '' : item.checked ? '[x] ' : '[ ] ';
  const body = blocksJoined(item.children, state, true);
  const pad = ' '.repeat(marker.length + 1);
  if (!body) return `${marker}${task ? ` ${task.trimEnd()}` : ''}`;
  return indent(task + body, pad, `${marker} `);
}

/** Rows of cells as rendered text; spans expanded (merged cells repeated in every slot they cover). */
function tableRows(node: Table, cellState: State): { rows: string[][]; headerIsReal: boolean } {
  const spanless = node.children.every((tr) => tr.children.every((c) => !c.rowSpan && !c.colSpan));
  if (!spanless) {
    // Markdown has no spans: repeating keeps each row self-contained for retrieval. A covered
    // slot shares its cell, so each cell is rendered once.
    const grid = tableGrid(node);
    const cache = new Map<TableCell, string>();
    const once = (c: TableCell) => {
      let t = cache.get(c);
      if (t === undefined) {
        t = cellText(c, cellState);
        cache.set(c, t);
      }
      return t;
    };
    // Loops into literals, as below for tables without spans: one kind of array for the rendering.
    const rows: string[][] = [];
    for (const slots of grid) {
      const line: string[] = [];
      for (const slot of slots) line.push(once(slot.cell));
      rows.push(line);
    }
    return { rows, headerIsReal: grid[0]?.every((slot) => slot.cell.header) ?? false };
  }
  // Most tables (every CSV and sheet) have no spans: skip building a slot object per cell.
  let width = 0;
  for (const tr of node.children) if (tr.children.length > width) width = tr.children.length;
  // Loops into literals, not map: map's result is packed from the builtin but holey once the
  // caller is optimized, and the padding and row rendering would meet both kinds of array.
  const rows: string[][] = [];
  for (const tr of node.children) {
    const line: string[] = [];
    for (const c of tr.children) line.push(cellText(c, cellState));
    while (line.length < width) line.push('');
    rows.push(line);
  }
  const first = node.children[0]?.children ?? [];
  return { rows, headerIsReal: first.length === width && first.every((c) => c.header) };
}

/**
 * Words separated by single spaces with nothing Markdown or GFM tables give a meaning to: such a
 * cell renders as itself. Most cells of big tables look like this; skipping the general path for
 * them keeps CSV and sheet rendering linear in the text rather than in the per-cell machinery.
 */
const PLAIN_CELL = /^[^\\*`_[<&~|\s]+(?: [^\\*`_[<&~|\s]+)*$/;

function plainCell(c: TableCell): string | undefined {
  if (c.children.length !== 1) return c.children.length === 0 ? '' : undefined;
  const p = c.children[0] as Block;
  if (p.type !== 'paragraph' || p.children.length !== 1) return undefined;
  const t = p.children[0] as Inline;
  return t.type === 'text' && PLAIN_CELL.test(t.value) ? t.value : undefined;
}

/**
 * A cell as table text. Module-level, not a closure made per table: such a closure is a new
 * function for every table, compiled again once earlier tables' copies are collected.
 */
function cellText(c: TableCell, cellState: State): string {
  return plainCell(c) ?? escapeCell(cellBlocks(c, cellState).replace(/\n+/g, '<br>')).trim();
}

/**
 * A cell's non-empty blocks, rendered and joined by line breaks. A loop into a literal, not
 * map/filter: map's result is packed from the builtin but holey once the caller is optimized, and
 * the code after it would meet both kinds of array.
 */
function cellBlocks(c: TableCell, cellState: State): string {
  const parts: string[] = [];
  for (const b of c.children) {
    const t = block(b, cellState);
    if (t) parts.push(t);
  }
  return parts.join('<br>');
}

function tableMarkdown(node: Table, state: State): string {
  const cellState: State = { ...state, inCell: true };
  const { rows, headerIsReal } = tableRows(node, cellState);
  const width = rows[0]?.length ?? 0;
  if (width === 0) return '';
  const header = headerIsReal ? (rows.shift() as string[]) : new Array<string>(width).fill('');
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const out = [line(header), line(new Array<string>(width).fill('---')), ...rows.map(line)];
  const caption = node.caption?.length ? `${phrasing(node.caption, state)}\n\n` : '';
  return caption + out.join('\n');
}

const blockHandlers: BlockHandlers = {
  heading: (n, s) => {
    const t = phrasing(n.children, { ...s, inCell: true }).replace(/<br>/g, ' ');
    if (!t) return '';
    return s.inCell
      ? `**${t}**`
      : `${'#'.repeat(n.depth)} ${escapeLineStarts(t)
          .replace(/^\\(#)/, '$1')
          .replace(/#+$/, (m) => `\\${m}`)}`;
  },
  paragraph: (n, s) => phrasing(n.children, s),
  list: (n, s) => {
    const start = n.start ?? 1;
    const items = n.children.map((item, i) => listItem(item, n.ordered ? `${start + i}.` : '-', s));
    if (s.inCell) return items.join('<br>');
    // Tight unless an item holds several blocks that need a blank line between them.
    const loose = n.children.some((it) => it.children.filter((b) => b.type !== 'list').length > 1);
    return items.filter(Boolean).join(loose ? '\n\n' : '\n');
  },
  table: (n, s) => (s.inCell ? blockText(n, s) : tableMarkdown(n, s)),
  code: (n, s) => {
    if (s.inCell) return codeSpan(n.value);
    const runs = n.value.match(/^[`~]{3,}/gm) ?? [];
    const fence = '`'.repeat(Math.max(3, ...runs.map((r) => r.length + 1)));
    return `${fence}${n.lang ?? ''}\n${n.value.replace(/\n+$/, '')}\n${fence}`;
  },
  blockquote: (n, s) => {
    const inner = blocksJoined(n.children, s);
    if (!inner) return '';
    return s.inCell
      ? inner
      : inner
          .split('\n')
          .map((l) => (l ? `> ${l}` : '>'))
          .join('\n');
  },
  thematicBreak: (_n, s) => (s.inCell ? '' : '---'),
  footnoteDefinition: (n, s) => {
    const inner = blocksJoined(n.children, s);
    return indent(inner || ' ', '    ', `[^${n.identifier}]: `);
  },
  math: (n, s) => (n.value.trim() ? (s.inCell ? `$${n.value.trim()}$` : `$$\n${n.value.trim()}\n$$`) : ''),
  image: (n, s) => imageMarkdown(n, s.opts),
  section: (n, s) => blocksJoined(n.children, s),
};

/** Nested tables inside a cell flatten to their text: GFM cannot nest tables. */
function blockText(n: Table, s: State): string {
  return n.children
    .map((r) => r.children.map((c) => c.children.map((b) => block(b, s)).join(' ')).join(' | '))
    .join('<br>');
}

function block(node: Block, state: State): string {
  const handler = blockHandlers[node.type] as BlockHandler<Block> | undefined;
  if (!handler) throw new Error(`No Markdown handler for node type "${node.type}"`);
  return handler(node, state);
}

/** Join rule: blocks are separated by one blank line, except a list directly after a paragraph in a tight item. */
function blocksJoined(blocks: readonly Block[], state: State, inItem = false): string {
  let out = '';
  let prev: Block | undefined;
  for (const b of blocks) {
    const s = block(b, state);
    if (!s) continue;
    if (out) out += state.inCell ? '<br>' : inItem && b.type === 'list' && prev?.type === 'paragraph' ? '\n' : '\n\n';
    out += s;
    prev = b;
  }
  return out;
}

const defaults: Required<MarkdownOptions> = { removeBase64Images: true, pageMarkers: false };

/** Renders a tree to Markdown and records each top-level block's span. */
export function renderMarkdownWithSpans(
  tree: Root,
  options: MarkdownOptions = {},
): { markdown: string; spans: SpanMap } {
  const state: State = { opts: { ...defaults, ...options }, inCell: false };
  const spans: SpanMap = new Map();
  let out = '';
  let pageSeen = false;
  const emit = (b: Block, sep = '\n\n') => {
    // Tidied block by block, not once at the end, so that the recorded spans are exact offsets.
    const s = tidyBlock(block(b, state));
    if (!s) return;
    // Text that opens the output after empty pages keeps its page's marker (not the rule above
    // it): without it a reader would take that text for page 1.
    if (out) out += sep;
    else if (sep.startsWith('\n\n---\n\n')) out += sep.slice('\n\n---\n\n'.length);
    spans.set(b, [out.length, out.length + s.length]);
    out += s;
  };
  // A section inside a section (an archive member's pages, a message's attachments) is emitted block
  // by block as well, so that its blocks have spans of their own; the text is the same as its whole.
  const emitDeep = (b: Block, sep: string) => {
    if (b.type !== 'section') return emit(b, sep);
    let first = true;
    for (const c of b.children) {
      const before = out.length;
      emitDeep(c, first ? sep : '\n\n');
      if (out.length !== before) first = false;
    }
  };
  for (const b of tree.children) {
    if (b.type === 'section') {
      let sep = '\n\n';
      if (b.kind === 'page' && state.opts.pageMarkers) {
        if (pageSeen) sep = `\n\n---\n\n<!-- page ${b.number} -->\n\n`;
        pageSeen = true;
      }
      let first = true;
      for (const c of b.children) {
        const before = out.length;
        emitDeep(c, first ? sep : '\n\n');
        if (out.length !== before) first = false;
      }
      // An empty page still gets its marker so page numbers stay aligned.
      if (first && sep !== '\n\n' && out) out += sep.replace(/\n\n$/, '');
    } else emit(b);
  }
  const markdown = out.trimEnd();
  // Only the last block can lose characters (trailing blanks) to the final trim.
  for (const span of spans.values()) if (span[1] > markdown.length) span[1] = markdown.length;
  return { markdown: markdown ? `${markdown}\n` : '', spans };
}

/** What `tidyBlock` changes: three newlines in a row, blanks ending a line, a newline at an edge. */
const UNTIDY = /\n\n\n|[ \t]$|^\n|\n$/m;

/**
 * One blank line at most, no blank lines at the edges, no trailing blanks except a two-space hard
 * break (kept at the block's end too: a separator's newline follows it there).
 */
function tidyBlock(s: string): string {
  // Most blocks (every table row ends in '|') have nothing to tidy: one scan says so.
  if (!s || !UNTIDY.test(s)) return s;
  return s
    .replace(/\n{3,}/g, '\n\n')
    .replace(/[ \t]+$/gm, (m, offset: number, str: string) =>
      m === '  ' && (str[offset + 2] === '\n' || offset + 2 === str.length) ? m : '',
    )
    .replace(/^\n+|\n+$/g, '');
}

export function renderMarkdown(tree: Root, options: MarkdownOptions = {}): string {
  return renderMarkdownWithSpans(tree, options).markdown;
}

/** Renders a list of blocks as a standalone Markdown fragment (per-page output, cells). */
export function renderBlocksMarkdown(blocks: Block[], options: MarkdownOptions = {}): string {
  return renderMarkdown({ type: 'root', metadata: {}, children: blocks }, options);
}
