/**
 * Glyphs of several letters in pdf.js's right-to-left runs. pdf.js builds a run's text from its
 * glyphs in drawing order and turns a right-to-left run round letter by letter (its bidi pass), so a
 * glyph that stands for several letters is turned round with them: the lam-alef ligature every
 * Arabic font draws for lam then alef reads alef, lam ("خالل" for "خلال", "المشكالت" for
 * "المشكلات"). Its text layer does not say where glyphs begin; its drawing instructions do, each
 * glyph with its letters. Runs are found among them by their letters, and each glyph of several
 * letters is put back in the order its font maps it to (ToUnicode gives a glyph's letters in
 * reading order). PDFium reports each letter with its glyph's box, which `runs.ts` reads instead.
 */

/** A pdf.js text item as `getTextContent` gives it (the fields read here). */
interface RawRun {
  str?: unknown;
  dir?: unknown;
}

/** A glyph in a pdf.js operator list's `showText` arguments. */
interface RawGlyph {
  unicode?: unknown;
}

const rtlRange = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;
const letterOrMark = /[\p{L}\p{M}]/u;

/** A right-to-left letter or mark: what pdf.js's bidi pass turns round in a right-to-left run. */
const isRtlLetter = (c: string): boolean => rtlRange.test(c) && letterOrMark.test(c);

/** An alef form before lam: how a lam-alef glyph reads once pdf.js has turned it round. */
const alefLam = /[\u0622\u0623\u0625\u0627\u0671]\u0644/;

/**
 * Whether a page's runs may hold a glyph turned round: a right-to-left run reading alef, lam. Only
 * such pages pay for the drawing instructions (every Arabic page has the article "ال" and so
 * qualifies; pages in other scripts do not).
 */
export function mayHoldClusters(runs: readonly unknown[]): boolean {
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
 * Puts the letters of each glyph of several letters in right-to-left runs back in their font's
 * order, in place. `fnArray`/`argsArray` are the page's operator list, `showText` pdf.js's code for
 * a glyph-showing operator.
 */
export function restoreClusters(
  runs: readonly unknown[],
  ops: { fnArray: ArrayLike<number>; argsArray: ArrayLike<unknown> },
  showText: number,
): void {
  // The right-to-left letters of every glyph drawn, in drawing order, and for each the glyph's
  // first letter in `stream` and its count of letters.
  let stream = '';
  const start: number[] = [];
  const count: number[] = [];
  for (let i = 0; i < ops.fnArray.length; i++) {
    if (ops.fnArray[i] !== showText) continue;
    const glyphs = (ops.argsArray[i] as unknown[] | null)?.[0];
    if (!Array.isArray(glyphs)) continue;
    for (const g of glyphs) {
      const u = (g as RawGlyph | null)?.unicode;
      if (typeof u !== 'string' || !u) continue;
      let n = 0;
      for (const c of u) {
        if (!isRtlLetter(c)) continue;
        start.push(stream.length - n);
        stream += c;
        n++;
      }
      for (let k = 0; k < n; k++) count.push(n);
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
    // only counted, so that the runs after it are found where they are.
    if (run.dir !== 'rtl') {
      at = Math.min(stream.length, at + n);
      continue;
    }
    let seen = '';
    for (let j = n - 1; j >= 0; j--) seen += str.charAt(places[j] as number);
    const found = stream.slice(at, at + n + WINDOW).indexOf(seen);
    if (found < 0) continue;
    const q = at + found;
    at = q + n;
    let out: string[] | null = null;
    for (let k = q; k < q + n; k++) {
      const len = count[k] as number;
      if (len < 2 || start[k] !== k || k + len > q + n) continue;
      // The glyph's letters are the run's `seen` letters k-q … k-q+len-1, which stand in the run
      // at places counted from its end: they must lie side by side to be turned round there.
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
