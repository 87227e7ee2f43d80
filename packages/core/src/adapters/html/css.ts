/**
 * The sliver of CSS that tells a heading from body text: `font-size` and `font-weight` on simple
 * selectors (`p`, `.para2`, `span.span2`, `#title`). Selectors with combinators, pseudo-classes or
 * attributes, and every at-rule (`@media`, `@font-face`, `@import`), are skipped: e-book and
 * office exports style paragraphs by class, and a wrong guess there would only invent headings.
 * Bounded: input is cut at MAX_CSS characters and at MAX_RULES rules, and the scan is linear.
 */

export const MAX_CSS = 512 * 1024;
const MAX_RULES = 20_000;

/** A font size as written: absolute (px) or relative to the parent's size. */
export type FontSize = { px: number } | { factor: number } | { rem: number };

export interface Declarations {
  size?: FontSize;
  bold?: boolean;
}

export interface CssRule {
  tag?: string;
  id?: string;
  classes: string[];
  /** Specificity as one number (ids × 10000 + classes × 100 + tag), then source order. */
  rank: number;
  decl: Declarations;
}

/** CSS's absolute keywords at a 16 px medium. */
const KEYWORD_PX: Record<string, number> = {
  'xx-small': 9,
  'x-small': 10,
  small: 13,
  medium: 16,
  large: 18,
  'x-large': 24,
  'xx-large': 32,
  'xxx-large': 48,
};

function parseSize(raw: string): FontSize | undefined {
  const v = raw.trim().toLowerCase();
  const kw = KEYWORD_PX[v];
  if (kw) return { px: kw };
  if (v === 'larger') return { factor: 1.2 };
  if (v === 'smaller') return { factor: 1 / 1.2 };
  const m = /^(\d*\.?\d+)(px|pt|pc|em|rem|%|in|cm|mm|ex)?$/.exec(v);
  if (!m) return undefined;
  const n = Number(m[1]);
  if (!Number.isFinite(n) || n <= 0 || n > 1000) return undefined;
  switch (m[2]) {
    case 'pt':
      return { px: (n * 4) / 3 };
    case 'pc':
      return { px: n * 16 };
    case 'in':
      return { px: n * 96 };
    case 'cm':
      return { px: (n * 96) / 2.54 };
    case 'mm':
      return { px: (n * 96) / 25.4 };
    case 'em':
      return { factor: n };
    case 'ex':
      return { factor: n / 2 };
    case '%':
      return { factor: n / 100 };
    case 'rem':
      return { rem: n };
    default:
      return { px: n };
  }
}

function parseWeight(raw: string): boolean | undefined {
  const v = raw.trim().toLowerCase();
  if (v === 'bold' || v === 'bolder') return true;
  if (v === 'normal' || v === 'lighter') return false;
  const n = Number(v);
  return Number.isFinite(n) && n > 0 ? n >= 600 : undefined;
}

/** `font-size`, `font-weight` and the `font` shorthand (`bold 18pt serif`) of a declaration block. */
export function parseDeclarations(block: string): Declarations {
  const out: Declarations = {};
  for (const part of block.split(';')) {
    const colon = part.indexOf(':');
    if (colon < 0) continue;
    const prop = part.slice(0, colon).trim().toLowerCase();
    const value = part
      .slice(colon + 1)
      .replace(/!important/i, '')
      .trim();
    if (prop === 'font-size') {
      const size = parseSize(value);
      if (size) out.size = size;
    } else if (prop === 'font-weight') {
      const bold = parseWeight(value);
      if (bold !== undefined) out.bold = bold;
    } else if (prop === 'font') {
      // The shorthand resets the weight to normal unless it names one; the size comes before `/` or the family.
      const words = value.split(/\s+/);
      out.bold = words.some((w) => parseWeight(w) === true);
      for (const w of words) {
        const size = parseSize(w.split('/')[0] ?? '');
        if (size) {
          out.size = size;
          break;
        }
      }
    }
  }
  return out;
}

/** `tag.class1.class2#id`, or undefined for anything with combinators, pseudos or attributes. */
function parseCompound(sel: string): Pick<CssRule, 'tag' | 'id' | 'classes'> | undefined {
  const m = /^([a-zA-Z][\w-]*|\*)?((?:[.#][\w-]+)*)$/.exec(sel.trim());
  if (!m || (!m[1] && !m[2])) return undefined;
  const classes: string[] = [];
  let id: string | undefined;
  for (const piece of m[2]?.match(/[.#][\w-]+/g) ?? []) {
    if (piece.startsWith('.')) classes.push(piece.slice(1));
    else id = piece.slice(1);
  }
  const tag = m[1] && m[1] !== '*' ? m[1].toUpperCase() : undefined;
  return { tag, id, classes };
}

/**
 * Rules that set a font size or weight, in source order. `orderBase` continues the order of the
 * sheets before this one, so a later sheet wins ties as in the cascade.
 */
export function parseCss(text: string, orderBase = 0): CssRule[] {
  const css = text.slice(0, MAX_CSS).replace(/\/\*[\s\S]*?(?:\*\/|$)/g, ' ');
  const rules: CssRule[] = [];
  let i = 0;
  let order = orderBase;
  while (i < css.length && rules.length < MAX_RULES) {
    const open = css.indexOf('{', i);
    if (open < 0) break;
    const prelude = css.slice(i, open).trim();
    if (prelude.startsWith('@') || prelude.includes('@')) {
      // Skip the at-rule's whole block, nested blocks included.
      let depth = 1;
      let k = open + 1;
      while (k < css.length && depth > 0) {
        const ch = css[k];
        if (ch === '{') depth++;
        else if (ch === '}') depth--;
        k++;
      }
      i = k;
      continue;
    }
    const close = css.indexOf('}', open);
    const body = css.slice(open + 1, close < 0 ? css.length : close);
    i = close < 0 ? css.length : close + 1;
    const decl = parseDeclarations(body);
    if (decl.size === undefined && decl.bold === undefined) continue;
    for (const sel of prelude.split(',')) {
      const compound = parseCompound(sel);
      if (!compound) continue;
      const specificity = (compound.id ? 10000 : 0) + compound.classes.length * 100 + (compound.tag ? 1 : 0);
      rules.push({ ...compound, rank: specificity * 1e6 + order++, decl });
    }
  }
  return rules;
}
