import { STARTS_LOWER } from '../../util/letters.ts';
import type { Line } from './lines.ts';

/** Font sizes and pitches are binned to half points. */
const bin = (v: number): number => Math.round(v * 2) / 2;

/** Fewest wrapped lines at one pitch that make it a page's leading for their size. */
const LEADING_PAIRS = 3;

/** Widest leading taken, in multiples of the size: wider pitches are gaps between blocks. */
const MAX_LEADING = 2.5;

/**
 * The leading of the page's running text, by font size (half points): the commonest pitch between
 * two lines of one size that start at one edge, the lower one going on with the upper one's
 * sentence (it starts with a small letter). Body text set with wide leading (1.8 times its size)
 * looks, line by line, like a paragraph gap to a rule of thumb; measured, its paragraphs are told
 * apart by the larger gaps between them. Lines of menus, headings and one-line items start with
 * capitals; in scripts without case a line wraps where it fills the lower one's width and ends no
 * sentence (`caselessWrap`). One pass over the lines.
 */
export function pageLeading(lines: readonly Line[]): Map<number, number> {
  // size → pitch → [pairs, pairs whose lower line starts with a small letter]
  const seen = new Map<number, Map<number, [number, number]>>();
  for (let i = 1; i < lines.length; i++) {
    const a = lines[i - 1] as Line;
    const b = lines[i] as Line;
    const size = bin(a.size);
    if (size !== bin(b.size) || size <= 0) continue;
    const pitch = b.base - a.base;
    const edge = a.rtl ? Math.abs(a.x1 - b.x1) : Math.abs(a.x0 - b.x0);
    if (pitch <= a.size || pitch > a.size * MAX_LEADING || edge > a.size) continue;
    let bySize = seen.get(size);
    if (!bySize) {
      bySize = new Map();
      seen.set(size, bySize);
    }
    const key = bin(pitch);
    const n = bySize.get(key) ?? [0, 0];
    n[0]++;
    if (STARTS_LOWER.test(b.text) || caselessWrap(a, b)) n[1]++;
    bySize.set(key, n);
  }
  const out = new Map<number, number>();
  for (const [size, bySize] of seen) {
    let best = 0;
    let most = 0;
    for (const [pitch, [n]] of bySize) if (n > most || (n === most && pitch < best)) [best, most] = [pitch, n];
    const wrapped = bySize.get(best)?.[1] ?? 0;
    if (most >= LEADING_PAIRS && wrapped * 2 >= most) out.set(size, best);
  }
  return out;
}

const CASELESS_START = /^\p{Lo}/u;
const SENTENCE_END = /[.!?:;。؟؛]$/u;

/**
 * Scripts without case (Arabic, Hebrew, Korean …) show no small letter where a sentence goes on:
 * there, a line that reaches across the lower one's width at both edges, and ends no sentence, wrapped
 * into it (justified prose, right_to_left_02), where a menu's or heading's lines end short.
 */
function caselessWrap(a: Line, b: Line): boolean {
  if (!CASELESS_START.test(b.text) || SENTENCE_END.test(a.text)) return false;
  return a.x0 <= b.x0 + a.size * 0.5 && a.x1 >= b.x1 - a.size * 0.5 && a.x1 - a.x0 > a.size * 10;
}

/** The measured leading of lines of `size` on the page, if any. */
export const leadingOf = (leading: Map<number, number>, size: number): number | undefined => leading.get(bin(size));
