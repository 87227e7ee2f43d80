import { badInput } from '../../errors.ts';
import { image, link, text } from '../../tree/build.ts';
import { continuedOn } from '../../tree/continued.ts';
import type { Block, FootnoteDefinition, Image, Inline, MathBlock } from '../../tree/types.ts';
import { append } from '../../util/arrays.ts';
import { attr, isElement, type XmlElement, type XmlNode } from '../../util/xml.ts';
import { PageTurns } from '../common/page-turns.ts';
import { chartBlocks, chartSpace } from '../ooxml/chart.ts';
import { type DocxEnv, MAX_NESTING } from './env.ts';
import { ommlToLatex } from './math.ts';
import { showsText } from './pages.ts';
import { mergeFormat, type RunFormat, runFormat } from './styles.ts';
import { find, kid, kids, ln, pickAlternate, val } from './xml.ts';

export const CHECKED = '☒';
export const UNCHECKED = '☐';

/** What one paragraph yields: inline runs split around display equations, plus floating content. */
export interface ParagraphContent {
  /** Inline segments and display equations in order. */
  parts: (Inline[] | MathBlock)[];
  /** Text boxes and shapes anchored in the paragraph, output after it. */
  floats: Block[];
  /** Non-space characters in monospace vs other fonts, to spot code typed without a code style. */
  mono: number;
  other: number;
  /** The paragraph's text as typed, for code blocks. */
  plain: string;
}

interface Sink extends ParagraphContent {
  out: Inline[];
  env: DocxEnv;
  paraStyle: string | undefined;
  /** Headings carry their own weight; bold/italic from styles would only add noise there. */
  plainMarks: boolean;
  href: string | undefined;
  /** Where Word's layout turned the page inside the paragraph, when its first page is known. */
  turns: PageTurns | undefined;
}

function push(sink: Sink, node: Inline): void {
  sink.out.push(sink.turns ? sink.turns.stamp(node) : node);
}

const MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  jpe: 'image/jpeg',
  gif: 'image/gif',
  bmp: 'image/bmp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  emf: 'image/emf',
  wmf: 'image/wmf',
};

export const mimeOf = (path: string): string | undefined => MIME[path.slice(path.lastIndexOf('.') + 1).toLowerCase()];

/** Wraps a leaf in the marks of its run, link outermost, so adjacent runs merge cleanly. */
function decorate(leaf: Inline, fmt: RunFormat, href: string | undefined, plainMarks: boolean): Inline {
  let n = leaf;
  if (fmt.vert === 'sup') n = { type: 'superscript', children: [n] };
  else if (fmt.vert === 'sub') n = { type: 'subscript', children: [n] };
  if (fmt.strike) n = { type: 'strikethrough', children: [n] };
  if (fmt.italic && !plainMarks) n = { type: 'emphasis', children: [n] };
  if (fmt.bold && !plainMarks) n = { type: 'strong', children: [n] };
  if (href) n = link(href, [n]);
  return n;
}

type Wrapper = Extract<Inline, { children: Inline[] }>;

/** Joins neighbours with the same mark or link target, recursively. */
export function mergeInlines(nodes: Inline[]): Inline[] {
  const out: Inline[] = [];
  for (const n of nodes) {
    // The inline a later page's part starts with stays one, to carry that page (the Markdown joins
    // neighbours again: `normalizeInlines`).
    const prev = continuedOn(n) ? undefined : out[out.length - 1];
    if (n.type === 'text' && prev?.type === 'text') {
      out[out.length - 1] = { ...prev, value: prev.value + n.value };
      continue;
    }
    if (n.type === 'inlineCode' && prev?.type === 'inlineCode') {
      out[out.length - 1] = { ...prev, value: prev.value + n.value };
      continue;
    }
    if (prev && 'children' in n && prev.type === n.type && (n.type !== 'link' || (prev as typeof n).href === n.href)) {
      const p = prev as Wrapper;
      out[out.length - 1] = { ...p, children: [...p.children, ...(n as Wrapper).children] } as Wrapper;
      continue;
    }
    out.push(n);
  }
  return out.map((n) => ('children' in n ? ({ ...n, children: mergeInlines(n.children) } as Wrapper) : n));
}

function fieldsHide(env: DocxEnv): boolean {
  return env.fields.some((f) => f.phase === 'instr');
}

function fieldHref(env: DocxEnv): string | undefined {
  for (let i = env.fields.length - 1; i >= 0; i--) {
    const href = env.fields[i]?.href;
    if (href) return href;
  }
  return undefined;
}

/** HYPERLINK "url" \l "anchor" → href. */
function hyperlinkInstr(instr: string): string | undefined {
  const m = /^\s*HYPERLINK\b(.*)$/is.exec(instr);
  if (!m) return undefined;
  const rest = m[1] ?? '';
  const anchor = /\\l\s+"([^"]*)"/.exec(rest)?.[1];
  const target = /^\s*"([^"]*)"/.exec(rest)?.[1] ?? /^\s*([^\s\\]+)/.exec(rest)?.[1];
  if (target) return anchor ? `${target}#${anchor}` : target;
  return anchor ? `#${anchor}` : undefined;
}

function emitText(sink: Sink, value: string, fmt: RunFormat): void {
  if (!value || fmt.hidden || fieldsHide(sink.env)) return;
  const visible = value.replace(/\s/g, '').length;
  if (fmt.mono) sink.mono += visible;
  else sink.other += visible;
  sink.plain += value;
  const href = sink.href ?? fieldHref(sink.env);
  const leaf: Inline = fmt.mono && value.trim() ? { type: 'inlineCode', value } : text(value);
  push(sink, decorate(leaf, fmt, href, sink.plainMarks));
}

function emitNode(sink: Sink, node: Inline, fmt: RunFormat = {}): void {
  if (fieldsHide(sink.env)) return;
  const href = sink.href ?? fieldHref(sink.env);
  push(
    sink,
    node.type === 'break' || node.type === 'image'
      ? href
        ? link(href, [node])
        : node
      : decorate(node, fmt, href, sink.plainMarks),
  );
  if (node.type === 'break') sink.plain += '\n';
}

/**
 * Word fills empty alt text with machine captions ("… Description automatically generated",
 * "AI-generated content may be incorrect"); those describe nothing the author wrote.
 */
function authoredAlt(alt: string): string {
  const a = alt.replace(/\s+/g, ' ').trim();
  if (
    /description automatically generated|ai-generated content may be incorrect|AI 生成的内容可能不正确|automatisch generierte beschreibung/i.test(
      a,
    )
  )
    return '';
  return a;
}

function makeImage(sink: Sink, rid: string | undefined, alt: string, title?: string): void {
  if (!rid) return;
  const rel = sink.env.rels.get(rid);
  if (!rel) return;
  const fields: Omit<Image, 'type' | 'alt'> = {};
  if (rel.external) fields.url = rel.target;
  else {
    fields.ref = rel.target;
    const mime = mimeOf(rel.target);
    if (mime) fields.mime = mime;
  }
  if (title && title !== alt) fields.title = title;
  const img = image(authoredAlt(alt), fields);
  sink.env.shared.images.push(img);
  emitNode(sink, img);
}

/** Descendants by local name, not looking inside text boxes (their pictures belong to them). */
function findOutsideTextBoxes(el: XmlElement, local: string, out: XmlElement[] = []): XmlElement[] {
  for (const c of el.children) {
    if (!isElement(c)) continue;
    const name = ln(c);
    if (name === local) out.push(c);
    else if (name === 'txbxContent') continue;
    else if (name === 'AlternateContent') {
      const branch = pickAlternate(c);
      if (branch) findOutsideTextBoxes(branch, local, out);
    } else findOutsideTextBoxes(c, local, out);
  }
  return out;
}

function textBoxes(sink: Sink, el: XmlElement): void {
  const env = sink.env;
  for (const box of find(el, 'txbxContent')) {
    if (env.depth >= MAX_NESTING) throw badInput('Text boxes are nested too deeply: refusing the document.');
    const inner: DocxEnv = { ...env, fields: [], depth: env.depth + 1 };
    append(sink.floats, env.shared.readBlocks(box.children, inner));
  }
}

/**
 * Chart caches hold binary floating point as written by Excel ("4.4000000000000004"); twelve
 * significant digits show the number the author typed.
 */
function tidyChartNumbers(block: Block): Block {
  if (block.type !== 'table') return block;
  for (const row of block.children)
    for (const cell of row.children)
      for (const para of cell.children)
        if (para.type === 'paragraph')
          for (const leaf of para.children)
            if (leaf.type === 'text' && /^-?\d+\.\d{12,}$/.test(leaf.value))
              leaf.value = String(Number(Number(leaf.value).toPrecision(12)));
  return block;
}

function drawing(sink: Sink, el: XmlElement): void {
  for (const frame of kids(el).filter((k) => ln(k) === 'inline' || ln(k) === 'anchor')) {
    const docPr = kid(frame, 'docPr');
    const alt = attr(docPr, 'descr') ?? attr(docPr, 'title') ?? '';
    const title = attr(docPr, 'title');
    for (const blip of findOutsideTextBoxes(frame, 'blip')) {
      makeImage(sink, attr(blip, 'r:embed') ?? attr(blip, 'r:link'), alt, title);
    }
    for (const ref of findOutsideTextBoxes(frame, 'chart')) {
      const rel = sink.env.rels.get(attr(ref, 'r:id') ?? '');
      const space = rel ? chartSpace(sink.env.shared.charts.get(rel.target)) : undefined;
      if (space) append(sink.floats, chartBlocks(space).map(tidyChartNumbers));
    }
    textBoxes(sink, frame);
  }
}

/** VML pictures (`w:pict`, `w:object`): image data and legacy text boxes. */
function vml(sink: Sink, el: XmlElement): void {
  for (const data of findOutsideTextBoxes(el, 'imagedata')) {
    makeImage(sink, attr(data, 'r:id') ?? attr(data, 'r:pict'), attr(data, 'o:title') ?? '');
  }
  textBoxes(sink, el);
}

function note(sink: Sink, el: XmlElement, kind: 'f' | 'e'): void {
  const env = sink.env;
  const shared = env.shared;
  const id = attr(el, 'w:id');
  const source = kind === 'f' ? shared.footnotes : shared.endnotes;
  const body = id === undefined ? undefined : source?.bodies.get(id);
  if (!body || !source || id === undefined) return;
  const key = `${kind}:${id}`;
  let identifier = shared.noteIds.get(key);
  if (identifier === undefined) {
    identifier = String(shared.noteIds.size + 1);
    shared.noteIds.set(key, identifier);
    const def: FootnoteDefinition = { type: 'footnoteDefinition', identifier, children: [] };
    // A footnote is printed on the page of its first reference (endnotes: `notesOnLastPage`).
    const page = kind === 'f' ? (sink.turns?.page ?? shared.page) : undefined;
    if (page !== undefined) def.source = { page };
    shared.notes.push(def);
    if (env.depth >= MAX_NESTING) throw badInput('Notes are nested too deeply: refusing the document.');
    const inner: DocxEnv = { shared, part: source.part, rels: source.rels, fields: [], depth: env.depth + 1 };
    def.children = shared.readBlocks(body.children, inner);
  }
  emitNode(sink, { type: 'footnoteReference', identifier }, { vert: 'base' });
}

function checkboxState(sdtPr: XmlElement | undefined): boolean | undefined {
  const box = kid(sdtPr, 'checkbox');
  if (!box) return undefined;
  const checked = attr(kid(box, 'checked'), 'w14:val') ?? val(kid(box, 'checked'));
  return checked !== undefined && /^(1|true|on)$/i.test(checked);
}

function legacyCheckbox(fldChar: XmlElement): boolean | undefined {
  const box = kid(kid(fldChar, 'ffData'), 'checkBox');
  if (!box) return undefined;
  const v = kid(box, 'checked') ?? kid(box, 'default');
  if (!v) return false;
  const s = val(v);
  return s === undefined || /^(1|true|on)$/i.test(s);
}

const SYMBOL_GLYPHS: Record<string, string> = {
  F0FE: CHECKED,
  F0FD: CHECKED,
  F078: CHECKED,
  F0A8: UNCHECKED,
  F06F: UNCHECKED,
  F0B7: '•',
};

function run(sink: Sink, r: XmlElement): void {
  const rPr = kid(r, 'rPr');
  const fmt = mergeFormat(sink.env.shared.styles.runFormat(sink.paraStyle, val(kid(rPr, 'rStyle'))), runFormat(rPr));
  runContent(sink, r.children, fmt);
}

function runContent(sink: Sink, nodes: XmlNode[], fmt: RunFormat): void {
  const env = sink.env;
  for (const c of nodes) {
    if (!isElement(c)) continue;
    switch (ln(c)) {
      case 't':
        if (showsText(c)) sink.turns?.seeText();
        emitText(sink, c.children.filter((t): t is string => typeof t === 'string').join(''), fmt);
        break;
      case 'lastRenderedPageBreak':
        sink.turns?.mark();
        break;
      case 'tab':
      case 'ptab':
        emitText(sink, '\t', { ...fmt, mono: false });
        break;
      case 'noBreakHyphen':
        emitText(sink, '-', fmt);
        break;
      case 'br': {
        // Page and column breaks only matter on paper.
        const type = attr(c, 'w:type');
        if (!type || type === 'textWrapping') emitNode(sink, { type: 'break' });
        break;
      }
      case 'cr':
        emitNode(sink, { type: 'break' });
        break;
      case 'sym': {
        const code = (attr(c, 'w:char') ?? '').toUpperCase();
        const glyph = SYMBOL_GLYPHS[code];
        if (glyph) emitText(sink, glyph, fmt);
        else if (/^[0-9A-F]{4}$/.test(code) && !code.startsWith('F'))
          emitText(sink, String.fromCharCode(Number.parseInt(code, 16)), fmt);
        break;
      }
      case 'fldChar': {
        const type = attr(c, 'w:fldCharType');
        if (type === 'begin') {
          const box = legacyCheckbox(c);
          if (box !== undefined) emitText(sink, box ? CHECKED : UNCHECKED, { ...fmt, mono: false });
          if (env.fields.length < 64) env.fields.push({ instr: '', phase: 'instr' });
        } else if (type === 'separate') {
          const top = env.fields[env.fields.length - 1];
          if (top) {
            top.phase = 'result';
            const href = hyperlinkInstr(top.instr);
            if (href) top.href = href;
          }
        } else if (type === 'end') env.fields.pop();
        break;
      }
      case 'instrText': {
        const top = env.fields[env.fields.length - 1];
        if (top && top.phase === 'instr')
          top.instr += c.children.filter((t): t is string => typeof t === 'string').join('');
        break;
      }
      case 'drawing':
        drawing(sink, c);
        break;
      case 'pict':
      case 'object':
        vml(sink, c);
        break;
      case 'AlternateContent': {
        const branch = pickAlternate(c);
        if (branch) runContent(sink, branch.children, fmt);
        break;
      }
      case 'footnoteReference':
        note(sink, c, 'f');
        break;
      case 'endnoteReference':
        note(sink, c, 'e');
        break;
      case 'oMath':
        inlineMath(sink, c);
        break;
      default:
        break;
    }
  }
}

/**
 * An equation is visible text to the page count (`m:t` in pages.ts); a page Word's layout turned
 * inside it starts the later part with the equation.
 */
function seeMath(sink: Sink, el: XmlElement): void {
  if (!sink.turns) return;
  if (find(el, 'lastRenderedPageBreak').length) sink.turns.mark();
  sink.turns.seeText();
}

function inlineMath(sink: Sink, el: XmlElement): void {
  const value = ommlToLatex(el);
  if (!value) return;
  seeMath(sink, el);
  sink.plain += value;
  sink.other += value.length;
  emitNode(sink, { type: 'inlineMath', value });
}

function displayMath(sink: Sink, el: XmlElement): void {
  if (fieldsHide(sink.env)) return;
  const value = kids(el, 'oMath').map(ommlToLatex).filter(Boolean).join(' \\\\ ');
  if (!value) return;
  seeMath(sink, el);
  const math: MathBlock = { type: 'math', value };
  // An equation the page turned before starts that page's part of the paragraph.
  const page = sink.turns?.take();
  if (page !== undefined) math.source = { page };
  sink.parts.push(sink.out, math);
  sink.out = [];
  sink.other += value.length;
}

/** Paragraph-level content: runs and the containers Word wraps around them. */
function content(sink: Sink, nodes: XmlNode[]): void {
  for (const c of nodes) {
    if (!isElement(c)) continue;
    switch (ln(c)) {
      case 'r':
        run(sink, c);
        break;
      case 'hyperlink': {
        const rid = attr(c, 'r:id');
        const anchor = attr(c, 'w:anchor');
        const target = rid ? sink.env.rels.get(rid)?.target : undefined;
        const href = target ? (anchor ? `${target}#${anchor}` : target) : anchor ? `#${anchor}` : undefined;
        const saved = sink.href;
        if (href && !saved) sink.href = href;
        content(sink, c.children);
        sink.href = saved;
        break;
      }
      case 'fldSimple': {
        const href = hyperlinkInstr(attr(c, 'w:instr') ?? '');
        const saved = sink.href;
        if (href && !saved) sink.href = href;
        content(sink, c.children);
        sink.href = saved;
        break;
      }
      case 'sdt': {
        const state = checkboxState(kid(c, 'sdtPr'));
        if (state !== undefined) emitText(sink, state ? CHECKED : UNCHECKED, {});
        else content(sink, kid(c, 'sdtContent')?.children ?? []);
        break;
      }
      case 'ins':
      case 'moveTo':
      case 'smartTag':
      case 'customXml':
      case 'dir':
      case 'bdo':
        content(sink, c.children);
        break;
      case 'AlternateContent': {
        const branch = pickAlternate(c);
        if (branch) content(sink, branch.children);
        break;
      }
      case 'oMath':
        inlineMath(sink, c);
        break;
      case 'oMathPara':
        displayMath(sink, c);
        break;
      default:
        // w:del, w:moveFrom (deleted text), comments, bookmarks, proofing marks: not content.
        break;
    }
  }
}

/**
 * Reads a paragraph's runs. `plainMarks` drops bold/italic (headings). `page`: the page the paragraph
 * starts on, when known, to mark the parts Word's layout put on later pages.
 */
export function readParagraph(
  p: XmlElement,
  env: DocxEnv,
  paraStyle: string | undefined,
  plainMarks: boolean,
  page?: number,
): ParagraphContent {
  const sink: Sink = {
    parts: [],
    floats: [],
    mono: 0,
    other: 0,
    plain: '',
    out: [],
    env,
    paraStyle,
    plainMarks,
    href: undefined,
    turns: page === undefined ? undefined : new PageTurns(page),
  };
  content(sink, p.children);
  // An instruction left open at the paragraph end is damage, not a field spanning paragraphs:
  // treating the rest as its result keeps a broken field from hiding the remaining document.
  for (const f of env.fields) f.phase = 'result';
  sink.parts.push(sink.out);
  const parts = sink.parts.map((part) => (Array.isArray(part) ? mergeInlines(part) : part));
  return { parts, floats: sink.floats, mono: sink.mono, other: sink.other, plain: sink.plain };
}
