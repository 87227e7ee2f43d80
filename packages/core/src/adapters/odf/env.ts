import type { FootnoteDefinition, Image } from '../../tree/types.ts';
import type { XmlElement } from '../../util/xml.ts';
import type { AdapterContext } from '../types.ts';
import type { OdfStyles } from './styles.ts';

/** Numbering state of ordered lists, so `continue-numbering` and `continue-list` can resume. */
export interface ListCounters {
  /** Last number used at level 1, by list style name. */
  byStyle: Map<string, number>;
  /** Last number used at level 1, by the list's xml:id. */
  byId: Map<string, number>;
  /** Last number of the most recent top-level ordered list. */
  last?: number;
}

/** Everything the text readers share while walking one part. */
export interface ReaderEnv {
  ctx: AdapterContext;
  styles: OdfStyles;
  /** Parsed content.xml of embedded objects (charts, formulas), keyed by normalized href ("Object 1"). */
  objects: Map<string, XmlElement>;
  /** Footnote and endnote bodies, in order of their references. */
  notes: FootnoteDefinition[];
  noteIds: Set<string>;
  /** Every image node made, so the adapter can materialise data URIs afterwards. */
  images: Image[];
  counters: ListCounters;
  /** Nesting depth of tables/frames/notes, to stop pathological recursion early. */
  depth: number;
  /**
   * Table cells (and span-covered positions) still allowed in this part. Repeats multiply: a row
   * repeated 5,000 times holding a table whose rows repeat 5,000 times is 25 million cells.
   */
  cellsLeft: number;
  /** The page the body element being read starts on, when LibreOffice's layout is recorded. */
  page?: number;
  /** The page each row of a body table and item of a body list starts on, when LibreOffice's layout is recorded. */
  unitPages?: Map<XmlElement, number>;
}

export function createEnv(ctx: AdapterContext, styles: OdfStyles, objects: Map<string, XmlElement>): ReaderEnv {
  return {
    ctx,
    styles,
    objects,
    notes: [],
    noteIds: new Set(),
    images: [],
    counters: { byStyle: new Map(), byId: new Map() },
    depth: 0,
    cellsLeft: ctx.limits.maxTableCells,
  };
}

/** Where a block sequence sits inside lists: the inherited list style and the current level. */
export interface ListScope {
  style?: string;
  level: number;
}

export const TOP: ListScope = { level: 0 };
