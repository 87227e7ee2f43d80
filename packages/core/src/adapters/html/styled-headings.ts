import { append } from '../../util/arrays.ts';
import { type CssRule, type Declarations, type FontSize, parseDeclarations } from './css.ts';
import { nameOf } from './walk.ts';

/**
 * Headings that exist only in the stylesheet. Office suites and e-book tools export a title as
 * `<p class="para2"><span class="span2">…</span></p>` with `.span2 { font-size: 18pt; font-weight:
 * bold }` and no `h1`–`h6`. Here each text gets an approximate computed font (size through
 * inheritance, weight), the body text's size is the one carrying the most characters, and a short
 * leaf block whose text is all clearly larger becomes a heading; its level is the rank of its size
 * among such blocks (bold first at equal size). Only for documents without heading elements: where
 * the author wrote headings, they are the outline.
 */

/**
 * A regular-weight heading is at least this much larger than the body text (and a pixel): a
 * slightly larger lead paragraph or subtitle is not one. Bold text needs only to be larger.
 */
const MIN_RATIO = 1.25;
/** Longer blocks are large-print paragraphs (a lead, a pull quote), not headings. */
const MAX_HEADING_CHARS = 200;
/** Elements looked at; a larger document keeps its markup as written. */
const MAX_ELEMENTS = 200_000;
/**
 * Candidate rules tested against elements, summed over the page; past it the markup is kept as
 * written. A sheet of 20,000 rules all keyed on one class, on a page whose every paragraph carries
 * that class, would test billions (an EPUB chapter of such ran for minutes).
 */
const MAX_RULE_CHECKS = 1_000_000;
const ROOT_PX = 16;
/** More "headings" than this means the size test is not telling headings apart on this page. */
const MAX_HEADINGS = 2000;

/** Elements whose presence inside a candidate makes it a container, not a heading. */
const INNER_BLOCKS = new Set([
  'P',
  'DIV',
  'TABLE',
  'UL',
  'OL',
  'DL',
  'LI',
  'BLOCKQUOTE',
  'PRE',
  'SECTION',
  'ARTICLE',
  'IMG',
  'FIGURE',
  'HR',
]);
/** Local names, lower case: SVG's <style> and <title> are lower case in a browser's DOM, upper in ours. */
const NEVER_TEXT = new Set(['script', 'style', 'noscript', 'template', 'head', 'title']);

/** `<font size="1…7">`, the way old pages and some converters size text. */
const FONT_SIZE_PX = [10, 13, 16, 18, 24, 32, 48];

interface Style {
  px: number;
  bold: boolean;
}

function resolveSize(size: FontSize | undefined, parent: number): number {
  if (!size) return parent;
  if ('px' in size) return size.px;
  if ('factor' in size) return parent * size.factor;
  return ROOT_PX * size.rem;
}

function matches(rule: CssRule, el: Element, classes: readonly string[]): boolean {
  if (rule.tag && rule.tag !== el.tagName) return false;
  if (rule.id && rule.id !== el.getAttribute('id')) return false;
  return rule.classes.every((c) => classes.includes(c));
}

class StyleIndex {
  /** Rules by what they key on, so an element checks only rules that can match it. */
  private byClass = new Map<string, CssRule[]>();
  private byTag = new Map<string, CssRule[]>();
  private byId = new Map<string, CssRule[]>();
  private universal: CssRule[] = [];
  /** Rules tested so far (see MAX_RULE_CHECKS). */
  checks = 0;

  constructor(rules: readonly CssRule[]) {
    for (const r of rules) {
      // In place: copying the list per rule made 20,000 rules on one class 200 million copies.
      const push = (map: Map<string, CssRule[]>, key: string) => {
        const list = map.get(key);
        if (list) list.push(r);
        else map.set(key, [r]);
      };
      if (r.id) push(this.byId, r.id);
      else if (r.classes[0]) push(this.byClass, r.classes[0]);
      else if (r.tag) push(this.byTag, r.tag);
      else this.universal.push(r);
    }
  }

  /** The element's own declarations, cascaded: rules by specificity and order, then `style=""`. */
  declarations(el: Element): Declarations {
    const classes = (el.getAttribute('class') ?? '').split(/\s+/).filter(Boolean);
    const found: CssRule[] = [...this.universal, ...(this.byTag.get(el.tagName) ?? [])];
    for (const c of classes) append(found, this.byClass.get(c) ?? []);
    const id = el.getAttribute('id');
    if (id) append(found, this.byId.get(id) ?? []);
    this.checks += found.length;
    // Per property the cascade keeps the matching rule of highest rank: one pass, no sort per element.
    let size: CssRule | undefined;
    let bold: CssRule | undefined;
    for (const r of found) {
      if (!matches(r, el, classes)) continue;
      if (r.decl.size && (!size || r.rank > size.rank)) size = r;
      if (r.decl.bold !== undefined && (!bold || r.rank > bold.rank)) bold = r;
    }
    const out: Declarations = {};
    if (size) out.size = size.decl.size;
    if (bold) out.bold = bold.decl.bold;
    const inline = el.getAttribute('style');
    if (inline) {
      const d = parseDeclarations(inline);
      if (d.size) out.size = d.size;
      if (d.bold !== undefined) out.bold = d.bold;
    }
    return out;
  }
}

function ownStyle(el: Element, parent: Style, index: StyleIndex): Style {
  const d = index.declarations(el);
  let px = resolveSize(d.size, parent.px);
  let bold = d.bold ?? parent.bold;
  const tag = el.tagName;
  if (tag === 'B' || tag === 'STRONG' || tag === 'TH') bold = d.bold ?? true;
  if (tag === 'BIG') px = d.size ? px : px * 1.2;
  if (tag === 'SMALL') px = d.size ? px : px / 1.2;
  if (tag === 'FONT') {
    const n = /^\s*([+-]?)(\d)/.exec(el.getAttribute('size') ?? '');
    if (n) {
      const step = Number(n[2]);
      const level = n[1] === '+' ? 3 + step : n[1] === '-' ? 3 - step : step;
      px = FONT_SIZE_PX[Math.min(7, Math.max(1, level)) - 1] as number;
    }
  }
  return { px, bold };
}

/** Rounded so that 18pt written as 24px, 1.5em or 150% counts as one size. */
const sizeKey = (px: number): number => Math.round(px * 2) / 2;

interface TextStyles {
  /** Characters per font size across the document. */
  histogram: Map<number, number>;
  /** Per text node, the style it is drawn in. */
  styles: Map<Node, Style>;
}

function computeTextStyles(root: Element, index: StyleIndex): TextStyles | undefined {
  const histogram = new Map<number, number>();
  const styles = new Map<Node, Style>();
  const stack: Array<{ el: Element; style: Style }> = [{ el: root, style: { px: ROOT_PX, bold: false } }];
  let seen = 0;
  while (stack.length) {
    const { el, style: parent } = stack.pop() as { el: Element; style: Style };
    if (++seen > MAX_ELEMENTS || index.checks > MAX_RULE_CHECKS) return undefined;
    const style = ownStyle(el, parent, index);
    for (const node of el.childNodes) {
      if (node.nodeType === 3) {
        const length = (node.nodeValue ?? '').replace(/\s+/g, '').length;
        if (!length) continue;
        styles.set(node, style);
        const key = sizeKey(style.px);
        histogram.set(key, (histogram.get(key) ?? 0) + length);
      } else if (node.nodeType === 1 && !NEVER_TEXT.has(nameOf(node as Element))) {
        stack.push({ el: node as Element, style });
      }
    }
  }
  return { histogram, styles };
}

function dominantSize(histogram: ReadonlyMap<number, number>): number | undefined {
  let best: number | undefined;
  let most = 0;
  for (const [size, count] of histogram) {
    if (count > most || (count === most && best !== undefined && size < best)) {
      best = size;
      most = count;
    }
  }
  return best;
}

/** The candidate's text styles when it is one short run of text, else undefined. */
function candidateStyle(el: Element, styles: ReadonlyMap<Node, Style>): Style | undefined {
  let chars = 0;
  let px = Number.POSITIVE_INFINITY;
  let bold = true;
  const stack: Node[] = [...el.childNodes];
  while (stack.length) {
    const node = stack.pop() as Node;
    if (node.nodeType === 3) {
      const style = styles.get(node);
      if (!style) continue;
      chars += (node.nodeValue ?? '').trim().length;
      if (chars > MAX_HEADING_CHARS) return undefined;
      px = Math.min(px, style.px);
      bold &&= style.bold;
    } else if (node.nodeType === 1) {
      const tag = (node as Element).tagName;
      if (INNER_BLOCKS.has(tag) || /^H[1-6]$/.test(tag)) return undefined;
      for (const child of node.childNodes) stack.push(child);
    }
  }
  return chars > 0 ? { px, bold } : undefined;
}

function inTable(el: Element, root: Element): boolean {
  for (let p = el.parentElement; p && p !== root; p = p.parentElement)
    if (p.tagName === 'TD' || p.tagName === 'TH') return true;
  return false;
}

function retag(el: Element, level: number): void {
  const doc = el.ownerDocument;
  const h = doc.createElement(`h${level}`);
  while (el.firstChild) h.appendChild(el.firstChild);
  el.parentNode?.replaceChild(h, el);
}

/**
 * Turns blocks styled as headings into `h1`–`h6` in place. Returns how many were marked. The
 * caller decides that the page has no heading elements; nothing happens when nothing sets a font.
 */
export function markStyledHeadings(root: Element, rules: readonly CssRule[]): number {
  if (!rules.length && !root.querySelector('[style], font, big')) return 0;
  const index = new StyleIndex(rules);
  const computed = computeTextStyles(root, index);
  if (!computed) return 0;
  const body = dominantSize(computed.histogram);
  if (body === undefined) return 0;
  const threshold = Math.max(body * MIN_RATIO, body + 1);

  const picked: Array<{ el: Element; style: Style }> = [];
  // Leaf blocks only (candidateStyle refuses blocks inside), so the text a heading takes is whole.
  for (const el of root.querySelectorAll('p, div, center')) {
    // Document order: a block inside the last pick (a <center> in a <div>) is already covered.
    if (picked[picked.length - 1]?.el.contains(el) || inTable(el, root)) continue;
    const style = candidateStyle(el, computed.styles);
    if (!style) continue;
    const size = sizeKey(style.px);
    if (size >= threshold || (style.bold && size > body)) picked.push({ el, style });
    if (picked.length > MAX_HEADINGS) return 0;
  }
  if (!picked.length) return 0;
  // Levels: larger first; at one size, bold outranks regular.
  const keys = [...new Set(picked.map((p) => sizeKey(p.style.px) * 2 + (p.style.bold ? 1 : 0)))].sort((a, b) => b - a);
  for (const { el, style } of picked) {
    const level = Math.min(6, keys.indexOf(sizeKey(style.px) * 2 + (style.bold ? 1 : 0)) + 1);
    retag(el, level);
  }
  return picked.length;
}
