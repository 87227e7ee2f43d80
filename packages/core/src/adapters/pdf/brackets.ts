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

/** A bracket whose partner has not been met yet, in reading order: its item, the item's place in the order, its offset. */
interface Open {
  item: number;
  pos: number;
  at: number;
  c: string;
}

const WORD = /[\p{L}\p{N}]/u;
/** What may follow a closing bracket: a blank, a stop or separator, or the line's end (''). */
const AFTER_CLOSING = /^(?:|\s|[.,;:!?\u060c\u061b])$/;

/**
 * The character read next to a bracket, one step back (-1) or on (+1) in reading order: in its
 * run, or at the near end of the neighbouring run (a blank where the runs stand apart), or '' at
 * the line's end.
 */
function beside(items: readonly TextItem[], order: readonly number[], o: Open, step: -1 | 1): string {
  const it = items[o.item] as TextItem;
  const s = it.str;
  const j = o.at + step;
  if (j >= 0 && j < s.length) return s.charAt(j);
  const k = order[o.pos + step];
  if (k === undefined) return '';
  const n = items[k] as TextItem;
  if (Math.max(n.x - (it.x + it.w), it.x - (n.x + n.w)) > 0.15 * Math.min(it.size, n.size)) return ' ';
  return step > 0 ? n.str.charAt(0) : n.str.charAt(n.str.length - 1);
}

/**
 * Turns round the brackets of a right-to-left line whose pairs read backwards. A right-to-left line
 * shows the bracket that opens a parenthesis on its right as ")" (its mirror image), and producers
 * disagree on which character they file that glyph under: some under the bracket meant ("(", with
 * a font whose glyph for it is mirrored, or a viewer that mirrors), some under the glyph's own
 * character (")"). PDFium mirrors the brackets it reads right to left and pdf.js does not, so the
 * character a backend reports says nothing reliable. Reading order does: the bracket met first
 * opens. A pair that reads ")…(" in reading order is turned round ("(…)"); pairs that read the
 * right way keeps its characters. A bracket without a partner on the line (a parenthesis broken over
 * two lines, a list number's ")") is read by what stands beside it, as brackets are set: one
 * after a blank or the line's start and before a word opens, one after a word and before a blank,
 * a stop or the line's end closes; otherwise it keeps the character the font maps.
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
  for (const [pos, k] of order.entries()) {
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
          flip({ item: k, pos, at, c });
        }
      } else open.push({ item: k, pos, at, c });
    }
  }
  for (const o of open) {
    const before = beside(items, order, o, -1);
    const after = beside(items, order, o, 1);
    const opens = (before === '' || /\s/.test(before)) && WORD.test(after);
    const closes = WORD.test(before) && AFTER_CLOSING.test(after);
    if (opens !== closes && opens !== OPENERS.includes(o.c)) flip(o);
  }
  return fixed;
}
