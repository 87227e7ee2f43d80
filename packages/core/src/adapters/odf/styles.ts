import { monospacedByName } from '../../util/fonts.ts';
import { attr, child, elements, type XmlElement } from '../../util/xml.ts';

/** Character formatting we carry into Markdown; `undefined` means "inherit". */
export interface TextFormat {
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  mono?: boolean;
  position?: 'super' | 'sub' | 'normal';
}

export interface ParagraphInfo {
  /** Outline level from `style:default-outline-level` somewhere in the parent chain. */
  outlineLevel?: number;
  /** Writer's Title/Subtitle paragraph styles: headings by role rather than by outline level. */
  role?: 'title' | 'subtitle';
  listStyle?: string;
  format: TextFormat;
}

export interface ListLevelInfo {
  ordered: boolean;
  start: number;
}

/** Family names the writers use for the Title/Subtitle roles, by internal or display name. */
const TITLE_NAMES = new Set(['title']);
const SUBTITLE_NAMES = new Set(['subtitle']);

const key = (family: string, name: string) => `${family}\u0000${name}`;

/**
 * The styles an ODF part can see: common styles (styles.xml) plus one part's automatic styles.
 * content.xml and styles.xml each have their own automatic styles, sometimes with the same names,
 * so each part gets its own sheet.
 */
export class OdfStyles {
  private readonly styles = new Map<string, XmlElement>();
  private readonly lists = new Map<string, XmlElement>();
  private readonly monoFonts = new Set<string>();
  /** Font faces declared of variable pitch, whatever their names say. */
  private readonly proportional = new Set<string>();
  private readonly formatCache = new Map<string, TextFormat>();
  private readonly paraCache = new Map<string, ParagraphInfo>();

  /** `containers` are office:styles / office:automatic-styles / office:font-face-decls, later ones win. */
  constructor(containers: (XmlElement | undefined)[]) {
    for (const c of containers) {
      if (!c) continue;
      for (const el of elements(c)) {
        if (el.name === 'style:style') {
          const name = attr(el, 'style:name');
          if (name) this.styles.set(key(attr(el, 'style:family') ?? '', name), el);
        } else if (el.name === 'text:list-style') {
          const name = attr(el, 'style:name');
          if (name) this.lists.set(name, el);
        } else if (el.name === 'style:font-face') {
          const name = attr(el, 'style:name');
          const family = attr(el, 'svg:font-family') ?? '';
          // A declared pitch decides (LibreOffice declares one for every face: American Typewriter
          // is variable); a name only where none is.
          const pitch = attr(el, 'style:font-pitch');
          if (name && pitch === 'variable') this.proportional.add(name);
          else if (name && (pitch === 'fixed' || monospacedByName(family) || monospacedByName(name)))
            this.monoFonts.add(name);
        }
      }
    }
  }

  /** Effective character format of a text (span) style, parents included. */
  text(name: string | undefined): TextFormat {
    return name ? this.formatOf('text', name, 0) : {};
  }

  /** Effective paragraph facts, parents included. */
  paragraph(name: string | undefined): ParagraphInfo {
    if (!name) return { format: {} };
    const cached = this.paraCache.get(name);
    if (cached) return cached;
    const info: ParagraphInfo = { format: this.formatOf('paragraph', name, 0) };
    let el = this.styles.get(key('paragraph', name));
    let levelDecided = false;
    for (let guard = 0; el && guard < 32; guard++) {
      const raw = attr(el, 'style:default-outline-level');
      // An explicit empty level cancels the one a parent style declares.
      if (!levelDecided && raw !== undefined) {
        levelDecided = true;
        const level = Number(raw);
        if (raw !== '' && Number.isInteger(level) && level > 0) info.outlineLevel = level;
      }
      const list = attr(el, 'style:list-style-name');
      if (info.listStyle === undefined && list) info.listStyle = list;
      const names = [attr(el, 'style:name'), attr(el, 'style:display-name')].map((n) =>
        (n ?? '').replace(/_20_/g, ' ').toLowerCase(),
      );
      if (!info.role && names.some((n) => TITLE_NAMES.has(n))) info.role = 'title';
      if (!info.role && names.some((n) => SUBTITLE_NAMES.has(n))) info.role = 'subtitle';
      const parent = attr(el, 'style:parent-style-name');
      el = parent ? this.styles.get(key('paragraph', parent)) : undefined;
    }
    this.paraCache.set(name, info);
    return info;
  }

  /** Numbering facts of one level of a list style; undefined when the style is unknown. */
  listLevel(styleName: string | undefined, level: number): ListLevelInfo | undefined {
    const style = styleName ? this.lists.get(styleName) : undefined;
    if (!style) return undefined;
    let best: XmlElement | undefined;
    for (const el of elements(style)) {
      const l = Number(attr(el, 'text:level') ?? '1');
      if (l === level) best = el;
    }
    // Deeper levels than the style defines reuse its last level, as the writers do.
    best ??= elements(style).at(-1);
    if (!best) return undefined;
    if (best.name === 'text:list-level-style-number') {
      const start = Number(attr(best, 'text:start-value') ?? '1');
      // An empty num-format shows no label at all: not a numbered list to a reader.
      const ordered = (attr(best, 'style:num-format') ?? '1') !== '';
      return { ordered, start: Number.isInteger(start) && start >= 0 ? start : 1 };
    }
    return { ordered: false, start: 1 };
  }

  private formatOf(family: string, name: string, depth: number): TextFormat {
    const k = key(family, name);
    const cached = this.formatCache.get(k);
    if (cached) return cached;
    const el = this.styles.get(k);
    if (!el || depth > 32) return {};
    const parent = attr(el, 'style:parent-style-name');
    const base = parent ? this.formatOf(family, parent, depth + 1) : {};
    const own = this.readTextProperties(child(el, 'style:text-properties'));
    const merged = mergeFormat(base, own);
    this.formatCache.set(k, merged);
    return merged;
  }

  private readTextProperties(props: XmlElement | undefined): TextFormat {
    const f: TextFormat = {};
    if (!props) return f;
    const weight = attr(props, 'fo:font-weight');
    if (weight) f.bold = weight === 'bold' || (Number(weight) >= 600 && !Number.isNaN(Number(weight)));
    const style = attr(props, 'fo:font-style');
    if (style) f.italic = style === 'italic' || style === 'oblique';
    const strike = attr(props, 'style:text-line-through-style');
    if (strike) f.strike = strike !== 'none';
    const fontName = attr(props, 'style:font-name');
    const family = attr(props, 'fo:font-family');
    if (fontName)
      f.mono = this.monoFonts.has(fontName) || (!this.proportional.has(fontName) && monospacedByName(fontName));
    else if (family) f.mono = monospacedByName(family);
    if (attr(props, 'style:font-pitch') === 'fixed') f.mono = true;
    const pos = attr(props, 'style:text-position');
    if (pos) f.position = textPosition(pos);
    return f;
  }
}

/** `super 58%`, `sub`, `33% 58%`, `-33%`, `0% 100%`. */
function textPosition(value: string): 'super' | 'sub' | 'normal' {
  const first = value.trim().split(/\s+/)[0] ?? '';
  if (first === 'super') return 'super';
  if (first === 'sub') return 'sub';
  const n = Number.parseFloat(first);
  if (Number.isNaN(n) || n === 0) return 'normal';
  return n > 0 ? 'super' : 'sub';
}

/** Inner formatting overrides outer formatting field by field. */
export function mergeFormat(outer: TextFormat, inner: TextFormat): TextFormat {
  const out: TextFormat = { ...outer };
  for (const [k, v] of Object.entries(inner) as [keyof TextFormat, never][]) if (v !== undefined) out[k] = v;
  return out;
}
