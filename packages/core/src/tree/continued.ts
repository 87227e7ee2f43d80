import type { BBox, Code, Inline, NodeData } from './types.ts';

/**
 * `data` key of the first inline of a block's part printed on a later page than the block's start
 * (a paragraph a page break cut, joined again), or further down its page (a paragraph a pull quote
 * is set into): the page and box of that part, for provenance.
 */
export const CONTINUED_ON = 'continuedOn';

export interface ContinuedOn {
  page: number;
  bbox?: BBox;
}

const isContinuedOn = (v: unknown): v is ContinuedOn =>
  typeof v === 'object' && v !== null && typeof (v as ContinuedOn).page === 'number';

/** The page and box a part starting at this inline was printed on, when it starts one. */
export function continuedOn(node: Inline): ContinuedOn | undefined {
  const v = (node.data as NodeData | undefined)?.[CONTINUED_ON];
  return isContinuedOn(v) ? v : undefined;
}

/** Marks `node` as the first inline of a part printed on a later page. */
export function markContinued(node: Inline, mark: ContinuedOn): void {
  node.data = { ...node.data, [CONTINUED_ON]: mark };
}

/** Takes the mark off an inline (a run that will not be a paragraph's part), returning its page. */
export function unmark(node: Inline): number | undefined {
  const page = continuedOn(node)?.page;
  if (page === undefined || !node.data) return undefined;
  const { [CONTINUED_ON]: _, ...rest } = node.data;
  node.data = Object.keys(rest).length ? rest : undefined;
  return page;
}

/**
 * `data` key of a code block a page break cut and the reader joined again: for each later page,
 * the line of its `value` (0-based) the page's part starts at, with that page and box.
 */
export const LINES_ON = 'linesOn';

export interface LinesOn extends ContinuedOn {
  line: number;
}

const isLinesOn = (v: unknown): v is LinesOn => isContinuedOn(v) && typeof (v as LinesOn).line === 'number';

/** Where the parts of a joined code block printed on later pages start, in order. */
export function linesOn(node: Code): LinesOn[] {
  const v = (node.data as NodeData | undefined)?.[LINES_ON];
  return Array.isArray(v) ? v.filter(isLinesOn) : [];
}

const lineCount = (s: string): number => s.split('\n').length;

/** Appends `next` (the code the next page opens with) to `node`, marking where its lines start. */
export function joinCode(node: Code, next: Code, mark: ContinuedOn): void {
  const shift = lineCount(node.value);
  const marks = [
    ...linesOn(node),
    { ...mark, line: shift },
    ...linesOn(next).map((m) => ({ ...m, line: m.line + shift })),
  ];
  node.value = `${node.value}\n${next.value}`;
  node.data = { ...node.data, [LINES_ON]: marks };
}

/**
 * Gives a code block new text (a redaction's). Where the text keeps its lines, each later page's
 * part starts where it did; where it does not (a key of many lines replaced by one placeholder),
 * the parts cannot be placed, and the block keeps its first page only rather than wrong lines.
 */
export function recode(node: Code, value: string): void {
  if (linesOn(node).length && lineCount(value) !== lineCount(node.value) && node.data) {
    const { [LINES_ON]: _, ...rest } = node.data;
    node.data = Object.keys(rest).length ? rest : undefined;
  }
  node.value = value;
}
