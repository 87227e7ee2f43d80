import { cell as makeCell, row as makeRow } from '../../tree/build.ts';
import type { Table, TableCell, TableRow } from '../../tree/types.ts';
import { attr, elements, type XmlElement } from '../../util/xml.ts';
import { readBlocks } from './blocks.ts';
import { type ReaderEnv, TOP } from './env.ts';

/** Repeat attributes are meant for spreadsheets' endless blank cells; text tables never need more. */
const MAX_COLUMNS = 256;
const MAX_ROWS = 5000;
const MAX_TABLE_DEPTH = 12;

interface RowRef {
  el: XmlElement;
  header: boolean;
}

function collectRows(el: XmlElement, header: boolean, out: RowRef[]): void {
  for (const c of elements(el)) {
    if (c.name === 'table:table-row') out.push({ el: c, header });
    else if (c.name === 'table:table-header-rows') collectRows(c, true, out);
    else if (c.name === 'table:table-rows' || c.name === 'table:table-row-group') collectRows(c, header, out);
  }
}

const count = (v: string | undefined, max: number) => {
  const n = Number(v ?? '1');
  return Number.isInteger(n) && n > 0 ? Math.min(n, max) : 1;
};

/** A row of cells with no content and no spans: its copies only matter when content follows. */
function isBlankRow(row: XmlElement): boolean {
  for (const c of elements(row)) {
    if (c.name !== 'table:table-cell' && c.name !== 'table:covered-table-cell') continue;
    if (c.children.length || attr(c, 'table:number-rows-spanned') || attr(c, 'table:number-columns-spanned'))
      return false;
  }
  return true;
}

/**
 * An ODF table in the tree's HTML model: spanned cells keep their spans and covered cells are
 * dropped (a covered cell that no span reaches becomes an empty cell so columns stay aligned).
 */
export function readTable(el: XmlElement, env: ReaderEnv): Table | undefined {
  if (env.depth >= MAX_TABLE_DEPTH) return undefined;
  env.depth++;
  try {
    const refs: RowRef[] = [];
    collectRows(el, false, refs);
    // Presentation tables flag a styled first row instead of declaring header rows.
    const firstRowHeader = attr(el, 'table:use-first-row-styles') === 'true';
    const covered = new Set<string>();
    const rows: TableRow[] = [];
    const reaches: number[] = [];
    let cut = false;
    const emit = (ref: RowRef): boolean => {
      if (env.cellsLeft <= 0) {
        cut = true;
        return false;
      }
      const r = rows.length;
      const header = ref.header || (firstRowHeader && r === 0);
      // A table over pages: each row keeps its page, so its part of the table says where it was
      // printed, and a note its cells refer to is on that page.
      const page = env.unitPages?.get(ref.el);
      const tablePage = env.page;
      if (page !== undefined) env.page = page;
      const cells: TableCell[] = [];
      let col = 0;
      for (const c of elements(ref.el)) {
        if (c.name !== 'table:table-cell' && c.name !== 'table:covered-table-cell') continue;
        const times = count(attr(c, 'table:number-columns-repeated'), MAX_COLUMNS);
        for (let t = 0; t < times && col < MAX_COLUMNS; t++, col++) {
          env.cellsLeft--;
          if (c.name === 'table:covered-table-cell') {
            if (!covered.has(`${r},${col}`)) cells.push(makeCell([], header ? { header } : {}));
            continue;
          }
          let rowSpan = count(attr(c, 'table:number-rows-spanned'), MAX_ROWS);
          let colSpan = count(attr(c, 'table:number-columns-spanned'), MAX_COLUMNS);
          // Real spans never overlap, so they cover at most the table; overlapping ones stop counting.
          if (rowSpan * colSpan > env.cellsLeft) rowSpan = colSpan = 1;
          env.cellsLeft -= rowSpan * colSpan - 1;
          for (let dr = 0; dr < rowSpan; dr++)
            for (let dc = 0; dc < colSpan; dc++) if (dr || dc) covered.add(`${r + dr},${col + dc}`);
          const blocks = t === 0 || times <= 8 ? readBlocks(c.children, env, TOP) : [];
          cells.push(makeCell(blocks, { header, rowSpan, colSpan }));
          if (blocks.length) reaches[r] = Math.max(reaches[r] ?? 0, r + rowSpan - 1);
        }
      }
      const row = makeRow(cells);
      if (page !== undefined) {
        row.source = { page };
        env.page = tablePage;
      }
      rows.push(row);
      return true;
    };
    // Copies of a blank row wait until content follows them: trailing padding (a spreadsheet's
    // "rest of the sheet" row repeated a million times) is dropped below anyway, and must not spend
    // the part's cell budget that later tables need.
    const blankCopies: RowRef[] = [];
    const flushBlanks = (upTo: number): boolean => {
      for (const ref of blankCopies.splice(0, Math.max(0, upTo - rows.length))) if (!emit(ref)) return false;
      blankCopies.length = 0;
      return true;
    };
    rowsLoop: for (const ref of refs) {
      const repeat = count(attr(ref.el, 'table:number-rows-repeated'), MAX_ROWS);
      if (isBlankRow(ref.el)) {
        for (let k = 0; k < repeat && rows.length + blankCopies.length < MAX_ROWS; k++) blankCopies.push(ref);
        continue;
      }
      if (!flushBlanks(MAX_ROWS)) break;
      for (let k = 0; k < repeat && rows.length < MAX_ROWS; k++) if (!emit(ref)) break rowsLoop;
    }
    if (cut)
      env.ctx.warn(
        `A table repeats or nests more than ${env.ctx.limits.maxTableCells} cells; the rows past that were dropped (a damaged or hostile file).`,
      );
    // Trailing blank rows (padding in slide tables, repeated blanks) carry nothing.
    // forEach skips the rows without content (holes); spreading them gave NaN and a RangeError.
    let lastContent = -1;
    reaches.forEach((v, i) => {
      lastContent = Math.max(lastContent, v, i);
    });
    // Blank rows a span from above reaches into still count.
    if (!cut) flushBlanks(lastContent + 1);
    rows.length = Math.min(rows.length, lastContent + 1);
    if (rows.length === 0) return undefined;
    return { type: 'table', children: rows };
  } finally {
    env.depth--;
  }
}
