import { throwIfAborted } from '../../errors.ts';
import { SHEET_NAME } from '../../render/blocks.ts';
import { root, tableFromMatrix } from '../../tree/build.ts';
import type { Adapter, AdapterContext } from '../types.ts';
import { isBlankRecord, type ReaderState, readRecords } from './records.ts';
import { sniffDelimiter } from './sniff.ts';
import { decodeCsv } from './text.ts';

/** Padded cells kept in the one table (rows × widest row); beyond this the Markdown is unusable anyway. */
export const MAX_CELLS = 1_000_000;
/** Columns kept per row (Excel's own limit), so one absurdly wide line cannot blow up the padding. */
export const MAX_COLUMNS = 16_384;
/** Records read between abort checks. */
const CHECK_EVERY = 4096;

/** Cell text without surrounding blanks, line breaks unified so the renderer turns them into `<br>`. */
const cellText = (raw: string): string => {
  // Most fields need neither step; testing first saves a regex run and a copy per cell.
  const unified = raw.includes('\r') ? raw.replace(/\r\n?/g, '\n') : raw;
  const last = unified.charCodeAt(unified.length - 1);
  return unified.charCodeAt(0) <= 32 || last <= 32 ? unified.trim() : unified;
};

/** Reads the records into rows, stopping at the row and cell caps. */
function readRows(text: string, ctx: AdapterContext): string[][] {
  const delimiter = sniffDelimiter(text);
  const state: ReaderState = { unterminatedQuote: false, clippedFields: false };
  const maxRows = ctx.limits.maxCsvRows;
  const rows: string[][] = [];
  let width = 0;
  let read = 0;
  for (const fields of readRecords(text, delimiter?.charCodeAt(0), state, MAX_COLUMNS)) {
    if (++read % CHECK_EVERY === 0) throwIfAborted(ctx.signal);
    if (isBlankRecord(fields)) continue;
    if (rows.length >= maxRows) {
      ctx.warn(`The CSV file has more than ${maxRows} rows; only the first ${maxRows} were kept.`);
      break;
    }
    const nextWidth = Math.max(width, fields.length);
    if ((rows.length + 1) * nextWidth > MAX_CELLS) {
      ctx.warn(`The CSV table exceeds ${MAX_CELLS} cells; only the first ${rows.length} rows were kept.`);
      break;
    }
    width = nextWidth;
    rows.push(fields.map(cellText));
  }
  if (state.clippedFields) {
    ctx.warn(`Some CSV rows have more than ${MAX_COLUMNS} fields; the extra fields were dropped.`);
  }
  if (state.unterminatedQuote) {
    ctx.warn('A quoted CSV field is never closed; its opening quote was read as an ordinary character.');
  }
  // Ragged files: every row is padded to the widest one so the table stays rectangular.
  for (const row of rows) while (row.length < width) row.push('');
  return rows;
}

export const adapter: Adapter = {
  name: 'csv',
  kinds: ['csv'],
  async parse(bytes, ctx) {
    throwIfAborted(ctx.signal);
    const { text } = decodeCsv(bytes);
    const rows = readRows(text, ctx);
    // Metadata stays empty: a CSV file carries no title, author or dates of its own.
    const tree = root(rows.length ? [tableFromMatrix(rows, 1)] : []);
    // Spreadsheet programs open a CSV file as one sheet named after the file: chunks and blocks say so.
    const name = ctx.filename?.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '');
    if (name) tree.data = { [SHEET_NAME]: name };
    return { tree };
  },
};
