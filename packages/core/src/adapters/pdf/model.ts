import type { BBox, Table } from '../../tree/types.ts';

/**
 * The PDF adapter's internal page model: the seam between text extraction/layout (`../pdf/*`) and
 * table detection (`./tables/*`). Coordinates are PDF points with the origin at the page's top-left
 * and y growing downwards (pdf.js's bottom-left origin is flipped when the model is built).
 */
/** A coordinate as boxes in the tree carry it: rounded to hundredths of a point. */
export const round2 = (v: number): number => Math.round(v * 100) / 100;

export interface TextItem {
  /** Text of the run as pdf.js gives it (ligatures not yet normalized). */
  str: string;
  /** Left edge and top of the run's box. */
  x: number;
  y: number;
  /** Width and height (height ≈ font size in points). */
  w: number;
  h: number;
  /** Font size in points after the text matrix scale. */
  size: number;
  fontName: string;
  /**
   * The font as the file names it, subset prefix and all (pdf.js's own key where it names none):
   * two embeddings of one face share `fontName` and differ here (redp5110 sets its bullets in a
   * second copy of the text face, the bullet drawn at a letter's code).
   */
  fontId: string;
  bold: boolean;
  italic: boolean;
  /** Writing direction of the run. */
  dir: 'ltr' | 'rtl' | 'ttb';
  /** pdf.js reported an end of line after this run. */
  hasEOL: boolean;
  /**
   * Set on runs turned against the page's text (rotated column headers, margin notes). Table cells
   * use them; the text flow takes only passages of them (`turnedPassages`). The box is the run's
   * extent on the page.
   * Which way such a run reads on the page: `up` (turned anticlockwise, bottom to top), `down`
   * (clockwise, top to bottom), `over` (upside down) or `askew` (at an angle off every quarter turn:
   * its box holds the run, each such run reads as a line of its own), so a cell with several turned lines reads
   * them in order and turned passages read in their own upright frame. Always present (false on
   * upright runs): every item has the same fields in the same order, so the layout code reading
   * them sees one object shape.
   */
  rotated: false | 'up' | 'down' | 'over' | 'askew';
  /**
   * The link annotation the run's centre lies in (`attachLinks`), read by prose lines and table
   * cells alike. The backends set it to undefined, so every run has the same fields.
   */
  href?: string | undefined;
}

/**
 * What the runs of a text box (a FreeText annotation, `backend/annotations.ts`) are named by: a font
 * of their own, whichever face the box names. A note set larger than the page's body is no heading
 * of the document, nor part of the page's text layer (`isTextBoxFont`). Here, not in the backend:
 * the layout code reads it, and the backends load only with a PDF.
 */
export const TEXT_BOX_FONT = 'textbox:';
export const isTextBoxFont = (name: string): boolean => name.startsWith(TEXT_BOX_FONT);
/**
 * The runs of a form field's value: text boxes too, named apart, as a page's render shows a note's
 * text but not a field's (`PageClass.fields`).
 */
export const FIELD_FONT = `${TEXT_BOX_FONT}field:`;
export const isFieldFont = (name: string): boolean => name.startsWith(FIELD_FONT);

/** A straight ruling segment (a stroked line or a thin filled rectangle), normalized to x0≤x1, y0≤y1. */
export interface Segment {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A filled or stroked rectangle larger than a ruling (cell backgrounds, boxes). */
export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * A small round or square shape standing alone, the size of a letter: a list's bullet where the file
 * draws it instead of setting a glyph (a browser's print draws its list discs so).
 * `disc` is filled and round, `ring` stroked and round, `square` filled and square.
 */
export interface Mark extends Rect {
  shape: 'disc' | 'ring' | 'square';
}

export interface PageModel {
  /** 1-based page number. */
  number: number;
  width: number;
  height: number;
  items: TextItem[];
  /** Rulings from the operator list; null when the operator list was not fetched for this page. */
  segments: Segment[] | null;
  rects: Rect[] | null;
}

/** A table found on a page: the tree table, where it is, and which text items it consumed. */
export interface TableRegion {
  bbox: BBox;
  table: Table;
  /** Indices into `PageModel.items` now owned by the table (layout must not emit them again). */
  itemIndices: number[];
  /** Row boundaries top down: row r stands from ys[r] to ys[r + 1]. */
  ys: number[];
  /**
   * Found from rulings (needs the operator list) rather than from text alignment alone. Always
   * present, so ruled and borderless regions are one object shape.
   */
  ruled: boolean;
  /**
   * A cell may hold a hyphen its page's words left open (`OPEN_HYPHEN`): set by `findTables` when
   * the page's words were consulted at all. Block building settles only these tables' cells.
   */
  openHyphens: boolean;
}
