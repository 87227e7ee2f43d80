import type { OutlineEntry } from './backend/types.ts';
import { normTitle } from './blocks.ts';

/** Outline (bookmark) titles by normalized text, with their depth (1–6); headings found in the text use them. */
export function outlineTitles(entries: OutlineEntry[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of entries) {
    const t = normTitle(e.title ?? '');
    if (t && !out.has(t)) out.set(t, Math.min(6, e.depth));
  }
  return out;
}
