import { readsOn } from '../../util/letters.ts';
import { type Line, onRow, type Span, sameRow } from './lines.ts';

/**
 * Check boxes in a page's lines: a form's widgets (`widgetBoxes`) or glyphs of its text, ticked
 * (☒, ☑) or not (☐). One set of characters for every test of them.
 */
const BOXES = '☐☑☒';
/** A check box alone; a line's last character one; a line holding one. */
export const CHECK_BOX = new RegExp(`^\\s*[${BOXES}]\\s*$`);
export const ENDS_IN_BOX = new RegExp(`[${BOXES}]\\s*$`);
export const HAS_BOX = new RegExp(`[${BOXES}]`);

/**
 * Whether check box `l` belongs to the line before it on its row, `label`, as a form sets a box
 * after its label ("Yes ☐  No ☐"): nearer to it than to the line after it on the row, if any.
 * Left to right only: a right-to-left label's box stands on its left.
 */
export function boxAfterLabel(label: Line, l: Line, next: Line | undefined): boolean {
  if (!CHECK_BOX.test(l.text) || label.rtl || !onRow(label, l)) return false;
  const before = l.x0 - label.x1;
  return !next || !onRow(l, next) || before < next.x0 - l.x1;
}

/**
 * Rows looked at above and below a box for another box of its checklist: a row is two lines, a
 * label and its box, and stands a line's pitch or so from the next (2.5 sizes at most).
 */
const CHECKLIST_REACH = 3;
const ROW_LINES = 2;
const ROW_PITCH = 2.5;

/**
 * Whether box `lines[i]`, after its `label` alone on its row (`before`, the line read before the
 * label, stands on another), is one of a checklist's: a row above or below holds a box at its x
 * after a label alone, a few rows apart ("Friend ☒" over "Newspaper ☐"). Labels above `i` already
 * hold their boxes (`foldBullets` reads the page top down).
 */
export function checklistRow(lines: readonly Line[], i: number, label: Line, before: Line | undefined): boolean {
  const box = lines[i] as Line;
  // A label alone on its row, no sentence's last line ("… about future" over "events and
  // meetings of the society. ☒"); under another entry of the list ("by e-mail ☒" over "by post"),
  // a label in a small letter is the next entry.
  if (before && (sameRow(before, label) || (!HAS_BOX.test(before.text) && readsOn(before.text, label.text))))
    return false;
  const after = lines[i + 1];
  if (after && sameRow(box, after)) return false;
  const reach = ROW_LINES * CHECKLIST_REACH;
  for (let k = Math.max(1, i - reach); k < Math.min(lines.length, i + reach + 1); k++) {
    const other = lines[k] as Line;
    const its = lines[k - 1] as Line;
    // Labels already read have the box after them in their line: rows are told by baselines alone.
    if (k === i || !CHECK_BOX.test(other.text) || Math.abs(other.x0 - box.x0) > 3 || !sameRow(its, other)) continue;
    const rowStart = lines[k - 2];
    if (rowStart && sameRow(rowStart, its)) continue;
    const next = lines[k + 1];
    if (next && sameRow(other, next)) continue;
    if (Math.abs(other.base - box.base) <= ROW_PITCH * CHECKLIST_REACH * box.size) return true;
  }
  return false;
}

/** Puts `text` at the start of line `l` (its text and first span), in `font`. */
export function prependText(l: Line, text: string, font: string): void {
  const span: Span = { text, bold: false, italic: false, sup: false, font };
  l.spans = [span, ...l.spans];
  l.text = `${text}${l.text}`;
}

/** Puts `text` at the end of line `l` (its text and last span), in `font`. */
export function appendText(l: Line, text: string, font: string): void {
  const span: Span = { text, bold: false, italic: false, sup: false, font };
  l.spans = [...l.spans, span];
  l.text = `${l.text}${text}`;
}
