import { DocmillError } from '../../errors.ts';
import type { Limits } from '../../limits.ts';
import {
  attr,
  deep,
  isElement,
  kids,
  localName,
  parseXml,
  textOf,
  type XmlElement,
  xmlSection,
} from '../../util/xml.ts';
import { lineFeeds } from '../../util/xml-reader.ts';
import type { SafeZip } from '../../util/zip.ts';
import { type RawCell, type RawRow, scanSharedStrings, scanSheetData, treeRows } from './xlsx-cells.ts';
import { ERROR_CODES, NotForThisReader, NumberFormats, type Ssf, type XlsxCell } from './xlsx-format.ts';
import {
  decodeCell,
  decodeRange,
  encodeCell,
  parseBool,
  parseIsoDate,
  type Range,
  stringItem,
  unescapeAgain,
  unescapeOoxml,
} from './xlsx-text.ts';

/**
 * XLSX and XLSM read straight from their XML: content types, workbook and its relationships,
 * shared strings, number formats, cells, merges, comments and threaded comments, core properties.
 * It builds what the workbook code used to get from SheetJS (names, hidden flags, dense cell rows
 * with their displayed text, merges, notes, title and author), the same to the character: the
 * structure is read as SheetJS read it (which part holds what, which cells count, which quirks),
 * and numbers are displayed by SheetJS's own formatter. A package it cannot read that way (no
 * content types, an unknown namespace, a binary workbook, malformed XML) is left to SheetJS:
 * `NotForThisReader`.
 */

export interface XlsxSheet {
  '!data'?: XlsxCell[][];
  '!merges'?: Range[];
}

export interface XlsxBook {
  SheetNames: string[];
  Sheets: Record<string, XlsxSheet | undefined>;
  Workbook: { Sheets: { Hidden: number }[] };
  Props: { Title?: string; Author?: string; LastAuthor?: string };
}

const CT_NAMESPACE = 'http://schemas.openxmlformats.org/package/2006/content-types';
const MAIN_NAMESPACES = new Set([
  'http://schemas.openxmlformats.org/spreadsheetml/2006/main',
  'http://purl.oclc.org/ooxml/spreadsheetml/main',
  'http://schemas.microsoft.com/office/excel/2006/main',
  'http://schemas.microsoft.com/office/excel/2006/2',
]);
const WORKBOOK_TYPES = new Set([
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml',
  'application/vnd.ms-excel.sheet.macroEnabled.main+xml',
  'application/vnd.ms-excel.sheet.binary.macroEnabled.main',
  'application/vnd.ms-excel.addin.macroEnabled.main+xml',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.template.main+xml',
]);
/** Content types of the parts the reader needs besides the workbook, by role. */
const PART_TYPES: Record<string, 'strings' | 'styles' | 'core' | 'people' | 'metadata'> = {
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml': 'strings',
  'application/vnd.ms-excel.sharedStrings': 'strings',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml': 'styles',
  'application/vnd.ms-excel.styles': 'styles',
  'application/vnd.openxmlformats-package.core-properties+xml': 'core',
  'application/vnd.ms-excel.person+xml': 'people',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheetMetadata+xml': 'metadata',
  'application/vnd.ms-excel.sheetMetadata': 'metadata',
};
/** Every content type the reader looks for, with the role of its part. */
const ROLES: ReadonlyMap<string, 'workbook' | (typeof PART_TYPES)[string]> = new Map([
  ...[...WORKBOOK_TYPES].map((t) => [t, 'workbook'] as const),
  ...Object.entries(PART_TYPES),
]);
const WORKSHEET_RELS = new Set([
  'http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet',
  'http://purl.oclc.org/ooxml/officeDocument/relationships/worksheet',
]);
const COMMENTS_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/comments';
const THREADED_REL = 'http://schemas.microsoft.com/office/2017/10/relationships/threadedComment';

/** A sheet SheetJS gave up on (a string index past the table, a date cell with no value): no cells. */
class SheetUnreadable extends Error {}

interface Rel {
  type: string | undefined;
  target: string;
}

/** The scan's deepest element (`v` in `c` in `row` in `sheetData` in the root) with room to spare. */
const MIN_SCAN_DEPTH = 6;

const stripSlash = (p: string) => (p.startsWith('/') ? p.slice(1) : p);

/** A relationship target resolved against the part that names it. */
function resolvePath(path: string, base: string): string {
  if (path.startsWith('/')) return path.slice(1);
  const out = base.split('/');
  if (!base.endsWith('/')) out.pop();
  for (const step of path.split('/')) {
    if (step === '..') out.pop();
    else if (step !== '.') out.push(step);
  }
  return out.join('/');
}

/** Relationships of a part, by id and in document order (unprefixed `Relationship` elements only). */
function readRels(el: XmlElement | undefined): { byId: Map<string, Rel>; list: Rel[] } {
  const byId = new Map<string, Rel>();
  const byTarget = new Map<string, Rel>();
  for (const r of el ? deep(el, 'Relationship') : []) {
    if (r.name !== 'Relationship') continue;
    const rel = { type: attr(r, 'Type'), target: unescapeOoxml(attr(r, 'Target') ?? 'undefined') };
    byId.set(attr(r, 'Id') ?? 'undefined', rel);
    byTarget.set(`${attr(r, 'TargetMode')}|${rel.target}`, rel);
  }
  return { byId, list: [...byTarget.values()] };
}

/** The namespace a root element is in (its own prefix's declaration). */
function namespaceOf(el: XmlElement): string | undefined {
  const colon = el.name.indexOf(':');
  return el.attrs[colon < 0 ? 'xmlns' : `xmlns:${el.name.slice(0, colon)}`];
}

/** An A1 reference inside a formula: `$` marks, column letters up to XFD, row up to 1048576. */
const A1_REF =
  /(^|[^._A-Z0-9])([$]?)([A-Z]{1,2}|[A-W][A-Z]{2}|X[A-E][A-Z]|XF[A-D])([$]?)(10[0-3]\d{4}|104[0-7]\d{3}|1048[0-4]\d{2}|10485[0-6]\d|104857[0-6]|[1-9]\d{0,5})(?![_.(A-Za-z0-9])/g;

/** True when moving the formula's relative references `dc` columns puts one left of column A. */
function shiftsOffSheet(formula: string, dc: number): boolean {
  for (const m of formula.matchAll(A1_REF)) if (m[2] !== '$' && columnOf(m[3] as string) + dc < 0) return true;
  return false;
}

/**
 * Formulas of a sheet. Formulas are not shown, and a formula cell without a cached value is no
 * cell, but SheetJS gave up on a whole sheet over two of them: an array formula without a range,
 * and a shared formula that cannot be moved to a cell (a reference would land left of column A).
 */
class Formulas {
  /** Shared formulas by index: the text and the cell that holds it. */
  private readonly shared = new Map<string, { formula: string; at: { r: number; c: number } }>();

  /** Registers the formula of the cell at `ref`; throws where SheetJS failed on it. */
  read(f: XmlElement | undefined, ref: string): void {
    if (!f) return;
    const text = textOf(f);
    const kind = attr(f, 't');
    if (text !== '') {
      if (kind === 'array') {
        if (attr(f, 'ref') === undefined) throw new SheetUnreadable('array formula without a range');
      } else if (kind === 'shared')
        this.shared.set(String(Number.parseInt(attr(f, 'si') ?? '', 10)), {
          formula: unescapeOoxml(text),
          // Where a shared formula starts counts from the first cell of its reference (`B4:B4`).
          at: decodeCell(ref.split(':')[0] as string),
        });
      return;
    }
    // An empty formula names a shared one; SheetJS's pattern for it (`<f .../>`) took no prefix.
    if (f.name !== 'f') return;
    const master = this.shared.get(attr(f, 'si') ?? '');
    const at = decodeCell(ref);
    // SheetJS moved the shared formula to this cell and gave up on the sheet when it could not.
    if (master && shiftsOffSheet(master.formula, at.c - master.at.c)) throw new SheetUnreadable('shared formula');
  }
}

/** Column index of the letters a reference starts with, -1 when it starts with none. */
function columnOf(ref: string): number {
  let idx = 0;
  for (let i = 0; i < ref.length; i++) {
    const cc = ref.charCodeAt(i) - 64;
    if (cc < 1 || cc > 26) break;
    idx = 26 * idx + cc;
  }
  return idx - 1;
}

const isItem = (n: XmlElement['children'][number]): n is XmlElement =>
  isElement(n) && (localName(n.name) === 'si' || localName(n.name) === 'sstItem');

interface SheetContext {
  strings: (string | undefined)[];
  formats: NumberFormats;
  date1904: boolean;
}

/** One cell as SheetJS built it, or undefined when SheetJS skipped it (no value, no formula). */
function readCell(c: RawCell, ref: string, ctx: SheetContext, formulas: Formulas): XlsxCell | undefined {
  const raw = c.v;
  const v: string | undefined = raw === undefined || raw === '' ? undefined : unescapeOoxml(raw);
  const type = c.t;
  // A formula without a cached value is no cell (SheetJS made it a 0 and then dropped it as empty),
  // but formulas are still read: some make SheetJS give up on the sheet.
  formulas.read(c.f, ref);
  if (type == null && v === undefined) return undefined;
  const t = type || 'n';
  let value: unknown = v;
  const cell: XlsxCell = { t };
  switch (t) {
    case 'n':
      if (v == null || v === '') return undefined;
      value = Number.parseFloat(v);
      break;
    case 's': {
      if (v === undefined) return undefined;
      const index = Number.parseInt(v, 10);
      if (!Object.hasOwn(ctx.strings, index) || index < 0) throw new SheetUnreadable('string index past the table');
      value = ctx.strings[index];
      break;
    }
    case 'str':
      cell.t = 's';
      value = v != null ? unescapeAgain(v).replace(/\r\n/g, '\n') : '';
      break;
    case 'inlineStr': {
      cell.t = 's';
      value = c.is ? stringItem(c.is) : '';
      break;
    }
    case 'b':
      value = parseBool(v);
      break;
    case 'd':
      if (v === undefined) throw new SheetUnreadable('date cell without a value');
      value = parseIsoDate(v, ctx.date1904);
      break;
    case 'e':
      cell.w = v;
      value = v === undefined ? undefined : ERROR_CODES[v];
      break;
  }
  cell.v = value;
  ctx.formats.display(cell, ctx.formats.idOf(c.s));
  return cell;
}

/** A worksheet part: its tree (cells left out when they were scanned) and its rows of cells. */
interface WorksheetPart {
  root: XmlElement;
  sheetData: XmlElement | undefined;
  rows: RawRow[];
}

/**
 * A part's text for the scanners, line ends as the XML reader has them; undefined for a missing part
 * and for one past the size cap or under a depth cap the scan needs, which the tree reading decides.
 */
async function scannableText(
  zip: SafeZip,
  name: string,
  limits: Pick<Limits, 'maxXmlBytes' | 'maxXmlDepth'>,
): Promise<string | undefined> {
  const text = await zip.text(name);
  if (text === undefined || text.length > limits.maxXmlBytes || limits.maxXmlDepth < MIN_SCAN_DEPTH) return undefined;
  return lineFeeds(text);
}

/**
 * Reads a worksheet part: its `sheetData` scanned from the text (`xlsx-cells.ts`), the rest as a
 * tree; the whole part as a tree when the scanner does not take the section. Undefined for a
 * missing part.
 */
async function readWorksheetPart(
  zip: SafeZip,
  path: string,
  part: (name: string) => Promise<XmlElement | undefined>,
  limits: Pick<Limits, 'maxXmlBytes' | 'maxXmlDepth'>,
): Promise<WorksheetPart | undefined> {
  // Size and depth refusals, and every other case the scan does not take, come from the tree reading.
  const xml = await scannableText(zip, path, limits);
  if (xml !== undefined) {
    const scanned = scanSheetData(xml);
    if (scanned) {
      let root: XmlElement | undefined;
      try {
        root = parseXml(`${xml.slice(0, scanned.start)}<sheetData/>${xml.slice(scanned.end)}`, limits, path);
      } catch {
        root = undefined;
      }
      const holder = root && deep(root, 'sheetData')[0];
      if (root && holder && root.children.includes(holder)) return { root, sheetData: holder, rows: scanned.rows };
    }
  }
  const root = await part(path);
  if (!root) return undefined;
  const sheetData = deep(root, 'sheetData')[0];
  return { root, sheetData, rows: sheetData ? treeRows(sheetData) : [] };
}

/**
 * The items of a shared-strings part scanned from its text (`xlsx-cells.ts`), the part around them
 * read as a tree (so damage anywhere still refuses it); undefined whenever the scan does not take
 * the part, which the tree reading then reads whole.
 */
async function scannedStrings(
  zip: SafeZip,
  name: string,
  limits: Pick<Limits, 'maxXmlBytes' | 'maxXmlDepth'>,
): Promise<XmlElement[] | undefined> {
  try {
    const xml = await scannableText(zip, name, limits);
    if (xml === undefined) return undefined;
    const scanned = scanSharedStrings(xml);
    if (!scanned) return undefined;
    const root = parseXml(xml.slice(0, scanned.start) + xml.slice(scanned.end), limits, name);
    return root.name === 'sst' ? scanned.items : undefined;
  } catch {
    return undefined;
  }
}

/** Cells of a worksheet in dense rows, placed by their references, and its merged ranges. */
function readWorksheet({ root, sheetData, rows }: WorksheetPart, ctx: SheetContext): XlsxSheet {
  const data: XlsxCell[][] = [];
  const sheet: XlsxSheet = { '!data': data };
  if (sheetData) {
    const formulas = new Formulas();
    let row = 0;
    for (const { r: n, cells } of rows) {
      row = n != null ? Number.parseInt(n, 10) : row + 1;
      let col = -1;
      for (const c of cells) {
        const given = c.r;
        col = given != null ? columnOf(given) : col + 1;
        const ref = given || encodeCell({ r: row - 1, c: col });
        const cell = readCell(c, ref, ctx, formulas);
        if (!cell) continue;
        const at = decodeCell(ref);
        let cells = data[at.r];
        if (!cells) {
          cells = [];
          data[at.r] = cells;
        }
        cells[at.c] = cell;
      }
    }
  }
  // Merges written as `<mergeCell ref="A1:B2"/>`, after the cells (SheetJS's pattern took no other).
  const merges: Range[] = [];
  const after = sheetData ? root.children.slice(root.children.indexOf(sheetData) + 1) : root.children;
  for (const node of after) {
    if (!isElement(node)) continue;
    const found = localName(node.name) === 'mergeCell' ? [node] : deep(node, 'mergeCell');
    for (const m of found) {
      const keys = Object.keys(m.attrs);
      const ref = m.attrs.ref;
      if (keys.length === 1 && ref !== undefined && /^[A-Z0-9:]+$/.test(ref)) merges.push(decodeRange(ref));
    }
  }
  if (merges.length) sheet['!merges'] = merges;
  return sheet;
}

interface Note {
  author: string;
  ref: string | undefined;
  t: string;
}

/** Notes (legacy comments): author by index into the part's author list. */
function readNotes(root: XmlElement): Note[] {
  const authors = kids(deep(root, 'authors')[0], 'author').map((a) => textOf(a));
  const out: Note[] = [];
  for (const c of kids(deep(root, 'commentList')[0], 'comment')) {
    const id = attr(c, 'authorId');
    const author = (id && Object.hasOwn(authors, id) ? authors[Number(id)] : undefined) || 'sheetjsghost';
    const ref = attr(c, 'ref');
    // One comment without a cell and SheetJS read none of the part's.
    if (ref === undefined) throw new SheetUnreadable('a comment without a cell');
    const text = deep(c, 'text')[0];
    const t = text ? (stringItem(text) ?? '') : '';
    out.push({ author, ref, t: t.replace(/\r\n/g, '\n').replace(/\r/g, '\n') });
  }
  return out;
}

/** Threaded comments: author by person id (mapped to a name later). */
function readThreads(root: XmlElement): Note[] {
  const out: Note[] = [];
  for (const tc of deep(root, 'threadedComment')) {
    const texts = deep(tc, 'text');
    const text = texts[texts.length - 1];
    if (!text) continue;
    out.push({
      author: attr(tc, 'personId') ?? '',
      ref: attr(tc, 'ref'),
      t: textOf(text).replace(/\r\n/g, '\n').replace(/\r/g, '\n'),
    });
  }
  return out;
}

/** Puts notes on their cells (a cell without a value gets an empty one); threads replace notes. */
function attachNotes(
  sheet: XlsxSheet,
  notes: Note[],
  threaded: boolean,
  people: { id: string | undefined; name: string | undefined }[],
): void {
  const data = sheet['!data'] as XlsxCell[][];
  for (const note of notes) {
    if (note.ref === undefined) throw new SheetUnreadable('a comment without a cell');
    const at = decodeCell(note.ref);
    if (at.r < 0 || at.c < 0) continue;
    let cells = data[at.r];
    if (!cells) {
      cells = [];
      data[at.r] = cells;
    }
    let cell = cells[at.c];
    if (!cell) {
      cell = { t: 'z' };
      cells[at.c] = cell;
    }
    if (!cell.c) cell.c = [];
    let a = note.author;
    let skip = false;
    for (let i = cell.c.length - 1; i >= 0; --i) {
      const existing = cell.c[i] as { T: boolean };
      if (!threaded && existing.T) skip = true;
      if (threaded && !existing.T) cell.c.splice(i, 1);
      if (skip) break;
    }
    if (skip) continue;
    if (threaded)
      for (const p of people)
        if (a === p.id) {
          a = p.name || a;
          break;
        }
    cell.c.push({ a, t: note.t, T: threaded });
  }
}

function parseSection(xml: string, limits: Pick<Limits, 'maxXmlBytes' | 'maxXmlDepth'>, name: string): XmlElement {
  try {
    return parseXml(xml, limits, name);
  } catch (err) {
    throw new NotForThisReader((err as Error).message);
  }
}

/** Reads an XLSX/XLSM package; throws `NotForThisReader` to hand it to SheetJS. */
export async function readXlsx(
  zip: SafeZip,
  xml: (name: string) => Promise<XmlElement | undefined>,
  ssf: Ssf,
  limits: Pick<Limits, 'maxXmlBytes' | 'maxXmlDepth'>,
): Promise<XlsxBook> {
  // Malformed XML SheetJS's patterns might still read: SheetJS decides what it holds.
  const part = async (name: string): Promise<XmlElement | undefined> => {
    try {
      return await xml(name);
    } catch (err) {
      if (err instanceof DocmillError && /not well-formed|root element/.test(err.message))
        throw new NotForThisReader(err.message);
      throw err;
    }
  };
  const types = await part('[Content_Types].xml');
  if (!types || namespaceOf(types) !== CT_NAMESPACE) throw new NotForThisReader('content types');
  const workbooks: string[] = [];
  const parts: Record<string, string[]> = { strings: [], styles: [], core: [], people: [], metadata: [] };
  for (const o of deep(types, 'Override')) {
    const type = attr(o, 'ContentType') ?? '';
    const role = ROLES.get(type);
    if (!role) continue;
    const name = attr(o, 'PartName');
    if (name === undefined) throw new NotForThisReader('a part without a name');
    (role === 'workbook' ? workbooks : (parts[role] as string[])).push(name);
  }
  if (!workbooks.length && zip.has('xl/workbook.xml')) workbooks.push('xl/workbook.xml');
  const wbPart = workbooks[0];
  if (wbPart === undefined || wbPart.endsWith('bin')) throw new NotForThisReader('binary workbook');
  // Parts SheetJS requires once the content types name them.
  const need = async (name: string | undefined) => {
    if (name === undefined) return undefined;
    const el = await part(stripSlash(name));
    if (!el) throw new NotForThisReader(`missing ${name}`);
    return el;
  };
  let strings: (string | undefined)[] = [];
  const stringsPart = parts.strings?.[0];
  if (stringsPart) {
    const items =
      (await scannedStrings(zip, stripSlash(stringsPart), limits)) ??
      (await part(stripSlash(stringsPart)).then(
        (sst) => {
          const root = sst && (localName(sst.name) === 'sst' ? sst : deep(sst, 'sst')[0]);
          return root?.children.filter(isItem);
        },
        (err: unknown) => {
          if (err instanceof NotForThisReader) throw err;
          return undefined;
        },
      ));
    // SheetJS split the table after each item, so it always had one more, empty, string.
    if (items) strings = [...items.map((si) => stringItem(si)), ''];
  }
  const stylesName = parts.styles?.[0];
  let numFmts: XmlElement | undefined;
  let cellXfs: XmlElement | undefined;
  if (stylesName !== undefined) {
    const text = await zip.text(stripSlash(stylesName));
    if (text === undefined) throw new NotForThisReader(`missing ${stylesName}`);
    // Only these two sections are read, cut out as SheetJS found them: fonts, fills, borders and
    // differential formats, most of the part, are not parsed.
    const source = text.includes('<!--') ? text.replace(/<!--[\s\S]*?-->/g, '') : text;
    const section = async (tag: 'numFmts' | 'cellXfs') => {
      const cut = xmlSection(source, tag);
      return cut === undefined ? undefined : parseSection(cut, limits, stylesName);
    };
    numFmts = await section('numFmts');
    cellXfs = await section('cellXfs');
  }
  const workbook = await need(wbPart);
  if (!workbook || !MAIN_NAMESPACES.has(namespaceOf(workbook) ?? '')) throw new NotForThisReader('namespace');
  let date1904 = false;
  for (const p of deep(workbook, 'workbookPr')) {
    const flag = attr(p, 'date1904');
    if (flag != null) date1904 = parseBool(flag);
  }
  const sheets = deep(workbook, 'sheet').map((s) => {
    const name = attr(s, 'name');
    if (name === undefined) throw new NotForThisReader('a sheet without a name');
    const state = attr(s, 'state');
    return {
      name: unescapeOoxml(name),
      id: attr(s, 'r:id') ?? attr(s, 'id') ?? attr(s, 'strRelID'),
      hidden: state === 'hidden' ? 1 : state === 'veryHidden' ? 2 : 0,
    };
  });

  const props: XlsxBook['Props'] = {};
  const coreName = parts.core?.[0];
  const core = coreName ? await part(stripSlash(coreName)) : undefined;
  if (core) {
    const prop = (qname: string): string | undefined => {
      // The first element of that exact name (Excel writes empty ones as a pair, read as '').
      const el = deep(core, localName(qname)).find((e) => e.name === qname);
      return el ? unescapeOoxml(textOf(el)) : undefined;
    };
    const title = prop('dc:title');
    const author = prop('dc:creator');
    const last = prop('cp:lastModifiedBy');
    if (title !== undefined) props.Title = title;
    if (author !== undefined) props.Author = author;
    if (last !== undefined) props.LastAuthor = last;
  }

  const slash = wbPart.lastIndexOf('/');
  let relsName = `${wbPart.slice(0, slash + 1)}_rels/${wbPart.slice(slash + 1)}.rels`.replace(/^\//, '');
  if (!zip.has(relsName)) relsName = 'xl/_rels/workbook.xml.rels';
  const wbRels = readRels(await part(relsName)).byId;
  await need(parts.metadata?.[0]);
  const peopleRoot = await need(parts.people?.[0]);
  const people = peopleRoot
    ? deep(peopleRoot, 'person').map((p) => ({ id: attr(p, 'id'), name: attr(p, 'displayName') }))
    : [];
  if (sheets.some((s) => s.id === undefined || !wbRels.has(s.id))) throw new NotForThisReader('sheet relationships');

  const book: XlsxBook = {
    SheetNames: sheets.map((s) => s.name),
    Sheets: {},
    Workbook: { Sheets: sheets.map((s) => ({ Hidden: s.hidden })) },
    Props: props,
  };
  const formats = new NumberFormats(numFmts, cellXfs, ssf, date1904);
  const folder = relsName.replace(/_rels\/[\S\s]*$/, '');
  for (const s of sheets) {
    const rel = wbRels.get(s.id as string) as Rel;
    let path = `xl/${rel.target.replace(/[/]?xl\//, '')}`;
    if (!zip.has(path)) path = rel.target;
    if (!zip.has(path)) path = folder + rel.target;
    const isWorksheet = !rel.type || WORKSHEET_RELS.has(rel.type);
    if (!isWorksheet) {
      // A chart, dialog or macro sheet: a sheet with no cells (none at all when its part is missing).
      if (zip.has(path) && (await part(path))) book.Sheets[s.name] = {};
      continue;
    }
    const worksheet = zip.has(path) ? await readWorksheetPart(zip, path, part, limits) : undefined;
    if (!worksheet) continue;
    let sheet: XlsxSheet;
    try {
      sheet = readWorksheet(worksheet, { strings, formats, date1904 });
    } catch (err) {
      if (err instanceof SheetUnreadable) continue;
      throw err;
    }
    book.Sheets[s.name] = sheet;
    await readSheetNotes(sheet, path, part, people);
  }
  return book;
}

/** Notes and threaded comments of a sheet, from its relationships; a damaged list stops the rest. */
async function readSheetNotes(
  sheet: XlsxSheet,
  path: string,
  part: (name: string) => Promise<XmlElement | undefined>,
  people: { id: string | undefined; name: string | undefined }[],
): Promise<void> {
  const relsPath = path.replace(/^(.*)(\/)([^/]*)$/, '$1/_rels/$3.rels');
  const rels = readRels(await part(relsPath)).list;
  const threads: Note[] = [];
  try {
    for (const rel of rels) {
      if (rel.type === COMMENTS_REL) {
        const root = await part(resolvePath(rel.target, path));
        if (!root) return;
        const notes = readNotes(root);
        if (notes.length) attachNotes(sheet, notes, false, people);
      }
      if (rel.type === THREADED_REL) {
        const root = await part(resolvePath(rel.target, path));
        if (!root) return;
        threads.push(...readThreads(root));
      }
    }
    if (threads.length) attachNotes(sheet, threads, true, people);
  } catch (err) {
    if (!(err instanceof SheetUnreadable)) throw err;
  }
}
