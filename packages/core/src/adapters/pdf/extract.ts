import type { Mark, PageModel, Rect, Segment, TextItem } from './model.ts';
import { cleanText, reverseGlyphs } from './text.ts';

type Matrix = [number, number, number, number, number, number];

export const multiply = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[2] * n[1],
  m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3],
  m[1] * n[2] + m[3] * n[3],
  m[0] * n[4] + m[2] * n[5] + m[4],
  m[1] * n[4] + m[3] * n[5] + m[5],
];

interface RawItem {
  str: string;
  dir: string;
  width: number;
  height: number;
  transform: number[];
  fontName: string;
  hasEOL: boolean;
}

export interface RawTextContent {
  items: unknown[];
  styles: Record<string, { fontFamily?: string; vertical?: boolean }>;
}

/** A font's facts: `name` is the font's own (BaseFont), `dingbats` whether it is ZapfDingbats. */
export interface FontFacts {
  name: string;
  bold: boolean;
  italic: boolean;
  dingbats: boolean;
}

/** Font facts known for a document, by pdf.js's loaded name (`g_d0_f4`). */
export type FontStyles = Map<string, FontFacts>;

const BULLET = '\u2022';
/** One glyph code below 0x20 that is not a blank: a glyph the font maps to no character. */
const controlGlyph = /^[\u0001-\u0008\u000b\u000c\u000e-\u001f]$/;

/**
 * Whether raw run `k` is a list mark drawn with a glyph its font maps to no character: the run is
 * that one glyph, it starts its line (no words before it on its baseline: mid-line such a glyph is
 * an icon in the text, "Press the [icon] button"), and words follow on its baseline past a gap
 * (blanks between them aside). pdf.js gives such a glyph as its code, a control character, which
 * text cleaning blanks out; PDFium names a character for it where the font's own program does
 * (redp5110's BookMaster bullet, code 2 under a glyph name of IBM's, reads "-" there), and the line
 * reads as a list item.
 */
function unmappedMark(items: unknown[], k: number): boolean {
  const it = items[k] as RawItem;
  if (!controlGlyph.test(it.str)) return false;
  const size = Math.hypot(it.transform[2] as number, it.transform[3] as number);
  const end = (it.transform[4] as number) + it.width;
  for (let j = k - 1; j >= 0 && j >= k - 3; j--) {
    const prev = items[j] as RawItem;
    if (typeof prev.str !== 'string' || !prev.transform) break;
    if (!prev.str.trim()) continue;
    if (
      Math.abs((prev.transform[5] as number) - (it.transform[5] as number)) < 0.2 * size &&
      (prev.transform[4] as number) < (it.transform[4] as number)
    )
      return false;
    break;
  }
  for (let j = k + 1; j < items.length && j <= k + 3; j++) {
    const next = items[j] as RawItem;
    if (typeof next.str !== 'string' || !next.transform) return false;
    if (!next.str.trim()) continue;
    return (
      Math.abs((next.transform[5] as number) - (it.transform[5] as number)) < 0.2 * size &&
      (next.transform[4] as number) - end > 0.3 * size &&
      /^[\p{L}\p{N}]/u.test(next.str)
    );
  }
  return false;
}

/**
 * Text runs in page space with a top-left origin. The viewport transform takes care of /Rotate;
 * pages whose text is itself drawn rotated (landscape content on a portrait page) are turned so the
 * dominant writing direction reads left to right, and runs at other angles are dropped from the flow.
 */
export function extractItems(
  tc: RawTextContent,
  viewport: Matrix,
  width: number,
  height: number,
  fonts: FontStyles,
): { items: TextItem[]; width: number; height: number; turn: Matrix | null } {
  const raw: { it: RawItem; m: Matrix; angle: number; str: string }[] = [];
  const angleChars = [0, 0, 0, 0];
  for (let k = 0; k < tc.items.length; k++) {
    const it = tc.items[k] as RawItem;
    if (typeof it.str !== 'string' || !it.transform) continue;
    const str = unmappedMark(tc.items, k) ? BULLET : cleanText(it.str);
    if (!str.trim()) {
      if (str.length && raw.length)
        raw.push({ it, m: multiply(viewport, it.transform as Matrix), angle: -1, str: ' ' });
      continue;
    }
    const m = multiply(viewport, it.transform as Matrix);
    // Viewport space has y pointing down, so an upright run has m[3] < 0.
    const a = Math.atan2(m[1], m[0]);
    const q = ((Math.round(a / (Math.PI / 2)) % 4) + 4) % 4;
    const exact = Math.abs(a - Math.round(a / (Math.PI / 2)) * (Math.PI / 2)) < 0.05;
    const angle = exact ? q : 4;
    if (angle < 4) angleChars[angle] = (angleChars[angle] ?? 0) + str.length;
    raw.push({ it, m, angle, str });
  }
  let dominant = 0;
  for (let q = 1; q < 4; q++) if ((angleChars[q] ?? 0) > (angleChars[dominant] ?? 0)) dominant = q;
  // Rotating the page by -dominant quarter turns makes the main text horizontal.
  const turn = turnMatrix(dominant, width, height);
  const pw = dominant % 2 ? height : width;
  const ph = dominant % 2 ? width : height;
  const items: TextItem[] = [];
  let lastAngle = -2;
  for (const r of raw) {
    if (r.angle === -1) {
      // Whitespace-only runs only matter as separators after a kept run: at its end, or at its
      // start where the run reads right to left and the blank is drawn on its right.
      const prev = items[items.length - 1];
      if (prev && lastAngle === dominant) {
        const x = (turn ? multiply(turn, r.m) : r.m)[4];
        if (prev.dir === 'rtl' && x > prev.x + prev.w / 2) {
          if (!prev.str.startsWith(' ')) prev.str = ` ${prev.str}`;
        } else if (!prev.str.endsWith(' ')) prev.str += ' ';
      }
      continue;
    }
    lastAngle = r.angle;
    const vertical = tc.styles[r.it.fontName]?.vertical === true;
    const m = turn ? multiply(turn, r.m) : r.m;
    if (r.angle !== dominant && !vertical) {
      items.push(rotatedItem(r.str, m, r.it, r.angle === 4));
      continue;
    }
    const size = Math.hypot(m[2], m[3]) || Math.abs(r.it.height) || 1;
    const font = fonts.get(r.it.fontName);
    let x = m[4];
    let w = r.it.width;
    let top = m[5] - size;
    let h = size;
    if (vertical) {
      // Vertical fonts advance downwards from the origin.
      w = size;
      h = r.it.height || size;
      x = m[4] - size / 2;
      top = m[5];
    }
    if (!Number.isFinite(x) || !Number.isFinite(top)) continue;
    const rtl = !vertical && r.it.dir === 'rtl';
    items.push({
      str: rtl ? joinMarks(r.str) : r.str,
      x,
      y: top,
      w: Math.max(0, w),
      h,
      size,
      fontName: r.it.fontName,
      fontId: r.it.fontName,
      bold: font?.bold ?? false,
      italic: font?.italic ?? false,
      dir: vertical ? 'ttb' : rtl ? 'rtl' : 'ltr',
      hasEOL: r.it.hasEOL,
      rotated: false,
      href: undefined,
    });
  }
  neutralsInRtl(items);
  return { items, width: pw, height: ph, turn };
}

const letterOrDigit = /[\p{L}\p{N}]/u;

const looseMark = / \p{M}/u;
const looseMarks = /(\p{L}) (\p{M}+)(?= |$)/gu;

/**
 * Puts back on its letter a mark pdf.js set apart in right-to-left text. Drawn in visual order, a
 * word's last mark (the tanween of "بناءً") comes after the blank before the word and before its
 * letter, with no advance of its own: pdf.js measures the letter's gap from the glyph before the
 * blank and adds a blank of its own, and the mark stands alone ("بناء ً على"). A mark between
 * blanks has no letter; the letter before it is its own.
 */
function joinMarks(s: string): string {
  return looseMark.test(s) ? s.replace(looseMarks, '$1$2') : s;
}

/**
 * Puts the blanks of brackets and punctuation set in right-to-left text on the side they are drawn
 * on. pdf.js gives a run without letters or digits (") " drawn as ")" and a blank on its right) in
 * drawing order, left to right, while the right-to-left text beside it reads the other way (and
 * PDFium gives such a run in that order); read in line order, its blank would land inside the
 * parenthesis. A run beside right-to-left text on its baseline is turned round.
 */
function neutralsInRtl(items: TextItem[]): void {
  for (let k = 0; k < items.length; k++) {
    const it = items[k] as TextItem;
    const s = it.str;
    if (it.dir !== 'ltr' || s.length < 2 || (s.charCodeAt(0) !== 32 && s.charCodeAt(s.length - 1) !== 32)) continue;
    if (letterOrDigit.test(s)) continue;
    const beside = (n: TextItem | undefined) =>
      n !== undefined && n.dir === 'rtl' && Math.abs(n.y + n.h - (it.y + it.h)) < 0.5 * it.size;
    if (beside(items[k - 1]) || beside(items[k + 1])) it.str = reverseGlyphs(s);
  }
}

/** A run at a quarter turn to the page's text, or at an angle off them all (`askew`), boxed by where its glyphs lie on the page. */
function rotatedItem(str: string, m: Matrix, it: RawItem, askew: boolean): TextItem {
  const size = Math.hypot(m[2], m[3]) || Math.abs(it.height) || 1;
  const len = Math.hypot(m[0], m[1]) || 1;
  // Baseline direction and the glyphs' "up" (perpendicular to it, toward the ascenders).
  const dx = (m[0] / len) * it.width;
  const dy = (m[1] / len) * it.width;
  const ux = m[2];
  const uy = m[3];
  const xs = [m[4], m[4] + dx, m[4] + ux, m[4] + dx + ux];
  const ys = [m[5], m[5] + dy, m[5] + uy, m[5] + dy + uy];
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return {
    str,
    x,
    y,
    w: Math.max(...xs) - x,
    h: Math.max(...ys) - y,
    size,
    fontName: it.fontName,
    fontId: it.fontName,
    bold: false,
    italic: false,
    dir: 'ltr',
    hasEOL: it.hasEOL,
    // Page space has y down: a baseline pointing up the page reads bottom to top.
    rotated: askew ? 'askew' : Math.abs(m[1]) < Math.abs(m[0]) ? 'over' : m[1] < 0 ? 'up' : 'down',
    href: undefined,
  };
}

export function turnMatrix(quarter: number, w: number, h: number): Matrix | null {
  if (quarter === 1) return [0, -1, 1, 0, 0, w];
  if (quarter === 2) return [-1, 0, 0, -1, w, h];
  if (quarter === 3) return [0, 1, -1, 0, h, 0];
  return null;
}

/** Operator codes used below (pdf.js `OPS`), passed in so this module does not import pdf.js. */
export interface OpCodes {
  save: number;
  restore: number;
  transform: number;
  constructPath: number;
  stroke: number;
  closeStroke: number;
  fill: number;
  eoFill: number;
  fillStroke: number;
  eoFillStroke: number;
  closeFillStroke: number;
  closeEOFillStroke: number;
  paintImageXObject: number;
  paintInlineImageXObject: number;
  paintImageMaskXObject: number;
  paintImageXObjectRepeat: number;
  paintFormXObjectBegin: number;
  paintFormXObjectEnd: number;
  setFont: number;
  beginText: number;
  setTextMatrix: number;
  moveText: number;
  setLeadingMoveText: number;
  showText: number;
  showSpacedText: number;
  setCharSpacing: number;
  setWordSpacing: number;
  beginGroup: number;
  endGroup: number;
}

export interface Graphics {
  segments: Segment[];
  rects: Rect[];
  images: Rect[];
  /** Small shapes that may be drawn bullets (`Mark`). */
  marks: Mark[];
  /** Share of the page covered by images (bounding boxes, overlaps counted once per image). */
  imageCoverage: number;
  /** Where text objects start drawing (see `TextStart`). */
  textStarts: TextStart[];
}

/**
 * Where a text object (BT … ET) draws its first glyph: the origin on the baseline, in the frame of
 * the runs, the object's font size, and its first characters. pdf.js's text layer joins the glyphs
 * of adjacent objects into one run where they nearly touch; PDFium's runs end with their object.
 */
export interface TextStart {
  x: number;
  base: number;
  size: number;
  head: string;
}

/** A text start is kept only while the page has fewer: past it, runs are left as pdf.js joined them. */
const MAX_TEXT_STARTS = 20000;

const RULE = 2.5;

/**
 * A mark (`Mark`) is no wider or taller than this, in points, nor smaller than `MARK_MIN`: a bullet
 * the size of a letter of body text up to a large slide's. Round or square within `MARK_ASPECT`.
 */
const MARK_MAX = 12;
const MARK_MIN = 1;
const MARK_ASPECT = 1.4;
/** Marks kept per page: past it (a scatter plot's dots), the rest are not looked at. */
const MAX_MARKS = 2000;

/**
 * Collects rulings, rectangles, image boxes and bullet-sized marks in top-left page space. Both
 * backends feed it: pdf.js from operator lists, PDFium from page objects, so tables and lists see
 * the same shapes from either.
 */
export class ShapeCollector {
  readonly segments: Segment[] = [];
  readonly rects: Rect[] = [];
  readonly images: Rect[] = [];
  readonly marks: Mark[] = [];
  constructor(
    private readonly width: number,
    private readonly height: number,
    private readonly limit = 20000,
  ) {}

  /** A filled or stroked box: thin ones are rulings, page-sized ones (backgrounds) are ignored. */
  add(r: Rect): void {
    if (this.segments.length + this.rects.length > this.limit) return;
    const w = r.x1 - r.x0;
    const h = r.y1 - r.y0;
    if (w <= RULE && h <= RULE) return;
    if (w <= RULE) this.segments.push({ x0: (r.x0 + r.x1) / 2, y0: r.y0, x1: (r.x0 + r.x1) / 2, y1: r.y1 });
    else if (h <= RULE) this.segments.push({ x0: r.x0, y0: (r.y0 + r.y1) / 2, x1: r.x1, y1: (r.y0 + r.y1) / 2 });
    else if (w < this.width * 0.98 || h < this.height * 0.98) this.rects.push(r);
  }

  /** A small shape, kept where it has the size and proportions of a bullet (`Mark`). */
  mark(r: Rect, shape: Mark['shape']): void {
    if (this.marks.length >= MAX_MARKS) return;
    const w = r.x1 - r.x0;
    const h = r.y1 - r.y0;
    if (w < MARK_MIN || h < MARK_MIN || w > MARK_MAX || h > MARK_MAX) return;
    if (w > h * MARK_ASPECT || h > w * MARK_ASPECT) return;
    this.marks.push({ x0: r.x0, y0: r.y0, x1: r.x1, y1: r.y1, shape });
  }

  /** An image drawn into the unit square mapped by `m`. */
  image(m: Matrix): void {
    const r = box(m, 0, 0, 1, 1);
    if (r.x1 - r.x0 > 4 && r.y1 - r.y0 > 4) this.images.push(r);
  }

  /** A path in pdf.js's flattened form (see `pathShapes`), its points mapped to the page by `m`. */
  path(d: ArrayLike<number>, stroke: boolean, m: Matrix): void {
    pathShapes(d, stroke, m, this);
  }

  result(): Graphics {
    return {
      segments: this.segments,
      rects: this.rects,
      images: this.images,
      marks: this.marks,
      imageCoverage: coverage(this.images, this.width, this.height),
      textStarts: [],
    };
  }
}

function box(m: Matrix, ax: number, ay: number, bx: number, by: number): Rect {
  const p = apply(m, ax, ay);
  const q = apply(m, bx, by);
  return { x0: Math.min(p[0], q[0]), y0: Math.min(p[1], q[1]), x1: Math.max(p[0], q[0]), y1: Math.max(p[1], q[1]) };
}

/**
 * Ruling segments, filled/stroked rectangles, image boxes and marks from an operator list, in the
 * same top-left page space as the text (viewport transform applied after the content's own matrices).
 */
export function extractGraphics(
  ops: { fnArray: number[]; argsArray: unknown[] },
  OPS: OpCodes,
  viewport: Matrix,
  width: number,
  height: number,
  limit = 20000,
): Graphics {
  const shapes = new ShapeCollector(width, height, limit);
  let ctm: Matrix = viewport;
  const stack: Matrix[] = [];
  const { fnArray, argsArray } = ops;
  const strokes = new Set([OPS.stroke, OPS.closeStroke]);
  const fills = new Set([
    OPS.fill,
    OPS.eoFill,
    OPS.fillStroke,
    OPS.eoFillStroke,
    OPS.closeFillStroke,
    OPS.closeEOFillStroke,
  ]);
  const starts: TextStart[] = [];
  // The text object's line matrix, its font size, and whether its first glyph is still to come.
  let lm: Matrix = [1, 0, 0, 1, 0, 0];
  let fontSize = 0;
  let fresh = false;
  // Groups open, and how many of them draw a soft mask: pdf.js lists a mask's drawing (its own
  // image, as a luminosity copy of the picture it masks) before the masked content, and nothing in
  // it is painted on the page (invalid-pdf-structure's photos read as two images each).
  const groups: boolean[] = [];
  let masks = 0;
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i];
    const args = argsArray[i] as unknown[] | null;
    if (fn === OPS.beginGroup) {
      const mask = Boolean((args?.[0] as { smask?: unknown } | undefined)?.smask);
      groups.push(mask);
      if (mask) masks++;
    } else if (fn === OPS.endGroup) {
      if (groups.pop()) masks--;
    } else if (masks > 0) continue;
    if (fn === OPS.beginText) {
      lm = [1, 0, 0, 1, 0, 0];
      fresh = true;
    } else if (fn === OPS.setFont && args) fontSize = Number(args[1]) || 0;
    else if (fn === OPS.setTextMatrix && args) {
      const m = args[0] as ArrayLike<number> | null;
      if (m && m.length >= 6) lm = Array.from(m).slice(0, 6) as Matrix;
    } else if ((fn === OPS.moveText || fn === OPS.setLeadingMoveText) && args)
      lm = multiply(lm, [1, 0, 0, 1, Number(args[0]) || 0, Number(args[1]) || 0]);
    else if ((fn === OPS.showText || fn === OPS.showSpacedText) && fresh && args) {
      fresh = false;
      if (starts.length < MAX_TEXT_STARTS) {
        const start = textStart(multiply(ctm, lm), fontSize, args[0]);
        if (start) starts.push(start);
      }
    } else if (fn === OPS.save) stack.push(ctm);
    else if (fn === OPS.restore) ctm = stack.pop() ?? ctm;
    else if (fn === OPS.transform && args) ctm = multiply(ctm, args as Matrix);
    else if (fn === OPS.paintFormXObjectBegin && args) {
      stack.push(ctm);
      const m = args[0] as Matrix | null;
      if (Array.isArray(m) || ArrayBuffer.isView(m)) ctm = multiply(ctm, Array.from(m as ArrayLike<number>) as Matrix);
    } else if (fn === OPS.paintFormXObjectEnd) ctm = stack.pop() ?? ctm;
    else if (
      fn === OPS.paintImageXObject ||
      fn === OPS.paintInlineImageXObject ||
      fn === OPS.paintImageMaskXObject ||
      fn === OPS.paintImageXObjectRepeat
    ) {
      shapes.image(ctm);
    } else if (fn === OPS.constructPath && args) {
      const op = args[0] as number;
      const isStroke = strokes.has(op);
      if (!isStroke && !fills.has(op)) continue;
      const data = (args[1] as (ArrayLike<number> | null)[] | undefined)?.[0];
      if (data) shapes.path(data, isStroke, ctm);
    }
  }
  const g = shapes.result();
  g.textStarts = starts;
  return g;
}

/**
 * A text object's start, from its matrix in the runs' frame and the glyphs of its first show
 * operator (pdf.js's glyph objects, numbers between them for TJ's moves). Only upright text: the
 * runs it splits are upright.
 */
function textStart(m: Matrix, fontSize: number, glyphs: unknown): TextStart | null {
  if (!Array.isArray(glyphs) || Math.abs(m[1]) > 1e-3 || Math.abs(m[2]) > 1e-3 || m[0] <= 0 || m[3] >= 0) return null;
  let head = '';
  for (const g of glyphs) {
    if (head.length >= 4) break;
    const u = (g as { unicode?: unknown } | null)?.unicode;
    if (typeof u === 'string') head += u;
  }
  // An object opening with a blank starts its ink later than its origin: no place to cut at.
  const size = Math.abs(fontSize * m[3]);
  return head.trim() && head === head.trimStart() && size > 0 ? { x: m[4], base: m[5], size, head } : null;
}

export function apply(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

/**
 * Walks pdf.js's flattened path buffer (0 moveTo, 1 lineTo, 2 curveTo, 3 quadraticCurveTo,
 * 4 closePath). Straight axis-aligned pieces become segments; closed four-corner boxes become rects.
 */
function pathShapes(d: ArrayLike<number>, stroke: boolean, m: Matrix, shapes: ShapeCollector): void {
  let i = 0;
  let sx = 0;
  let sy = 0;
  let cx = 0;
  let cy = 0;
  let pts: number[] = [];
  // The subpath's curves, and whether it has a straight piece too.
  let curves = 0;
  let straight = false;
  while (i < d.length) {
    const op = d[i++];
    if (op === 0) {
      subpathShapes(pts, curves, straight, stroke, m, shapes);
      pts = [];
      curves = 0;
      straight = false;
      sx = cx = d[i++] as number;
      sy = cy = d[i++] as number;
      pts.push(cx, cy);
    } else if (op === 1) {
      cx = d[i++] as number;
      cy = d[i++] as number;
      pts.push(cx, cy);
      straight = true;
    } else if (op === 2 || op === 3) {
      // A curve's end point is kept: a round mark's curves end on its outline (`Mark`).
      i += op === 2 ? 4 : 2;
      cx = d[i++] as number;
      cy = d[i++] as number;
      pts.push(cx, cy);
      curves++;
    } else if (op === 4) {
      // A curved subpath's closing line is left out: a circle's last curve ends at its start within
      // rounding, and one whose curves end elsewhere is open however it is closed (`closedLoop`).
      if ((cx !== sx || cy !== sy) && !curves) pts.push(sx, sy);
      cx = sx;
      cy = sy;
    } else break;
  }
  subpathShapes(pts, curves, straight, stroke, m, shapes);
}

/** A coordinate in tenths of a point. Module-level: an inline closure would be a new function per subpath. */
const tenths = (v: number): number => Math.round(v * 10);

/**
 * The shapes of one subpath (its points in path space, `m` maps them to the page). A function of
 * its own, not a closure made per path: a closure's optimized code goes when the closures made for
 * earlier paths are collected, and every page would compile it again.
 */
function subpathShapes(
  pts: number[],
  curves: number,
  straight: boolean,
  stroke: boolean,
  m: Matrix,
  shapes: ShapeCollector,
): void {
  if (curves) {
    // A round shape: curves only, two or more, ending where they start (an arc, a pie's wedge or
    // a rounded box is none).
    if (curves >= 2 && !straight && closedLoop(pts)) shapes.mark(bounds(pts, m), stroke ? 'ring' : 'disc');
    return;
  }
  // A filled or stroked axis-aligned quadrilateral (re operator or four lineTo's).
  if (pts.length >= 8 && pts.length <= 10) {
    const xs = [pts[0], pts[2], pts[4], pts[6]] as number[];
    const ys = [pts[1], pts[3], pts[5], pts[7]] as number[];
    const ux = new Set(xs.map(tenths)).size;
    const uy = new Set(ys.map(tenths)).size;
    if (ux <= 2 && uy <= 2) {
      const r = box(m, Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys));
      if (!stroke) shapes.mark(r, 'square');
      if (stroke && r.x1 - r.x0 > RULE && r.y1 - r.y0 > RULE) {
        shapes.add({ x0: r.x0, y0: r.y0, x1: r.x1, y1: r.y0 });
        shapes.add({ x0: r.x0, y0: r.y1, x1: r.x1, y1: r.y1 });
        shapes.add({ x0: r.x0, y0: r.y0, x1: r.x0, y1: r.y1 });
        shapes.add({ x0: r.x1, y0: r.y0, x1: r.x1, y1: r.y1 });
      }
      shapes.add(r);
      return;
    }
  }
  if (stroke) {
    for (let k = 0; k + 3 < pts.length; k += 2) {
      const ax = pts[k] as number;
      const ay = pts[k + 1] as number;
      const bx = pts[k + 2] as number;
      const by = pts[k + 3] as number;
      if (Math.abs(ax - bx) < 0.5 || Math.abs(ay - by) < 0.5) shapes.add(box(m, ax, ay, bx, by));
    }
  }
}

/** Whether a subpath's points end where they start, within a twentieth of its extent. */
function closedLoop(pts: readonly number[]): boolean {
  const n = pts.length;
  if (n < 6) return false;
  let x0 = Number.POSITIVE_INFINITY;
  let x1 = Number.NEGATIVE_INFINITY;
  for (let k = 0; k < n; k += 2) {
    x0 = Math.min(x0, pts[k] as number);
    x1 = Math.max(x1, pts[k] as number);
  }
  const near = (x1 - x0) / 20;
  return (
    Math.abs((pts[0] as number) - (pts[n - 2] as number)) <= near &&
    Math.abs((pts[1] as number) - (pts[n - 1] as number)) <= near
  );
}

/** The box of a subpath's points mapped to the page. */
function bounds(pts: readonly number[], m: Matrix): Rect {
  let x0 = Number.POSITIVE_INFINITY;
  let y0 = Number.POSITIVE_INFINITY;
  let x1 = Number.NEGATIVE_INFINITY;
  let y1 = Number.NEGATIVE_INFINITY;
  for (let k = 0; k + 1 < pts.length; k += 2) {
    const [x, y] = apply(m, pts[k] as number, pts[k + 1] as number);
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x);
    y1 = Math.max(y1, y);
  }
  return { x0, y0, x1, y1 };
}

function coverage(images: Rect[], width: number, height: number): number {
  if (!images.length || width <= 0 || height <= 0) return 0;
  let area = 0;
  for (const r of images) {
    const w = Math.max(0, Math.min(width, r.x1) - Math.max(0, r.x0));
    const h = Math.max(0, Math.min(height, r.y1) - Math.max(0, r.y0));
    area += w * h;
  }
  return Math.min(1, area / (width * height));
}

export type { Matrix, PageModel };
