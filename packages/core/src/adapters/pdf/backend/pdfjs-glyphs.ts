/**
 * Glyphs behind pdf.js's right-to-left runs. pdf.js builds a run's text from its glyphs in drawing
 * order and turns a right-to-left run round letter by letter (its bidi pass), so a glyph that stands
 * for several letters is turned round with them: the lam-alef ligature every Arabic font draws for
 * lam then alef reads alef, lam ("خالل" for "خلال", "المشكالت" for "المشكلات"). And it keeps every
 * glyph drawn, a glyph drawn again over itself too (a producer stretching a word by overlapping
 * pieces), where PDFium reads one letter. Its text layer does not say where glyphs begin; its
 * drawing instructions do, each glyph with its letters and advance. Runs are found among them by
 * their letters; each glyph of several letters is put back in the order its font maps it to
 * (ToUnicode gives a glyph's letters in reading order), and a glyph drawn over the one before it is
 * read once. PDFium reports each letter with its glyph's box, which `runs.ts` reads instead.
 */

/** A pdf.js text item as `getTextContent` gives it (the fields read here). */
interface RawRun {
  str?: unknown;
  dir?: unknown;
}

/** A glyph in a pdf.js operator list's `showText` arguments. */
interface RawGlyph {
  unicode?: unknown;
  width?: unknown;
  isSpace?: unknown;
}

/** pdf.js's codes of the operators read here (`OPS`). */
export interface GlyphOps {
  showText: number;
  setFont: number;
  setCharSpacing: number;
  setWordSpacing: number;
}

/**
 * A glyph drawn this close to where the same glyph before it was drawn (a share of that glyph's
 * advance) is the same letter drawn again. A producer that stretches Arabic words with overlapping
 * pieces draws them a fifth of a piece apart at least.
 */
const OVERDRAWN = 0.2;

const rtlRange = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;
const letterOrMark = /[\p{L}\p{M}]/u;

/** A right-to-left letter or mark: what pdf.js's bidi pass turns round in a right-to-left run. */
const isRtlLetter = (c: string): boolean => rtlRange.test(c) && letterOrMark.test(c);

/** An alef form before lam: how a lam-alef glyph reads once pdf.js has turned it round. */
const alefLam = /[\u0622\u0623\u0625\u0627\u0671]\u0644/;

/**
 * Whether a page's runs are worth reading against their glyphs: a right-to-left run reads alef, lam,
 * as a lam-alef glyph turned round does. Only such pages pay for the drawing instructions (every
 * Arabic page has the article "ال" and so qualifies; pages in other scripts do not).
 */
export function needsGlyphs(runs: readonly unknown[]): boolean {
  for (const r of runs) {
    const { str, dir } = r as RawRun;
    if (dir === 'rtl' && typeof str === 'string' && alefLam.test(str)) return true;
  }
  return false;
}

/**
 * How far past where the last run was found a run's letters are looked for: glyphs pdf.js leaves
 * out of its text layer (drawn off the page) and text it reads in another order are skipped, while
 * the search stays bounded.
 */
const WINDOW = 512;

/**
 * Runs of more letters than this are only counted: a search's cost grows with the run's length
 * times the window's, and no line holds so many.
 */
const LONGEST = 4096;

/**
 * Puts the letters of each glyph of several letters in right-to-left runs back in their font's
 * order, and drops the letters of a glyph drawn over the same glyph, in place. `fnArray`/`argsArray`
 * are the page's operator list.
 */
export function restoreGlyphs(
  runs: readonly unknown[],
  ops: { fnArray: ArrayLike<number>; argsArray: ArrayLike<unknown> },
  codes: GlyphOps,
): void {
  // The right-to-left letters of every glyph drawn, in drawing order, and for each the glyph's
  // first letter in `stream`, its count of letters, and whether the glyph is drawn over the one
  // before it.
  let stream = '';
  const start: number[] = [];
  const count: number[] = [];
  const again: boolean[] = [];
  // Text state, for advances in thousandths of the font size (as TJ moves are given).
  let size = 1;
  let charSpacing = 0;
  let wordSpacing = 0;
  for (let i = 0; i < ops.fnArray.length; i++) {
    const fn = ops.fnArray[i];
    const args = ops.argsArray[i] as unknown[] | null;
    if (fn === codes.setFont) {
      const s = args?.[1];
      size = typeof s === 'number' && s !== 0 ? Math.abs(s) : 1;
      continue;
    }
    if (fn === codes.setCharSpacing || fn === codes.setWordSpacing) {
      const v = args?.[0];
      if (typeof v === 'number' && Number.isFinite(v)) {
        if (fn === codes.setCharSpacing) charSpacing = v;
        else wordSpacing = v;
      }
      continue;
    }
    if (fn !== codes.showText) continue;
    const glyphs = args?.[0];
    if (!Array.isArray(glyphs)) continue;
    let x = 0;
    let lastText = '';
    let lastX = 0;
    let lastAdvance = 0;
    for (const g of glyphs) {
      if (typeof g === 'number') {
        if (Number.isFinite(g)) x -= g;
        continue;
      }
      const glyph = g as RawGlyph | null;
      const u = glyph?.unicode;
      const w = typeof glyph?.width === 'number' && Number.isFinite(glyph.width) ? glyph.width : 0;
      const advance = w + ((charSpacing + (glyph?.isSpace === true ? wordSpacing : 0)) * 1000) / size;
      const text = typeof u === 'string' ? u : '';
      const over = text !== '' && text === lastText && lastAdvance > 0 && Math.abs(x - lastX) < OVERDRAWN * w;
      lastText = text;
      lastX = x;
      lastAdvance = w;
      x += advance;
      let n = 0;
      for (const c of text) {
        if (!isRtlLetter(c)) continue;
        start.push(stream.length - n);
        stream += c;
        n++;
      }
      for (let k = 0; k < n; k++) {
        count.push(n);
        again.push(over);
      }
    }
  }
  let at = 0;
  for (const r of runs) {
    const run = r as RawRun;
    if (typeof run.str !== 'string') continue;
    const str = run.str;
    const places: number[] = [];
    for (let i = 0; i < str.length; i++) if (isRtlLetter(str.charAt(i))) places.push(i);
    const n = places.length;
    if (!n) continue;
    // A left-to-right run with right-to-left words turns each word round apart: its letters are
    // only counted, so that the runs after it are found where they are (and so are a long run's).
    if (run.dir !== 'rtl' || n > LONGEST) {
      at = Math.min(stream.length, at + n);
      continue;
    }
    let seen = '';
    for (let j = n - 1; j >= 0; j--) seen += str.charAt(places[j] as number);
    const found = stream.startsWith(seen, at) ? 0 : stream.slice(at, at + n + WINDOW).indexOf(seen);
    if (found < 0) continue;
    const q = at + found;
    at = q + n;
    let out: string[] | null = null;
    for (let k = q; k < q + n; k++) {
      // The run's `seen` letter k-q stands at a place counted from the run's end.
      if (again[k]) {
        out ??= str.split('');
        out[places[n - 1 - (k - q)] as number] = '';
        continue;
      }
      const len = count[k] as number;
      if (len < 2 || start[k] !== k || k + len > q + n) continue;
      // The glyph's letters must lie side by side in the run to be turned round there.
      const a = places[n - 1 - (k - q + len - 1)] as number;
      const b = places[n - 1 - (k - q)] as number;
      if (b - a !== len - 1) continue;
      out ??= str.split('');
      for (let x = a, y = b; x < y; x++, y--) {
        const t = out[x] as string;
        out[x] = out[y] as string;
        out[y] = t;
      }
    }
    if (out) run.str = out.join('');
  }
}
