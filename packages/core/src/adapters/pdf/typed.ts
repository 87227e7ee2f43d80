/**
 * Typewriter text broken into lines on purpose: which of a page's line breaks in a code face end
 * their paragraphs (`keptBreaks`).
 */

import { readsOn, WIDE_SCRIPT } from '../../util/letters.ts';
import { addressIn } from './code.ts';
import { type Line, sameRow } from './lines.ts';
import { projection } from './spans.ts';
import { type LetterWords, letterWords } from './tables/words.ts';

/** Words (two letters or more) a line of prose holds at least. */
const PROSE_LINE_WORDS = 5;
/**
 * A block is a list of lines where at least this share of its breaks is deliberate, under this share
 * of its rows is prose, and under this share of its breaks goes on (`typedGoesOn`).
 */
const LIST_FITS = 1 / 2;
const LIST_PROSE = 1 / 3;
const LIST_GOING_ON = 1 / 5;
/** Pitch (in its median pitches) past which a run of rows parts into blocks: a blank line. */
const BLANK_PITCH = 1.5;
/** Pitch (in sizes) a run of rows keeps at most, and needs at least (a row's fragments stand at 0). */
const MAX_ROW_PITCH = 2;
const MIN_ROW_PITCH = 0.3;

/** Fewest lines of a typewriter block whose breaks are weighed (`keptBreaks`). */
const TYPED_LINES = 3;

/**
 * Typewriter lines that end where they were broken on purpose: a receipt's lines ("AUDIO-5521 1 @
 * $349.99" over "Member Discount $-50.00") are lines, not a paragraph wrapped. Lines in a code face
 * (every character as wide) at about one pitch make a block (a blank line, half the pitch again or
 * more, ends it). A break is deliberate where the next line's first word would have fitted on the
 * line within the typewriter column it stands in (`typedColumns`): a wrapping program breaks only
 * where it would not. A block is a list of lines where half its breaks or more are deliberate,
 * under a third of its lines are prose (five words or more, addresses aside) and almost none go on
 * (`typedGoesOn`): then all its breaks are kept, but before a line going on, and between two lines
 * of a wide script (CJK) the first of which fills the column (CJK wraps anywhere). Prose, verse and
 * dialogue keep none: their lines join as any text's do.
 */
export function keptBreaks(lines: readonly Line[], codeFont: (font: string) => boolean): Set<Line> {
  const kept = new Set<Line>();
  const rows = typedRows(lines, codeFont);
  let columns: [number, number][] | null = null;
  for (let i = 0; i < rows.length; ) {
    // A run of rows at a line's pitch or so, then its blocks, parted where the pitch is half as
    // much again as the run's usual one (its median: a blank line is rarer than a line).
    let e = i;
    const pitches: number[] = [];
    while (e + 1 < rows.length) {
      const a = rows[e] as TypedRow;
      const b = rows[e + 1] as TypedRow;
      const pitch = b.base - a.base;
      if (
        b.at !== a.at + a.count ||
        pitch <= a.size * MIN_ROW_PITCH ||
        pitch > MAX_ROW_PITCH * Math.max(a.size, b.size)
      )
        break;
      pitches.push(pitch);
      e++;
    }
    pitches.sort((a, b) => a - b);
    const unit = pitches[Math.floor((pitches.length - 1) / 2)] ?? 0;
    for (let from = i; from <= e; ) {
      let to = from;
      while (to < e && (rows[to + 1] as TypedRow).base - (rows[to] as TypedRow).base <= unit * BLANK_PITCH) to++;
      if (to + 1 - from >= TYPED_LINES) {
        columns ??= typedColumns(lines, codeFont);
        keepListBreaks(rows.slice(from, to + 1), columns, kept);
      }
      from = to + 1;
    }
    i = e + 1;
  }
  return kept;
}

/** A row of typewriter lines (the fragments of one baseline, read left to right), as `keptBreaks` weighs it. */
interface TypedRow {
  /** Where its first line is among the page's, and how many it holds. */
  at: number;
  count: number;
  last: Line;
  text: string;
  x0: number;
  x1: number;
  base: number;
  size: number;
}

/**
 * The page's rows wholly in a code face, left to right, none read right to left. Every page is
 * walked: a row's text is put together only for a typewriter row, nothing copied for the others.
 */
function typedRows(lines: readonly Line[], codeFont: (font: string) => boolean): TypedRow[] {
  const out: TypedRow[] = [];
  const typed = (l: Line): boolean => !l.rtl && codeFont(l.font);
  for (let i = 0; i < lines.length; ) {
    const first = lines[i] as Line;
    let e = i;
    let all = typed(first);
    while (
      e + 1 < lines.length &&
      sameRow(lines[e] as Line, lines[e + 1] as Line) &&
      (lines[e + 1] as Line).x0 > (lines[e] as Line).x1
    ) {
      e++;
      all &&= typed(lines[e] as Line);
    }
    if (all) {
      const last = lines[e] as Line;
      out.push({
        at: i,
        count: e + 1 - i,
        last,
        text: lines
          .slice(i, e + 1)
          .map((l) => l.text)
          .join(' '),
        x0: first.x0,
        x1: last.x1,
        base: first.base,
        size: first.size,
      });
    }
    i = e + 1;
  }
  return out;
}

/**
 * The x ranges typewriter lines take on the page, overlapping ones merged: a receipt's column, as
 * wide as its widest line (a rule of dashes), whichever block a line is in. Found once a page.
 */
function typedColumns(lines: readonly Line[], codeFont: (font: string) => boolean): [number, number][] {
  const spans: [number, number][] = [];
  for (const l of lines) if (codeFont(l.font)) spans.push([l.x0, l.x1]);
  return projection(spans, 0);
}

/** A typewriter list's mark of an item: a letter o, a star, a plus or a hyphen, then a blank. */
const TYPED_MARK = /^[o*+-]\s/;

/** A line ending in a word that leads a phrase on: an article, a preposition, a conjunction. */
const ENDS_LEADING_WORD = /\b(?:a|an|the|of|and|or|for|to|in|on|at|by|with|from)$/i;

/**
 * Whether row `b` goes on with the sentence of row `a`: in a small letter that marks no item, or
 * after a word that leads a phrase on ("ANNUAL REPORT OF THE" over "PARISH COUNCIL").
 */
const typedGoesOn = (a: TypedRow, b: TypedRow): boolean =>
  (readsOn(a.text, b.text) && !TYPED_MARK.test(b.text)) || ENDS_LEADING_WORD.test(a.text.trimEnd());

/** Words of two letters or more in a row's text, its e-mail and web addresses aside (no prose). */
function proseWords(text: string): number {
  const count: LetterWords = { words: 0, lower: false };
  for (const piece of text.split(/\s+/)) if (piece && !addressIn.test(piece)) letterWords(piece, count);
  return count.words;
}

/** Adds to `kept` the last lines of the rows of `block` where the block is a list of lines (`keptBreaks`). */
function keepListBreaks(block: readonly TypedRow[], columns: readonly [number, number][], kept: Set<Line>): void {
  const first = block[0] as TypedRow;
  const column = columns.find(([a, b]) => first.x0 >= a && first.x0 < b) ?? [first.x0, first.x1];
  const measure = column[1] - column[0];
  const breaks = block.length - 1;
  let fits = 0;
  let prose = 0;
  // Per break: whether the row before it fills the column, and whether the row after goes on.
  const full: boolean[] = [];
  const goesOn: boolean[] = [];
  for (let k = 0; k < block.length; k++) {
    const a = block[k] as TypedRow;
    if (proseWords(a.text) >= PROSE_LINE_WORDS) prose++;
    const char = a.text.length ? (a.x1 - a.x0) / a.text.length : 0;
    full.push(a.x1 - a.x0 >= measure - 1.5 * char);
    const b = block[k + 1];
    if (!b) break;
    const word = b.text.trimStart().split(/\s/, 1)[0] ?? '';
    if (char && a.x1 - a.x0 + char * (1 + word.length) <= measure + char / 2) fits++;
    goesOn.push(typedGoesOn(a, b));
  }
  const goOn = goesOn.filter(Boolean).length;
  if (fits < breaks * LIST_FITS || prose >= block.length * LIST_PROSE || goOn >= breaks * LIST_GOING_ON) return;
  for (let k = 0; k < breaks; k++) {
    const a = block[k] as TypedRow;
    const b = block[k + 1] as TypedRow;
    if (goesOn[k] || (full[k] && WIDE_SCRIPT.test(a.text) && WIDE_SCRIPT.test(b.text))) continue;
    kept.add(a.last);
  }
}
