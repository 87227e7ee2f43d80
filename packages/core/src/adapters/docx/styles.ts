import { monospacedByName } from '../../util/fonts.ts';
import { attr, type XmlElement } from '../../util/xml.ts';
import { kid, kids, toggle, val, walk } from './xml.ts';

/** Character formatting the Markdown output can show. */
export interface RunFormat {
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  mono?: boolean;
  vert?: 'sup' | 'sub' | 'base';
  hidden?: boolean;
}

export interface NumRef {
  numId: string;
  ilvl?: number;
}

interface StyleDef {
  id: string;
  name: string;
  type: string;
  basedOn?: string;
  outline?: number;
  num?: NumRef;
  run: RunFormat;
}

/** Reads the formatting we render from an `w:rPr`. */
export function runFormat(rPr: XmlElement | undefined): RunFormat {
  const out: RunFormat = {};
  if (!rPr) return out;
  const b = toggle(kid(rPr, 'b'));
  if (b !== undefined) out.bold = b;
  const i = toggle(kid(rPr, 'i'));
  if (i !== undefined) out.italic = i;
  const s = toggle(kid(rPr, 'strike')) ?? toggle(kid(rPr, 'dstrike'));
  if (s !== undefined) out.strike = s;
  const hidden = toggle(kid(rPr, 'vanish'));
  if (hidden !== undefined) out.hidden = hidden;
  const fonts = kid(rPr, 'rFonts');
  const face = attr(fonts, 'w:ascii') ?? attr(fonts, 'w:hAnsi');
  if (face !== undefined) out.mono = monospacedByName(face);
  const va = val(kid(rPr, 'vertAlign'));
  if (va === 'superscript') out.vert = 'sup';
  else if (va === 'subscript') out.vert = 'sub';
  else if (va === 'baseline') out.vert = 'base';
  return out;
}

/** Later formats win field by field. */
export function mergeFormat(...formats: (RunFormat | undefined)[]): RunFormat {
  const out: RunFormat = {};
  for (const f of formats)
    if (f) for (const [k, v] of Object.entries(f)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}

function numRef(pPr: XmlElement | undefined): NumRef | undefined {
  const numPr = kid(pPr, 'numPr');
  if (!numPr) return undefined;
  const numId = val(kid(numPr, 'numId'));
  const ilvl = Number(val(kid(numPr, 'ilvl')));
  if (numId === undefined) return Number.isInteger(ilvl) ? { numId: '', ilvl } : undefined;
  return Number.isInteger(ilvl) ? { numId, ilvl } : { numId };
}

/** Heading depth (1-based) from a style's name, or undefined. */
function depthFromName(name: string): number | undefined {
  const m = /^heading\s*([1-9])$/i.exec(name.trim());
  if (m) return Number(m[1]);
  if (/^title$/i.test(name.trim())) return 1;
  return undefined;
}

/** styles.xml: paragraph and character styles with inheritance through `w:basedOn`. */
export class DocxStyles {
  private readonly defs = new Map<string, StyleDef>();
  private readonly defaults: RunFormat;
  private defaultPara: string | undefined;

  constructor(styles: XmlElement | undefined) {
    this.defaults = runFormat(walk(styles, 'docDefaults', 'rPrDefault', 'rPr'));
    for (const s of kids(styles, 'style')) {
      const id = attr(s, 'w:styleId');
      if (!id) continue;
      const pPr = kid(s, 'pPr');
      const lvl = Number(val(kid(pPr, 'outlineLvl')));
      const def: StyleDef = {
        id,
        name: val(kid(s, 'name')) ?? id,
        type: attr(s, 'w:type') ?? 'paragraph',
        run: runFormat(kid(s, 'rPr')),
      };
      const basedOn = val(kid(s, 'basedOn'));
      if (basedOn) def.basedOn = basedOn;
      if (Number.isInteger(lvl) && lvl >= 0 && lvl <= 9) def.outline = lvl;
      const num = numRef(pPr);
      if (num) def.num = num;
      this.defs.set(id, def);
      if (def.type === 'paragraph' && /^(1|true|on)$/i.test(attr(s, 'w:default') ?? '')) this.defaultPara = id;
    }
  }

  /** Style chain from the style itself up to its root ancestor (cycles cut). */
  private chain(id: string | undefined): StyleDef[] {
    const out: StyleDef[] = [];
    const seen = new Set<string>();
    let cur = id ?? this.defaultPara;
    while (cur && !seen.has(cur) && out.length < 32) {
      seen.add(cur);
      const d = this.defs.get(cur);
      if (!d) break;
      out.push(d);
      cur = d.basedOn;
    }
    return out;
  }

  name(id: string | undefined): string {
    return this.chain(id)[0]?.name ?? '';
  }

  /**
   * Heading depth of a paragraph style: a built-in heading/title name anywhere up the chain, else
   * an outline level (which is how localized and custom heading styles declare themselves). A style
   * styles.xml does not define (the part is missing, or lost to a cut) is judged by its id: Word's
   * built-in ids ("Heading1", "Title") are English in every language.
   */
  headingDepth(id: string | undefined): number | undefined {
    const chain = this.chain(id);
    if (!chain.length && id) return depthFromName(id.replace(/^heading(\d)$/i, 'heading $1'));
    for (const d of chain) {
      const byName = depthFromName(d.name) ?? depthFromName(d.id.replace(/^heading(\d)$/i, 'heading $1'));
      if (byName !== undefined) return byName;
      if (d.outline !== undefined) return d.outline < 9 ? d.outline + 1 : undefined;
    }
    return undefined;
  }

  /** Styles meant for program text ("Source Code", "HTML Preformatted", "Code"). */
  isCode(id: string | undefined): boolean {
    return this.chain(id).some((d) => /(^|\s)code$|^code(\s|$)|preformatted|^source\s*code/i.test(d.name));
  }

  numbering(id: string | undefined): NumRef | undefined {
    let numId: string | undefined;
    let ilvl: number | undefined;
    for (const d of this.chain(id)) {
      if (!d.num) continue;
      if (numId === undefined && d.num.numId) numId = d.num.numId;
      if (ilvl === undefined && d.num.ilvl !== undefined) ilvl = d.num.ilvl;
    }
    if (numId === undefined) return undefined;
    return ilvl === undefined ? { numId } : { numId, ilvl };
  }

  /** Run formatting a paragraph style and a character style contribute, defaults first. */
  runFormat(paraStyle: string | undefined, charStyle: string | undefined): RunFormat {
    const p = this.chain(paraStyle)
      .map((d) => d.run)
      .reverse();
    const c = charStyle
      ? this.chain(charStyle)
          .map((d) => d.run)
          .reverse()
      : [];
    return mergeFormat(this.defaults, ...p, ...c);
  }
}
