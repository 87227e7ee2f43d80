import { monospacedByName } from '../../util/fonts.ts';
import type { TextItem } from './model.ts';

/**
 * Fonts whose every character takes one width, found by measuring their runs: a monospaced face
 * often says nothing of it (redp5110's SQL is set in BookMaster Gothic, whose descriptor PDFium
 * reads as proportional; pdf.js measures it fixed), and a code block needs its font known.
 *
 * A run measures its font only where its width cannot hide a blank: one word (no blank inside, so
 * none collapsed and no word spacing; none around, which one backend counts in the width and the
 * other not), of Latin letters (a CJK face is fixed-width by design, and a column of figures is
 * set in tabular digits in proportional faces too). A font is even when at least `SAMPLES` such
 * words, `SHORT` of them short and of two lengths at least, agree to `SPREAD`: in a proportional
 * face two short words differ by far more ("ill" and "MOW").
 */
const SAMPLES = 4;
const SHORT = 2;
const SHORT_CHARS = 12;
const SPREAD = 1.015;
/**
 * A word of Latin script and signs (to Latin Extended-B) with three letters at least: what a
 * font's widths are read from. Not codes mostly of figures ("ID01", "ID100"): figures are one
 * width in proportional faces too.
 */
const latinWord = /^(?=(?:[^A-Za-z]*[A-Za-z]){3})[\u0021-\u007e\u00a1-\u024f]{3,40}$/;

interface Measure {
  n: number;
  short: number;
  lo: number;
  hi: number;
  /** Two word lengths seen: the first one, and whether another. */
  len: number;
  lengths: boolean;
}

export class PitchTally {
  readonly #fonts = new Map<string, Measure>();

  /** Measures a page's runs (upright ones: a turned run's width is its box's on the page). */
  add(items: readonly TextItem[]): void {
    for (const it of items) {
      const s = it.str;
      if (it.rotated || !(it.w > 0) || !(it.size > 0) || s.length < 3 || s.length > 40 || !latinWord.test(s)) continue;
      const per = it.w / (s.length * it.size);
      let m = this.#fonts.get(it.fontName);
      if (!m) {
        m = { n: 0, short: 0, lo: per, hi: per, len: s.length, lengths: false };
        this.#fonts.set(it.fontName, m);
      }
      m.n++;
      if (s.length <= SHORT_CHARS) m.short++;
      if (s.length !== m.len) m.lengths = true;
      if (per < m.lo) m.lo = per;
      if (per > m.hi) m.hi = per;
    }
  }

  /**
   * Whether a font is a code face: `flagged` so (PDFium's fixed-pitch fonts, by their descriptors),
   * measured even, or named so (Courier, *Mono, CMTT9); one answer per name, asked once every page
   * is measured.
   */
  codeFonts(flagged: ReadonlySet<string> = new Set()): (font: string) => boolean {
    const known = new Map<string, boolean>();
    for (const name of flagged) known.set(name, true);
    for (const [name, m] of this.#fonts)
      if (m.n >= SAMPLES && m.short >= SHORT && m.lengths && m.hi <= m.lo * SPREAD) known.set(name, true);
    return (font) => {
      let is = known.get(font);
      if (is === undefined) {
        is = monospacedByName(font);
        known.set(font, is);
      }
      return is;
    };
  }
}
