/**
 * The output guard. A damaged or hostile file can make an adapter build far more text than its bytes
 * could hold (a merge spanning 16,384 columns that Markdown repeats in every cell, a misread length
 * field turned into a multi-megabyte string). The tree is measured before anything is rendered and
 * cut, in document order, once its estimated size passes the budget the input allows.
 */

import type { Node, Root } from './types.ts';
import { childrenOf } from './walk.ts';

/** Characters the renderers spend around a node (separators, pipes, markers). */
const OVERHEAD = 4;

/** Estimated rendered characters of a node, stopping as soon as `cap` is passed. */
export function sizeOf(node: Node, cap: number): number {
  let size = OVERHEAD;
  const value = (node as { value?: unknown }).value;
  if (typeof value === 'string') size += value.length;
  const type = node.type;
  if (type === 'image') size += node.alt.length + (node.url?.length ?? 0);
  if (type === 'link') size += node.href.length;
  // Markdown has no spans: a merged cell is written once per grid position it covers.
  const repeat = type === 'tableCell' ? (node.rowSpan ?? 1) * (node.colSpan ?? 1) : 1;
  // Indexed, not for…of: this runs for every node of every document.
  const kids = childrenOf(node);
  for (let i = 0; i < kids.length; i++) {
    size += sizeOf(kids[i] as Node, cap) * repeat;
    if (size > cap) return size;
  }
  return size;
}

/**
 * Keeps the longest document-order prefix of `node`'s children that fits `left` characters,
 * descending into the first child that does not fit so a long table or sheet keeps its head.
 * Returns the characters still left, negative once something was cut.
 */
function trim(node: Node, left: number): number {
  const kids = childrenOf(node) as Node[];
  for (let i = 0; i < kids.length; i++) {
    const kid = kids[i] as Node;
    const size = sizeOf(kid, left);
    if (size <= left) {
      left -= size;
      continue;
    }
    // Inline runs are not split: a block is kept whole or dropped, except containers of blocks.
    const container =
      kid.type === 'section' || kid.type === 'table' || kid.type === 'list' || kid.type === 'blockquote';
    if (container) trim(kid, left);
    (kids as unknown[]).length = container && childrenOf(kid).length > 0 ? i + 1 : i;
    return -1;
  }
  return left;
}

/** Budget for one input: `ratio` characters per input byte, never less than `floor`. */
export function outputBudget(inputBytes: number, ratio: number, floor: number): number {
  return Math.max(floor, inputBytes * ratio);
}

/** Cuts the tree in place to at most about `maxChars` rendered characters; true when something was cut. */
export function capTree(tree: Root, maxChars: number): boolean {
  return trim(tree, maxChars) < 0;
}
