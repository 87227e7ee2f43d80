import { type Line, stripPrefix } from './lines.ts';

/** A quote's mark opening a line of an e-mail's quoted text: ">" alone, or before a blank or another mark. */
const QUOTE = /^>(?:[\s>]|$)/;
/** The mark of one level of quoting and the blank after it. */
const ONE_LEVEL = /^>\s?/;
/** A line of marks alone, or marks before another level's mark: an e-mail's quote for sure. */
const MARKS_ONLY = /^(?:>\s*)+$/;
const NESTED = /^>\s*>/;
/** A line whose mark stands before a figure: a comparison's sign ("> 90 %", "> -5", "> .5"). */
const SIGN_BEFORE_FIGURE = /^>\s*[+-]?[.,]?\p{N}/u;
/** Fewest lines of a quote: a lone line opening with ">" may be a comparison ("> 50 % of users"). */
const QUOTE_LINES = 2;
/** Deepest quote read as quotes within quotes; deeper marks stay text. */
export const QUOTE_DEPTH = 8;

/**
 * The run of lines from line `i` that open with a quote's mark (">"), one under the other at one
 * left edge: where it ends (the line after its last; `i` where line `i` opens with no mark), and
 * whether it is a quote. An e-mail printed to PDF quotes the message it answers so; read as prose,
 * the quoted lines joined the line above ("Ann wrote: > Could you … We > have the room"). A quote
 * is `QUOTE_LINES` lines at least, one of them holding words after its mark; where a line sets the
 * mark before a figure ("> 90 %", thresholds one a line) the run is a quote only with a line of
 * marks alone or a quote within it.
 */
export function quoteRun(lines: readonly Line[], i: number): { end: number; quote: boolean } {
  const first = lines[i];
  if (!first || !QUOTE.test(first.text)) return { end: i, quote: false };
  let j = i + 1;
  for (; j < lines.length; j++) {
    const l = lines[j] as Line;
    if (!QUOTE.test(l.text) || Math.abs(l.x0 - first.x0) > first.size || l.base <= (lines[j - 1] as Line).base) break;
  }
  let words = false;
  let figures = false;
  let cue = false;
  for (let k = i; k < j; k++) {
    const t = (lines[k] as Line).text;
    if (MARKS_ONLY.test(t)) cue = true;
    else {
      words = true;
      if (NESTED.test(t)) cue = true;
      if (SIGN_BEFORE_FIGURE.test(t)) figures = true;
    }
  }
  return { end: j, quote: j - i >= QUOTE_LINES && words && (cue || !figures) };
}

/**
 * The lines with one level of quote marks taken off, each mark with the blank after it, set as far
 * right as the mark took (so the quote's own indents and lists read as they stand); lines of the
 * mark alone left out.
 */
export function unquoted(lines: readonly Line[]): Line[] {
  const out: Line[] = [];
  for (const l of lines) {
    // A line's text collapses runs of blanks its spans keep: each is cut by its own count.
    const inText = ONE_LEVEL.exec(l.text)?.[0].length ?? 0;
    const inSpans = ONE_LEVEL.exec(l.spans.map((sp) => sp.text).join(''))?.[0].length ?? 0;
    const shift = l.text.length ? ((l.x1 - l.x0) * inText) / l.text.length : 0;
    // A line of the mark alone parts paragraphs by the gap it leaves.
    if (l.text.length > inText)
      out.push({ ...l, text: l.text.slice(inText), spans: stripPrefix(l.spans, inSpans), x0: l.x0 + shift });
  }
  return out;
}
