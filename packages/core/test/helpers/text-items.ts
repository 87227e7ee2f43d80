import type { TextItem } from '../../src/adapters/pdf/model.ts';

/** An upright left-to-right run of 12-point Helvetica at (x, y), 6 points a character. */
export const textRun = (str: string, x: number, y: number, hasEOL = false): TextItem => ({
  str,
  x,
  y,
  w: str.length * 6,
  h: 12,
  size: 12,
  fontName: 'Helvetica',
  fontId: 'Helvetica',
  bold: false,
  italic: false,
  dir: 'ltr',
  hasEOL,
  rotated: false,
  href: undefined,
});
