/**
 * Accents drawn as separate glyphs. TeX and older typesetters draw "ğ" as a "g" plus a spacing
 * breve placed over it, so the text layer holds "O˘guz" (pdf.js: the accent in the run, before its
 * letter) or "Oguz" plus a lone "˘" run lying over the "g" (PDFium). Both become the composed
 * letter (NFC), which is what search and language models expect.
 */
import { STARTS_LETTER } from '../../util/letters.ts';
import type { TextItem } from './model.ts';

/** Spacing diacritics and the combining marks they stand for. */
const combiningOf: Record<string, string> = {
  '\u02d8': '\u0306', // breve
  '\u02c7': '\u030c', // caron
  '\u00b4': '\u0301', // acute
  '\u02dd': '\u030b', // double acute
  '\u00a8': '\u0308', // diaeresis
  '\u02c6': '\u0302', // circumflex
  '\u02dc': '\u0303', // tilde
  '\u00af': '\u0304', // macron
  '\u02da': '\u030a', // ring
  '\u02d9': '\u0307', // dot above
  '\u00b8': '\u0327', // cedilla
  '\u02db': '\u0328', // ogonek
};
/** A grave drawn over a letter is the ASCII backtick in many fonts; only a lone run counts. */
const GRAVE = '`';

/** `letter + accent` as one precomposed character, or null when Unicode has none. */
function compose(letter: string, mark: string): string | null {
  const c = `${letter}${mark}`.normalize('NFC');
  return c.length === 1 ? c : null;
}

// Inside a run only accents that are never punctuation count: "it´s" keeps its makeshift apostrophe.
const inlineAccent = /\p{L}?([\u02d8\u02c7\u02dd\u00a8\u02c6\u02dc\u02da\u02d9\u00b8\u02db])(\p{L})/gu;
const anyInline = /[\u02d8\u02c7\u02dd\u00a8\u02c6\u02dc\u02da\u02d9\u00b8\u02db]/;

/** "O˘guz" → "Oğuz": an accent inside a run goes onto the letter after it, where Unicode allows. */
export function composeInline(s: string): string {
  if (!anyInline.test(s)) return s;
  return s.replace(inlineAccent, (m, acc: string, letter: string) => {
    // The accent must touch a word on the left ("O˘guz"); after a space it may be a quote mark.
    if (!STARTS_LETTER.test(m)) return m;
    const c = compose(letter, combiningOf[acc] as string);
    return c ? `${m.charAt(0)}${c}` : m;
  });
}

/**
 * Folds runs made of one spacing accent into the letter they are drawn over. Returns the items to
 * keep (the same array when nothing changed).
 */
export function attachAccents(items: TextItem[]): TextItem[] {
  let dropped: Set<number> | null = null;
  for (const [i, it] of items.entries()) {
    it.str = composeInline(it.str);
    // pdf.js ends a run with the accent and starts the next one with its letter ("O˘" + "guz").
    const next = items[i + 1];
    const tail = it.str.slice(-1);
    if (next && it.str.length > 1 && anyInline.test(tail) && STARTS_LETTER.test(next.str)) {
      const c = compose(next.str.charAt(0), combiningOf[tail] as string);
      if (c) {
        it.str = it.str.slice(0, -1);
        next.str = c + next.str.slice(1);
        continue;
      }
    }
    const acc = it.str.trim();
    if (acc.length !== 1 || it.rotated) continue;
    const mark = acc === GRAVE ? '\u0300' : combiningOf[acc];
    if (!mark) continue;
    const cx = it.x + it.w / 2;
    const host = items.findIndex(
      (o, j) =>
        j !== i &&
        !o.rotated &&
        o.str.trim().length > 0 &&
        cx > o.x &&
        cx < o.x + o.w &&
        // Same line: the accent sits over or under the run's letters.
        it.y < o.y + o.h &&
        it.y + it.h > o.y,
    );
    if (host < 0) continue;
    const h = items[host] as TextItem;
    if (!placeOn(h, cx, mark)) continue;
    dropped ??= new Set();
    dropped.add(i);
  }
  return dropped ? items.filter((_, i) => !dropped.has(i)) : items;
}

const upper = /\p{Lu}/u;

/** Rough advance widths (in ems) by letter shape: enough to tell which letter lies under a point. */
function advance(c: string): number {
  if (/[ijlI.,:;'!|]/.test(c)) return 0.25;
  if (/[ftr ()-]/.test(c)) return 0.33;
  if (/[mwMW]/.test(c)) return 0.85;
  if (upper.test(c)) return 0.7;
  return 0.55;
}

/** Puts the mark on the letter of `h` nearest to `cx` that takes it. */
function placeOn(h: TextItem, cx: number, mark: string): boolean {
  const chars = [...h.str.trimEnd()];
  const widths = chars.map(advance);
  const total = widths.reduce((a, b) => a + b, 0);
  const centres: number[] = [];
  let run = 0;
  for (const w of widths) {
    centres.push(h.x + ((run + w / 2) / total) * h.w);
    run += w;
  }
  const order = chars
    .map((_, k) => k)
    .sort((a, b) => Math.abs((centres[a] as number) - cx) - Math.abs((centres[b] as number) - cx));
  for (const k of order.slice(0, 2)) {
    const c = compose(chars[k] as string, mark);
    if (!c) continue;
    chars[k] = c;
    h.str = chars.join('') + h.str.slice(h.str.trimEnd().length);
    return true;
  }
  return false;
}
