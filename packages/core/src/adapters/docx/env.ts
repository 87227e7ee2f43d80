import type { Block, FootnoteDefinition, Image } from '../../tree/types.ts';
import type { XmlElement, XmlNode } from '../../util/xml.ts';
import type { AdapterContext } from '../types.ts';
import type { DocxNumbering } from './numbering.ts';
import type { Rel } from './package.ts';
import type { DocxStyles } from './styles.ts';

/** An open complex field (`w:fldChar begin … separate … end`). */
export interface FieldFrame {
  instr: string;
  /** 'instr' until `separate`: only the cached result after it is shown. */
  phase: 'instr' | 'result';
  href?: string;
}

/** Notes of one kind: bodies by id, read when first referenced. */
export interface NoteSource {
  part: string;
  rels: Map<string, Rel>;
  bodies: Map<string, XmlElement>;
}

/** Everything shared while reading one document. */
export interface DocxShared {
  ctx: AdapterContext;
  styles: DocxStyles;
  numbering: DocxNumbering;
  footnotes?: NoteSource;
  endnotes?: NoteSource;
  /** Note definitions in order of first reference; identifiers are 1, 2, 3… in that order. */
  notes: FootnoteDefinition[];
  noteIds: Map<string, string>;
  /** Parsed chart parts by zip path (loaded up front: the readers are synchronous). */
  charts: Map<string, XmlElement>;
  /** Every image node made, so data URIs can be filled in afterwards. */
  images: Image[];
  /** The page the body element being read starts on, when Word's layout is recorded. */
  page?: number;
  /** The page the body ends on, when Word's layout is recorded. */
  lastPage?: number;
  /** The page each row of a body table starts on, when Word's layout is recorded. */
  rowPages?: Map<XmlElement, number>;
  /** The block reader, handed in so text boxes and notes can recurse without an import cycle. */
  readBlocks(nodes: XmlNode[], env: DocxEnv): Block[];
}

/** Per-part reading state: relationships resolve against the part being read. */
export interface DocxEnv {
  shared: DocxShared;
  part: string;
  rels: Map<string, Rel>;
  fields: FieldFrame[];
  /** Nesting of tables, text boxes and notes, to refuse pathological recursion early. */
  depth: number;
}

export const MAX_NESTING = 48;
