import type { Block, Section, Table, TableRow } from '../../tree/types.ts';
import { blockText } from '../../tree/walk.ts';
import { append } from '../../util/arrays.ts';

const rowKey = (row: TableRow | undefined): string =>
  (row?.children ?? []).map((c) => `${c.colSpan ?? 1}:${blockText(c).trim().toLowerCase()}`).join('|');

const width = (row: TableRow | undefined): number => (row?.children ?? []).reduce((n, c) => n + (c.colSpan ?? 1), 0);

/**
 * A table that ends one page and starts the next with the same header row is one table broken by
 * the page: the continuation's rows (its repeated header dropped) join the first part, so readers
 * and the Markdown get one table. So does a lone ruled row of as many columns with no header.
 */
export function joinContinuedTables(pages: Block[]): void {
  for (let p = 0; p + 1 < pages.length; p++) {
    const here = pages[p] as Section;
    const next = pages[p + 1] as Section;
    if (here.type !== 'section' || next.type !== 'section') continue;
    const last = here.children[here.children.length - 1];
    const first = next.children[0];
    if (last?.type !== 'table' || first?.type !== 'table') continue;
    const a = last as Table;
    const b = first as Table;
    const header = a.children[0];
    if (!header || width(header) !== width(b.children[0])) continue;
    // A lone row of no headings at the top of the page (`loneRow`) is the table's last row.
    if (b.children.length === 1 && b.children[0]?.children.every((c) => !c.header)) {
      if (b.source) for (const row of b.children) row.source ??= b.source;
      append(a.children, b.children);
      next.children.shift();
      continue;
    }
    if (rowKey(header) !== rowKey(b.children[0])) continue;
    // Rows spanning into the repeated header would lose their anchor; such tables stay apart.
    if (b.children[0]?.children.some((c) => (c.rowSpan ?? 1) > 1)) continue;
    const moved = b.children.slice(1);
    // Each row keeps where it was printed, for provenance (chunks, `data.blocks`).
    if (b.source) for (const row of moved) row.source ??= b.source;
    append(a.children, moved);
    next.children.shift();
  }
}
