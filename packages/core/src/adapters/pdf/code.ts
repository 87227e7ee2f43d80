import { mostCounted } from '../../util/arrays.ts';
import { LETTER, WIDE_SCRIPT } from '../../util/letters.ts';
import { type Line, type Span, sameRow } from './lines.ts';
import type { TableRegion, TextItem } from './model.ts';

/**
 * Code set in a PDF: rows of lines in a monospaced face that the body text is not set in. Read as
 * prose, a listing's statements became short paragraphs cut mid-statement and its indentation was
 * lost; a caption above it ran on into its first line. A code block keeps each row a line and each
 * line's indentation in characters, measured from the block's left edge.
 */

/** Rows a code block has at least: one monospaced line alone is an address, a name or a command in a sentence. */
const MIN_ROWS = 2;
/** Furthest apart two rows of one block stand, in sizes (baseline to baseline): two blank lines. */
const MAX_PITCH = 3.2;
/** Blank lines kept between two rows at most: one, as Markdown keeps no more between lines of code. */
const MAX_BLANKS = 1;

/**
 * An e-mail or web address: papers set their authors' addresses in a typewriter face, one under
 * another or several to a row (`{ann, bob}@lab.org`, "E-mail: …"), and they are no code.
 */
const address = /^(?:(?:\{[^}]*\}|[\w.+-]+)@[\w-]+(?:\.[\w-]+)+|(?:https?:\/\/|www\.)\S+)$/;
const addressLabel = /^[\p{L} -]{1,16}:\s*/u;
const brace = /\{[^}]*\}/g;

/** Whether a row holds addresses alone (and a label before them). */
function addressRow(t: string): boolean {
  // A brace group's names are one address: split the rest at blanks, commas and semicolons.
  const groups: string[] = [];
  const rest = t.replace(addressLabel, '').replace(brace, (g) => {
    groups.push(g);
    return `\u0000${groups.length - 1}`;
  });
  const tokens = rest.split(/[\s,;]+/).filter((w) => w && w !== 'and');
  return (
    tokens.length > 0 &&
    tokens.every((w) => address.test(w.replace(/\u0000(\d+)/, (_, k) => groups[Number(k)] ?? '').replace(/[.,;]$/, '')))
  );
}

/** Whether a span is set in a code face not the body's (a footnote mark is none). */
export function inCodeFace(sp: Span, codeFont: (font: string) => boolean, bodyFont: string): boolean {
  return !sp.sup && sp.font !== bodyFont && codeFont(sp.font);
}

/**
 * Whether a block's spans in a code face read as inline code: where the block has words in another
 * face too ("install `layoutparser` with pip"). A block set wholly in a typewriter face is a font
 * choice, a command or a name alone, as one such line is no code block; a list item's marker (not
 * in `first`, the first line's spans) and a footnote mark are no words of another face. A block in
 * CJK or Hangul has none: their fixed-width faces set the Latin words among them too.
 */
export function hasInlineCode(
  lines: readonly Line[],
  first: readonly Span[],
  codeFont: (font: string) => boolean,
  bodyFont: string,
): boolean {
  if (codeFont(bodyFont)) return false;
  // Nearly every block has no run in a code face: that is settled by the faces, the text unread.
  let code = false;
  for (let i = 0; i < lines.length && !code; i++)
    for (const sp of i ? (lines[i] as Line).spans : first)
      if (inCodeFace(sp, codeFont, bodyFont)) {
        code = true;
        break;
      }
  if (!code) return false;
  let other = false;
  for (let i = 0; i < lines.length; i++) {
    for (const sp of i ? (lines[i] as Line).spans : first) {
      if (WIDE_SCRIPT.test(sp.text)) return false;
      if (!other && !sp.sup && !inCodeFace(sp, codeFont, bodyFont) && LETTER.test(sp.text)) other = true;
    }
  }
  return other;
}

/**
 * An e-mail or web address in a run's words, cut at a line end or not ("ann@lab." then
 * "example.org"): a paper's typewriter address stays text, and a link.
 */
export const addressIn = /\S@[\w-]+\.|(?:https?:\/\/|www\.)\S/;
/**
 * A form's label, all the text before a run: a few words and a colon ("Policy holder: "), its value
 * filled in a typewriter face. Not a sentence ending in a colon ("To install it, run: ").
 */
const formLabel = /^[\p{L} -]{1,16}:\s*$/u;
/** Signs that a run after a form's label is code all the same: a form's value ("John Smith") has none. */
const notFormValue = /[=;{}()[\]#<>_*/\\$@|~^]|::|--/;

/**
 * Whether a run in a code face reads as code: two characters at least and a letter (a figure, a
 * date or a sign alone is no code: forms fill their values in Courier); no address, `word` being
 * the run with the characters its neighbours join to it (an address's braces or "@" may be set in
 * another face); after a form's label, only with a sign of code in it. (CJK and Hangul have been
 * left out with their blocks, `hasInlineCode`.)
 */
export function inlineCode(value: string, word: string, before: string): boolean {
  const t = value.trim();
  return t.length >= 2 && LETTER.test(t) && !addressIn.test(word) && (!formLabel.test(before) || notFormValue.test(t));
}

/** A listing's line number ahead of its code, set in the text face (LaTeX's listings: CMR5). */
const numberedLine = /^\d{1,4}\s/;
const lineNumber = /^\d{1,4}$/;

/**
 * Symbol and math faces: a listing draws a sign its code face lacks ("≤", "→") in one of them
 * (Symbol, TeX's CMSY and CMMI, Cambria Math, Wingdings, Zapf Dingbats).
 */
const signFace = /symbol|^(?:[A-Z]{6}\+)?cm(?:sy|mi|ex)\d|math(?:-|$)|cambria ?math|dingbat|wingding/i;

/** A list's bullet or check mark ahead of an item (a sign face's, or one `foldBullets` set there). */
const bulleted = /^[•◦▪▫‣●○■□►▸➢✓✔☐☑☒\uf000-\uf0ff]\s/;

/**
 * Whether a line is code: set in a code face, every run of it, but for signs in a symbol face and
 * a line number ahead of its code, which may be set in one other face. Not an item of a list of
 * monospaced names ("• --verbose"): its bullet is no code.
 */
export function codeLine(l: Line, codeFont: (font: string) => boolean): boolean {
  // The fonts first: they settle nearly every line, without reading its text.
  let code = 0;
  let signs = 0;
  for (const f of l.fonts) {
    if (codeFont(f)) code++;
    else if (signFace.test(f)) signs++;
  }
  const other = l.fonts.length - code - signs;
  if (code === 0 || other > 1 || l.rtl || !l.text.trim() || WIDE_SCRIPT.test(l.text) || bulleted.test(l.text))
    return false;
  return other === 0 || numberedLine.test(l.text);
}

/**
 * The code blocks among a page's lines (in reading order): where each starts → where it ends
 * (exclusive). A block's lines follow one another down the page in one size, row after row no
 * more than `MAX_PITCH` sizes apart; pieces of one row (a wide gap splits a line) come in turn,
 * and so does a line number set apart from its code, or alone on a blank row between rows of it.
 * A document set in a code face throughout (a typescript, a receipt) has none: its bold or
 * another size of its face is no code either.
 */
export function codeRuns(
  lines: readonly Line[],
  codeFont: (font: string) => boolean,
  bodyFont: string,
): Map<number, number> {
  const runs = new Map<number, number>();
  if (codeFont(bodyFont)) return runs;
  const member = (k: number): boolean => {
    const l = lines[k] as Line;
    if (codeLine(l, codeFont)) return true;
    const next = lines[k + 1];
    const prev = lines[k - 1];
    if (next !== undefined && l.text.length <= 8 && lineNumber.test(l.text.trim()) && codeLine(next, codeFont))
      return true;
    // A sign drawn apart in a symbol face, on a row of code ("yyy", "≤", "2" where a gap splits them).
    return (
      l.fonts.every((f) => signFace.test(f)) &&
      ((next !== undefined && sameRow(l, next) && codeLine(next, codeFont)) ||
        (prev !== undefined && sameRow(prev, l) && codeLine(prev, codeFont)))
    );
  };
  let i = 0;
  while (i < lines.length) {
    if (!member(i)) {
      i++;
      continue;
    }
    let end = i;
    let rows = 0;
    let row: Line | null = null;
    // The block's size is its code's: a line number's or a numbered line's own may be smaller.
    let size = 0;
    while (end < lines.length && member(end)) {
      const l = lines[end] as Line;
      const sized = codeFont(l.font);
      if (sized && size && Math.abs(l.size - size) > 0.5) break;
      if (!row || !sameRow(row, l)) {
        const pitch = row ? l.base - row.base : 0;
        if (row && (pitch <= 0 || pitch > MAX_PITCH * (size || l.size))) break;
        rows++;
        row = l;
      }
      if (sized && !size) size = l.size;
      end++;
    }
    if (rows >= MIN_ROWS && size && !lines.slice(i, end).every((l) => addressRow(l.text.trim()))) runs.set(i, end);
    i = Math.max(end, i + 1);
  }
  return runs;
}

/**
 * A code block's text: a line per row, each row's pieces at their columns. A column is the
 * block's commonest width per character (the median over its pieces: a piece whose blanks were
 * collapsed or that ends in one measures wider), counted from its leftmost piece. Rows further
 * apart than the block's closest two keep the blank lines between them.
 */
export function codeText(lines: readonly Line[]): string {
  const pieces = lines.filter((l) => l.text.trim());
  const left = Math.min(...pieces.map((l) => l.x0));
  // A line number set apart is in another face and size: it measures nothing of the code's.
  const widths = pieces
    .filter((l) => l.text.length >= 2 && !lineNumber.test(l.text.trim()))
    .map((l) => (l.x1 - l.x0) / l.text.length)
    .sort((a, b) => a - b);
  const size = (pieces[0] as Line).size;
  const per = widths.length ? (widths[widths.length >> 1] as number) : size * 0.6;
  const rows: Line[][] = [];
  for (const l of pieces) {
    const last = rows[rows.length - 1];
    if (last && sameRow(last[0] as Line, l)) last.push(l);
    else rows.push([l]);
  }
  // Each row's baseline (its first piece's) and the gap above it.
  const gaps = rows.map((row, r) => (r ? (row[0] as Line).base - ((rows[r - 1] as Line[])[0] as Line).base : 0));
  let pitch = Infinity;
  for (const gap of gaps) if (gap > 0) pitch = Math.min(pitch, gap);
  const out: string[] = [];
  rows.forEach((row, r) => {
    if (r > 0 && Number.isFinite(pitch)) {
      const blanks = Math.min(MAX_BLANKS, Math.round((gaps[r] as number) / pitch) - 1);
      for (let b = 0; b < blanks; b++) out.push('');
    }
    let text = '';
    for (const l of [...row].sort((a, b) => a.x0 - b.x0)) {
      const col = Math.max(0, Math.round((l.x0 - left) / per));
      const body = l.text.trim();
      text += text ? ' '.repeat(Math.max(1, col - text.length)) + body : ' '.repeat(col) + body;
    }
    out.push(text.trimEnd());
  });
  return out.join('\n');
}

/** Operators, brackets and comment marks: what columns of code hold and a table of data does not. */
const tableCodeSigns = /[=;{}()[\]#<>]|\/\/|\/\*|--/;
/** Share of a table's runs with such a sign, at least, for it to be code. */
const CODE_SIGNS = 0.25;

/**
 * Whether a table found by alignment alone is code: every run of it in a code face that is not
 * its page's main face (signs in a symbol face aside), a quarter of its runs or more holding an
 * operator, a bracket or a comment mark, its rows as close as a code block's. Code lines up its
 * operators and comments in columns ("x   = 1", "yyy = 2"), which read as a table of fragments;
 * left to the text, they make a code block. A table of figures in Courier stays a table, and so
 * do the tables of a page set in a code face throughout (a receipt) and CJK text (its faces are
 * fixed-width).
 */
export function codeTable(t: TableRegion, items: readonly TextItem[], codeFont: (font: string) => boolean): boolean {
  if (t.ruled) return false;
  const fonts = new Set<string>();
  let runs = 0;
  let signed = 0;
  let size = 0;
  for (const i of t.itemIndices) {
    const it = items[i];
    if (!it?.str.trim() || signFace.test(it.fontName)) continue;
    if (!codeFont(it.fontName) || WIDE_SCRIPT.test(it.str)) return false;
    fonts.add(it.fontName);
    runs++;
    if (tableCodeSigns.test(it.str)) signed++;
    size = Math.max(size, it.size);
  }
  if (!runs || signed < runs * CODE_SIGNS) return false;
  for (let r = 1; r < t.ys.length; r++)
    if ((t.ys[r] as number) - (t.ys[r - 1] as number) > MAX_PITCH * size) return false;
  const chars = new Map<string, number>();
  for (const it of items) chars.set(it.fontName, (chars.get(it.fontName) ?? 0) + it.str.length);
  const main = mostCounted(chars) ?? '';
  return !fonts.has(main) && !codeFont(main);
}
