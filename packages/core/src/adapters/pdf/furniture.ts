import type { TableCell, TableRow } from '../../tree/types.ts';
import { blockText } from '../../tree/walk.ts';
import { LETTER, readsOn, THREE_WORDS } from '../../util/letters.ts';
import { FULL_LINE, type Line, sameRow, sizesMatch } from './lines.ts';
import { isTextBoxFont, round2, type TableRegion, type TextItem } from './model.ts';

export interface FurniturePage {
  width: number;
  height: number;
  lines: Line[];
  /** Tables found on the page: a lone ruled row at its top may be a boxed running head. */
  tables: readonly TableRegion[];
}

const BAND = 0.12;
/** Whether a line or row whose top is at `top` sits in the page's bottom band, where running feet are looked for. */
export const inFootBand = (top: number, height: number): boolean => top > height * (1 - BAND);
/** Whether a line or row whose bottom is at `bottom` sits in the page's top band, where running heads are looked for. */
export const inHeadBand = (bottom: number, height: number): boolean => bottom < height * BAND;
/** Longest text (characters) that may be furniture: a running head or foot set at a table's row pitch, a stamp. */
const FURNITURE_ROW = 240;
const pageNumber =
  /^(?:page|p\.|seite|pág\.?|стр\.?)?\s*[-–(]?\s*(?:\d{1,4}|[ivxlcdm]{1,6})\s*[-–)]?\s*(?:(?:of|\/|von|de)\s*\d{1,4})?$/i;

/** A short line that is a page number alone ("12", "Page 3 of 8"). */
const isPageNumber = (l: Line): boolean => l.text.length <= 20 && pageNumber.test(l.text.trim());

/** A text as furniture is compared: its letters in lower case, figures folded, no blanks. */
const fold = (text: string): string => text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, '');

/** A text of the page's top or bottom band as furniture is compared: its band and its folded text. */
function key(text: string, top: boolean): string {
  return `${top ? 'T' : 'B'}|${fold(text)}`;
}

/**
 * Each page as a number, pages of the same text sharing one: the text of its lines, page numbers
 * left out, and of its tables, in reading order. A line is furniture because it recurs while the
 * pages change; a page printed twice (a one-page memo duplicated, numbered or not) is no second
 * page's evidence. The text is compared as it is, figures and all: pages whose only text is a
 * title over a picture differ in their heads ("Exhibit 12", "Exhibit 14"). A page with no text
 * outside its top and bottom bands (a figure, a blank page) cannot be told from another, so it
 * counts as a page of its own.
 */
export function pageBodies(pages: readonly FurniturePage[]): number[] {
  // Pages are told apart by the length of their text first, which few pages share: a page's text
  // is joined only when another page of its length comes, and then looked up by the whole text (a
  // page compared with each earlier one of its length was quadratic over a template's pages).
  const loneOfLength = new Map<number, { parts: string[]; id: number } | null>();
  const byText = new Map<string, number>();
  let ids = 0;
  return pages.map((p, i) => {
    const parts: string[] = [];
    let length = -1;
    let body = false;
    for (const l of p.lines) {
      const box = l.onPage ?? l;
      const banded = inHeadBand(box.y1, p.height) || inFootBand(box.y0, p.height);
      if (banded && isPageNumber(l)) continue;
      parts.push(l.text);
      length += l.text.length + 1;
      if (!body && !banded && l.text.trim()) body = true;
    }
    for (const t of p.tables) {
      const text = blockText(t.table);
      parts.push(text);
      length += text.length + 1;
      if (!body && text.trim()) body = true;
    }
    if (!body) return -1 - i;
    if (!loneOfLength.has(length)) {
      const id = ids++;
      loneOfLength.set(length, { parts, id });
      return id;
    }
    const lone = loneOfLength.get(length);
    if (lone) {
      byText.set(lone.parts.join('\n'), lone.id);
      loneOfLength.set(length, null);
    }
    const text = parts.join('\n');
    let id = byText.get(text);
    if (id === undefined) {
      id = ids++;
      byText.set(text, id);
    }
    return id;
  });
}

/**
 * How many pages each key occurs on, pages read one after another (`next`), a key counted once a
 * page and once a page's text: on a page whose text an earlier page had (`pageBodies`), a key that
 * page had too is not counted again.
 */
class PageCounts {
  readonly counts = new Map<string, number>();
  /** Each key counted, with the pages' texts (`pageBodies`) it was counted on. */
  private seen = new Map<string, Set<number>>();
  private body = 0;
  private bodies = new Set<number>();
  /** Starts the next page, whose text is numbered `body`. */
  next(body: number): void {
    this.body = body;
    this.bodies.add(body);
  }
  /** Counts `k` on this page, unless it was counted there, or on a page of the same text, already. */
  add(k: string): void {
    let on = this.seen.get(k);
    if (!on) {
      on = new Set();
      this.seen.set(k, on);
    }
    if (on.has(this.body)) return;
    on.add(this.body);
    this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
  }
  get(k: string): number {
    return this.counts.get(k) ?? 0;
  }
  /** How many pages of different texts were read. */
  get pages(): number {
    return this.bodies.size;
  }
}

export interface Furniture {
  /** The lines to drop. */
  lines: Set<Line>;
  /** Keys of the texts that recur in the top or bottom band of enough pages. */
  recurring: Set<string>;
  /** Tables that are a recurring running head set in boxes, a table of one row (`headRowKey`): they go whole. */
  heads: Set<TableRegion>;
}

/**
 * Marks running headers, footers and page numbers: lines in the top or bottom band of a page whose
 * text (digits folded, so "Page 3" equals "Page 4") recurs on enough pages, plus lone page numbers.
 */
export function findFurniture(pages: FurniturePage[], bodies = pageBodies(pages)): Furniture {
  const drop = new Set<Line>();
  const recurring = new Set<string>();
  const heads = new Set<TableRegion>();
  // The key of each table of one ruled row in the top band, kept to find the recurring ones below.
  const headKeys = new Map<TableRegion, string>();
  const counts = new PageCounts();
  // The pages each band text stands on at one place (`chapterFoot`), a page of an earlier page's
  // text not again (as `PageCounts` counts).
  const placedOn = new Map<string, { pages: number[]; bodies: Set<number> }>();
  const bands: BandLine[][] = pages.map((p, i) => {
    const out: BandLine[] = [];
    counts.next(bodies[i] ?? -1 - i);
    for (const [at, l] of p.lines.entries()) {
      // A text box or a form's value is written on the page, never a running head: the same name
      // filled in at the top of each page of a form stays.
      if (l.fonts.every(isTextBoxFont)) continue;
      const box = l.onPage ?? l;
      const top = inHeadBand(box.y1, p.height);
      const bottom = inFootBand(box.y0, p.height);
      if (!top && !bottom) continue;
      const k = key(l.text, top);
      const placed = `${Math.round(box.x0)},${Math.round(box.y0)}|${k}`;
      out.push({ line: l, key: k, placed, opens: top && opensText(l, p.lines[at + 1], p.height) });
      counts.add(k);
      const body = bodies[i] ?? -1 - i;
      const on = placedOn.get(placed);
      if (!on) placedOn.set(placed, { pages: [i], bodies: new Set([body]) });
      else if (!on.bodies.has(body)) {
        on.bodies.add(body);
        on.pages.push(i);
      }
    }
    // A running head set in boxes ("Acme Ltd | Annual report | Page 3") is read as a table of one
    // ruled row; it recurs as a line of text would, and `dropFurnitureRows` drops it likewise.
    for (const t of p.tables) {
      const k = headRowKey(t, p.height);
      if (k === null) continue;
      headKeys.set(t, k);
      counts.add(k);
    }
    return out;
  });
  if (pages.length < 2) return { lines: drop, recurring, heads };
  // Pages that repeat an earlier page's text are not counted: when every page repeats one text (a
  // form printed several times), nothing recurs, but their page numbers still go.
  // Alternating odd/even headers recur on about half the pages; chapter headers on fewer.
  const n = counts.pages;
  const needed = n < 2 ? Number.POSITIVE_INFINITY : n <= 3 ? 2 : Math.max(3, Math.ceil(n * 0.25));
  for (const [k, count] of counts.counts) if (count >= needed) recurring.add(k);
  // The title block counts only where the document opens: a block that first appears further on
  // (a report's running head under its title page) is a running head from its first page.
  const opening = pages.findIndex((p) => p.lines.length > 0);
  // A text is spared only where it opens a paragraph on every page it stands on: a running head
  // over a page that opens mid-sentence still stands over another that opens with a capital.
  const alwaysOpens = new Map<string, boolean>();
  for (const band of bands) for (const b of band) alwaysOpens.set(b.key, (alwaysOpens.get(b.key) ?? true) && b.opens);
  for (const [i, band] of bands.entries()) {
    const title = i === opening ? titleBlock(band, pages[i] as FurniturePage, (k) => counts.get(k) >= needed) : [];
    const keep = title.length ? new Set(title.map((l) => l.line)) : null;
    for (const { line, key: k, placed } of band) {
      if (keep?.has(line)) continue;
      if (
        isPageNumber(line) ||
        (!alwaysOpens.get(k) &&
          (counts.get(k) >= needed || (i !== opening && chapterFoot(line, band, placedOn.get(placed)?.pages ?? [], i))))
      )
        drop.add(line);
    }
    dropRowMates(band, drop, keep, (k) => counts.get(k) >= needed);
  }
  for (const [t, k] of headKeys) if (recurring.has(k)) heads.add(t);
  return { lines: drop, recurring, heads };
}

/** A line of a page's top or bottom band, as furniture is looked for among them. */
interface BandLine {
  line: Line;
  key: string;
  placed: string;
  /** The line opens a paragraph that goes on below the band (`opensText`). */
  opens: boolean;
}

/**
 * Whether a line just inside the top band is the first line of a paragraph that goes on below it:
 * a full line of three words or more, as wide as the line one pitch under it or wider, in one size
 * at one left edge, its sentence going on into that line (no stop, a small letter). bookmark_sample
 * opens each page's first clause there, the same words on every page. A running head stands apart
 * from the text, or is shorter than the line under it.
 */
function opensText(l: Line, below: Line | undefined, height: number): boolean {
  if (!below || !sizesMatch(l, below) || Math.abs(l.x0 - below.x0) > l.size) return false;
  const a = l.onPage ?? l;
  const b = below.onPage ?? below;
  const pitch = b.y0 - a.y0;
  if (pitch <= 0 || pitch > l.size * 1.6 || inHeadBand(b.y1, height)) return false;
  if (a.x1 - a.x0 < (b.x1 - b.x0) * FULL_LINE || !THREE_WORDS.test(l.text)) return false;
  return readsOn(l.text, below.text);
}

/** Longest line (characters) that may be a chapter's running head or foot: its title. */
const CHAPTER_FOOT_LENGTH = 60;
/** Fewest pages of a chapter's run that show its running head or foot, at most two pages apart. */
const CHAPTER_PAGES = 3;

/**
 * Whether a line of page `i`'s band is a chapter's running head or foot ("Treatment" beside the
 * odd pages' numbers of one chapter, "Chapter 3. Row and Column Access Control" beside a
 * redbook's): too few pages show it for the count by text alone, but it stands on its page
 * number's row, at one place (`on`: the pages where it does) on each page of a run of pages,
 * each at most two from the next (every page of the chapter, or every other). A heading, a note
 * or a table's header row in the band on a few pages far apart, or beside no page number, stays.
 */
function chapterFoot(line: Line, band: readonly { line: Line }[], on: readonly number[], i: number): boolean {
  if (line.text.length > CHAPTER_FOOT_LENGTH || !LETTER.test(line.text) || on.length < CHAPTER_PAGES) return false;
  if (!band.some((o) => o.line !== line && isPageNumber(o.line) && sameRow(o.line, line))) return false;
  const at = on.indexOf(i);
  if (at < 0) return false;
  let from = at;
  let to = at;
  while (from > 0 && (on[from] as number) - (on[from - 1] as number) <= 2) from--;
  while (to + 1 < on.length && (on[to + 1] as number) - (on[to] as number) <= 2) to++;
  return to - from + 1 >= CHAPTER_PAGES;
}

/** Longest text (characters) of the part of a running head or foot that changes from page to page (a section number). */
const ROW_MATE = 24;
/** Most recurring lines of a band beside which its changing parts are looked for. */
const ROW_MATE_ANCHORS = 8;

/**
 * Drops the band's short lines of figures that share a row with a recurring one: the part of a
 * running foot that changes from page to page, the section the page is in ("2.3.59.6" beside
 * "Cat. No. 28171E" and "Internal Revenue Manual", IRM pdf2image-memory-error-test-400p), recurs
 * on too few pages to go by itself. Lines with letters stay: a slide's title on the row of the
 * company's name, a table's caption beside its recurring "Table 3". A page number's row is no
 * evidence: a page number stands beside body lines.
 */
function dropRowMates(
  band: readonly { line: Line; key: string }[],
  drop: Set<Line>,
  keep: ReadonlySet<Line> | null,
  recurs: (key: string) => boolean,
): void {
  // The recurring lines a row-mate may stand beside: a running head or foot has a few. A band of
  // many is a form's page printed over and over, whose changing parts are its content; and the
  // pairs tried stay linear in the band however many lines a hostile page puts there.
  const anchors: Line[] = [];
  for (const { line, key } of band) {
    if (keep?.has(line) || !recurs(key) || pageNumber.test(line.text.trim())) continue;
    if (anchors.push(line) > ROW_MATE_ANCHORS) return;
  }
  if (!anchors.length) return;
  for (const { line } of band) {
    if (drop.has(line) || keep?.has(line) || line.text.length > ROW_MATE || LETTER.test(line.text)) continue;
    if (anchors.some((o) => o !== line && sameRow(o, line))) drop.add(line);
  }
}

/** Widest a title block's line may be, as a share of the page: a wider line is body text, centred or not. */
const TITLE_WIDTH = 0.8;
/** How far a centred line's middle may stray from the page's, as a share of the page's width. */
const TITLE_CENTRED = 0.04;

/**
 * The document's title block where it recurs as a running head: the recurring lines of the page's
 * top band set one under another at the line pitch, two or more, each centred on the page ("Vote
 * Yes for Strong Schools / Major Contribution Report / For the Period Between …" over each page of a
 * listing). It is often the only place the document names itself, so it is kept on the page the
 * document opens with (the first with text) and dropped after; a block first seen further on is a
 * running head under a title page, dropped everywhere; a one-line running head, a page number, or a pair set flush to a
 * side ("Contract number – REM 01 / Final Report") is furniture on every page. Returns the block's
 * lines top down, or none.
 */
function titleBlock(
  band: readonly { line: Line; key: string }[],
  page: FurniturePage,
  recurs: (k: string) => boolean,
): { line: Line; key: string }[] {
  const head = band
    .filter(
      ({ line, key: k }) =>
        k.startsWith('T|') && recurs(k) && LETTER.test(line.text) && !pageNumber.test(line.text.trim()) && !line.onPage,
    )
    .sort((a, b) => a.line.y0 - b.line.y0);
  if (head.length < 2) return [];
  for (let k = 1; k < head.length; k++) {
    const above = (head[k - 1] as { line: Line }).line;
    const line = (head[k] as { line: Line }).line;
    // One block: each line under the one above at about the line pitch.
    if (line.y0 < above.y1 - 1 || line.y0 - above.y1 > Math.max(above.size, line.size)) return [];
  }
  const centred = head.every(
    ({ line }) =>
      line.x1 - line.x0 < page.width * TITLE_WIDTH &&
      Math.abs((line.x0 + line.x1) / 2 - page.width / 2) < page.width * TITLE_CENTRED,
  );
  return centred ? head : [];
}

/**
 * Text set at a tilt that is page furniture: a stamp ("DRAFT - for internal use only", a diagonal
 * CONFIDENTIAL at body size) drawn at the same place and angle on at least half the pages of a
 * document of two pages or more. `askew` holds each page's runs set askew that no table took, in
 * page order; the runs returned stay out of the text, as running heads do. A passage tilted on one
 * page (a poster's captions), or tilted text that differs from page to page, is not furniture; a
 * one-page document has none.
 *
 * A run is compared by its folded text (as running heads are, figures folded), its size, its box's
 * width and height (for a given text and size, the angle it is set at), and where its box's centre
 * lies, in cells two sizes wide: each run counts for its cell and the cells around it, so runs a
 * little apart on different pages still meet. Each run is keyed once; nothing compares pages in pairs.
 * Pages of one text (`bodies`, from `pageBodies`; by default every page its own) count as one page.
 */
export function findStamps(
  askew: readonly (readonly TextItem[])[],
  bodies: readonly number[] = askew.map((_, i) => -1 - i),
): Set<TextItem> {
  const out = new Set<TextItem>();
  const counts = new PageCounts();
  const keys = new Map<TextItem, string>();
  for (const [i, runs] of askew.entries()) {
    counts.next(bodies[i] ?? -1 - i);
    for (const it of runs) {
      // A stamp is a line long, as a running head is; the bound keeps the keys short.
      if (it.str.length > FURNITURE_ROW) continue;
      const size = Math.max(it.size, 1);
      const cell = 2 * size;
      const shape = `A|${fold(it.str)}|${Math.round(size)}|${Math.round(it.w / size)}|${Math.round(it.h / size)}`;
      const cx = Math.floor((it.x + it.w / 2) / cell);
      const cy = Math.floor((it.y + it.h / 2) / cell);
      keys.set(it, `${shape}|${cx}|${cy}`);
      for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) counts.add(`${shape}|${cx + dx}|${cy + dy}`);
    }
  }
  const n = counts.pages;
  if (n < 2) return out;
  const needed = Math.max(2, Math.ceil(n / 2));
  for (const [it, k] of keys) if (counts.get(k) >= needed) out.add(it);
  return out;
}

/**
 * Drops a table's first or last rows that are page furniture: a row in the top or bottom band made
 * wholly of texts that recur there on other pages ("Exhibit 2.3.59-15", "Internal Revenue Manual",
 * "Cat. No. 28171E" set at the table's row pitch under its last row). On the pages where no table
 * reaches them they are dropped as lines; a table must not keep them as a row. (A table that is
 * itself such a row, a boxed running head, goes whole: `Furniture.heads`.)
 */
export function dropFurnitureRows(t: TableRegion, height: number, recurring: Set<string>): void {
  if (!recurring.size) return;
  const rows = t.table.children;
  const { ys } = t;
  // A row another row's cell runs down into is part of the table's body.
  const spannedInto = (r: number) =>
    rows.some((row, k) => k < r && row.children.some((c) => k + (c.rowSpan ?? 1) - 1 >= r));
  const furniture = (r: number, top: boolean) => {
    const text = blockText(rows[r] as (typeof rows)[number]);
    // Running heads and feet are a line long; the bound keeps `madeOf` (length × keys) small.
    return text.length <= FURNITURE_ROW && LETTER.test(text) && madeOf(key(text, top), top ? 'T|' : 'B|', recurring);
  };
  const dropped: TableRow[] = [];
  while (
    rows.length > 2 &&
    inFootBand(ys[rows.length - 1] as number, height) &&
    !spannedInto(rows.length - 1) &&
    furniture(rows.length - 1, false)
  ) {
    dropped.push(rows.pop() as TableRow);
    ys.pop();
    t.bbox[3] = round2(ys[ys.length - 1] as number);
  }
  while (
    rows.length > 2 &&
    inHeadBand(ys[1] as number, height) &&
    rows[0]?.children.every((c) => (c.rowSpan ?? 1) === 1) &&
    furniture(0, true)
  ) {
    dropped.push(rows.shift() as TableRow);
    ys.shift();
    t.bbox[1] = round2(ys[0] as number);
    for (const c of rows[0]?.children ?? []) asHeader(c);
  }
  if (dropped.length) dropColumnsOf(rows, dropped);
}

/** The furniture key of a table of one row in the page's top band, of letters and short; else null. */
function headRowKey(t: TableRegion, height: number): string | null {
  const rows = t.table.children;
  if (rows.length !== 1 || !inHeadBand(t.ys[1] as number, height)) return null;
  const text = blockText(rows[0] as TableRow);
  return text.length <= FURNITURE_ROW && LETTER.test(text) ? key(text, true) : null;
}

/**
 * Makes a cell of the row under a dropped running head a header cell, as the table's first row is
 * built (`cellContent`): a cell bold throughout reads plain there, the header being bold already.
 */
function asHeader(c: TableCell): void {
  c.header = true;
  const [only] = c.children;
  if (c.children.length !== 1 || only?.type !== 'paragraph' || only.children.length !== 1) return;
  const [inline] = only.children;
  if (inline?.type === 'strong') only.children = inline.children;
}

/**
 * Removes the columns only the dropped rows held text in: the footer's parts made columns of their
 * own, empty once it is gone. Tables with spanning cells keep their columns (a cell's column is
 * then not its index in the row).
 */
function dropColumnsOf(rows: TableRow[], dropped: TableRow[]): void {
  const plain = (r: TableRow) => r.children.every((c) => (c.rowSpan ?? 1) === 1 && (c.colSpan ?? 1) === 1);
  const width = rows[0]?.children.length ?? 0;
  if (![...rows, ...dropped].every((r) => plain(r) && r.children.length === width)) return;
  const filled = (r: TableRow, c: number) => blockText(r.children[c] as TableCell).trim() !== '';
  for (let c = width - 1; c >= 0 && (rows[0]?.children.length ?? 0) > 2; c--) {
    if (rows.some((r) => filled(r, c)) || !dropped.some((r) => filled(r, c))) continue;
    for (const r of rows) r.children.splice(c, 1);
  }
}

/** Whether `k`, a key of the band `band`, is the keys of recurring texts of that band one after another. */
function madeOf(k: string, band: string, recurring: Set<string>): boolean {
  const text = k.slice(band.length);
  // Where a run of recurring texts read from the start can end; short texts, few keys.
  const ends = new Uint8Array(text.length + 1);
  ends[0] = 1;
  for (let i = 0; i < text.length; i++) {
    if (!ends[i]) continue;
    for (const r of recurring)
      if (r.startsWith(band) && r.length > band.length && text.startsWith(r.slice(band.length), i))
        ends[i + r.length - band.length] = 1;
  }
  return ends[text.length] === 1;
}
