import type { Bytes } from '../cfb/bytes.ts';
import { children, isContainer, type Rec, RT } from './records.ts';
import { readAutoNumbers, readTextBox, TEXT_TYPE, type TextBox } from './text.ts';

export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface TableCellBox {
  box: TextBox | undefined;
  row: number;
  col: number;
  rowSpan: number;
  colSpan: number;
}

export type Item =
  | { kind: 'text'; box: TextBox; rect: Rect | undefined }
  | { kind: 'image'; blip: number; rect: Rect | undefined }
  | { kind: 'table'; rows: number; cols: number; cells: TableCellBox[]; rect: Rect | undefined };

interface Shape {
  box: TextBox | undefined;
  /** 1-based BStore index of the shape's picture fill (property pib), 0 when none. */
  blip: number;
  /** OEPlaceholderAtom placementId ([MS-PPT] 2.13.21 PlaceholderEnum), 0 when not a placeholder. */
  placeholder: number;
  hasTextbox: boolean;
  rect: Rect | undefined;
  child: Rect | undefined;
}

const MAX_DEPTH = 32;
/** Date, slide number, footer and header placeholders repeat on every slide: margins, not content. */
const MARGIN_PLACEHOLDERS = new Set([0x07, 0x08, 0x09, 0x0a]);
const TITLE_PLACEHOLDERS = new Set([0x0d, 0x0f, 0x11]);

function readRect(s: Bytes, r: Rec, child: boolean): Rect | undefined {
  const n = r.end - r.body;
  if (child && n >= 16) {
    return { left: s.i32(r.body), top: s.i32(r.body + 4), right: s.i32(r.body + 8), bottom: s.i32(r.body + 12) };
  }
  if (!child && n === 8) {
    return { top: s.i16(r.body), left: s.i16(r.body + 2), right: s.i16(r.body + 4), bottom: s.i16(r.body + 6) };
  }
  if (!child && n >= 16) {
    return { top: s.i32(r.body), left: s.i32(r.body + 4), right: s.i32(r.body + 8), bottom: s.i32(r.body + 12) };
  }
  return undefined;
}

const PIB = 0x0104;

/** The pib property of an OfficeArtFOPT: fixed 6-byte entries first ([MS-ODRAW] 2.3.23.2). */
function pictureIndex(s: Bytes, opt: Rec): number {
  const count = Math.min(opt.instance, Math.floor((opt.end - opt.body) / 6));
  for (let i = 0; i < count; i++) {
    const at = opt.body + i * 6;
    const id = s.u16(at);
    if ((id & 0x3fff) === PIB && id & 0x4000) return s.u32(at + 2);
  }
  return 0;
}

/** StyleTextProp9Atom of the shape's PowerPoint 2000 binary tag (ProgTags → ___PPT9 → blob). */
function autoNumbers(s: Bytes, clientData: Rec[]): boolean[] {
  for (const tags of clientData) {
    if (tags.type !== RT.progTags) continue;
    for (const tag of children(s, tags.body, tags.end)) {
      if (tag.type !== RT.progBinaryTag) continue;
      for (const blob of children(s, tag.body, tag.end)) {
        if (blob.type !== RT.binaryTagData) continue;
        const atom = children(s, blob.body, blob.end).find((x) => x.type === RT.styleTextProp9);
        if (atom) return readAutoNumbers(s, atom);
      }
    }
  }
  return [];
}

function readShape(s: Bytes, sp: Rec, slideTexts: TextBox[]): Shape {
  const shape: Shape = {
    box: undefined,
    blip: 0,
    placeholder: 0,
    hasTextbox: false,
    rect: undefined,
    child: undefined,
  };
  let numbers: boolean[] = [];
  for (const r of children(s, sp.body, sp.end)) {
    if (r.type === RT.clientAnchor) shape.rect = readRect(s, r, false);
    else if (r.type === RT.fopt) shape.blip = pictureIndex(s, r);
    else if (r.type === RT.childAnchor) shape.child = readRect(s, r, true);
    else if (r.type === RT.clientData) {
      const data = children(s, r.body, r.end);
      const ph = data.find((x) => x.type === RT.placeholderAtom);
      if (ph && ph.end - ph.body >= 5) shape.placeholder = s.u8(ph.body + 4);
      numbers = autoNumbers(s, data);
    } else if (r.type === RT.clientTextbox) {
      shape.hasTextbox = true;
      const recs = children(s, r.body, r.end);
      const header = recs.find((x) => x.type === RT.textHeader);
      const type = header && header.end - header.body >= 4 ? s.u32(header.body) : 4;
      const ref = recs.find((x) => x.type === RT.outlineTextRef);
      if (ref && ref.end - ref.body >= 4) shape.box = slideTexts[s.u32(ref.body)];
      else shape.box = readTextBox(s, recs, type);
    }
  }
  if (shape.box && numbers.length) {
    shape.box = { ...shape.box, paras: shape.box.paras.map((p) => ({ ...p, numbered: numbers[p.run] === true })) };
  }
  return shape;
}

/** Cells laid out on a grid of distinct left/top edges read as a table (PowerPoint stores tables as groups). */
function asTable(shapes: Shape[]): Item | undefined {
  const cells = shapes.filter((x) => x.hasTextbox && x.child);
  if (cells.length < 4 || cells.length !== shapes.filter((x) => x.hasTextbox).length) return undefined;
  const lefts = [...new Set(cells.map((c) => (c.child as Rect).left))].sort((a, b) => a - b);
  const tops = [...new Set(cells.map((c) => (c.child as Rect).top))].sort((a, b) => a - b);
  if (lefts.length < 2 || tops.length < 2) return undefined;
  const taken = new Set<string>();
  const out: TableCellBox[] = [];
  for (const c of cells) {
    const r = c.child as Rect;
    const row = tops.indexOf(r.top);
    const col = lefts.indexOf(r.left);
    const key = `${row}:${col}`;
    if (taken.has(key)) return undefined;
    taken.add(key);
    const colSpan = Math.max(1, lefts.filter((x) => x >= r.left && x < r.right).length);
    const rowSpan = Math.max(1, tops.filter((y) => y >= r.top && y < r.bottom).length);
    out.push({ box: c.box, row, col, rowSpan, colSpan });
  }
  out.sort((a, b) => a.row - b.row || a.col - b.col);
  return { kind: 'table', rows: tops.length, cols: lefts.length, cells: out, rect: undefined };
}

function walkGroup(s: Bytes, group: Rec, slideTexts: TextBox[], depth: number, out: Item[]): void {
  if (depth > MAX_DEPTH) return;
  const recs = children(s, group.body, group.end);
  // The first shape of a group describes the group itself.
  const groupRect = recs[0]?.type === RT.spContainer ? readShape(s, recs[0], slideTexts).rect : undefined;
  const members = recs.slice(1);
  const hasGroups = members.some((r) => r.type === RT.spgrContainer);
  if (depth > 0 && !hasGroups) {
    const table = asTable(members.filter((r) => r.type === RT.spContainer).map((r) => readShape(s, r, slideTexts)));
    if (table) {
      table.rect = groupRect;
      out.push(table);
      return;
    }
  }
  for (const r of members) {
    if (r.type === RT.spContainer) {
      const shape = readShape(s, r, slideTexts);
      if (!shape.box?.paras.some((p) => p.lines.some(Boolean)) && shape.blip > 0) {
        out.push({ kind: 'image', blip: shape.blip, rect: shape.rect ?? groupRect });
      } else if (shape.box && !MARGIN_PLACEHOLDERS.has(shape.placeholder)) {
        const box = TITLE_PLACEHOLDERS.has(shape.placeholder) ? { ...shape.box, type: TEXT_TYPE.title } : shape.box;
        out.push({ kind: 'text', box, rect: shape.rect ?? groupRect });
      }
    } else if (r.type === RT.spgrContainer && isContainer(r)) {
      walkGroup(s, r, slideTexts, depth + 1, out);
    }
  }
}

/** Text boxes and tables of a slide or notes container, in drawing order. */
export function readDrawing(s: Bytes, container: Rec, slideTexts: TextBox[]): Item[] {
  const out: Item[] = [];
  const drawing = children(s, container.body, container.end).find((r) => r.type === RT.ppDrawing);
  if (!drawing) return out;
  for (const dg of children(s, drawing.body, drawing.end)) {
    if (!isContainer(dg)) continue;
    for (const g of children(s, dg.body, dg.end)) {
      if (g.type === RT.spgrContainer && isContainer(g)) walkGroup(s, g, slideTexts, 0, out);
    }
  }
  return out;
}
