import { ENDS_SENTENCE, readsOn } from '../../util/letters.ts';
import { endsText, inHalf, type TextFrame } from './continued.ts';
import { bboxOf, type Line, stripPrefix } from './lines.ts';

/**
 * A quote's mark opening a line of an e-mail's quoted text: ">" alone, or before a blank, another
 * mark or a letter (some mail programs set no blank after it: ">Could you …").
 */
const QUOTE = /^>(?:[\s>]|$|\p{L})/u;
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
 * Whether line `l` goes on a run of quoted lines that opens with `edge` and was read as far as
 * `prev`: it opens with a mark at `edge`'s left edge, below `prev` (above it, where the run is read
 * upwards from a page's last line, `up`).
 */
const goesOnRun = (l: Line, prev: Line, edge: Line, up = false): boolean =>
  QUOTE.test(l.text) && Math.abs(l.x0 - edge.x0) <= edge.size && (up ? l.base < prev.base : l.base > prev.base);

/**
 * Whether a run of lines opening with a quote's mark is a quote: `fewest` lines at least
 * (`QUOTE_LINES`; one inside a quote, whose marks say what a line's mark is), one of them holding
 * words after its mark; where a line sets the mark before a figure ("> 90 %", thresholds one a
 * line) or right before a word (">Could you", as FASTA's ">HBA_HUMAN" headers and ">"-bullets
 * do), only with a line of marks alone or a quote within it.
 */
function isQuote(run: readonly Line[], fewest = QUOTE_LINES): boolean {
  let words = false;
  let unsure = false;
  let cue = false;
  for (const { text: t } of run) {
    if (MARKS_ONLY.test(t)) cue = true;
    else {
      words = true;
      if (NESTED.test(t)) cue = true;
      if (SIGN_BEFORE_FIGURE.test(t) || MARK_ON_WORD.test(t)) unsure = true;
    }
  }
  return run.length >= fewest && words && (cue || !unsure);
}

/** A mark set right before a word, no blank between (">Could"). */
const MARK_ON_WORD = /^>\p{L}/u;

/**
 * Whether `l`, a line without a mark right under the quoted line `prev` of a run at `edge`'s left
 * edge, is that line's end the printout wrapped onto a line of its own ("> … We have the" over
 * "room from ten until noon"): at the run's edge, at a line's pitch, the sentence reading on, its
 * first word too long to have fitted after `prev` before `right` (where the page's lines end). A
 * reply written between quoted lines ("> Can we meet at ten" over "yes that works") is none.
 */
function wrapsQuoted(prev: Line, l: Line, edge: Line, right: number): boolean {
  if (
    QUOTE.test(l.text) ||
    MARKS_ONLY.test(prev.text) ||
    Math.abs(l.x0 - edge.x0) > edge.size ||
    l.base <= prev.base ||
    l.base - prev.base > WRAP_PITCH * Math.max(l.size, prev.size) ||
    !readsOn(prev.text, l.text)
  )
    return false;
  const char = (prev.x1 - prev.x0) / Math.max(1, prev.text.length);
  const word = l.text.split(/\s/, 1)[0] as string;
  return prev.x1 + char * (word.length + 1) > right;
}

/** Where a page's lines end on the right: the furthest. */
function textRight(lines: readonly Line[]): number {
  let right = 0;
  for (const l of lines) right = Math.max(right, l.x1);
  return right;
}

/** Most a wrapped quoted line stands under the line it goes on from, in sizes. */
const WRAP_PITCH = 1.6;

/**
 * The quoted lines a page's breaks part from its own: those ending the page before (`before`),
 * where this page opens with quoted lines, and those opening the page after (`after`), where it
 * ends with some; set where the two parts are one quote the break cut (`markQuotesOverBreaks`).
 * A page's part of such a quote is a quote however few its lines ("> …plenty of time for" alone
 * at its foot).
 */
export interface QuoteOverBreak {
  before?: readonly Line[];
  after?: readonly Line[];
}

/** The run of quoted lines opening `lines` (`'first'`), or ending them (`'last'`). */
export function edgeRun(lines: readonly Line[], edge: 'first' | 'last'): Line[] {
  const last = edge === 'last';
  const run: Line[] = [];
  const n = lines.length;
  for (let k = 0; k < n; k++) {
    const l = lines[last ? n - 1 - k : k] as Line;
    const prev = run[run.length - 1];
    if (prev ? !goesOnRun(l, prev, run[0] as Line, last) : !QUOTE.test(l.text)) break;
    run.push(l);
  }
  return last ? run.reverse() : run;
}

/** Whether the quoted lines ending one page (`tail`) and opening the next (`head`) are one quote, at one edge. */
export function quoteOverBreak(tail: readonly Line[], head: readonly Line[]): boolean {
  const a = tail[0];
  const b = head[0];
  return a !== undefined && b !== undefined && Math.abs(a.x0 - b.x0) <= a.size && isQuote([...tail, ...head]);
}

/**
 * The run of lines from line `i` that open with a quote's mark (">"), one under the other at one
 * left edge: where it ends (the line after its last; `i` where line `i` opens with no mark), and
 * whether it is a quote (`isQuote`). An e-mail printed to PDF quotes the message it answers so;
 * read as prose, the quoted lines joined the line above ("Ann wrote: > Could you … We > have the
 * room"). A run opening or ending the page is read with the quoted lines the page break parts it
 * from (`over`).
 */
export function quoteRun(
  lines: readonly Line[],
  i: number,
  over: QuoteOverBreak = {},
  nested = false,
): { end: number; quote: boolean } {
  const first = lines[i];
  if (!first || !QUOTE.test(first.text)) return { end: i, quote: false };
  let j = i + 1;
  let right: number | undefined;
  const edge = (): number => {
    right ??= textRight(lines);
    return right;
  };
  // Whether the quote's last line's end wrapped onto a line of its own.
  let wrappedEnd = false;
  while (j < lines.length) {
    const l = lines[j] as Line;
    const prev = lines[j - 1] as Line;
    if (goesOnRun(l, prev, first)) j++;
    // A quoted line's end wrapped onto a line without a mark, the quote going on under it.
    else if (j + 1 < lines.length && goesOnRun(lines[j + 1] as Line, l, first) && wrapsQuoted(prev, l, first, edge()))
      j += 2;
    else {
      // Or ending it, the line standing alone: a reply under the quote goes on at its pitch. Where
      // nothing is under it (a page's foot, a quote within a quote's last line), it ends a sentence,
      // and inside a quote it is none: the outer writer's reply would be given to the inner one.
      const next = lines[j + 1];
      wrappedEnd =
        wrapsQuoted(prev, l, first, edge()) &&
        (next ? next.base - l.base > WRAP_PITCH * Math.max(l.size, next.size) : !nested && ENDS_SENTENCE.test(l.text));
      if (wrappedEnd) j++;
      break;
    }
  }
  const run = lines.slice(i, j);
  // A wrapped end makes no quote of a line alone.
  const quote =
    isQuote(wrappedEnd ? run.slice(0, -1) : run, nested ? 1 : QUOTE_LINES) ||
    (i === 0 && !!over.before?.length && quoteOverBreak(over.before, run)) ||
    (j === lines.length && !!over.after?.length && quoteOverBreak(run, over.after));
  return { end: j, quote };
}

/**
 * The lines with one level of quote marks taken off, each mark with the blank after it, set as far
 * right as the mark took (so the quote's own indents and lists read as they stand; a wrapped line
 * without a mark where the line it goes on from stands); lines of the mark alone left out.
 */
export function unquoted(lines: readonly Line[]): Line[] {
  const out: Line[] = [];
  for (const l of lines) {
    // A line's text collapses runs of blanks its spans keep: each is cut by its own count.
    const inText = ONE_LEVEL.exec(l.text)?.[0].length ?? 0;
    const inSpans = ONE_LEVEL.exec(l.spans.map((sp) => sp.text).join(''))?.[0].length ?? 0;
    const shift = l.text.length ? ((l.x1 - l.x0) * inText) / l.text.length : 0;
    // A line of the mark alone parts paragraphs by the gap it leaves.
    const x0 = inText ? l.x0 + shift : (out[out.length - 1]?.x0 ?? l.x0);
    if (l.text.length > inText)
      out.push({ ...l, text: l.text.slice(inText), spans: stripPrefix(l.spans, inSpans), x0 });
  }
  return out;
}

/**
 * Gives each page the quoted lines a page break parts from its own (`QuoteOverBreak`): where the
 * quoted lines ending a page reach down to where the document's pages end their text, and the
 * next page opens with quoted lines where pages begin it, at the same edge, the two runs making a
 * quote (`quoteOverBreak`). Pages come in order, one after the other. Marked pages read such a
 * run as a quote whatever its length; `joinContinuedQuotes` joins the quotes where the output
 * reads pages on (not per page, nor on pages OCR may read again).
 */
export function markQuotesOverBreaks(
  pages: readonly { lines: readonly Line[]; height: number; quoteOver?: QuoteOverBreak }[],
  frame: TextFrame,
): void {
  for (let k = 0; k + 1 < pages.length; k++) {
    const here = pages[k] as (typeof pages)[number];
    const next = pages[k + 1] as (typeof pages)[number];
    const tail = edgeRun(here.lines, 'last');
    const head = tail.length ? edgeRun(next.lines, 'first') : [];
    const tailBox = bboxOf(tail);
    const headBox = bboxOf(head);
    // Two short pages set the frame where their text stops: a quote ending in a page's upper half,
    // or the next opening in its lower half, is no quote the break cut.
    if (
      !inHalf(tailBox, here.height, true) ||
      !inHalf(headBox, next.height, false) ||
      !quoteOverBreak(tail, head) ||
      !endsText(tailBox, here.lines, frame, true) ||
      !endsText(headBox, next.lines, frame, false)
    )
      continue;
    here.quoteOver = { ...here.quoteOver, after: head };
    next.quoteOver = { ...next.quoteOver, before: tail };
  }
}
