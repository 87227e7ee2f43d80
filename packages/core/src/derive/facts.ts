import { tableGrid } from '../tree/grid.ts';
import type { Inline, Node, Root, Table } from '../tree/types.ts';
import { blockText, inlineText, walk } from '../tree/walk.ts';
import { labelTokens, type Token, tokenize } from './labels.ts';

/**
 * The tree seen as an extractor needs it: text units in reading order (lines of paragraphs,
 * headings, list items, table cells), label/value pairs found in the layout (two-column and
 * label-beside-value table rows, header-over-value tables, "Label:" lines followed by their value,
 * definition lists), and every table as a grid of cell texts. Works on Markdown-level structure
 * only, so it does not care which PDF backend assembled the text.
 */

export type UnitSource = 'line' | 'heading' | 'cell';

export interface Unit {
  text: string;
  order: number;
  source: UnitSource;
  /** The unit is bold throughout (a term of a definition list, a label set in bold). */
  bold?: boolean;
  tokens: Token[];
  words: string[];
}

/** `inline`: "Label: value" on one line; the extractor reads those itself, under the schema's labels. */
export type PairSource = 'row' | 'column' | 'form' | 'inline';

export interface Pair {
  label: string;
  tokens: string[];
  value: string;
  order: number;
  source: PairSource;
}

export interface Grid {
  rows: string[][];
  order: number;
}

export interface Facts {
  units: Unit[];
  pairs: Pair[];
  tables: Grid[];
  /** Where each word stands: unit index and token index, for finding labels without rescanning. */
  index: Map<string, { u: number; k: number }[]>;
  title?: string;
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

const boldOnly = (nodes: readonly Inline[]): boolean => {
  const visible = nodes.filter((n) => !(n.type === 'text' && !n.value.trim()));
  return visible.length > 0 && visible.every((n) => n.type === 'strong');
};

/** Inline content split at hard breaks: PDF and OCR text keep one visual line per break. */
function linesOf(nodes: readonly Inline[]): Inline[][] {
  const out: Inline[][] = [[]];
  for (const n of nodes) {
    if (n.type === 'break') out.push([]);
    else out[out.length - 1]?.push(n);
  }
  return out;
}

/** "VAT (20%)" and "Amount (EUR)" are labelled "VAT" and "Amount": the aside qualifies the value. */
const bareLabel = (label: string) => label.replace(/\s*\([^)]*\)\s*/g, ' ').trim() || label;

/** A cell that names a value rather than holding one: short, no digits, or closed by a colon. */
export const looksLikeLabel = (cell: string) => {
  const s = bareLabel(cell);
  return /:\s*$/.test(s) || (s.length <= 48 && !/\d/.test(s) && s.split(' ').length <= 6 && /\p{L}/u.test(s));
};

function tablePairs(rows: string[][], order: number, pairs: Pair[]): void {
  const push = (label: string, value: string, source: PairSource) => {
    const l = label.replace(/:\s*$/, '').trim();
    if (l && value && l !== value) pairs.push({ label: l, tokens: labelTokens(bareLabel(l)), value, order, source });
  };
  for (const row of rows) {
    const cells = row.filter((c, i) => c && c !== row[i - 1]);
    for (let i = 0; i + 1 < cells.length; i++) {
      const label = cells[i] as string;
      const value = cells[i + 1] as string;
      if (looksLikeLabel(label) && !/:\s*$/.test(value)) {
        push(label, value, 'row');
        i++;
      }
    }
    // "GRAND TOTAL | | | 5,738": the row's label and its last cell.
    if (cells.length > 2 && looksLikeLabel(cells[0] as string)) push(cells[0] as string, cells.at(-1) as string, 'row');
  }
  // Header over values: "Start Date | End Date" above "12/20/24 | 12/31/24".
  const [head, first] = rows;
  if (head && first && rows.length >= 2) {
    head.forEach((h, c) => {
      if (h && looksLikeLabel(h)) push(h, first[c] ?? '', 'column');
    });
  }
}

export function collectFacts(tree: Root): Facts {
  const units: Unit[] = [];
  const pairs: Pair[] = [];
  const tables: Grid[] = [];
  let order = 0;
  const addUnit = (text: string, source: UnitSource, bold = false) => {
    const t = squash(text);
    if (!t) return;
    const tokens = tokenize(t);
    units.push({ text: t, order: order++, source, tokens, words: tokens.map((x) => x.t), ...(bold ? { bold } : {}) });
  };
  walk(tree, (n: Node) => {
    if (n.type === 'paragraph' || n.type === 'heading') {
      for (const line of linesOf(n.children))
        addUnit(inlineText(line), n.type === 'heading' ? 'heading' : 'line', boldOnly(line));
      return 'skip';
    }
    if (n.type === 'code') {
      for (const line of n.value.split('\n')) addUnit(line, 'line');
      return 'skip';
    }
    if (n.type === 'table') {
      const rows = tableGrid(n as Table).map((r) => r.map((slot) => squash(blockText(slot.cell))));
      const at = order;
      for (const r of rows) for (const [i, c] of r.entries()) if (c && c !== r[i - 1]) addUnit(c, 'cell');
      tables.push({ rows, order: at });
      tablePairs(rows, at, pairs);
      return 'skip';
    }
    return undefined;
  });
  // "Label:" on its own, or a bold term, with the value in the next unit (forms, definition lists).
  for (let i = 0; i + 1 < units.length; i++) {
    const u = units[i] as Unit;
    const next = units[i + 1] as Unit;
    const colon = /^[^:]{1,60}:$/.test(u.text);
    if ((colon || (u.bold && u.text.length <= 60)) && u.source !== 'cell' && !/:$/.test(next.text)) {
      const label = u.text.replace(/:$/, '').trim();
      pairs.push({ label, tokens: labelTokens(bareLabel(label)), value: next.text, order: u.order, source: 'form' });
    }
  }
  // "Customer: Fabrikam Ltd" as a line of its own. A line holding more than one "Label:" is run-on
  // text (a receipt's till roll) whose label boundaries cannot be told apart.
  for (const u of units) {
    if (u.source !== 'line') continue;
    const m = /^([^:]{1,48}):\s+(\S.{0,119})$/u.exec(u.text);
    const label = m?.[1]?.trim();
    const value = m?.[2]?.trim();
    if (!label || !value || !looksLikeLabel(label) || /[!?;]|\.\s/.test(label) || /\p{L}\s?:(?:\s|$)/u.test(value))
      continue;
    pairs.push({ label, tokens: labelTokens(bareLabel(label)), value, order: u.order, source: 'inline' });
  }
  const index = new Map<string, { u: number; k: number }[]>();
  units.forEach((unit, u) => {
    unit.words.forEach((w, k) => {
      const at = index.get(w);
      if (at) at.push({ u, k });
      else index.set(w, [{ u, k }]);
    });
  });
  const title =
    typeof tree.metadata.title === 'string' ? tree.metadata.title : units.find((u) => u.source === 'heading')?.text;
  return { units, pairs, tables, index, ...(title ? { title } : {}) };
}
