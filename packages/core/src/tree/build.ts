import type {
  Block,
  Blockquote,
  Code,
  DocumentMetadata,
  Heading,
  HeadingDepth,
  Image,
  Inline,
  Link,
  List,
  ListItem,
  Paragraph,
  Root,
  Section,
  SectionKind,
  Table,
  TableCell,
  TableRow,
  Text,
} from './types.ts';

/** Small constructors; they keep adapters terse and make the tree's shape obvious at call sites. */
export const text = (value: string): Text => ({ type: 'text', value });

export const root = (children: Block[] = [], metadata: DocumentMetadata = {}): Root => ({
  type: 'root',
  metadata,
  children,
});

export const paragraph = (children: Inline[] | string): Paragraph => ({
  type: 'paragraph',
  children: typeof children === 'string' ? [text(children)] : children,
});

export const heading = (depth: number, children: Inline[] | string): Heading => ({
  type: 'heading',
  depth: clampDepth(depth),
  children: typeof children === 'string' ? [text(children)] : children,
});

export const clampDepth = (depth: number): HeadingDepth => Math.min(6, Math.max(1, Math.round(depth))) as HeadingDepth;

export const list = (ordered: boolean, items: ListItem[], start?: number): List => {
  const node: List = { type: 'list', ordered, children: items };
  if (ordered && start !== undefined && start !== 1) node.start = start;
  return node;
};

export const listItem = (children: Block[], checked?: boolean): ListItem => {
  const node: ListItem = { type: 'listItem', children };
  if (checked !== undefined) node.checked = checked;
  return node;
};

export const cell = (
  children: Block[] | string,
  opts: { header?: boolean; rowSpan?: number; colSpan?: number } = {},
): TableCell => {
  const node: TableCell = {
    type: 'tableCell',
    children: typeof children === 'string' ? (children ? [paragraph(children)] : []) : children,
  };
  if (opts.header) node.header = true;
  if (opts.rowSpan && opts.rowSpan > 1) node.rowSpan = opts.rowSpan;
  if (opts.colSpan && opts.colSpan > 1) node.colSpan = opts.colSpan;
  return node;
};

export const row = (cells: TableCell[]): TableRow => ({ type: 'tableRow', children: cells });

export const table = (rows: TableRow[]): Table => ({ type: 'table', children: rows });

/** A table from a matrix of strings; `headerRows` leading rows are flagged as header cells. */
export const tableFromMatrix = (matrix: string[][], headerRows = 0): Table =>
  table(matrix.map((cells, r) => row(cells.map((c) => cell(c, { header: r < headerRows })))));

export const code = (value: string, lang?: string): Code => {
  const node: Code = { type: 'code', value };
  if (lang) node.lang = lang;
  return node;
};

export const blockquote = (children: Block[]): Blockquote => ({ type: 'blockquote', children });

export const image = (alt: string, fields: Omit<Image, 'type' | 'alt'> = {}): Image => ({
  type: 'image',
  alt,
  ...fields,
});

export const link = (href: string, children: Inline[] | string, title?: string): Link => {
  const node: Link = {
    type: 'link',
    href,
    children: typeof children === 'string' ? [text(children)] : children,
  };
  if (title) node.title = title;
  return node;
};

export const section = (
  kind: SectionKind,
  number: number,
  children: Block[] = [],
  extra: Partial<Omit<Section, 'type' | 'kind' | 'number' | 'children'>> = {},
): Section => ({ type: 'section', kind, number, ...extra, children });
