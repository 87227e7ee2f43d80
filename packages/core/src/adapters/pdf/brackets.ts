import type { TextItem } from './model.ts';

/** Each bracket and its mirror image (Unicode Bidi_Mirroring_Glyph, the pairs PDF text uses). */
const MIRRORED: Record<string, string> = {
  '(': ')',
  ')': '(',
  '[': ']',
  ']': '[',
  '{': '}',
  '}': '{',
  '«': '»',
  '»': '«',
};
const OPENERS = '([{«';
const ANY = /[()[\]{}«»]/;
const ALL = /[()[\]{}«»]/g;

/** The bracket shown the other way round, for every bracket of `s`. */
export const mirrorBrackets = (s: string): string => s.replace(ALL, (c) => MIRRORED[c] ?? c);

/** A bracket whose partner has not been met yet, in reading order. */
interface Open {
  item: number;
  at: number;
  c: string;
}

/**
 * Turns round the brackets of a right-to-left line whose pairs read backwards. A right-to-left line
 * shows the bracket that opens a parenthesis on its right as ")" (its mirror image), and producers
 * disagree on which character they file that glyph under: some under the bracket meant ("(", with
 * a font whose glyph for it is mirrored, or a viewer that mirrors), some under the glyph's own
 * character (")"). PDFium mirrors the brackets it reads right to left and pdf.js does not, so the
 * character a backend reports says nothing reliable. Reading order does: the bracket met first
 * opens. A pair that reads ")…(" in reading order is turned round ("(…)"); pairs that read the
 * right way and brackets without a partner on the line (a parenthesis broken over two lines, a list
 * number's ")") keep the character the font maps.
 *
 * `order` is the line's items in reading order; returns the new text of each item that changed.
 */
export function pairBrackets(items: readonly TextItem[], order: readonly number[]): Map<number, string> {
  const fixed = new Map<number, string>();
  const open: Open[] = [];
  const flip = (o: Open) => {
    const s = fixed.get(o.item) ?? (items[o.item] as TextItem).str;
    fixed.set(o.item, s.slice(0, o.at) + (MIRRORED[o.c] as string) + s.slice(o.at + 1));
  };
  for (const k of order) {
    const s = (items[k] as TextItem).str;
    if (!ANY.test(s)) continue;
    for (let at = 0; at < s.length; at++) {
      const c = s.charAt(at);
      const partner = MIRRORED[c];
      if (!partner) continue;
      const top = open[open.length - 1];
      if (top?.c === partner) {
        open.pop();
        // A closing bracket met before its opening one: the pair reads backwards.
        if (OPENERS.includes(c)) {
          flip(top);
          flip({ item: k, at, c });
        }
      } else open.push({ item: k, at, c });
    }
  }
  return fixed;
}
