// HELPERS (temporary, removed by the lead): read /work/main/AGENTS.md before writing code: shared utils to use,
// no git or pnpm install commands, run only your own tests, deadline 02:20 UTC, report format.
import type { PageModel, TableRegion } from '../model.ts';

/**
 * Table detection entry points used by the PDF layout code. Implemented in this folder.
 * - `wantsRulings(items)`: cheap test on text alone; true when the page may hold a ruled table, so
 *   the adapter fetches the (costly) operator list for it.
 * - `findTables(page)`: ruled tables from segments/rects, then borderless tables from aligned text.
 */
export function wantsRulings(_page: Pick<PageModel, 'items' | 'width' | 'height'>): boolean {
  return false;
}

export function findTables(_page: PageModel): TableRegion[] {
  return [];
}
