import { continuedOn } from '../tree/continued.ts';
import type { Inline } from '../tree/types.ts';

type Marked = Extract<Inline, { type: 'strong' | 'emphasis' | 'strikethrough' | 'superscript' | 'subscript' }>;
const markTypes = new Set(['strong', 'emphasis', 'strikethrough', 'superscript', 'subscript']);

/**
 * Merges adjacent text runs, code spans, the parts of a link a page break split and runs with the
 * same mark (`**a****b**` → `**ab**`), and drops empty runs (empty code spans too). Adapters emit runs as the source splits them; this keeps the output clean.
 */
export function normalizeInlines(nodes: readonly Inline[]): Inline[] {
  const out: Inline[] = [];
  for (const n of nodes) {
    const prev = out[out.length - 1];
    if (n.type === 'text') {
      if (n.value === '') continue;
      if (prev?.type === 'text' && !prev.data?.piiPlaceholder && !n.data?.piiPlaceholder) {
        out[out.length - 1] = { type: 'text', value: prev.value + n.value };
        continue;
      }
    } else if (n.type === 'inlineCode') {
      // An empty span (its text redacted away) would render as a lone pair of backticks, which a
      // Markdown reader pairs with the next span's.
      if (n.value === '') continue;
      // Two code spans side by side would render as one broken span (`` `a``b` ``).
      if (prev?.type === 'inlineCode') {
        out[out.length - 1] = { type: 'inlineCode', value: prev.value + n.value };
        continue;
      }
    } else if (n.type === 'link') {
      // A link a page break split (its later part carries the page) is one link; links that merely
      // touch stay apart (a redaction may have given different targets the same placeholder).
      if (prev?.type === 'link' && continuedOn(n) && prev.href === n.href && prev.title === n.title) {
        out[out.length - 1] = { ...prev, children: [...prev.children, ...n.children] };
        continue;
      }
    } else if (markTypes.has(n.type)) {
      const m = n as Marked;
      if (m.children.length === 0) continue;
      if (prev && prev.type === m.type) {
        out[out.length - 1] = { ...prev, children: [...(prev as Marked).children, ...m.children] } as Marked;
        continue;
      }
    }
    out.push(n);
  }
  return out;
}
