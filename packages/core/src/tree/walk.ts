import type { Block, Inline, Node, Root } from './types.ts';

/** Children of any node, or an empty array for leaves. */
export function childrenOf(node: Node): readonly Node[] {
  return 'children' in node && Array.isArray(node.children) ? (node.children as Node[]) : [];
}

export type Visitor = (node: Node, parent: Node | undefined, index: number) => undefined | 'skip' | 'stop';

/** Depth-first, document-order walk. Return 'skip' to not enter a node, 'stop' to end the walk. */
export function walk(tree: Node, visitor: Visitor): void {
  const visit = (node: Node, parent: Node | undefined, index: number): boolean => {
    const verdict = visitor(node, parent, index);
    if (verdict === 'stop') return false;
    if (verdict === 'skip') return true;
    const kids = childrenOf(node);
    for (let i = 0; i < kids.length; i++) if (!visit(kids[i] as Node, node, i)) return false;
    return true;
  };
  visit(tree, undefined, -1);
}

/** All nodes of one type, in document order. */
export function selectAll<T extends Node['type']>(tree: Node, type: T): Extract<Node, { type: T }>[] {
  const out: Extract<Node, { type: T }>[] = [];
  walk(tree, (n) => {
    if (n.type === type) out.push(n as Extract<Node, { type: T }>);
    return undefined;
  });
  return out;
}

/**
 * Rebuilds every inline run of the tree through `fn` (used by redaction and other text stages).
 * Returns a new tree; the input is not modified.
 */
export function mapText(tree: Root, fn: (value: string) => string): Root {
  const clone = structuredClone(tree);
  walk(clone, (n) => {
    if (n.type === 'text' || n.type === 'inlineCode' || n.type === 'code') n.value = fn(n.value);
    if (n.type === 'image') n.alt = fn(n.alt);
    return undefined;
  });
  return clone;
}

/** Plain text of inline content (breaks become spaces, or `breakAs`). */
export function inlineText(nodes: readonly Inline[], breakAs = ' '): string {
  let out = '';
  for (const n of nodes) {
    switch (n.type) {
      case 'text':
      case 'inlineCode':
      case 'inlineMath':
        out += n.value;
        break;
      case 'break':
        out += breakAs;
        break;
      case 'image':
        out += n.alt;
        break;
      case 'footnoteReference':
        out += n.label ?? n.identifier;
        break;
      default:
        out += inlineText(n.children, breakAs);
    }
  }
  return out;
}

/** Plain text of a block subtree, blocks separated by newlines. */
export function blockText(node: Node): string {
  if (node.type === 'text' || node.type === 'inlineCode' || node.type === 'inlineMath') return node.value;
  if (node.type === 'code' || node.type === 'math') return node.value;
  if (node.type === 'image') return node.alt;
  if (node.type === 'paragraph' || node.type === 'heading') return inlineText(node.children);
  const kids = childrenOf(node);
  const sep = node.type === 'tableRow' ? '\t' : '\n';
  // The non-empty texts joined, without the arrays of map, filter and join: PDF reading takes the
  // text of every table of every page.
  let out = '';
  for (const k of kids) {
    const text = blockText(k);
    if (text) out = out ? out + sep + text : text;
  }
  return out;
}

/** True when a block list has no visible content (used to drop empty cells/sections). */
export function isBlank(blocks: readonly Block[]): boolean {
  return blocks.every((b) => blockText(b).trim() === '' && b.type !== 'image' && b.type !== 'table');
}

/** Inline content with `strong` marks unwrapped: a heading is emphatic by itself, so bold runs in it add nothing. */
export function unbold(nodes: Inline[]): Inline[] {
  return nodes.flatMap((n): Inline[] => {
    if (n.type === 'strong') return unbold(n.children);
    if ('children' in n) return [{ ...n, children: unbold(n.children) } as Inline];
    return [n];
  });
}

/** Inline code turned back into text: a run in a typewriter face where the whole passage is one. */
export function uncode(nodes: Inline[]): Inline[] {
  return nodes.map((n) => {
    if (n.type === 'inlineCode') return { ...n, type: 'text' };
    if ('children' in n) return { ...n, children: uncode(n.children) } as Inline;
    return n;
  });
}

/**
 * Whether every word of a passage is inline code (and one is at least): a passage set wholly in a
 * typewriter face, its links, breaks, note marks and pictures aside.
 */
export function whollyCode(nodes: readonly Inline[]): boolean {
  let code = false;
  const visit = (ns: readonly Inline[]): boolean =>
    ns.every((n) => {
      if (n.type === 'inlineCode') {
        code = true;
        return true;
      }
      if (n.type === 'text' || n.type === 'inlineMath') return !n.value.trim();
      return 'children' in n ? visit(n.children as Inline[]) : true;
    });
  return visit(nodes) && code;
}

/** Whether a passage holds a link. */
export const linked = (nodes: readonly Inline[]): boolean =>
  nodes.some((n) => n.type === 'link' || ('children' in n && linked(n.children as Inline[])));
