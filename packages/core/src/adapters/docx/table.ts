import { badInput, throwIfAborted } from '../../errors.ts';
import { cell as makeCell, row as makeRow, table as makeTable } from '../../tree/build.ts';
import type { Table, TableCell, TableRow } from '../../tree/types.ts';
import type { XmlElement } from '../../util/xml.ts';
import { type DocxEnv, MAX_NESTING } from './env.ts';
import { kid, kids, ln, pickAlternate, toggle, val } from './xml.ts';

/** Rows and cells may sit inside content controls, custom XML or tracked insertions. */
function unwrap(el: XmlElement, local: string, out: XmlElement[] = []): XmlElement[] {
  for (const c of kids(el)) {
    const name = ln(c);
    if (name === local) out.push(c);
    else if (name === 'sdt') unwrap(kid(c, 'sdtContent') ?? c, local, out);
    else if (name === 'customXml' || name === 'ins' || name === 'moveTo') unwrap(c, local, out);
    else if (name === 'AlternateContent') {
      const branch = pickAlternate(c);
      if (branch) unwrap(branch, local, out);
    }
  }
  return out;
}

/** Word allows 63 columns; a wider grid is damage and would only blow up the rendered table. */
const MAX_COLUMNS = 256;

const span = (el: XmlElement | undefined): number => {
  const n = Number(val(el));
  return Number.isInteger(n) && n > 1 ? Math.min(n, MAX_COLUMNS) : 1;
};

/**
 * `w:tbl` to a tree table. Horizontal merges come from `w:gridSpan`, vertical ones from `w:vMerge`
 * (restart opens a cell, continue extends the cell above in the same grid column). Rows keep only
 * the cells that start in them; `w:gridBefore/After` become empty cells so columns stay aligned.
 */
export function readTable(tbl: XmlElement, env: DocxEnv): Table {
  if (env.depth >= MAX_NESTING) throw badInput('Tables are nested too deeply: refusing the document.');
  const inner: DocxEnv = { ...env, depth: env.depth + 1 };
  const rows: TableRow[] = [];
  /** Open vertically merged cells by starting grid column. */
  const open = new Map<number, TableCell>();
  const trs = unwrap(tbl, 'tr');
  for (const [r, tr] of trs.entries()) {
    if (r % 64 === 0) throwIfAborted(env.shared.ctx.signal);
    const trPr = kid(tr, 'trPr');
    // A table over pages: each row keeps its page, so its part of the table says where it was
    // printed, and a note its cells refer to is on that page.
    const page = env.shared.rowPages?.get(tr);
    const tablePage = env.shared.page;
    if (page !== undefined) env.shared.page = page;
    const header =
      r === 0 || (toggle(kid(trPr, 'tblHeader')) === true && rows.every((x) => x.children.every((c) => c.header)));
    const cells: TableCell[] = [];
    let col = 0;
    const before = kid(trPr, 'gridBefore');
    if (Number(val(before)) >= 1) {
      const width = span(before);
      cells.push(makeCell([], { header, colSpan: width }));
      col += width;
    }
    for (const tc of unwrap(tr, 'tc')) {
      if (col >= MAX_COLUMNS) break;
      const tcPr = kid(tc, 'tcPr');
      const colSpan = Math.min(span(kid(tcPr, 'gridSpan')), MAX_COLUMNS - col);
      const vMerge = kid(tcPr, 'vMerge');
      const merge = vMerge ? (val(vMerge) ?? 'continue') : undefined;
      const above = open.get(col);
      if (merge === 'continue' && above) {
        above.rowSpan = (above.rowSpan ?? 1) + 1;
        col += colSpan;
        continue;
      }
      const blocks = env.shared.readBlocks(tc.children, inner);
      const c = makeCell(blocks, { header, colSpan });
      cells.push(c);
      for (let k = 0; k < colSpan; k++) open.delete(col + k);
      if (merge === 'restart') open.set(col, c);
      col += colSpan;
    }
    const after = kid(trPr, 'gridAfter');
    if (after && Number(val(after)) >= 1) cells.push(makeCell([], { header, colSpan: span(after) }));
    const row = makeRow(cells);
    if (page !== undefined) {
      row.source = { page };
      env.shared.page = tablePage;
    }
    rows.push(row);
  }
  return makeTable(rows);
}
