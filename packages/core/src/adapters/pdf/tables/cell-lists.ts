import {
  enumeratorAlone,
  itemDashAlone,
  itemDashOpening,
  itemFigure,
  itemGlyphAlone,
  itemGlyphOpening,
  yearLike,
} from '../markers.ts';
import type { TextItem } from '../model.ts';

/**
 * A stretch of a cell's lines: a paragraph, or one list item (its marker left out). `number` is an
 * item's number in its list ("3." 3), null for a bulleted item or a paragraph.
 */
export interface CellPart {
  runs: TextItem[];
  item: boolean;
  number: number | null;
}

/** Item lines a cell needs before it reads as holding a list: one bulleted line is a value ("▪ Yes"). */
const MIN_ITEMS = 2;

/** An item's text after a dash drawn alone opens with a letter: "–" over "12" is a nil and a figure. */
const LETTER_FIRST = /^\s*\p{L}/u;

/** The number a figure mark gives, or null (a year or a measure: "2020.", "3.5"). */
function figureOf(text: string): number | null {
  const m = itemFigure.exec(text);
  return m?.[1] && !yearLike(m[1]) ? Number(m[1]) : null;
}

/** Whether a line opens with a marker drawn as a run of its own: a bullet, a dash or a figure's "1.". */
export function markerAlone(line: readonly TextItem[]): boolean {
  const lead = line[0];
  const second = line[1];
  if (!lead || !second) return false;
  const mark = lead.str.trim();
  if (itemGlyphAlone.test(mark)) return true;
  if (itemDashAlone.test(mark)) return LETTER_FIRST.test(second.str);
  return enumeratorAlone.test(mark) && figureOf(mark) !== null;
}

/**
 * The item a line (its runs left to right) opens: its text without the marker, where that text
 * starts, and its number; null for a line no marker opens.
 */
export function lineItem(line: readonly TextItem[]): { runs: TextItem[]; x: number; number: number | null } | null {
  const lead = line[0];
  const second = line[1];
  if (!lead) return null;
  if (second && markerAlone(line)) return { runs: line.slice(1), x: second.x, number: figureOf(lead.str.trim()) };
  const marked = itemGlyphOpening.exec(lead.str) ?? itemDashOpening.exec(lead.str);
  const number = marked ? null : figureOf(lead.str);
  const mark = marked ?? (number === null ? null : itemFigure.exec(lead.str));
  // A figure alone on its line ("1." with nothing after it) numbers no item's text.
  if (!mark || (line.length === 1 && !lead.str.slice(mark[0].length).trim())) return null;
  // The marker's share of the run's width, for where the item's wrapped lines stand.
  const x = lead.x + (lead.w * mark[0].length) / lead.str.length;
  return { runs: [{ ...lead, str: lead.str.slice(mark[0].length) }, ...line.slice(1)], x, number };
}

/**
 * A cell's lines (top to bottom, each left to right) as paragraphs and list items, where the cell
 * holds a list: a word processor's bulleted or numbered list inside a table cell, often under a
 * lead-in line ("This is a list:"). A line set in as far as an item's text is that item's wrapped
 * line; one further out ends the list. Numbered items count one by one ("1.", "2.", "3."): a
 * wrapped line that happens to open with a figure and a dot breaks the count and stays text. Null
 * where fewer than `MIN_ITEMS` lines open an item.
 */
export function cellParts(lines: TextItem[][]): CellPart[] | null {
  const parts: CellPart[] = [];
  let items = 0;
  let itemX = Number.NaN;
  let next: number | null = null;
  for (const line of lines) {
    if (!line.length) continue;
    let item = lineItem(line);
    if (item && item.number !== null && next !== null && item.number !== next) item = null;
    const last = parts[parts.length - 1];
    if (item) {
      items++;
      itemX = item.x;
      next = item.number === null ? null : item.number + 1;
      parts.push({ runs: item.runs, item: true, number: item.number });
      continue;
    }
    if (last && (!last.item || (line[0] as TextItem).x >= itemX - (line[0] as TextItem).h * 0.5)) {
      for (const it of line) last.runs.push(it);
      continue;
    }
    next = null;
    parts.push({ runs: [...line], item: false, number: null });
  }
  return items >= MIN_ITEMS ? parts : null;
}
