import { cell, row, table } from '../../tree/build.ts';
import type { Block, TableCell, TableRow } from '../../tree/types.ts';
import { append } from '../../util/arrays.ts';
import type { Item } from './model.ts';

/**
 * RTF tables are not containers: a row is a run of paragraphs ended by `\cell` marks and a `\row`
 * mark, with the row's cell definitions (`\trowd … \cellxN`, merge flags) written before or after
 * its cells. Nested tables use `\itapN`, `\nestcell` and `\nestrow`. This collects cells per
 * nesting level and turns finished rows into tree rows.
 */

/** Deeper nesting than this is flattened into the deepest allowed table. */
export const MAX_TABLE_DEPTH = 16;
/** Cells per row kept; the rest are damage or abuse. */
const MAX_CELLS_PER_ROW = 512;

export interface CellDef {
  /** `\clmgf` first / `\clmrg` continuation of a horizontal merge. */
  h?: 'first' | 'cont';
  /** `\clvmgf` first / `\clvmrg` continuation of a vertical merge. */
  v?: 'first' | 'cont';
}

interface Level {
  rows: TableRow[];
  /** Finished cells of the current row. */
  cells: Item[][];
  /** Items of the cell being filled. */
  current: Item[];
  /** Open vertical merges by starting grid column. */
  vertical: Map<number, TableCell>;
}

export class TableStack {
  private readonly levels: Level[] = [];
  private readonly defs: CellDef[][] = [];
  private pending: CellDef = {};

  constructor(private readonly toBlocks: (items: Item[]) => Block[]) {}

  get open(): boolean {
    return this.levels.length > 0;
  }

  /** Adds a paragraph (or finished inner table) to the current cell at `level` (1-based). */
  add(item: Item, level: number): void {
    this.reach(level).current.push(item);
  }

  cellEnd(level: number): void {
    const l = this.reach(level);
    if (l.cells.length < MAX_CELLS_PER_ROW) l.cells.push(l.current);
    l.current = [];
  }

  rowEnd(level: number): void {
    const l = this.reach(level);
    // Text after the last \cell of a row (sloppy writers) still belongs to the row.
    if (l.current.length) this.cellEnd(level);
    if (l.cells.length) l.rows.push(this.buildRow(l, this.defs[clamp(level) - 1] ?? []));
    l.cells = [];
  }

  rowDefs(level: number): void {
    this.defs[clamp(level) - 1] = [];
    this.pending = {};
  }

  cellDef(level: number): void {
    const list = this.defs[clamp(level) - 1] ?? [];
    this.defs[clamp(level) - 1] = list;
    if (list.length < MAX_CELLS_PER_ROW) list.push(this.pending);
    this.pending = {};
  }

  merge(flag: 'clmgf' | 'clmrg' | 'clvmgf' | 'clvmrg'): void {
    if (flag === 'clmgf') this.pending.h = 'first';
    else if (flag === 'clmrg') this.pending.h = 'cont';
    else if (flag === 'clvmgf') this.pending.v = 'first';
    else this.pending.v = 'cont';
  }

  /** Closes every open table and returns the outermost one as an item, if it has rows. */
  closeAll(): Item | undefined {
    while (this.levels.length > 1) this.closeDeepest();
    const top = this.levels.pop();
    if (!top) return undefined;
    finishDangling(this, top, 1);
    return top.rows.length ? { type: 'table', table: table(top.rows) } : undefined;
  }

  /** The level's builder, opening missing levels and closing deeper ones (their table joins the parent cell). */
  private reach(level: number): Level {
    const depth = clamp(level);
    while (this.levels.length > depth) this.closeDeepest();
    while (this.levels.length < depth) this.levels.push({ rows: [], cells: [], current: [], vertical: new Map() });
    return this.levels[depth - 1] as Level;
  }

  private closeDeepest(): void {
    const depth = this.levels.length;
    const inner = this.levels.pop();
    if (!inner) return;
    finishDangling(this, inner, depth);
    const parent = this.levels[this.levels.length - 1];
    if (parent && inner.rows.length) parent.current.push({ type: 'table', table: table(inner.rows) });
  }

  private buildRow(l: Level, defs: CellDef[]): TableRow {
    // Horizontal merges first: continuation cells fold into the cell they continue.
    const logical: { items: Item[]; span: number; def: CellDef }[] = [];
    l.cells.forEach((items, i) => {
      const def = defs[i] ?? {};
      const prev = logical[logical.length - 1];
      if (def.h === 'cont' && prev) {
        prev.span++;
        append(prev.items, items);
      } else logical.push({ items: [...items], span: 1, def });
    });
    const header = l.rows.length === 0;
    const cells: TableCell[] = [];
    let col = 0;
    for (const { items, span, def } of logical) {
      const above = l.vertical.get(col);
      if (def.v === 'cont' && above) {
        above.rowSpan = (above.rowSpan ?? 1) + 1;
        col += span;
        continue;
      }
      const c = cell(this.toBlocks(items), { header, colSpan: span });
      if (def.v === 'first') l.vertical.set(col, c);
      else l.vertical.delete(col);
      cells.push(c);
      col += span;
    }
    return row(cells);
  }

  /** Lets `finishDangling` reuse the row builder. */
  finishRow(l: Level, level: number): void {
    l.rows.push(this.buildRow(l, this.defs[clamp(level) - 1] ?? []));
    l.cells = [];
  }
}

/** A table cut off before its last `\row` (truncated file) keeps the cells it has. */
function finishDangling(stack: TableStack, l: Level, level: number): void {
  if (l.current.length) {
    l.cells.push(l.current);
    l.current = [];
  }
  if (l.cells.length) stack.finishRow(l, level);
}

const clamp = (level: number): number => Math.min(MAX_TABLE_DEPTH, Math.max(1, level));
