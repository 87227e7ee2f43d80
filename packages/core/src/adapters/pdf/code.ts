import { type Line, sameRow } from './lines.ts';

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
/** Blank lines kept between two rows at most. */
const MAX_BLANKS = 2;
/** Scripts a monospaced CJK or Hangul face sets as running text: never code by its font alone. */
const wideScript = /[\u1100-\u11ff\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]/;

/**
 * An e-mail address (a paper's authors', `{ann, bob}@lab.org`) or a web address alone on its row:
 * papers set their authors' addresses in a typewriter face, one under another, and they are no code.
 */
const address = /^(?:(?:\{[^}]*\}|[\w.+-]+)@[\w-]+(?:\.[\w-]+)+|(?:https?:\/\/|www\.)\S+)[.,;]?$/;

/** A listing's line number ahead of its code, set in the text face (LaTeX's listings: CMR5). */
const numberedLine = /^\d{1,4}\s/;
const lineNumber = /^\d{1,4}$/;

/**
 * Whether a line is code: set in a code face other than the body's, every run of it but a line
 * number ahead of it.
 */
export function codeLine(l: Line, codeFont: (font: string) => boolean, bodyFont: string): boolean {
  if (l.rtl || l.font === bodyFont || !codeFont(l.font) || !l.text.trim() || wideScript.test(l.text)) return false;
  if (l.fonts.length === 1) return true;
  const numbered = numberedLine.test(l.text);
  for (const f of l.fonts) if (!codeFont(f) && !numbered) return false;
  return true;
}

/**
 * The code blocks among a page's lines (in reading order): where each starts → where it ends
 * (exclusive). A block's lines follow one another down the page in one size, row after row no
 * more than `MAX_PITCH` sizes apart; pieces of one row (a wide gap splits a line) come in turn.
 */
export function codeRuns(
  lines: readonly Line[],
  codeFont: (font: string) => boolean,
  bodyFont: string,
): Map<number, number> {
  const runs = new Map<number, number>();
  let i = 0;
  while (i < lines.length) {
    const first = lines[i] as Line;
    if (!codeLine(first, codeFont, bodyFont)) {
      i++;
      continue;
    }
    let end = i + 1;
    let rows = 1;
    let row = first;
    while (end < lines.length) {
      const l = lines[end] as Line;
      // A line number set apart from its line's code (a wide gap splits them) stands before it.
      const next = lines[end + 1];
      const number =
        lineNumber.test(l.text.trim()) &&
        next !== undefined &&
        sameRow(l, next) &&
        next.x0 > l.x1 &&
        codeLine(next, codeFont, bodyFont);
      if (!number && (!codeLine(l, codeFont, bodyFont) || Math.abs(l.size - first.size) > 0.5)) break;
      if (!sameRow(row, l)) {
        const pitch = l.base - row.base;
        if (pitch <= 0 || pitch > MAX_PITCH * first.size) break;
        rows++;
        row = l;
      }
      end++;
    }
    if (rows >= MIN_ROWS && !lines.slice(i, end).every((l) => address.test(l.text.trim()))) runs.set(i, end);
    i = end;
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
  const widths = pieces
    .filter((l) => l.text.length >= 2)
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
  let pitch = Infinity;
  for (let r = 1; r < rows.length; r++) {
    const gap = ((rows[r] as Line[])[0] as Line).base - ((rows[r - 1] as Line[])[0] as Line).base;
    if (gap > 0) pitch = Math.min(pitch, gap);
  }
  const out: string[] = [];
  rows.forEach((row, r) => {
    if (r > 0 && Number.isFinite(pitch)) {
      const gap = (row[0] as Line).base - ((rows[r - 1] as Line[])[0] as Line).base;
      const blanks = Math.min(MAX_BLANKS, Math.round(gap / pitch) - 1);
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
