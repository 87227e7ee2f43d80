import { monospacedByName } from '../../../util/fonts.ts';
import { mirrorBrackets } from '../brackets.ts';
import { apply, type Matrix, turnMatrix } from '../extract.ts';
import type { CharStarts } from '../links.ts';
import type { TextItem } from '../model.ts';
import { cleanText, reverseGlyphs } from '../text.ts';
import { baseFontName, boldByFacts, italicByFacts } from './font-names.ts';
import type { Pdfium } from './wasm.ts';

/** Maps PDF user space (bottom-left origin, unrotated) onto the displayed page (top-left, y down). */
export interface Frame {
  m: Matrix;
  width: number;
  height: number;
}

/** What the layout needs to know about a font, read once per font per document. */
export interface FontFacts {
  name: string;
  /** The name with its subset prefix (`TextItem.fontId`). */
  id: string;
  bold: boolean;
  italic: boolean;
  mono: boolean;
}

/** A page's runs, the turn that set its text upright, its size so turned, its monospaced fonts. */
export interface AssembledPage {
  items: TextItem[];
  turn: Matrix | null;
  width: number;
  height: number;
  mono: string[];
  /** Where the runs' characters start (`attachLinks`), kept when asked for and the page is not turned. */
  starts: CharStarts | null;
}

/** Font descriptor flags (PDF 32000 table 123). */
const FLAG_FIXED_PITCH = 1;

/** A run under construction: characters of one text object on one line, boxes in display space. */
interface RawRun {
  /** Made from the page's units once every run is whole (`PageUnits`); empty until then. */
  str: string;
  /** Where the run's text begins in the page's units: it ends where the next run's begins. */
  at: number;
  /** Quarter turns of the writing direction on the displayed page (0 upright … 3), 4 for other angles. */
  q: number;
  /** The baseline's unit vector on the display, along which a run at another angle (q 4) is measured. */
  ux: number;
  uy: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Baseline of the first character, display space (y for upright text). */
  ox: number;
  oy: number;
  size: number;
  font: FontFacts;
  eol: boolean;
  /** Characters placed right to left (visual order stored backwards). */
  backwards: number;
  /**
   * Offsets in `str` of an alef followed by a lam that came from one glyph (see `lamAlef`); null
   * until one is met. Always present: a field added later would give runs two shapes.
   */
  ligatures: number[] | null;
  /** Where the run's character starts begin in the page's `CharStarts.x`; -1 when not kept. */
  from: number;
}

const combining = /\p{M}/u;
const LAM = 0x644;
const rtlScript = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;
const HALF_PI = Math.PI / 2;

/**
 * Builds text runs from PDFium's character stream. A run is the characters of one text object that
 * follow each other on one line without a gap wider than a tab; runs are what pdf.js calls items, so
 * the line, block and table code reads both backends alike. PDFium's own additions are resolved
 * here: the spaces and line breaks it synthesizes (they belong to no text object) become run
 * separators, and U+0002 (its mark for a hyphen that ends a line) becomes the hyphen it was drawn as.
 */
export function assembleRuns(
  p: Pdfium,
  tp: number,
  frame: Frame,
  fonts: Map<number, FontFacts>,
  keepStarts: boolean,
): AssembledPage {
  const x = p.x;
  const n = x.FPDFText_CountChars(tp);
  const box = p.scratch;
  const bo = box >> 2;
  const org = p.scratch + 16;
  const oo = org >> 3;
  const [ma, mb, mc, md, me, mf] = frame.m;
  const turned = frameQuarter(frame);
  const runs: RawRun[] = [];
  const objFonts = new Map<number, FontFacts>();
  const mono = new Set<string>();
  let run: RawRun | null = null;
  let runObj = 0;
  const units = new PageUnits();
  /** The current run's text ends with a space: kept up to date rather than read back each time. */
  let endsSpace = false;
  // Views are re-created only when the wasm memory grew, which empties the old ones.
  let f = p.f32;
  // Along-axis extent and cross-axis centre of the last base character placed.
  let lastLo = 0;
  let lastHi = 0;
  let lastCross = 0;
  // Box of the last character (user space): characters of one glyph share it.
  let lastL = Number.NaN;
  let lastR = Number.NaN;
  /** PDFium synthesized a space since the last character: a word break if the glyphs are apart. */
  let spaced = false;
  /** The current run holds spaces only so far: glyphs without ink, whose boxes are not its extent. */
  let blank = false;
  /** A combining mark waiting for the base glyph it sits on (PDFium may list it first). */
  let mark = '';
  let markAt = 0;
  /**
   * Where each character of the runs starts (display x), kept only on pages with links: what
   * `attachLinks` splits a run at. One array for the page, each run's starts after its length.
   */
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const u = x.FPDFText_GetUnicode(tp, i);
    const obj = u === 32 || u === 13 || u === 10 ? x.FPDFText_GetTextObject(tp, i) : -1;
    // PDFium's own spaces and line breaks belong to no text object (not all are flagged generated).
    if (obj === 0 || (obj > 0 && x.FPDFText_IsGenerated(tp, i))) {
      if (u === 32) spaced = true;
      else if (run) {
        run.eol = true;
        run = null;
        spaced = false;
      }
      continue;
    }
    const textObj = obj > 0 ? obj : x.FPDFText_GetTextObject(tp, i);
    if (!x.FPDFText_GetLooseCharBox(tp, i, box)) continue;
    if (f.length === 0) f = p.f32;
    const l = f[bo] as number;
    const t = f[bo + 1] as number;
    const r = f[bo + 2] as number;
    const b = f[bo + 3] as number;
    // The frame is a quarter-turn map, so two opposite corners give the displayed box.
    const ax = ma * l + mc * t + me;
    const ay = mb * l + md * t + mf;
    const bx = ma * r + mc * b + me;
    const by = mb * r + md * b + mf;
    const cx0 = Math.min(ax, bx);
    const cx1 = Math.max(ax, bx);
    const cy0 = Math.min(ay, by);
    const cy1 = Math.max(ay, by);
    // A broken ToUnicode map can yield 0 or a value past Unicode (fromCodePoint would throw on it).
    const c = u === 2 ? 0x2d : u === 0 || u > 0x10ffff ? 0xfffd : u;
    const width = c > 0xffff ? 2 : 1;
    // Both compared every time: a compare first reached late (two characters of one glyph) would
    // throw the loop's optimized code away.
    const sameRight = r === lastR;
    const sameGlyph = l === lastL && sameRight;
    lastL = l;
    lastR = r;
    // Only characters from U+0300 on can be marks: the rest make no string here.
    const mayMark = u >= 0x300 ? String.fromCodePoint(c) : '';
    if (mayMark && combining.test(mayMark)) {
      const ch = mayMark;
      const horizontal = !run || (run.q & 1) === 0;
      const mid = horizontal ? (cx0 + cx1) / 2 : (cy0 + cy1) / 2;
      if (run && mid >= lastLo && mid <= lastHi) {
        if (keepStarts) pushStarts(xs, cx0, mark.length + ch.length);
        units.addText(mark);
        units.add(c);
        endsSpace = false;
      } else {
        mark += ch;
        markAt = mid;
      }
      continue;
    }
    if (run) {
      const horizontal = (run.q & 1) === 0;
      let lo = horizontal ? cx0 : cy0;
      let hi = horizontal ? cx1 : cy1;
      let cross = horizontal ? (cy0 + cy1) / 2 : (cx0 + cx1) / 2;
      if (run.q === 4) {
        alongBaseline(p, tp, i, frame, run.ux, run.uy, cx0, cy0, cx1, cy1);
        lo = span[0] as number;
        hi = span[1] as number;
        cross = span[2] as number;
      }
      const gap = lo > lastHi ? lo - lastHi : lastLo - hi;
      const sameLine = Math.abs(cross - lastCross) <= run.size * 0.5;
      // Weighed on every character, as the compares above, rather than only after a space.
      const apart = gap > run.size * 0.1;
      const space = spaced && (!sameLine || apart);
      spaced = false;
      if (textObj === runObj && sameLine && gap <= run.size * 0.8) {
        if (lo < lastLo) run.backwards++;
        if (u === LAM && sameGlyph && !space && isAlef(units.last())) {
          const at = units.n - run.at - 1;
          if (run.ligatures) run.ligatures.push(at);
          else run.ligatures = [at];
        }
        if (keepStarts && space && !endsSpace) pushStarts(xs, lastHi, 1);
        if (keepStarts) pushStarts(xs, cx0, width + mark.length);
        if (space && !endsSpace) units.add(32);
        units.add(c);
        // By code, not by string: a compare with ' ' deopts on the first character past Latin-1,
        // which `String.fromCharCode` makes as a new string, not the shared one.
        endsSpace = u === 32;
        if (mark) {
          if (markAt >= lo && markAt <= hi) {
            units.addText(mark);
            endsSpace = false;
          } else {
            units.drop(width);
            units.addText(mark);
            units.add(c);
          }
          mark = '';
        }
        // A run opened by space glyphs (set to indent a line: a note's sub-notes, "  1) …") starts
        // at its first ink, as pdf.js's runs do: measured from its spaces, the sub-note stood at
        // its note's edge.
        if (blank && u !== 32) {
          blank = false;
          run.x0 = cx0;
          run.y0 = cy0;
          run.x1 = cx1;
          run.y1 = cy1;
        }
        // Stored every time rather than under an if: a run growing up or leftward is rare, and a
        // store first reached late in this hot loop throws its optimized code away.
        run.x0 = Math.min(run.x0, cx0);
        run.y0 = Math.min(run.y0, cy0);
        run.x1 = Math.max(run.x1, cx1);
        run.y1 = Math.max(run.y1, cy1);
        lastLo = lo;
        lastHi = hi;
        lastCross = cross;
        continue;
      }
      if (space && !endsSpace) {
        if (keepStarts) pushStarts(xs, lastHi, 1);
        units.add(32);
      }
    }
    spaced = false;
    let font = objFonts.get(textObj);
    if (!font) {
      font = fontFacts(p, x.FPDFTextObj_GetFont(textObj), fonts);
      objFonts.set(textObj, font);
      if (font.mono) mono.add(font.name);
    }
    const size = fontSize(p, tp, i) || cy1 - cy0 || 1;
    // PDFium's angle is the baseline's for every run turned a quarter or not at all, the common case:
    // the matrix is read only for runs it puts off the quarter turns (a slanted font, or a tilt).
    let angle = x.FPDFText_GetCharAngle(tp, i);
    if (quarter(angle, 0) === 4) angle = baselineAngle(p, tp, i);
    const q = quarter(angle, turned);
    let ux = 1;
    let uy = 0;
    if (q === 4) {
      baselineUnit(angle, frame);
      ux = span[0] as number;
      uy = span[1] as number;
    }
    let ox = cx0;
    let oy = cy1;
    if (x.FPDFText_GetCharOrigin(tp, i, org, org + 8)) {
      const d = p.f64;
      const px = d[oo] as number;
      const py = d[oo + 1] as number;
      ox = ma * px + mc * py + me;
      oy = mb * px + md * py + mf;
    }
    const horizontal = (q & 1) === 0;
    let lo = horizontal ? cx0 : cy0;
    let hi = horizontal ? cx1 : cy1;
    let cross = horizontal ? (cy0 + cy1) / 2 : (cx0 + cx1) / 2;
    if (q === 4) {
      alongBaseline(p, tp, i, frame, ux, uy, cx0, cy0, cx1, cy1);
      lo = span[0] as number;
      hi = span[1] as number;
      cross = span[2] as number;
    }
    // PDFium's code is a signed 32-bit value: one past 2^31 comes negative, which fromCodePoint
    // would throw on and fromCharCode wraps, as `PageUnits.text` does for the run's other characters.
    // From U+0300 on, the string the mark test made is the character.
    const ch = mayMark || String.fromCharCode(c);
    let str = ch;
    if (mark) {
      str = markAt >= lo && markAt <= hi ? ch + mark : mark + ch;
      mark = '';
    }
    const from = keepStarts ? xs.length : -1;
    if (keepStarts) {
      xs.push(0);
      pushStarts(xs, cx0, str.length);
    }
    run = {
      str: '',
      at: units.n,
      q,
      ux,
      uy,
      x0: cx0,
      y0: cy0,
      x1: cx1,
      y1: cy1,
      ox,
      oy,
      size,
      font,
      eol: false,
      backwards: 0,
      ligatures: null,
      from,
    };
    units.addText(str);
    endsSpace = str.endsWith(' ');
    blank = u === 32 && str.length === 1;
    runObj = textObj;
    runs.push(run);
    lastLo = lo;
    lastHi = hi;
    lastCross = cross;
  }
  if (mark && run) {
    if (keepStarts) pushStarts(xs, lastLo, mark.length);
    units.addText(mark);
  }
  for (let k = 0; k < runs.length; k++) {
    const r = runs[k] as RawRun;
    r.str = units.text(r.at, k + 1 < runs.length ? (runs[k + 1] as RawRun).at : units.n);
  }
  return toItems(runs, frame, [...mono], keepStarts ? { x: xs, at: new Map() } : null);
}

/**
 * The page's text as UTF-16 units, each run's after the one before. A run's string is made once,
 * when the page is read: grown a character at a time, it was a chain of a string per character,
 * which the collector swept and every later reading of the text flattened first.
 */
class PageUnits {
  /**
   * A plain array of small integers: `apply` on a slice of it measured about 1.5× faster than on a
   * typed array's view, which it first copies into a list element by element.
   */
  private readonly a: number[] = [];
  n = 0;

  add(c: number): void {
    if (c > 0xffff) {
      const v = c - 0x10000;
      this.a[this.n++] = 0xd800 + (v >> 10);
      this.a[this.n++] = 0xdc00 + (v & 0x3ff);
    } else this.a[this.n++] = c;
  }

  addText(s: string): void {
    for (let i = 0; i < s.length; i++) this.a[this.n++] = s.charCodeAt(i);
  }

  /** Takes back the last `n` units (a character a mark goes before). */
  drop(n: number): void {
    this.n -= n;
  }

  last(): number {
    return this.n > 0 ? (this.a[this.n - 1] as number) : -1;
  }

  text(from: number, to: number): string {
    let s = '';
    // In slices: a call takes its arguments on the stack, which a very long run would overflow.
    for (let i = from; i < to; i += TEXT_SLICE)
      s += String.fromCharCode.apply(null, this.a.slice(i, Math.min(to, i + TEXT_SLICE)));
    return s;
  }
}

const TEXT_SLICE = 4096;

/** Alef and its hamza/madda/wasla forms: the second half of a lam-alef ligature. */
const isAlef = (c: number): boolean => c === 0x622 || c === 0x623 || c === 0x625 || c === 0x627 || c === 0x671;

/**
 * Appends a character's start once per UTF-16 unit it takes in the run's text. Called behind a test
 * of `keepStarts` rather than through a closure made per page that tests it: pages without links
 * then pay no call per character.
 */
function pushStarts(xs: number[], at: number, units: number): void {
  for (let k = 0; k < units; k++) xs.push(at);
}

/**
 * The angle of a character's baseline, clockwise in user space as PDFium's `FPDFText_GetCharAngle`
 * gives it. That one is atan2(c, a) of the character matrix: right for a turned run, but a slanted
 * (synthetic italic) font shears the matrix, c = tan 12° or so with the baseline level, and its runs
 * read as set at an angle and were dropped ("Caring for Someone with Cancer −" leading a bullet).
 * The baseline is the matrix's first column: atan2(-b, a) is the same angle for a turned run.
 */
function baselineAngle(p: Pdfium, tp: number, i: number): number {
  const m = p.scratch + 32;
  if (!p.x.FPDFText_GetMatrix(tp, i, m)) return p.x.FPDFText_GetCharAngle(tp, i);
  const f = p.f32;
  const o = m >> 2;
  const a = Math.atan2(-(f[o + 1] as number), f[o] as number);
  return a < 0 ? a + 2 * Math.PI : a;
}

/** Results of `baselineUnit` and `alongBaseline`, kept in one buffer rather than a new array a character. */
const span = new Float64Array(3);

/**
 * The unit vector on the display of a baseline at `angle` (clockwise in user space, as
 * `baselineAngle` reads it), into `span[0..1]`: the direction a run set at an angle off the quarter
 * turns reads in.
 */
function baselineUnit(angle: number, frame: Frame): void {
  const a = Math.cos(angle);
  const b = -Math.sin(angle);
  const [ma, mb, mc, md] = frame.m;
  const x = ma * a + mc * b;
  const y = mb * a + md * b;
  const len = Math.hypot(x, y) || 1;
  span[0] = x / len;
  span[1] = y / len;
}

/**
 * Where a character of a run set askew lies along its baseline and across it, into `span` (start,
 * end, offset across), display space. Its box (x0…y1) is upright around the tilted glyph, so along
 * x or y it overlaps its neighbours and steps off their line: measured so, a steep run broke into
 * pieces with spaces between ('W ar m u p'). The glyph starts at its origin and is centred where
 * its box is, which gives its extent along the baseline; the origin's offset across it is the
 * line's.
 */
function alongBaseline(
  p: Pdfium,
  tp: number,
  i: number,
  frame: Frame,
  ux: number,
  uy: number,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
): void {
  const org = p.scratch + 16;
  let ox = (x0 + x1) / 2;
  let oy = (y0 + y1) / 2;
  if (p.x.FPDFText_GetCharOrigin(tp, i, org, org + 8)) {
    const d = p.f64;
    const px = d[org >> 3] as number;
    const py = d[(org >> 3) + 1] as number;
    const [ma, mb, mc, md, me, mf] = frame.m;
    ox = ma * px + mc * py + me;
    oy = mb * px + md * py + mf;
  }
  const lo = ox * ux + oy * uy;
  span[0] = lo;
  span[1] = (x0 + x1) * ux + (y0 + y1) * uy - lo;
  span[2] = oy * ux - ox * uy;
}

/**
 * The size text is drawn at: PDFium reports the font operand (often 1, scaled by the text matrix),
 * so it is multiplied by the character matrix's vertical scale.
 */
function fontSize(p: Pdfium, tp: number, i: number): number {
  const tf = p.x.FPDFText_GetFontSize(tp, i);
  const m = p.scratch + 32;
  if (!p.x.FPDFText_GetMatrix(tp, i, m)) return tf;
  const f = p.f32;
  const o = m >> 2;
  return tf * Math.hypot(f[o + 2] as number, f[o + 3] as number);
}

/** Which way a run reads by its display quarter turn from the page's text (clockwise: 3 reads up the page). */
const turnedWay: readonly ('up' | 'down' | 'over')[] = ['over', 'down', 'over', 'up'];

/**
 * Writing direction in display quarter turns (clockwise, as the display's y points down). PDFium's
 * angle is atan2(c, a) of the character matrix: clockwise in user space, so text running up a
 * portrait sheet reads 3π/2, and it adds to the frame's own quarter turn `turned` (`frameQuarter`).
 * Subtracting it turned every page with /Rotate 90 or 270, and all sideways text, upside down.
 */
function quarter(angle: number, turned: number): number {
  if (!Number.isFinite(angle) || angle < 0) return 0;
  const k = Math.round(angle / HALF_PI);
  if (Math.abs(angle - k * HALF_PI) > 0.05) return 4;
  // Bits, not remainders (turned + k is a whole number, at least 0): `%` could leave the turn a
  // double, and then the character loop's `q % 2` was a floating-point remainder per character,
  // which made the loop 60% slower; `& 3` and `& 1` keep it a small integer.
  return (turned + k) & 3;
}

/**
 * The frame's quarter turn: where user-space +x points on the display. Once per page, not per
 * character: it is the same for the whole page, and the branches for turned pages stay out of the
 * character loop (first met late, they would throw its optimized code away).
 */
function frameQuarter(frame: Frame): number {
  const [a, b] = frame.m;
  return a > 0.5 ? 0 : b > 0.5 ? 1 : a < -0.5 ? 2 : 3;
}

/**
 * PDFium's weight is worked out from the descriptor's StemV alone, which producers often get wrong
 * (TimesNewRomanPSMT at 130 and Arial at 139 read as 650 and 695: every word bold). A name that
 * says which face a font is decides; the weight does only where the name leaves it open.
 */
function fontFacts(p: Pdfium, font: number, fonts: Map<number, FontFacts>): FontFacts {
  const known = fonts.get(font);
  if (known) return known;
  const x = p.x;
  let raw = '';
  let flags = 0;
  let weight = -1;
  if (font) {
    raw = p.bytes((b, l) => x.FPDFFont_GetBaseFontName(font, b, l), 512);
    flags = Math.max(0, x.FPDFFont_GetFlags(font));
    weight = x.FPDFFont_GetWeight(font);
  }
  const name = baseFontName(raw);
  const facts: FontFacts = {
    name: name || `font${font}`,
    id: raw || `font${font}`,
    bold: boldByFacts(name, flags, weight),
    italic: italicByFacts(name, flags),
    mono: (flags & FLAG_FIXED_PITCH) !== 0 || monospacedByName(name),
  };
  fonts.set(font, facts);
  return facts;
}

const brackets = /^[()[\]{}«»]+$/;

/**
 * Whether a run is brackets alone, blanks around them aside. Nearly every run opens with a letter
 * or digit, which settles it without trimming a copy of the run.
 */
function onlyBrackets(s: string): boolean {
  const c = s.charCodeAt(0);
  if (c > 0x20 && c < 0x80 && c !== 0x28 && c !== 0x29 && c !== 0x5b && c !== 0x5d && c !== 0x7b && c !== 0x7d)
    return false;
  return brackets.test(s.trim());
}

/**
 * Whether a run of brackets is set in right-to-left text: a run beside it on its line is. PDFium
 * mirrors every bracket it reads right to left, so it reports such a bracket as the mirror image of
 * the character the font maps; it is turned back here, so that both backends give the font's
 * character and the line (`pairBrackets`) decides which bracket was meant.
 */
function besideRtl(runs: RawRun[], k: number): boolean {
  const r = runs[k] as RawRun;
  for (const n of [runs[k - 1], runs[k + 1]]) {
    if (n && n.q === r.q && Math.abs(n.oy - r.oy) < r.size * 0.5 && rtlScript.test(n.str)) return true;
  }
  return false;
}

/**
 * Puts lam before alef where one lam-alef glyph was read as alef, lam. Fonts map the ligature to
 * its letters in visual order (alef is drawn on the left), which in logical order must read lam,
 * alef; no font has an alef-lam ligature, as alef never joins the letter after it. Only runs stored
 * in logical order need it: a run reversed as a whole (see `toItems`) turns the pair round itself.
 */
function lamAlef(s: string, at: number[]): string {
  const cs = s.split('');
  for (const i of at) {
    const a = cs[i] as string;
    if (isAlef(a.charCodeAt(0)) && cs[i + 1] === '\u0644') {
      cs[i] = '\u0644';
      cs[i + 1] = a;
    }
  }
  return cs.join('');
}

/**
 * Turns the page so its dominant writing direction reads left to right (landscape content on a
 * portrait page), then makes items: upright runs keep their baseline and font size as the box,
 * runs at another quarter turn are kept boxed and flagged for tables only, other angles are dropped.
 */
function toItems(runs: RawRun[], frame: Frame, mono: string[], starts: CharStarts | null): AssembledPage {
  const chars = [0, 0, 0, 0];
  for (const r of runs) if (r.q < 4) chars[r.q] = (chars[r.q] ?? 0) + r.str.length;
  let dominant = 0;
  for (let q = 1; q < 4; q++) if ((chars[q] ?? 0) > (chars[dominant] ?? 0)) dominant = q;
  const turn = turnMatrix(dominant, frame.width, frame.height);
  const width = dominant % 2 ? frame.height : frame.width;
  const height = dominant % 2 ? frame.width : frame.height;
  const items: TextItem[] = [];
  for (const [k, r] of runs.entries()) {
    if (onlyBrackets(r.str) && besideRtl(runs, k)) r.str = mirrorBrackets(r.str);
    let str = cleanText(r.backwards > 0 && r.ligatures ? lamAlef(r.str, r.ligatures) : r.str);
    if (!str.trim()) {
      const prev = items[items.length - 1];
      if (prev && !prev.str.endsWith(' ') && !prev.rotated) prev.str += ' ';
      continue;
    }
    let { x0, y0, x1, y1, oy } = r;
    const ox = r.ox;
    if (turn) {
      const a = apply(turn, x0, y0);
      const c = apply(turn, x1, y1);
      x0 = Math.min(a[0], c[0]);
      x1 = Math.max(a[0], c[0]);
      y0 = Math.min(a[1], c[1]);
      y1 = Math.max(a[1], c[1]);
      oy = apply(turn, ox, oy)[1];
    }
    if (!Number.isFinite(x0) || !Number.isFinite(y0)) continue;
    // PDFium reads text outside the crop box too (a two-page spread cropped into two pages gives
    // both halves on each): what a viewer cannot show is not the page's text.
    if (x1 < 0 || y1 < 0 || x0 > width || y0 > height) continue;
    const rtl = rtlScript.test(str);
    if (r.q !== dominant) {
      items.push({
        str,
        x: x0,
        y: y0,
        w: x1 - x0,
        h: y1 - y0,
        size: r.size,
        fontName: r.font.name,
        fontId: r.font.id,
        bold: r.font.bold,
        italic: r.font.italic,
        dir: 'ltr',
        hasEOL: r.eol,
        rotated: r.q === 4 ? 'askew' : (turnedWay[(r.q - dominant + 4) % 4] ?? 'over'),
        href: undefined,
      });
      continue;
    }
    // Right-to-left text stored in visual order reads backwards: the line code wants logical order.
    if (rtl && r.backwards === 0 && str.length > 1) str = reverseGlyphs(str);
    const item: TextItem = {
      str,
      x: x0,
      y: oy - r.size,
      w: x1 - x0,
      h: r.size,
      size: r.size,
      fontName: r.font.name,
      fontId: r.font.id,
      bold: r.font.bold,
      italic: r.font.italic,
      dir: rtl ? 'rtl' : 'ltr',
      hasEOL: r.eol,
      rotated: false,
      href: undefined,
    };
    items.push(item);
    // Starts are display x: of use on an unturned page, for runs read left to right as stored.
    if (starts && r.from >= 0 && !turn && !rtl && r.backwards === 0 && str.length === r.str.length) {
      starts.x[r.from] = str.length;
      starts.at.set(item, r.from);
    }
  }
  return { items, turn, width, height, mono, starts };
}
