import type { BBox, Inline, NodeData } from './types.ts';

/**
 * `data` key of the first inline of a block's part printed on a later page than the block's start
 * (a paragraph a page break cut, joined again): the page and box of that part, for provenance.
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
