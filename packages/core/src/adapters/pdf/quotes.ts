import { type Line, stripPrefix } from './lines.ts';

/** A quote's mark opening a line of an e-mail's quoted text: ">" alone, or before a blank or another mark. */
const QUOTE = /^>(?:[\s>]|$)/;
/** The mark of one level of quoting and the blank after it. */
const ONE_LEVEL = /^>\s?/;
/** Fewest lines of a quote: a lone line opening with ">" may be a comparison ("> 50 % of users"). */
const QUOTE_LINES = 2;
/** Deepest quote read as quotes within quotes; deeper marks stay text. */
export const QUOTE_DEPTH = 8;

/**
 * Where a run of quoted lines from line `i` ends (the line after its last), or `i` where none
 * starts there: lines opening with a quote's mark (">"), read one under the other at one left
 * edge, `QUOTE_LINES` at least. An e-mail printed to PDF quotes the message it answers so; read
 * as prose, the quoted lines joined the line above ("Ann wrote: > Could you … We > have the room").
 */
export function quoteEnd(lines: readonly Line[], i: number): number {
  const first = lines[i];
  if (!first || !QUOTE.test(first.text)) return i;
  let j = i + 1;
  for (; j < lines.length; j++) {
    const l = lines[j] as Line;
    if (!QUOTE.test(l.text) || Math.abs(l.x0 - first.x0) > first.size || l.base <= (lines[j - 1] as Line).base) break;
  }
  if (j - i < QUOTE_LINES) return i;
  // Thresholds set one a line ("> 90 %", "> 80 %") open with the sign, not a quote's mark: a quote
  // holds a line of words, or a line of its mark alone.
  for (let k = i; k < j; k++) if (!QUOTED_FIGURE.test((lines[k] as Line).text)) return j;
  return i;
}

/** A line whose mark stands before a figure: a comparison's sign, as a quote's line seldom is. */
const QUOTED_FIGURE = /^>\s*[\p{N}.,%+-]/u;

/** The lines with one level of quote marks taken off, each mark with the blank after it. */
export function unquoted(lines: readonly Line[]): Line[] {
  return lines.map((l) => {
    const n = ONE_LEVEL.exec(l.text)?.[0].length ?? 0;
    return { ...l, text: l.text.slice(n), spans: stripPrefix(l.spans, n) };
  });
}
