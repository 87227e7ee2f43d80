import { throwIfAborted } from '../../errors.ts';
import { code, heading, list, listItem, paragraph } from '../../tree/build.ts';
import { continuedOn, unmark } from '../../tree/continued.ts';
import type { Block, Inline, List } from '../../tree/types.ts';
import { uncode } from '../../tree/walk.ts';
import { codeBlanks, codeLike, showsCodeSign } from '../../util/fonts.ts';
import { isElement, type XmlElement, type XmlNode } from '../../util/xml.ts';
import { type BodyPages, unmarkAll } from '../common/page-turns.ts';
import type { DocxEnv } from './env.ts';
import { type ParagraphContent, readParagraph, UNCHECKED } from './inline.ts';
import { elementPages } from './pages.ts';
import { readTable } from './table.ts';
import { kid, ln, pickAlternate, val } from './xml.ts';

interface OpenList {
  list: List;
  level: number;
  /** The number the next item must show to continue this list. */
  next: number;
}

/**
 * Word paragraphs are flat; lists are rebuilt from each paragraph's numbering level. The flow keeps
 * the stack of open lists and the lines of a code block being gathered.
 */
class Flow {
  readonly out: Block[] = [];
  private stack: OpenList[] = [];
  private codeLines: string[] | undefined;
  private codePage: number | undefined;
  /** The page the body element being read starts on (Word's rendered page breaks), if known. */
  page: number | undefined;

  block(b: Block): void {
    this.closeLists();
    this.flushCode();
    this.push(b);
  }

  code(line: string): void {
    this.closeLists();
    if (!this.codeLines) this.codePage = this.page;
    this.codeLines ??= [];
    this.codeLines.push(line);
  }

  private push(b: Block, page = this.page): void {
    if (page !== undefined && b.source?.page === undefined) b.source = { ...b.source, page };
    this.out.push(b);
  }

  item(level: number, ordered: boolean, value: number, children: Block[], checked?: boolean): void {
    this.flushCode();
    while (this.stack.length && (this.stack[this.stack.length - 1] as OpenList).level > level) this.stack.pop();
    let top = this.stack[this.stack.length - 1];
    if (top && top.level === level && (top.list.ordered !== ordered || (ordered && top.next !== value))) {
      this.stack.pop();
      top = this.stack[this.stack.length - 1];
    }
    if (!top || top.level < level) {
      const created = list(ordered, [], ordered ? value : undefined);
      const parentItem = top?.list.children[top.list.children.length - 1];
      if (parentItem) parentItem.children.push(created);
      else this.push(created);
      top = { list: created, level, next: value };
      this.stack.push(top);
    }
    const item = listItem(children, checked);
    // Each numbered paragraph is a body element of its own: a list over pages gives each item its page.
    if (this.page !== undefined) item.source = { page: this.page };
    top.list.children.push(item);
    top.next = value + 1;
  }

  get inCode(): boolean {
    return this.codeLines !== undefined;
  }

  private closeLists(): void {
    this.stack = [];
  }

  private flushCode(): void {
    if (!this.codeLines) return;
    this.push(code(this.codeLines.join('\n').replace(/\s+$/, '')), this.codePage);
    this.codeLines = undefined;
  }

  finish(): Block[] {
    this.flushCode();
    return this.out;
  }
}

function isEmpty(inlines: Inline[]): boolean {
  return inlines.every((n) => (n.type === 'text' ? !n.value.trim() : n.type === 'break'));
}

/** Leading and trailing whitespace and breaks are layout, not content. */
function trimInlines(inlines: Inline[]): Inline[] {
  const out = [...inlines];
  while (out.length && (out[0]?.type === 'break' || (out[0]?.type === 'text' && !out[0].value.trim()))) out.shift();
  while (
    out.length &&
    (out.at(-1)?.type === 'break' || (out.at(-1)?.type === 'text' && !(out.at(-1) as { value: string }).value.trim()))
  )
    out.pop();
  return out;
}

/** Strips a leading checkbox glyph (from a content control or a legacy form field). */
function takeCheckbox(inlines: Inline[]): boolean | undefined {
  const first = inlines[0];
  if (first?.type !== 'text') return undefined;
  const m = /^\s*([☐☒☑])\s*/.exec(first.value);
  if (!m) return undefined;
  first.value = first.value.slice(m[0].length);
  if (!first.value) inlines.shift();
  return m[1] !== UNCHECKED;
}

/** The formulas of a run sequence holding nothing but formulas and spacing, else undefined. */
function onlyMath(inlines: Inline[]): string[] | undefined {
  const out: string[] = [];
  for (const n of inlines) {
    if (n.type === 'inlineMath') out.push(n.value);
    else if (!(n.type === 'break' || (n.type === 'text' && !n.value.trim()))) return undefined;
  }
  return out.length ? out : undefined;
}

/** The page of the last part-starting mark among a run of inlines (Word's layout turned the page there). */
function lastMark(inlines: readonly Inline[]): number | undefined {
  let last: number | undefined;
  for (const n of inlines) last = continuedOn(n)?.page ?? last;
  return last;
}

/** `page`: the page a body paragraph starts on, when known (inside tables and text boxes it is not). */
function paragraphBlock(p: XmlElement, env: DocxEnv, flow: Flow, page?: number): void {
  const { styles, numbering } = env.shared;
  const pPr = kid(p, 'pPr');
  const styleId = val(kid(pPr, 'pStyle'));
  const outline = Number(val(kid(pPr, 'outlineLvl')));
  const depth = Number.isInteger(outline) && outline >= 0 && outline < 9 ? outline + 1 : styles.headingDepth(styleId);
  // Numbering: direct numPr wins; numId 0 switches off what the style would give.
  const direct = kid(pPr, 'numPr');
  const styleNum = styles.numbering(styleId);
  const numId = val(kid(direct, 'numId')) ?? styleNum?.numId;
  let ilvl = Number(val(kid(direct, 'ilvl')));
  if (!Number.isInteger(ilvl))
    ilvl = styleNum?.ilvl ?? (numId ? numbering.levelOfStyle(numId, styleId) : undefined) ?? 0;
  ilvl = Math.max(0, Math.min(8, ilvl));
  const numbered = numId !== undefined && numId !== '0' && numbering.has(numId);

  // Only a paragraph has parts: a heading or a list item is read without marks, whole.
  const paged = depth === undefined && !numbered ? page : undefined;
  const content: ParagraphContent = readParagraph(p, env, styleId, depth !== undefined, paged);
  /** Places a run of inlines as a heading, a list item or a paragraph; says whether it became a paragraph. */
  const place = (trimmed: Inline[]): boolean => {
    if (depth !== undefined) {
      if (isEmpty(trimmed)) return false;
      const num = numbered ? numbering.next(numId as string, ilvl) : undefined;
      // "1." before a heading would read as a list marker; Word shows the dot only as decoration.
      const label = num?.label.trim().replace(/\.$/, '');
      flow.block(heading(depth, label ? [{ type: 'text', value: `${label} ` }, ...trimmed] : trimmed));
      return false;
    }
    const checked = takeCheckbox(trimmed);
    if (checked !== undefined) {
      flow.item(numbered ? ilvl : 0, false, 1, [paragraph(trimInlines(trimmed))], checked);
      if (numbered) numbering.next(numId as string, ilvl);
      return false;
    }
    if (isEmpty(trimmed)) return false;
    if (numbered) {
      const num = numbering.next(numId as string, ilvl);
      if (num?.multi && num.label.trim()) {
        // Outline labels like "2.3.1." keep their text; a Markdown number would lose the outline.
        flow.item(ilvl, false, 1, [paragraph([{ type: 'text', value: `${num.label.trim()} ` }, ...trimmed])]);
        return false;
      }
      if (num) {
        flow.item(ilvl, num.ordered, num.value, [paragraph(trimmed)]);
        return false;
      }
    }
    flow.block(paragraph(trimmed));
    return true;
  };
  /**
   * A part after a display equation that opens with a mark starts on that page (the paragraph's own
   * start stays where it is, whatever a link it opens with runs on to). What follows a part (the next
   * part, an equation, floats) is on the page its last mark opened. Marks serve a paragraph's parts:
   * a heading or a list item keeps none.
   */
  const emit = (inlines: Inline[], later: boolean) => {
    const trimmed = trimInlines(inlines);
    const opens = trimmed[0] ? unmark(trimmed[0]) : undefined;
    if (later && opens !== undefined) flow.page = opens;
    const last = lastMark(trimmed);
    if (!place(trimmed)) unmarkAll(trimmed);
    if (last !== undefined) flow.page = last;
  };

  const onlyText = content.parts.length === 1;
  const asCode =
    onlyText &&
    depth === undefined &&
    !numbered &&
    (styles.isCode(styleId) ||
      (content.mono > 0 &&
        content.other === 0 &&
        // Word's paragraphs are read one at a time: a line going on with a block needs a sign of code
        // only (a comment, `else:`); one starting a block must also not read as prose (`codeLike`).
        (flow.inCode ? showsCodeSign(content.plain) : codeLike(content.plain))));
  if (!asCode && content.mono > 0 && content.other === 0) {
    // A paragraph set wholly in a typewriter face without anything code-like is a font choice.
    content.parts = content.parts.map((part) => (Array.isArray(part) ? uncode(part) : part));
  }
  if (asCode && (content.plain.trim() || flow.inCode)) {
    // Blank code-styled lines inside a block are part of the program text.
    flow.code(codeBlanks(content.plain));
  } else {
    content.parts.forEach((part, i) => {
      // Equations alone on their line are display equations, whichever way Word stored them.
      const maths = Array.isArray(part) && depth === undefined && !numbered ? onlyMath(part) : undefined;
      if (maths && Array.isArray(part))
        for (const n of part) {
          if (n.type !== 'inlineMath') continue;
          const turned = unmark(n);
          if (turned !== undefined) flow.page = turned;
          flow.block({ type: 'math', value: n.value });
        }
      else if (Array.isArray(part)) emit(part, i > 0);
      else {
        flow.block(part);
        if (part.source?.page !== undefined) flow.page = part.source.page;
      }
    });
  }
  for (const f of content.floats) flow.block(f);
}

/** `pages`: where Word last laid out the body, for the body's own blocks (not a cell's, a note's or a text box's). */
function walkBlocks(nodes: XmlNode[], env: DocxEnv, flow: Flow, pages?: BodyPages): void {
  let seen = 0;
  for (const c of nodes) {
    if (!isElement(c)) continue;
    const page = pages?.blocks.get(c);
    if (page !== undefined) {
      flow.page = page;
      env.shared.page = page;
    }
    if (++seen % 256 === 0) throwIfAborted(env.shared.ctx.signal);
    switch (ln(c)) {
      case 'p':
        paragraphBlock(c, env, flow, page);
        break;
      case 'tbl': {
        throwIfAborted(env.shared.ctx.signal);
        const t = readTable(c, env);
        const only =
          t.children.length === 1 && t.children[0]?.children.length === 1 ? t.children[0].children[0] : undefined;
        // A one-cell table is a frame drawn around content, not tabular data.
        if (only) for (const b of only.children) flow.block(b);
        else flow.block(t);
        break;
      }
      case 'sdt':
        walkBlocks(kid(c, 'sdtContent')?.children ?? [], env, flow, pages);
        break;
      case 'customXml':
      case 'ins':
      case 'moveTo':
      case 'smartTag':
        walkBlocks(c.children, env, flow, pages);
        break;
      case 'AlternateContent': {
        const branch = pickAlternate(c);
        if (branch) walkBlocks(branch.children, env, flow, pages);
        break;
      }
      case 'altChunk':
        // Imported HTML/RTF/MHT chunks are only merged in by Word when it opens the file.
        env.shared.ctx.warn('Embedded import chunks (w:altChunk) were skipped.');
        break;
      default:
        break;
    }
  }
}

/** Block content of a body, cell, text box, note, header or footer. */
export function readBlocks(nodes: XmlNode[], env: DocxEnv): Block[] {
  const flow = new Flow();
  walkBlocks(nodes, env, flow);
  return flow.finish();
}

/** The body's blocks, each top-level one with the page Word last rendered it on (when the file says). */
export function readBody(nodes: XmlNode[], env: DocxEnv): Block[] {
  const elements = nodes.filter(isElement);
  const flow = new Flow();
  const pages = elementPages(elements);
  if (pages) {
    env.shared.rowPages = pages.units;
    env.shared.lastPage = pages.last;
  }
  walkBlocks(elements, env, flow, pages);
  env.shared.page = undefined;
  return flow.finish();
}
