/**
 * The docmill block tree. Every adapter fills it, every stage transforms it, every renderer reads it.
 *
 * Design notes:
 * - JSON-only (no classes, no functions, no cycles) so it crosses structured clone and HTTP unchanged.
 * - Content categories are open interfaces (`BlockContentMap`, `InlineContentMap`): an extension adds a
 *   node kind by module augmentation and every union below picks it up.
 * - Every node has an optional `data` slot the schema never reads; stages keep private, typed facts
 *   there (OCR confidence, PII spans) without changing the public shape.
 */

/** Axis-aligned box in the source's own units (PDF points, origin top-left, y grows downwards). */
export type BBox = [x0: number, y0: number, x1: number, y1: number];

export interface Source {
  /** 1-based page (or slide/sheet) number the block came from. */
  page?: number;
  bbox?: BBox;
}

export interface NodeData {
  [key: string]: unknown;
}

interface NodeBase {
  data?: NodeData;
}

interface BlockBase extends NodeBase {
  source?: Source;
}

// ---------------------------------------------------------------- inline content

export interface Text extends NodeBase {
  type: 'text';
  value: string;
}
export interface Strong extends NodeBase {
  type: 'strong';
  children: Inline[];
}
export interface Emphasis extends NodeBase {
  type: 'emphasis';
  children: Inline[];
}
export interface Strikethrough extends NodeBase {
  type: 'strikethrough';
  children: Inline[];
}
export interface Superscript extends NodeBase {
  type: 'superscript';
  children: Inline[];
}
export interface Subscript extends NodeBase {
  type: 'subscript';
  children: Inline[];
}
export interface InlineCode extends NodeBase {
  type: 'inlineCode';
  value: string;
}
export interface Link extends NodeBase {
  type: 'link';
  href: string;
  title?: string;
  children: Inline[];
}
/** Hard line break inside a paragraph, heading or cell. */
export interface Break extends NodeBase {
  type: 'break';
}
/** Reference to a `footnoteDefinition` with the same identifier. */
export interface FootnoteReference extends NodeBase {
  type: 'footnoteReference';
  identifier: string;
  /** What the document shows as the mark ("1", "*", "iv"); defaults to the identifier. */
  label?: string;
}
/** Formula in LaTeX (from OMML, MathML) or plain text when no LaTeX could be made. */
export interface InlineMath extends NodeBase {
  type: 'inlineMath';
  value: string;
}

/**
 * An image. Used both inline (inside a paragraph) and as a block.
 * `url` is an absolute/relative URL or a data URI; `ref` names an embedded part (zip path, PDF xobject)
 * when the bytes were not materialised.
 */
export interface Image extends BlockBase {
  type: 'image';
  alt: string;
  url?: string;
  title?: string;
  ref?: string;
  mime?: string;
}

export interface InlineContentMap {
  text: Text;
  strong: Strong;
  emphasis: Emphasis;
  strikethrough: Strikethrough;
  superscript: Superscript;
  subscript: Subscript;
  inlineCode: InlineCode;
  link: Link;
  break: Break;
  footnoteReference: FootnoteReference;
  inlineMath: InlineMath;
  image: Image;
}
export type Inline = InlineContentMap[keyof InlineContentMap];

// ---------------------------------------------------------------- block content

export type HeadingDepth = 1 | 2 | 3 | 4 | 5 | 6;

export interface Heading extends BlockBase {
  type: 'heading';
  depth: HeadingDepth;
  children: Inline[];
}
export interface Paragraph extends BlockBase {
  type: 'paragraph';
  children: Inline[];
}
export interface List extends BlockBase {
  type: 'list';
  ordered: boolean;
  /** First number of an ordered list (default 1). */
  start?: number;
  children: ListItem[];
}
export interface ListItem extends BlockBase {
  type: 'listItem';
  /** Task-list state: true ☒, false ☐, absent for ordinary items. */
  checked?: boolean;
  children: Block[];
}
export interface TableCell extends BlockBase {
  type: 'tableCell';
  header?: boolean;
  rowSpan?: number;
  colSpan?: number;
  children: Block[];
}
export interface TableRow extends BlockBase {
  type: 'tableRow';
  children: TableCell[];
}
/**
 * Rows hold only the cells that start in them (HTML model): a cell with rowSpan 2 is absent from the
 * next row. `normalizeTable()` in `grid.ts` expands this to a full grid.
 */
export interface Table extends BlockBase {
  type: 'table';
  caption?: Inline[];
  children: TableRow[];
}
export interface Code extends BlockBase {
  type: 'code';
  lang?: string;
  value: string;
}
export interface Blockquote extends BlockBase {
  type: 'blockquote';
  children: Block[];
}
export interface ThematicBreak extends BlockBase {
  type: 'thematicBreak';
}
export interface FootnoteDefinition extends BlockBase {
  type: 'footnoteDefinition';
  identifier: string;
  label?: string;
  children: Block[];
}
/** Display formula (LaTeX where practical). */
export interface MathBlock extends BlockBase {
  type: 'math';
  value: string;
}

/**
 * `message`: an e-mail (mbox, or attached to one); `attachment`: a document attached to a message;
 * `file`: an archive member; `item`: a feed entry.
 */
export type SectionKind = 'page' | 'slide' | 'sheet' | 'chapter' | 'message' | 'attachment' | 'file' | 'item';

/**
 * A page, slide, sheet or chapter boundary, or one document of a container (a message, an
 * attachment, an archive member, a feed item), whose own sections (a PDF member's pages) nest
 * inside. Sections are containers so that per-page output (`data.pages`, `data.blocks`, page
 * markers) is a walk over the root's sections.
 */
export interface Section extends BlockBase {
  type: 'section';
  kind: SectionKind;
  /** 1-based position of the page/slide/sheet/chapter in the source. */
  number: number;
  name?: string;
  /** Page size in source units where the format has one (PDF points). */
  width?: number;
  height?: number;
  children: Block[];
}

export interface BlockContentMap {
  heading: Heading;
  paragraph: Paragraph;
  list: List;
  table: Table;
  code: Code;
  blockquote: Blockquote;
  thematicBreak: ThematicBreak;
  footnoteDefinition: FootnoteDefinition;
  math: MathBlock;
  image: Image;
  section: Section;
}
export type Block = BlockContentMap[keyof BlockContentMap];

export interface DocumentMetadata {
  title?: string;
  description?: string;
  language?: string;
  keywords?: string;
  author?: string;
  /** Pages/slides/sheets parsed. */
  numPages?: number;
  /** True page count before any `maxPages` cap. */
  totalPages?: number;
  sourceURL?: string;
  url?: string;
  [key: string]: string | string[] | number | boolean | null | undefined;
}

export interface Root extends NodeBase {
  type: 'root';
  metadata: DocumentMetadata;
  children: Block[];
}

export type Parent =
  | Root
  | Section
  | Blockquote
  | List
  | ListItem
  | Table
  | TableRow
  | TableCell
  | FootnoteDefinition
  | Heading
  | Paragraph
  | Strong
  | Emphasis
  | Strikethrough
  | Superscript
  | Subscript
  | Link;

export type Node = Root | Block | Inline | ListItem | TableRow | TableCell;
