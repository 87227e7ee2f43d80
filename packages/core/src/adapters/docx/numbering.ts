import { letters, roman } from '../../util/numerals.ts';
import { attr, type XmlElement } from '../../util/xml.ts';
import { kid, kids, val } from './xml.ts';

interface LevelDef {
  fmt: string;
  start: number;
  text: string;
  /** Paragraph style bound to this level (outline-numbered headings). */
  pStyle?: string;
  legal: boolean;
}

interface NumDef {
  abstractId: string;
  /** Per-level start overrides: they restart the list the first time this num is used. */
  starts: Map<number, number>;
  levels: Map<number, LevelDef>;
}

export interface ListLevel {
  ordered: boolean;
  /** The number this paragraph shows. */
  value: number;
  /** The rendered label ("1.2.", "a)"), empty for bullets. */
  label: string;
  /** The label combines several levels ("1.2."), which Markdown list numbers cannot show. */
  multi: boolean;
}

const MAX_LEVEL_TEXT = 100;

function readLevels(el: XmlElement): Map<number, LevelDef> {
  const out = new Map<number, LevelDef>();
  for (const lvl of kids(el, 'lvl')) {
    const ilvl = Number(attr(lvl, 'w:ilvl'));
    if (!Number.isInteger(ilvl)) continue;
    const start = Number(val(kid(lvl, 'start')));
    const def: LevelDef = {
      fmt: val(kid(lvl, 'numFmt')) ?? 'decimal',
      start: Number.isFinite(start) ? start : 1,
      // Real level texts are a few characters ("%1.%2.", "Article %1"); a long one is repeated on
      // every item of the list (9,000 characters × 20,000 items ran past the timeout).
      text: (val(kid(lvl, 'lvlText')) ?? '').slice(0, MAX_LEVEL_TEXT),
      legal: kid(lvl, 'isLgl') !== undefined,
    };
    const pStyle = val(kid(lvl, 'pStyle'));
    if (pStyle) def.pStyle = pStyle;
    out.set(ilvl, def);
  }
  return out;
}

export function formatNumber(n: number, fmt: string): string {
  switch (fmt) {
    case 'lowerLetter':
      return letters(n);
    case 'upperLetter':
      return letters(n).toUpperCase();
    case 'lowerRoman':
      return roman(n);
    case 'upperRoman':
      return roman(n).toUpperCase();
    case 'decimalZero':
      return n < 10 ? `0${n}` : String(n);
    case 'none':
      return '';
    default:
      return String(n);
  }
}

/**
 * numbering.xml with Word's counting rules: counters belong to the abstract definition (so
 * separate nums over one abstract continue each other), a deeper level restarts when a shallower
 * one advances, and a num with a start override restarts the list on its first use.
 */
export class DocxNumbering {
  private readonly nums = new Map<string, NumDef>();
  private readonly abstracts = new Map<string, Map<number, LevelDef>>();
  private readonly counters = new Map<string, number[]>();
  private readonly used = new Set<string>();

  constructor(numbering: XmlElement | undefined, styleNum: (styleId: string) => string | undefined) {
    const links = new Map<string, string>();
    for (const a of kids(numbering, 'abstractNum')) {
      const id = attr(a, 'w:abstractNumId');
      if (id === undefined) continue;
      this.abstracts.set(id, readLevels(a));
      const link = val(kid(a, 'numStyleLink'));
      if (link) links.set(id, link);
    }
    for (const n of kids(numbering, 'num')) {
      const id = attr(n, 'w:numId');
      const abstractId = val(kid(n, 'abstractNumId'));
      if (id === undefined || abstractId === undefined) continue;
      const starts = new Map<number, number>();
      const levels = new Map<number, LevelDef>();
      for (const o of kids(n, 'lvlOverride')) {
        const ilvl = Number(attr(o, 'w:ilvl'));
        if (!Number.isInteger(ilvl)) continue;
        const start = Number(val(kid(o, 'startOverride')));
        if (Number.isFinite(start) && kid(o, 'startOverride')) starts.set(ilvl, start);
        const lvl = kid(o, 'lvl');
        if (lvl) {
          const def = readLevels({ ...o, children: [{ ...lvl, attrs: { ...lvl.attrs, 'w:ilvl': String(ilvl) } }] }).get(
            ilvl,
          );
          if (def) levels.set(ilvl, def);
        }
      }
      this.nums.set(id, { abstractId, starts, levels });
    }
    // A numbering style's abstract only points at the style; borrow the levels of the num it uses.
    for (const [id, style] of links) {
      const target = styleNum(style);
      const num = target === undefined ? undefined : this.nums.get(target);
      const levels = num && num.abstractId !== id ? this.abstracts.get(num.abstractId) : undefined;
      if (levels) this.abstracts.set(id, levels);
    }
  }

  private level(num: NumDef, ilvl: number): LevelDef | undefined {
    return num.levels.get(ilvl) ?? this.abstracts.get(num.abstractId)?.get(ilvl);
  }

  /** The level a paragraph style is bound to in a num, for headings numbered through their style. */
  levelOfStyle(numId: string, styleId: string | undefined): number | undefined {
    const num = this.nums.get(numId);
    if (!num || !styleId) return undefined;
    for (let i = 0; i < 9; i++) if (this.level(num, i)?.pStyle === styleId) return i;
    return undefined;
  }

  /** Whether numId names a real list (numId 0 switches numbering off). */
  has(numId: string): boolean {
    const num = this.nums.get(numId);
    return num !== undefined && this.level(num, 0) !== undefined;
  }

  /** Advances the counters for one numbered paragraph and says what it shows. */
  next(numId: string, ilvl: number): ListLevel | undefined {
    const num = this.nums.get(numId);
    if (!num) return undefined;
    const lvl = this.level(num, ilvl) ?? this.level(num, 0);
    if (!lvl) return undefined;
    const key = num.starts.size ? `num:${numId}` : `abs:${num.abstractId}`;
    let counts = this.counters.get(key);
    if (!counts) {
      counts = [];
      this.counters.set(key, counts);
    }
    if (!this.used.has(numId)) {
      this.used.add(numId);
      for (const [i, start] of num.starts) counts[i] = start - 1;
    }
    const startOf = (i: number) => this.level(num, i)?.start ?? 1;
    counts[ilvl] = (counts[ilvl] ?? startOf(ilvl) - 1) + 1;
    counts.length = ilvl + 1;
    const ordered = lvl.fmt !== 'bullet' && lvl.fmt !== 'none';
    const value = counts[ilvl] as number;
    let label = '';
    if (ordered) {
      label = lvl.text.replace(/%([1-9])/g, (_m, d: string) => {
        const i = Number(d) - 1;
        // A skipped level shows its start value and counts as used from then on, as Word does.
        counts[i] ??= startOf(i);
        return formatNumber(counts[i], lvl.legal ? 'decimal' : (this.level(num, i)?.fmt ?? 'decimal'));
      });
    }
    const multi = (lvl.text.match(/%[1-9]/g)?.length ?? 0) > 1;
    return { ordered, value, label, multi };
  }
}
