import { code, heading, link, list, listItem, paragraph, text } from '../../tree/build.ts';
import type { Block, Inline, List, ListItem } from '../../tree/types.ts';
import { unbold, uncode, whollyCode } from '../../tree/walk.ts';
import { append } from '../../util/arrays.ts';
import { codeBlanks, divideSnippet } from '../../util/fonts.ts';
import { WIDE_SCRIPT } from '../../util/letters.ts';
import type { CharFormat, DocInfo, Item, Para, Run } from './model.ts';

/**
 * Turns the reader's flat paragraphs into blocks: list paragraphs (`\ls`/`\ilvl`, or old-style
 * `\pntext` numbering) become nested lists, outline levels and "heading N" styles become headings,
 * runs become nested inline formatting.
 */

/** Deepest list nesting kept (Word's own limit is 9 levels). */
const MAX_LIST_DEPTH = 9;

const NUMBERED = /^\s*\(?([0-9]{1,6}|[a-zA-Z]|[ivxlcdmIVXLCDM]{1,8})[.)]/;

function sameFormat(a: CharFormat, b: CharFormat): boolean {
  return (
    a.bold === b.bold &&
    a.italic === b.italic &&
    a.strike === b.strike &&
    a.sup === b.sup &&
    a.sub === b.sub &&
    a.mono === b.mono
  );
}

function wrap(fmt: CharFormat, inner: Inline[]): Inline[] {
  let out = inner;
  if (fmt.sub) out = [{ type: 'subscript', children: out }];
  else if (fmt.sup) out = [{ type: 'superscript', children: out }];
  if (fmt.strike) out = [{ type: 'strikethrough', children: out }];
  if (fmt.italic) out = [{ type: 'emphasis', children: out }];
  if (fmt.bold) out = [{ type: 'strong', children: out }];
  return out;
}

/** A formatted run; its edge spaces go outside the formatting so Markdown emphasis stays valid. */
function formatted(value: string, fmt: CharFormat): Inline[] {
  // CJK and Hangul faces are fixed-width: their text is no code for that.
  const code = fmt.mono && !WIDE_SCRIPT.test(value);
  const plain = !fmt.bold && !fmt.italic && !fmt.strike && !fmt.sup && !fmt.sub && !code;
  if (plain || !value.trim()) return [text(value)];
  const lead = value.match(/^\s*/)?.[0] ?? '';
  const trail = value.match(/\s*$/)?.[0] ?? '';
  const out: Inline[] = [];
  if (lead) out.push(text(lead));
  const core = value.slice(lead.length, value.length - trail.length);
  append(out, wrap(fmt, [code ? { type: 'inlineCode', value: core } : text(core)]));
  if (trail) out.push(text(trail));
  return out;
}

/** Merges neighbouring runs with equal formatting and link, and collapses blanks. */
function normalizeRuns(runs: Run[]): Run[] {
  const out: Run[] = [];
  for (const r of runs) {
    const prev = out[out.length - 1];
    if (r.kind === 'text') {
      const value = r.text.replace(/[ \t\u000b\f]+/g, ' ');
      if (!value) continue;
      if (prev?.kind === 'text' && prev.href === r.href && sameFormat(prev.fmt, r.fmt)) {
        out[out.length - 1] = { ...prev, text: prev.text + value };
        continue;
      }
      out.push({ ...r, text: value });
    } else out.push(r);
  }
  // Blanks at the paragraph's edges and around line breaks carry nothing.
  for (let i = 0; i < out.length; i++) {
    const r = out[i] as Run;
    if (r.kind !== 'text') continue;
    const before = out[i - 1];
    const after = out[i + 1];
    let value = r.text;
    if (!before || before.kind === 'break') value = value.replace(/^ +/, '');
    if (!after || after.kind === 'break') value = value.replace(/ +$/, '');
    out[i] = { ...r, text: value };
  }
  const kept = out.filter((r) => r.kind !== 'text' || r.text);
  while (kept[0]?.kind === 'break') kept.shift();
  while (kept[kept.length - 1]?.kind === 'break') kept.pop();
  return kept;
}

export function runsToInlines(runs: Run[]): Inline[] {
  const out: Inline[] = [];
  let linkHref: string | undefined;
  let linkKids: Inline[] = [];
  const flushLink = () => {
    if (linkHref !== undefined && linkKids.length) out.push(link(linkHref, linkKids));
    linkHref = undefined;
    linkKids = [];
  };
  for (const r of normalizeRuns(runs)) {
    const href = r.kind === 'break' || r.kind === 'note' ? undefined : r.href;
    if (href !== linkHref) flushLink();
    const target = href === undefined ? out : linkKids;
    linkHref = href;
    if (r.kind === 'text') append(target, formatted(r.text, r.fmt));
    else if (r.kind === 'break') target.push({ type: 'break' });
    else if (r.kind === 'note') target.push({ type: 'footnoteReference', identifier: r.id });
    else target.push(r.image);
  }
  flushLink();
  // A paragraph set wholly in a typewriter face is a font choice, not code among its words.
  return whollyCode(out) ? uncode(out) : out;
}

function headingDepth(p: Para, info: DocInfo): number | undefined {
  const style = info.styles.get(p.props.style);
  const outline = p.props.outline ?? style?.outline;
  if (outline !== undefined && outline >= 0 && outline <= 5) return outline + 1;
  const name = style?.name.trim().toLowerCase() ?? '';
  const m = /^heading\s*([1-6])$/.exec(name);
  if (m) return Number(m[1]);
  if (name === 'title') return 1;
  return undefined;
}

interface ListShape {
  /** Counter key: the list and level this item counts in. */
  key: string;
  level: number;
  ordered: boolean;
  /** The number the writer rendered (last number of "1.2."), when it shows one. */
  shown: number | undefined;
  /** The level's first number from the list table. */
  startAt: number;
}

function listShape(p: Para, info: DocInfo): ListShape | undefined {
  const numbered = NUMBERED.test(p.listText) || /^\s*\d+(\.\d+)+/.test(p.listText);
  const digits = /(\d{1,6})\D*$/.exec(p.listText.trim());
  const shown = digits ? Number(digits[1]) : undefined;
  if (p.props.ls > 0) {
    const level = Math.min(MAX_LIST_DEPTH - 1, Math.max(0, p.props.ilvl));
    const def = info.lists.get(p.props.ls)?.[level];
    const ordered = def ? def.ordered : numbered;
    return { key: `${p.props.ls}`, level, ordered, shown, startAt: def?.start ?? 1 };
  }
  if (p.listText.trim() || p.pnBullet) {
    return { key: 'pn', level: 0, ordered: !p.pnBullet && numbered, shown, startAt: 1 };
  }
  return undefined;
}

/** Every CJK or Hangul character: what is left of a run without them. */
const WIDE = new RegExp(WIDE_SCRIPT.source, 'g');

/**
 * A paragraph's text as lines of code, where it is set wholly in a monospaced face (blanks in any
 * face aside): its blanks as typed, which `normalizeRuns` collapses, a tab four blanks, a no-break
 * blank a blank, `\line` a new line. Undefined for any other paragraph, and for one with a note
 * mark, a picture or a link a code block would lose (one whose text is its address loses nothing:
 * a word processor links an address typed in a comment).
 */
function codeLineOf(runs: readonly Run[]): string | undefined {
  let out = '';
  let mono = false;
  for (const r of runs) {
    if (r.kind === 'break') {
      out += '\n';
      continue;
    }
    if (r.kind !== 'text' || (r.href !== undefined && r.text.trim() !== r.href)) return undefined;
    if (r.text.trim()) {
      if (!r.fmt.mono) return undefined;
      // CJK and Hangul faces are fixed-width: a paragraph of them alone is no code, a string of
      // them inside code is.
      if (!mono && r.text.replace(WIDE, '').trim()) mono = true;
    }
    out += r.text;
  }
  if (!mono) return undefined;
  const lines = codeBlanks(out).split('\n');
  let a = 0;
  while (a < lines.length && !(lines[a] as string).trim()) a++;
  let b = lines.length;
  while (b > a && !(lines[b - 1] as string).trim()) b--;
  return lines
    .slice(a, b)
    .map((l) => l.trimEnd())
    .join('\n');
}

/** A paragraph with nothing to show: blanks and line breaks only. */
const blankPara = (p: Para): boolean =>
  p.runs.every((r) => r.kind === 'break' || (r.kind === 'text' && !r.text.trim()));

const isEmpty = (inlines: Inline[]): boolean =>
  inlines.every((n) => n.type === 'break' || (n.type === 'text' && !n.value.trim()));

/** Blocks of a run of items; `inCell` keeps headings as paragraphs (Markdown cells hold no headings). */
export function itemsToBlocks(items: Item[], info: DocInfo, inCell = false): Block[] {
  const out: Block[] = [];
  /** Open lists, outermost first. */
  let stack: { list: List; level: number }[] = [];
  /** Items seen per list and level, so a list interrupted by prose resumes its numbering. */
  const counts = new Map<string, number[]>();
  /** Places a paragraph as a heading, a list item or a paragraph. */
  const place = (item: Para): void => {
    const inlines = runsToInlines(item.runs);
    if (isEmpty(inlines)) return;
    // A numbered heading ("1.2 Scope") is a heading first; its number stays as text.
    const depth = inCell ? undefined : headingDepth(item, info);
    if (depth) {
      stack = [];
      // "1.2." reads as "1.2" in a heading (and keeps Markdown from escaping the dot).
      const number = item.listText.replace(/\s+/g, ' ').trim().replace(/[.)]$/, '');
      const kids = unbold(inlines);
      out.push(heading(depth, number && /\w/.test(number) ? [text(`${number} `), ...kids] : kids));
      return;
    }
    const shape = listShape(item, info);
    if (!shape) {
      stack = [];
      out.push(paragraph(inlines));
      return;
    }
    const seen = counts.get(shape.key) ?? [];
    counts.set(shape.key, seen);
    const n = seen[shape.level] ?? 0;
    seen[shape.level] = n + 1;
    seen.length = shape.level + 1;
    while (stack.length && (stack[stack.length - 1] as { level: number }).level > shape.level) stack.pop();
    let top = stack[stack.length - 1];
    if (top && top.level === shape.level && top.list.ordered !== shape.ordered) {
      stack.pop();
      top = stack[stack.length - 1];
    }
    if (!top || top.level < shape.level) {
      const start = shape.ordered ? (shape.shown ?? shape.startAt + n) : undefined;
      const fresh = list(shape.ordered, [], start);
      const parentItem: ListItem | undefined = top?.list.children[top.list.children.length - 1];
      if (parentItem) parentItem.children.push(fresh);
      else out.push(fresh);
      top = { list: fresh, level: shape.level };
      stack.push(top);
    }
    top.list.children.push(listItem([paragraph(inlines)]));
  };
  /**
   * Paragraphs set wholly in a monospaced face, in a row, with their lines: one snippet, or text,
   * decided together (a line of code need not show a sign of code itself: "else:", "pass"). A blank
   * paragraph between two of them is a blank line of the snippet.
   */
  let snippet: { para: Para | undefined; line: string }[] = [];
  let blanks = 0;
  const flushSnippet = (): void => {
    const held = snippet;
    snippet = [];
    blanks = 0;
    if (!held.length) return;
    divideSnippet(
      held.map((h) => h.line),
      (value) => {
        stack = [];
        out.push(code(value));
      },
      (k) => {
        const para = held[k]?.para;
        if (para) place(para);
      },
    );
  };
  for (const item of items) {
    if (item.type === 'table') {
      flushSnippet();
      stack = [];
      out.push(item.table);
      continue;
    }
    // Markdown cells hold no code blocks; a heading or list item in a typewriter face stays one.
    const line = inCell ? undefined : codeLineOf(item.runs);
    if (line !== undefined && !headingDepth(item, info) && !listShape(item, info)) {
      for (; blanks > 0; blanks--) snippet.push({ para: undefined, line: '' });
      snippet.push({ para: item, line });
      continue;
    }
    if (snippet.length && blankPara(item)) {
      blanks++;
      continue;
    }
    flushSnippet();
    place(item);
  }
  flushSnippet();
  return out;
}
