import { maxOf, minOf } from '../../util/arrays.ts';
import { attr, elements, type XmlElement } from '../../util/xml.ts';
import { isShape } from '../odf/shapes.ts';

/** Lengths to centimetres ("4.233cm", "1in", "12pt"); unknown units count as centimetres. */
export function toCm(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const m = /^\s*(-?[\d.]+(?:e-?\d+)?)\s*([a-z%]*)\s*$/i.exec(value);
  if (!m) return undefined;
  const n = Number(m[1]);
  if (!Number.isFinite(n)) return undefined;
  const factor: Record<string, number> = { cm: 1, mm: 0.1, in: 2.54, pt: 2.54 / 72, pc: 2.54 / 6, px: 2.54 / 96 };
  return n * (factor[(m[2] ?? '').toLowerCase()] ?? 1);
}

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Position of a shape; groups take their children's extent, rotated shapes their translate(). */
export function boxOf(el: XmlElement, depth = 0): Box | undefined {
  if (el.name === 'draw:g') {
    if (depth > 16) return undefined;
    const boxes = elements(el)
      .filter(isShape)
      .map((c) => boxOf(c, depth + 1))
      .filter((b): b is Box => b !== undefined);
    if (!boxes.length) return undefined;
    const x = minOf(boxes.map((b) => b.x));
    const y = minOf(boxes.map((b) => b.y));
    const right = maxOf(boxes.map((b) => b.x + b.w));
    const bottom = maxOf(boxes.map((b) => b.y + b.h));
    return { x, y, w: right - x, h: bottom - y };
  }
  let x = toCm(attr(el, 'svg:x') ?? attr(el, 'svg:x1'));
  let y = toCm(attr(el, 'svg:y') ?? attr(el, 'svg:y1'));
  const transform = attr(el, 'draw:transform');
  if ((x === undefined || y === undefined) && transform) {
    const t = /translate\s*\(\s*([^\s,)]+)[\s,]+([^\s,)]+)\s*\)/.exec(transform);
    if (t) {
      x = toCm(t[1]);
      y = toCm(t[2]);
    }
  }
  if (x === undefined || y === undefined) return undefined;
  return { x, y, w: Math.max(0, toCm(attr(el, 'svg:width')) ?? 0), h: Math.max(0, toCm(attr(el, 'svg:height')) ?? 0) };
}

interface Placed {
  el: XmlElement;
  box: Box | undefined;
  index: number;
}

/**
 * Two shapes share a row when their vertical overlap is at least half the taller one's height, so a
 * tall shape (a group, a sidebar) does not pull everything beside it into one row.
 */
function sameRow(a: Box, b: Box): boolean {
  const overlap = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  const taller = Math.max(a.h, b.h);
  return taller > 0 ? overlap >= taller / 2 : Math.abs(a.y - b.y) < 0.2;
}

/**
 * Reading order of free shapes: rows top to bottom, left to right inside a row. Shapes without a
 * position keep their document order at the end.
 */
export function positionalOrder(shapes: XmlElement[]): XmlElement[] {
  const placed: Placed[] = shapes.map((el, index) => ({ el, box: boxOf(el), index }));
  const located = placed.filter((p): p is Placed & { box: Box } => p.box !== undefined);
  located.sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x || a.index - b.index);
  const rows: (Placed & { box: Box })[][] = [];
  for (const p of located) {
    const row = rows[rows.length - 1];
    if (row?.[0] && sameRow(row[0].box, p.box)) row.push(p);
    else rows.push([p]);
  }
  const ordered = rows.flatMap((row) => row.sort((a, b) => a.box.x - b.box.x || a.index - b.index));
  return [...ordered, ...placed.filter((p) => p.box === undefined)].map((p) => p.el);
}
