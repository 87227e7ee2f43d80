import type { PageModel, TableRegion } from '../model.ts';
import { borderlessTables } from './borderless.ts';
import { lineCells } from './cells.ts';
import { ruledTable } from './ruled.ts';
import { findGrids } from './rulings.ts';

/**
 * Whether a page may hold a ruled table, judged from its text alone, so the operator list (which
 * costs about as much as the text itself) is fetched only for such pages: several lines that
 * break into three or more runs separated by wide gaps. Two-run lines are what two-column
 * layouts produce on every line, so they do not count.
 */
export function wantsRulings(page: Pick<PageModel, 'items' | 'width' | 'height'>): boolean {
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
  for (const row of rows.values()) {
    if (row.length < 3) continue;
    row.sort((a, b) => a.x - b.x);
    if (lineCells(row) >= 3 && ++tabular >= 2) return true;
  }
  return false;
}

/** Tables of a page: ruled ones (grids of rulings around text) first, then borderless ones from the rest. */
export function findTables(page: PageModel): TableRegion[] {
  const out: TableRegion[] = [];
  const taken = new Set<number>();
  for (const grid of findGrids(page)) {
    const t = ruledTable(grid, page, taken);
    if (!t) continue;
    for (const i of t.itemIndices) taken.add(i);
    out.push(t);
  }
  out.push(...borderlessTables(page, taken));
  return out;
}
