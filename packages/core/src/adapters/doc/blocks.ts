import * as b from '../../tree/build.ts';
import type { Block, Inline, List, ListItem, TableCell, Text } from '../../tree/types.ts';
import { FMT } from './chpx.ts';
import type { Lists } from './lists.ts';
import type { ParaProps, RowDef } from './sprm.ts';
import type { RawPara, Segment } from './story.ts';
import type { Style } from './styles.ts';

export interface BlockContext {
  styles: Map<number, Style>;
  lists: Lists;
  /** Footnote number for a reference mark at `cp`, when it is one. */
  noteAt(cp: number): number | undefined;
  /** The image node for an inline picture (PICF offset in the Data stream, when known). */
  picture(pic: number | undefined): Inline;
}

// Localized built-in heading names, for files whose writer stored a user style (sti 4094) instead of sti 1–9.
const HEADING_NAME =
  /^(?:heading|überschrift|titre|titolo|título|titulo|kop|nagłówek|rubrik|overskrift|otsikko|nadpis|címsor|başlık|заголовок|επικεφαλίδα|見出し|标题|제목)\s*([1-9])\b/i;

const STI_TITLE = 62;

export function headingDepth(props: ParaProps | undefined, styles: Map<number, Style>): number | undefined {
  if (!props) return undefined;
  const style = styles.get(props.istd);
  if (style && style.sti >= 1 && style.sti <= 9) return style.sti;
  if (style?.sti === STI_TITLE) return 1;
  if (props.outLvl >= 0 && props.outLvl <= 8) return props.outLvl + 1;
  const m = style ? HEADING_NAME.exec(style.name.split(',')[0]?.trim() ?? '') : null;
  return m ? Number(m[1]) : undefined;
}

function formatted(node: Inline, fmt: number): Inline {
  let n = node;
  if (fmt & FMT.sub) n = { type: 'subscript', children: [n] };
  if (fmt & FMT.sup) n = { type: 'superscript', children: [n] };
  if (fmt & FMT.strike) n = { type: 'strikethrough', children: [n] };
  if (fmt & FMT.italic) n = { type: 'emphasis', children: [n] };
  if (fmt & FMT.bold) n = { type: 'strong', children: [n] };
  return n;
}

/** Headings carry their style's look; direct bold/italic inside them is noise in Markdown. */
function plain(nodes: Inline[]): Inline[] {
  return nodes.flatMap((n): Inline[] => {
    if (n.type === 'strong' || n.type === 'emphasis') return plain(n.children);
    if (n.type === 'link') return [{ ...n, children: plain(n.children) }];
    // A Markdown heading is one line.
    if (n.type === 'break') return [b.text(' ')];
    return [n];
  });
}

function edgeText(node: Inline | undefined, first: boolean): Text | undefined {
  let n = node;
  for (let depth = 0; n && depth < 8; depth++) {
    if (n.type === 'text') return n;
    if (!('children' in n) || !Array.isArray(n.children) || !n.children.length) return undefined;
    n = (first ? n.children[0] : n.children[n.children.length - 1]) as Inline;
  }
  return undefined;
}

export function toInlines(segments: Segment[], ctx: BlockContext): Inline[] {
  const out: Inline[] = [];
  for (const s of segments) {
    if (s.kind === 'text') {
      const inner = formatted(b.text(s.text), s.fmt);
      const last = out[out.length - 1];
      // Consecutive runs of one hyperlink share a link node.
      if (s.href && last?.type === 'link' && last.href === s.href) last.children.push(inner);
      else out.push(s.href ? b.link(s.href, [inner]) : inner);
    } else if (s.kind === 'break') out.push({ type: 'break' });
    else if (s.kind === 'image') out.push(ctx.picture(s.pic));
    else {
      const n = ctx.noteAt(s.cp);
      if (n !== undefined) out.push({ type: 'footnoteReference', identifier: String(n) });
    }
  }
  // Trim whitespace at the paragraph edges; interior spacing is the author's.
  const first = edgeText(out[0], true);
  if (first) first.value = first.value.replace(/^\s+/, '');
  const last = edgeText(out[out.length - 1], false);
  if (last) last.value = last.value.replace(/\s+$/, '');
  return out.filter((n) => n.type !== 'text' || n.value !== '');
}

const isBlank = (inl: Inline[]): boolean => inl.every((n) => n.type === 'break');

/** Table nesting depth of a paragraph: 0 outside tables. */
const tableDepth = (p: RawPara): number => {
  const itap = p.props?.itap ?? 0;
  if (itap > 0) return Math.min(itap, 16);
  return p.mark === '\x07' || p.props?.inTable ? 1 : 0;
};

/** A run of blocks (the body or one table cell) that groups list paragraphs into nested lists. */
class Flow {
  readonly out: Block[] = [];
  private stack: List[] = [];

  constructor(private readonly ctx: BlockContext) {}

  block(node: Block): void {
    this.stack = [];
    this.out.push(node);
  }

  para(p: RawPara, inl: Inline[]): void {
    // Blank spacer paragraphs do not interrupt a list.
    if (isBlank(inl)) return;
    const depth = headingDepth(p.props, this.ctx.styles);
    const ilfo = p.props?.ilfo ?? 0;
    const label = ilfo > 0 ? this.ctx.lists.next(ilfo, p.props?.ilvl ?? 0) : '';
    if (depth !== undefined) {
      // Numbered headings keep their number ("2.1 Scope"): it is how the text refers to them.
      const children = plain(inl);
      if (label) children.unshift(b.text(`${label.replace(/[.)]$/, '')} `));
      this.block(b.heading(depth, children));
      return;
    }
    if (ilfo <= 0) {
      this.block(b.paragraph(inl));
      return;
    }
    const ilvl = Math.min(p.props?.ilvl ?? 0, 8);
    const lvl = this.ctx.lists.level(ilfo, ilvl);
    const ordered = lvl?.ordered ?? false;
    while (this.stack.length > ilvl + 1) this.stack.pop();
    const top = this.stack[this.stack.length - 1];
    if (top && this.stack.length === ilvl + 1 && top.ordered !== ordered) this.stack.pop();
    while (this.stack.length < ilvl + 1) {
      const parent = this.stack[this.stack.length - 1];
      // A list resumed after other content keeps counting where it stopped.
      const start = this.stack.length === ilvl ? this.ctx.lists.current(ilfo, ilvl) : (lvl?.start ?? 1);
      const fresh = b.list(ordered, [], start);
      const host = parent?.children[parent.children.length - 1];
      if (host) host.children.push(fresh);
      else this.out.push(fresh);
      this.stack.push(fresh);
    }
    (this.stack[this.stack.length - 1] as List).children.push(b.listItem([b.paragraph(inl)]) as ListItem);
  }
}

interface BuiltRow {
  cells: Flow[];
  def: RowDef | undefined;
}

class TableBuilder {
  rows: BuiltRow[] = [];
  row: Flow[] = [];
  cell: Flow;
  constructor(private readonly ctx: BlockContext) {
    this.cell = new Flow(ctx);
  }
  endCell(): void {
    this.row.push(this.cell);
    this.cell = new Flow(this.ctx);
  }
  endRow(def?: RowDef): void {
    if (this.cell.out.length) this.endCell();
    if (this.row.length) this.rows.push({ cells: this.row, def });
    this.row = [];
  }
  /** The table, or the content of a lone cell: one-cell tables are page layout, not data. */
  close(): Block[] {
    this.endRow();
    const rows = this.rows;
    if (rows.length === 0) return [];
    if (rows.length === 1 && rows[0]?.cells.length === 1) return (rows[0].cells[0] as Flow).out;
    return [layoutTable(rows)];
  }
}

/**
 * Places cells on the column grid formed by every row's cell edges: a cell spanning several edges
 * gets a colSpan, a vertically merged cell a rowSpan (its continuation cells are dropped), and old-style
 * horizontally merged cells join the cell before them.
 */
function layoutTable(rows: BuiltRow[]): Block {
  const edges = [...new Set(rows.flatMap((r) => r.def?.edges ?? []))].sort((x, y) => x - y);
  const header = rows.length > 1;
  type Placed = { cell: TableCell; col: number; span: number };
  const grid: Placed[][] = [];
  rows.forEach((r, ri) => {
    const placed: Placed[] = [];
    let col = 0;
    r.cells.forEach((flow, i) => {
      const def = r.def;
      const left = def?.edges[i];
      const right = def?.edges[i + 1];
      let start = col;
      let span = 1;
      if (left !== undefined && right !== undefined && right > left && edges.length) {
        start = Math.max(col, edges.indexOf(left));
        span = Math.max(1, edges.filter((e) => e >= left && e < right).length);
      }
      col = start + span;
      const hm = def?.hmerge[i] ?? 0;
      const prev = placed[placed.length - 1];
      if ((hm === 2 || hm === 3) && prev) {
        prev.span += span;
        prev.cell.colSpan = prev.span;
        return;
      }
      const vm = def?.vmerge[i] ?? 0;
      if (vm === 1 && ri > 0) {
        // Continuation of a vertical merge: grow the cell above that starts at this column.
        for (let up = ri - 1; up >= 0; up--) {
          const above = grid[up]?.find((p) => p.col === start);
          if (above) {
            above.cell.rowSpan = (above.cell.rowSpan ?? 1) + 1;
            return;
          }
        }
      }
      const cell = b.cell(flow.out, { header: header && ri === 0, colSpan: span });
      placed.push({ cell, col: start, span });
    });
    grid.push(placed);
  });
  return b.table(grid.map((placed) => b.row(placed.map((p) => p.cell))));
}

/** Groups story paragraphs into headings, paragraphs, lists and (nested) tables. */
export function buildBlocks(paras: RawPara[], ctx: BlockContext): Block[] {
  const body = new Flow(ctx);
  const tables: TableBuilder[] = [];
  const flowAt = (depth: number): Flow => (depth === 0 ? body : (tables[depth - 1] as TableBuilder).cell);
  const closeTo = (depth: number): void => {
    while (tables.length > depth) {
      const blocks = (tables.pop() as TableBuilder).close();
      for (const blk of blocks) flowAt(tables.length).block(blk);
    }
  };
  for (const p of paras) {
    const inl = toInlines(p.segments, ctx);
    const depth = tableDepth(p);
    closeTo(depth);
    while (tables.length < depth) tables.push(new TableBuilder(ctx));
    if (depth === 0) {
      body.para(p, inl);
      continue;
    }
    const t = tables[depth - 1] as TableBuilder;
    const rowEnd = depth === 1 ? !!p.props?.ttp : !!p.props?.innerTtp;
    if (rowEnd) {
      t.endRow(p.props?.row);
      continue;
    }
    t.cell.para(p, inl);
    const cellEnd = depth === 1 ? p.mark === '\x07' : !!p.props?.innerCell;
    if (cellEnd) t.endCell();
  }
  closeTo(0);
  return body.out;
}
