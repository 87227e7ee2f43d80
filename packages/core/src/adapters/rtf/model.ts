import type { Image, Table } from '../../tree/types.ts';

/** Character formatting that survives into Markdown (underline has no Markdown form). */
export interface CharFormat {
  bold: boolean;
  italic: boolean;
  strike: boolean;
  sup: boolean;
  sub: boolean;
  /**
   * Set in a face monospaced by its name in the font table: inline code. Not by `\\fmodern` or
   * `\\fprq1`: Word marks MS Mincho and MS Gothic so, and their Latin text is no code.
   */
  mono: boolean;
}

/** A stretch of text with one formatting, or an inline image or line break. */
export type Run =
  | { kind: 'text'; text: string; fmt: CharFormat; href: string | undefined }
  | { kind: 'break' }
  | { kind: 'image'; image: Image; href: string | undefined }
  /** Where a footnote or endnote was anchored. */
  | { kind: 'note'; id: string };

export interface ParaProps {
  /** `\sN` paragraph style. */
  style: number;
  /** `\outlinelevelN` (0 = top), when given on the paragraph itself. */
  outline: number | undefined;
  /** `\lsN` list override (0 = not a list). */
  ls: number;
  /** `\ilvlN` list level. */
  ilvl: number;
  /** `\intbl`: the paragraph sits in a table cell. */
  intbl: boolean;
  /** `\itapN`: table nesting depth of the paragraph. */
  itap: number;
}

/** A finished paragraph, before lists and headings are resolved. */
export interface Para {
  type: 'para';
  runs: Run[];
  props: ParaProps;
  /** Text of the `\listtext` / `\pntext` group: the number or bullet Word rendered. */
  listText: string;
  /** `\pnlvlblt` seen: an old-style bullet paragraph. */
  pnBullet: boolean;
}

export type Item = Para | { type: 'table'; table: Table };

export interface ListLevel {
  ordered: boolean;
  start: number;
}

export interface StyleDef {
  name: string;
  outline: number | undefined;
}

/** What the header tables say, used to interpret the body. */
export interface DocInfo {
  styles: Map<number, StyleDef>;
  /** `\lsN` → levels of its list. */
  lists: Map<number, ListLevel[]>;
  metadata: Record<string, string>;
}
