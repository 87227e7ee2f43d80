import type { CellObject, WorkBook, WorkSheet } from '@e965/xlsx';
import { badInput, DocmillError, passwordError, throwIfAborted } from '../../errors.ts';
import { heading, paragraph, row, section, table, cell as tableCell } from '../../tree/build.ts';
import type { Block, DocumentMetadata, Root, TableRow } from '../../tree/types.ts';
import { append } from '../../util/arrays.ts';
import { captureConsole } from '../../util/console.ts';
import { DEFAULT_PASSWORD } from '../../util/offcrypto.ts';
import { once } from '../../util/once.ts';
import type { XmlElement } from '../../util/xml.ts';
import { openZip, type SafeZip, storedZip } from '../../util/zip.ts';
import { openCfb } from '../cfb/index.ts';
import { decryptOdf } from '../odf/decrypt.ts';
import { partReader } from '../ooxml/opc.ts';
import type { AdapterContext, AdapterOutput } from '../types.ts';
import { sheetCharts } from './charts.ts';
import { joinAcrossGaps } from './gaps.ts';
import { capOdsRepeats } from './ods-repeats.ts';
import { findRegions, type GridCell } from './regions.ts';
import { decryptWorkbook, filePassAt } from './xls-rc4.ts';
import { repairXlsbStrings } from './xlsb.ts';
import { readXlsx } from './xlsx.ts';
import type { Ssf } from './xlsx-format.ts';

const loadXlsx = once(() => import('@e965/xlsx'));

const MAX_CELL_CHARS = 32_767;

const ZIP_KINDS = new Set(['xlsx', 'xlsm', 'xlsb', 'ods']);

/** Parts SheetJS never reads for cell data: pictures, embedded objects, printer blobs, thumbnails. */
const UNREAD_PARTS = /^(xl\/(media|embeddings|printerSettings)|docProps\/thumbnail|Pictures|Thumbnails)\//i;

/**
 * SheetJS inflates zip entries itself, unmetered. Every part it needs is inflated once through the
 * metered reader instead and handed over stored, so SheetJS cannot be bombed, inflates nothing, and
 * pictures are not inflated at all (xlsx MB/s: see the commit that made this change).
 */
async function repack(zip: SafeZip, ctx: AdapterContext): Promise<Uint8Array> {
  const parts: [string, Uint8Array][] = [];
  let repaired = 0;
  for (const name of zip.names) {
    if (UNREAD_PARTS.test(name)) continue;
    let data = await zip.bytes(name);
    if (!data) continue;
    if (ctx.kind === 'xlsb' && /\.bin$/i.test(name)) repaired += repairXlsbStrings(data);
    if (ctx.kind === 'ods' && name === 'content.xml') {
      const cut = capOdsRepeats(new TextDecoder().decode(data), ctx.limits.maxCellsPerSheet);
      if (cut.capped) {
        data = new TextEncoder().encode(cut.xml);
        ctx.warn(
          `Repeated cells with content ask for more than ${ctx.limits.maxCellsPerSheet} cells in a sheet; the repeats were cut.`,
        );
      }
    }
    parts.push([name, data]);
  }
  if (repaired)
    ctx.warn(`The binary workbook is damaged: ${repaired} text length(s) ran past their records and were cut.`);
  return storedZip(parts);
}

/**
 * SheetJS reads almost anything as a sheet (plain text becomes a one-column CSV), so a file claimed
 * as .xls must look like one: a compound file, a bare BIFF stream, or SpreadsheetML/HTML markup.
 */
function looksLikeXls(b: Uint8Array): boolean {
  if (b[0] === 0xd0 && b[1] === 0xcf && b[2] === 0x11 && b[3] === 0xe0) return true;
  if (b[0] === 0x09 && (b[1] === 0x00 || b[1] === 0x02 || b[1] === 0x04 || b[1] === 0x08)) return true;
  const head = new TextDecoder('utf-8', { fatal: false })
    .decode(b.subarray(0, 512))
    .replace(/^\uFEFF/, '')
    .trimStart();
  return head.startsWith('<');
}

/**
 * SheetJS follows compound-file sector chains without a visit limit: a cyclic FAT grows an array
 * until V8 aborts the whole process, which no try/catch survives. So it never sees the uploaded
 * container: the root streams are read with the guarded reader and handed over in a container
 * SheetJS writes itself. A damaged workbook stream is a 400; any other stream that cannot be read
 * (summary, CompObj) is left out, as it is not needed for the cells.
 */
function rebuildContainer(XLSX: typeof import('@e965/xlsx'), bytes: Uint8Array, signal: AbortSignal): Uint8Array {
  if (!(bytes[0] === 0xd0 && bytes[1] === 0xcf)) return bytes;
  const source = openCfb(bytes, signal);
  const rebuilt = XLSX.CFB.utils.cfb_new();
  for (const name of source.names) {
    if (!name || name.includes('/')) continue;
    let data: Uint8Array | undefined;
    try {
      data = source.stream(name);
    } catch (err) {
      if (name === 'Workbook' || name === 'Book') throw err;
      continue;
    }
    if (data) XLSX.CFB.utils.cfb_add(rebuilt, name, data);
  }
  return new Uint8Array(XLSX.CFB.write(rebuilt, { type: 'array' }) as ArrayLike<number>);
}

/**
 * An RC4-encrypted .xls with its Workbook stream decrypted (caller's password, then Excel's default
 * "VelvetSweatshop"); the bytes unchanged when the workbook is not encrypted.
 */
function decryptXls(XLSX: typeof import('@e965/xlsx'), bytes: Uint8Array, ctx: AdapterContext): Uint8Array {
  if (!(bytes[0] === 0xd0 && bytes[1] === 0xcf)) return bytes;
  let cfb: ReturnType<typeof XLSX.CFB.read>;
  try {
    cfb = XLSX.CFB.read(bytes, { type: 'array' });
  } catch {
    return bytes;
  }
  const entry = XLSX.CFB.find(cfb, 'Workbook');
  const content = entry?.content ? new Uint8Array(entry.content as ArrayLike<number>) : undefined;
  if (!entry || !content || filePassAt(content) < 0) return bytes;
  const passwords = ctx.password === undefined ? [DEFAULT_PASSWORD] : [ctx.password, DEFAULT_PASSWORD];
  const plain = decryptWorkbook(content, passwords);
  if (!plain) throw passwordError('The workbook', ctx.password);
  entry.content = plain as unknown as typeof entry.content;
  entry.size = plain.length;
  return new Uint8Array(XLSX.CFB.write(cfb, { type: 'array' }) as ArrayLike<number>);
}

function readError(err: unknown): DocmillError {
  if (err instanceof DocmillError) return err;
  const msg = err instanceof Error ? err.message : String(err);
  if (/password|encrypt/i.test(msg))
    return badInput('The spreadsheet is encrypted in a way this engine does not read.', err);
  return badInput(`The spreadsheet is damaged or not a supported format (${msg.slice(0, 120)}).`, err);
}

/** What the cell shows: SheetJS's formatted text (dates, percentages, currency), else the raw value. */
function display(c: CellObject | undefined): string {
  if (!c || c.t === 'z') return '';
  if (c.t === 'e') return c.w ?? '#ERROR';
  const shown = c.w ?? (c.v instanceof Date ? c.v.toISOString() : c.v === undefined ? '' : String(c.v));
  // Excel holds at most 32,767 characters in a cell; anything longer is a misread, not content.
  return shown.slice(0, MAX_CELL_CHARS).replace(/\s+/g, ' ').trim();
}

/** Excel's grid. */
const MAX_ROWS = 1_048_576;
const MAX_COLS = 16_384;

/**
 * The filled positions of a SheetJS row (or of the row list) inside the grid, in order. A damaged
 * cell reference ("-2147483649", a row "NaN") puts a cell at an index far outside it, and the array's
 * length becomes billions: visiting it index by index (forEach, for…of) ran for minutes past the
 * parse's deadline. Such a cell has no place in the sheet and is left out.
 */
function gridIndices(list: readonly unknown[], limit: number): number[] {
  const out: number[] = [];
  if (list.length <= limit) {
    for (let i = 0; i < list.length; i++) if (i in list) out.push(i);
    return out;
  }
  for (const key of Object.keys(list)) {
    const i = Number(key);
    if (Number.isInteger(i) && i >= 0 && i < limit) out.push(i);
  }
  return out;
}

/**
 * Cells of a sheet in reading order, merges applied. Merges are honoured while the positions they
 * cover (cut to the used range) add up to `maxCovered`: real merges never overlap, so they cover at
 * most the sheet's cells, while one hostile `A1:XFD1048576` over two values would cover 17 billion.
 * `ignored` counts the merges left out; `noted` says whether any cell carries a comment.
 */
function sheetCells(ws: WorkSheet, maxCovered: number): { cells: GridCell[]; ignored: number; noted: boolean } {
  const data = (ws['!data'] ?? []) as (CellObject | null | undefined)[][];
  // A merge reaching past the last row or column holding a value (a whole-row merge, or a damaged
  // range) is cut there: Markdown repeats a merged cell in every position it covers.
  let lastRow = 0;
  let lastCol = 0;
  let noted = false;
  // Cells showing something, each text worked out once, in reading order (rows and columns ascend).
  const shown: GridCell[] = [];
  for (const r of gridIndices(data, MAX_ROWS)) {
    const cells = data[r];
    if (!cells) continue;
    for (const col of gridIndices(cells, MAX_COLS)) {
      const c = cells[col] ?? undefined;
      if (c?.c) noted = true;
      const text = display(c);
      if (!text) continue;
      shown.push({ r, c: col, text, rowSpan: 1, colSpan: 1 });
      lastRow = Math.max(lastRow, r);
      lastCol = Math.max(lastCol, col);
    }
  }
  const merges = new Map<string, { rowSpan: number; colSpan: number }>();
  const covered = new Set<string>();
  let coveredLeft = maxCovered;
  let ignored = 0;
  for (const m of ws['!merges'] ?? []) {
    const endR = Math.max(m.s.r, Math.min(m.e.r, lastRow));
    const endC = Math.max(m.s.c, Math.min(m.e.c, lastCol));
    const area = (endR - m.s.r + 1) * (endC - m.s.c + 1);
    if (area > coveredLeft) {
      ignored++;
      continue;
    }
    coveredLeft -= area;
    merges.set(`${m.s.r},${m.s.c}`, { rowSpan: endR - m.s.r + 1, colSpan: endC - m.s.c + 1 });
    for (let r = m.s.r; r <= endR; r++)
      for (let c = m.s.c; c <= endC; c++) if (r !== m.s.r || c !== m.s.c) covered.add(`${r},${c}`);
  }
  // Most sheets merge nothing: no position key is then built per cell.
  if (!merges.size) return { cells: shown, ignored, noted };
  const out: GridCell[] = [];
  for (const cell of shown) {
    const key = `${cell.r},${cell.c}`;
    if (covered.has(key)) continue;
    const span = merges.get(key);
    if (span) {
      cell.rowSpan = span.rowSpan;
      cell.colSpan = span.colSpan;
    }
    out.push(cell);
  }
  return { cells: out, ignored, noted };
}

/**
 * The cells of one row inside a block's columns: the row itself when it lies wholly inside (most
 * rows of most sheets, one block wide).
 */
function rowInside(list: readonly GridCell[], c0: number, c1: number): readonly GridCell[] {
  const first = list[0];
  const last = list[list.length - 1];
  if (first && last && first.c >= c0 && last.c <= c1) return list;
  return list.filter((c) => c.c >= c0 && c.c <= c1);
}

/** One table per block; the first row is the header row, as spreadsheets conventionally have. */
function blockTables(cells: GridCell[], budget: { left: number }): { tables: Block[]; truncated: boolean } {
  const tables: Block[] = [];
  let truncated = false;
  // Indexed once by row so that many small blocks do not each rescan the whole sheet; cells come
  // in reading order, so each row's list is in column order.
  const sheetRows = new Map<number, GridCell[]>();
  for (const c of cells) {
    const list = sheetRows.get(c.r);
    if (list) list.push(c);
    else sheetRows.set(c.r, [c]);
  }
  for (const b of joinAcrossGaps(findRegions(cells), sheetRows)) {
    const byRow = new Map<number, readonly GridCell[]>();
    for (let r = b.r0; r <= b.r1; r++) {
      const list = sheetRows.get(r);
      const inside = list ? rowInside(list, b.c0, b.c1) : [];
      if (inside.length) byRow.set(r, inside);
    }
    const covering = new Set<string>();
    // Rows and columns holding or covered by a cell; the rest are blank spacers and are left out.
    const usedRows = new Set<number>();
    const usedCols = new Set<number>();
    for (const list of byRow.values())
      for (const c of list)
        for (let r = c.r; r < c.r + c.rowSpan; r++)
          for (let k = c.c; k < c.c + c.colSpan; k++) {
            usedRows.add(r);
            usedCols.add(k);
            if (r !== c.r || k !== c.c) covering.add(`${r},${k}`);
          }
    const cols = [...usedCols].filter((k) => k >= b.c0 && k <= b.c1).sort((x, y) => x - y);
    const width = cols.length;
    const rows: TableRow[] = [];
    for (let r = b.r0; r <= b.r1; r++) {
      if (!usedRows.has(r)) continue;
      if (budget.left < width) {
        truncated = true;
        break;
      }
      budget.left -= width;
      // The row's cells and the columns both ascend: one walk matches them up.
      const present = byRow.get(r) ?? [];
      let next = 0;
      const header = r === b.r0;
      const cellsOut = [];
      for (const k of cols) {
        if (covering.size > 0 && covering.has(`${r},${k}`)) continue;
        while (next < present.length && (present[next] as GridCell).c < k) next++;
        const c = present[next];
        cellsOut.push(
          c && c.c === k
            ? tableCell(c.text, {
                header,
                rowSpan: Math.min(c.rowSpan, b.r1 - r + 1),
                colSpan: Math.min(c.colSpan, b.c1 - k + 1),
              })
            : tableCell('', { header }),
        );
      }
      rows.push(row(cellsOut));
    }
    if (rows.length) tables.push(table(rows));
    if (truncated) break;
  }
  return { tables, truncated };
}

/** Cell comments (notes and threaded comments) in cell order, each labelled with its author. */
function noteBlocks(ws: WorkSheet): Block[] {
  const out: Block[] = [];
  const data = (ws['!data'] ?? []) as (CellObject | null | undefined)[][];
  for (const r of gridIndices(data, MAX_ROWS)) {
    const cells = data[r] ?? [];
    for (const col of gridIndices(cells, MAX_COLS)) {
      const notes = cells[col]?.c;
      if (!notes) continue;
      for (const note of notes) {
        const body = (note.t ?? '').replace(/\s+/g, ' ').trim();
        if (!body) continue;
        out.push(paragraph(note.a ? `[author: ${note.a}]: ${body}` : body));
      }
    }
  }
  return out;
}

function metadataOf(wb: WorkBook, count: number): DocumentMetadata {
  const meta: DocumentMetadata = { numPages: count, totalPages: count };
  const title = wb.Props?.Title?.trim();
  const author = (wb.Props?.Author ?? wb.Props?.LastAuthor)?.trim();
  if (title) meta.title = title;
  if (author) meta.author = author;
  return meta;
}

/** One warning for what SheetJS printed: the distinct messages, the first few of them. */
function readerMessages(messages: string[]): string {
  const distinct = [...new Set(messages)];
  const shown = distinct.slice(0, 5).join('; ');
  const more = distinct.length > 5 ? ` and ${distinct.length - 5} more` : '';
  return `The spreadsheet reader skipped parts it could not interpret (${shown}${more}).`;
}

/**
 * XLSX and XLSM are read from their XML by our own reader (SheetJS's number formatter shows the
 * values); anything it leaves (see `readXlsx`), and XLS, XLSB and ODS, go to SheetJS.
 */
async function readBook(
  bytes: Uint8Array,
  zip: SafeZip | undefined,
  xml: ((name: string) => Promise<XmlElement | undefined>) | undefined,
  ctx: AdapterContext,
): Promise<WorkBook> {
  if (ctx.kind === 'xls' && !looksLikeXls(bytes))
    throw badInput('The file is not an Excel workbook (no compound-file or BIFF signature).');
  throwIfAborted(ctx.signal);
  const XLSX = await loadXlsx();
  if (zip && xml && (ctx.kind === 'xlsx' || ctx.kind === 'xlsm')) {
    try {
      return (await readXlsx(zip, xml, XLSX.SSF as unknown as Ssf, ctx.limits)) as unknown as WorkBook;
    } catch (err) {
      // Limits, damage and the deadline stand; anything else the reader could not take, SheetJS gets.
      if (err instanceof DocmillError) throw err;
    }
  }
  const stored = zip ? await repack(zip, ctx) : undefined;
  const input = ctx.kind === 'xls' ? decryptXls(XLSX, rebuildContainer(XLSX, bytes, ctx.signal), ctx) : bytes;
  try {
    // SheetJS prints unknown or damaged records to the console (no option silences it).
    const read = captureConsole(() =>
      XLSX.read(stored ?? input, { type: 'array', cellDates: true, cellNF: true, dense: true, WTF: false }),
    );
    if (read.messages.length) ctx.warn(readerMessages(read.messages));
    return read.value;
  } catch (err) {
    throw readError(err);
  }
}

export async function readWorkbook(bytes: Uint8Array, ctx: AdapterContext): Promise<AdapterOutput> {
  const opened = ZIP_KINDS.has(ctx.kind)
    ? await openZip(bytes, ctx.limits, ctx.signal, ctx.warn, ctx.zipListing)
    : undefined;
  const zip = opened && ctx.kind === 'ods' ? await decryptOdf(opened, ctx) : opened;
  // Parts parsed once, shared by the cell reader and the charts.
  const xml = zip && partReader(zip, ctx.limits);
  const wb = await readBook(bytes, zip, xml, ctx);
  if (!wb.SheetNames?.length) throw badInput('The spreadsheet has no sheets.');
  // Charts are extras: a damaged chart part must not cost the sheet data.
  const charts =
    xml && ctx.kind !== 'ods'
      ? await sheetCharts(xml).catch((err: unknown) => {
          if (ctx.signal.aborted) throw err;
          ctx.warn('The workbook charts could not be read; skipped.');
          return new Map<string, Block[]>();
        })
      : new Map<string, Block[]>();
  const sections: Block[] = [];
  const meta = wb.Workbook?.Sheets ?? [];
  for (const [i, name] of wb.SheetNames.entries()) {
    throwIfAborted(ctx.signal);
    ctx.progress?.(i, wb.SheetNames.length, 'sheets');
    if (meta[i]?.Hidden) continue;
    const ws = wb.Sheets[name];
    // SheetJS leaves the name undefined for a spreadsheet table without one (ODF table:name missing).
    const label = typeof name === 'string' && name ? name : `Sheet ${i + 1}`;
    const children: Block[] = [heading(2, label)];
    if (ws) {
      const budget = { left: ctx.limits.maxCellsPerSheet };
      const read = sheetCells(ws, ctx.limits.maxCellsPerSheet);
      let cells = read.cells;
      if (read.ignored)
        ctx.warn(
          `Sheet "${label}" has merged ranges covering more than ${ctx.limits.maxCellsPerSheet} cells; ${read.ignored} merge(s) were ignored.`,
        );
      // Block detection is linear in the cells, but there is no point feeding it more than can be shown.
      const overflow = cells.length > ctx.limits.maxCellsPerSheet;
      if (overflow) cells = cells.slice(0, ctx.limits.maxCellsPerSheet);
      const { tables, truncated: cut } = blockTables(cells, budget);
      const truncated = cut || overflow;
      append(children, tables);
      if (read.noted) append(children, noteBlocks(ws));
      if (truncated)
        ctx.warn(`Sheet "${label}" has more than ${ctx.limits.maxCellsPerSheet} cells; the rest was dropped.`);
    }
    append(children, charts.get(name) ?? []);
    // Numbered by position in the workbook, so hidden sheets leave gaps rather than renumbering.
    sections.push(section('sheet', i + 1, children, { name: label }));
  }
  ctx.progress?.(wb.SheetNames.length, wb.SheetNames.length, 'sheets');
  const tree: Root = { type: 'root', metadata: metadataOf(wb, sections.length), children: sections };
  return { tree };
}
