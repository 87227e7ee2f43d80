import { append } from '../../../util/arrays.ts';
import { runVocabulary, type Vocabulary } from '../hyphens.ts';
import type { PageModel, TableRegion } from '../model.ts';
import { borderlessTables } from './borderless.ts';
import { byLeft, lineCells } from './cells.ts';
import { ruledTable } from './ruled.ts';
import { findGrids } from './rulings.ts';

/**
 * Share of the page's height at its top and at its foot where running heads and feet stand. Measured
 * on pdfbench (instructions.ts): with them counted, 91 of the 400-page IRM manual's pages asked for
 * their rulings by its running foot alone (the manual read at 0.93 of the pages per instruction before);
 * outside these margins no page of it asks that did not before.
 */
const MARGIN = 0.08;

/**
 * Whether a page may hold a ruled table, judged from its text alone, so the operator list (which
 * costs about as much as the text itself) is fetched only for such pages: several lines that
 * break into three or more runs separated by wide gaps (`table`). Two-run lines are what two-column
 * layouts produce on every line, so they do not count, unless the graphics are cheap (PDFium's
 * page objects): then one such line is enough (`paired`), and a two-column table ruled as a grid
 * is read, one of two rows too (a bordered HTML table printed, its head the one line of two runs
 * where the other row's cells wrap). Lines in the page's top and bottom margins (`MARGIN`) do not
 * count for it: a running head or foot ("Cat. No. 28171E … Internal Revenue Manual") splits on
 * every page. A page whose first line breaks into three runs asks too: a table's last row may
 * stand there alone. All come from one pass over the page's rows.
 */
export function rulingNeeds(page: Pick<PageModel, 'items' | 'width' | 'height'>): { table: boolean; paired: boolean } {
  const rows = new Map<number, { x: number; w: number; h: number }[]>();
  for (const it of page.items) {
    if (!it.str.trim() || it.dir !== 'ltr' || it.rotated) continue;
    const key = Math.round((it.y + it.h / 2) / 3);
    let row = rows.get(key);
    if (!row) {
      row = [];
      rows.set(key, row);
    }
    row.push({ x: it.x, w: it.w, h: it.h });
  }
  let tabular = 0;
  let paired = false;
  let top = Number.POSITIVE_INFINITY;
  let topCells = 0;
  const head = (page.height * MARGIN) / 3;
  const foot = (page.height * (1 - MARGIN)) / 3;
  for (const [key, row] of rows) {
    if (key < top) {
      top = key;
      topCells = 0;
    }
    if (row.length < 2) continue;
    row.sort(byLeft);
    const cells = lineCells(row);
    if (cells >= 3 && ++tabular >= 2) return { table: true, paired: true };
    if (cells >= 2 && key > head && key < foot) paired = true;
    if (key === top) topCells = cells;
  }
  // A page that opens with a line of cells may open with a table's last row, ruled alone.
  return { table: topCells >= 3, paired: paired || topCells >= 3 };
}

/**
 * Tables of a page: ruled ones (grids of rulings around text) first, then borderless ones from the
 * rest. `accept` may turn down a ruled table, whose text is then left to the rest; the runs of
 * `exclude` go into no table.
 */
export function findTables(
  page: PageModel,
  accept?: (t: TableRegion) => boolean,
  exclude: Iterable<number> = [],
): TableRegion[] {
  const out: TableRegion[] = [];
  const taken = new Set<number>(exclude);
  const words = runVocabulary(page.items);
  let consulted = false;
  const vocab = (): Vocabulary => {
    consulted = true;
    return words();
  };
  for (const grid of findGrids(page)) {
    const t = ruledTable(grid, page, taken, vocab);
    if (!t || (accept && !accept(t))) continue;
    for (const i of t.itemIndices) taken.add(i);
    out.push(t);
  }
  append(out, borderlessTables(page, taken, vocab));
  // A cell leaves a hyphen open only after asking the page's words (`hyphenVerdict`).
  if (consulted) for (const t of out) t.openHyphens = true;
  return out;
}
