import { normalizeInlines } from '../../render/inline-normalize.ts';
import type { Inline } from '../../tree/types.ts';

type WithChildren = Extract<Inline, { children: Inline[] }>;

function hasChildren(n: Inline): n is WithChildren {
  return 'children' in n;
}

/**
 * HTML whitespace rules on a run of inlines: spaces collapse across element boundaries, a mark
 * never starts or ends with a space (`**12% **` would not be bold in Markdown), and a paragraph
 * neither starts nor ends with one, nor around a line break.
 */
export function tidyInlines(nodes: readonly Inline[]): Inline[] {
  const hoisted: Inline[] = [];
  for (const n of nodes) {
    if (!hasChildren(n)) {
      hoisted.push(n);
      continue;
    }
    const inner = tidyInlines(n.children);
    const lead = leadingSpace(n.children);
    const trail = trailingSpace(n.children);
    if (lead) hoisted.push({ type: 'text', value: ' ' });
    if (inner.length || n.type === 'link') hoisted.push({ ...n, children: inner } as WithChildren);
    if (trail) hoisted.push({ type: 'text', value: ' ' });
  }
  const merged = normalizeInlines(hoisted).map((n) =>
    n.type === 'text' ? { ...n, value: n.value.replace(/ {2,}/g, ' ') } : n,
  );
  const out: Inline[] = [];
  for (let i = 0; i < merged.length; i++) {
    const n = merged[i] as Inline;
    if (n.type !== 'text') {
      out.push(n);
      continue;
    }
    let v = n.value;
    const prev = out[out.length - 1];
    if (!prev || prev.type === 'break' || endsWithSpace(prev)) v = v.replace(/^ /, '');
    const next = merged[i + 1];
    if (!next || next.type === 'break') v = v.replace(/ $/, '');
    if (v) out.push({ type: 'text', value: v });
  }
  // Line breaks at the edges of a paragraph carry nothing.
  while (out[0]?.type === 'break') out.shift();
  while (out[out.length - 1]?.type === 'break') out.pop();
  return out;
}

function endsWithSpace(n: Inline): boolean {
  if (n.type === 'text') return n.value.endsWith(' ');
  return false;
}

function leadingSpace(nodes: readonly Inline[]): boolean {
  const first = nodes[0];
  if (!first) return false;
  if (first.type === 'text') return /^\s/.test(first.value);
  return hasChildren(first) ? leadingSpace(first.children) : false;
}

function trailingSpace(nodes: readonly Inline[]): boolean {
  const last = nodes[nodes.length - 1];
  if (!last) return false;
  if (last.type === 'text') return /\s$/.test(last.value);
  return hasChildren(last) ? trailingSpace(last.children) : false;
}
