import type { Root } from '../tree/types.ts';
import { blockText, walk } from '../tree/walk.ts';

/**
 * Local extractive summary: no model, deterministic. Sentences are scored by the document-level
 * frequency of their content words (a classic Luhn-style summary), position breaks ties, and the
 * best ones are returned in document order.
 */
const STOP = new Set(
  'a an and are as at be but by for from has have he her his i if in into is it its of on or our she so than that the their them then there these they this to was we were which will with you your not no can may also been more such'.split(
    ' ',
  ),
);

export function summarize(tree: Root, maxSentences = 5): string {
  const paras: string[] = [];
  walk(tree, (n) => {
    if (n.type === 'paragraph' || n.type === 'listItem') {
      const t = blockText(n).replace(/\s+/g, ' ').trim();
      if (t.length > 40) paras.push(t);
      return 'skip';
    }
    if (n.type === 'table' || n.type === 'code') return 'skip';
    return undefined;
  });
  const sentences = paras.flatMap((p) => p.match(/[^.!?]+[.!?]+(?=\s|$)|[^.!?]+$/g) ?? []).map((s) => s.trim());
  const usable = sentences.filter((s) => s.split(' ').length >= 5);
  if (usable.length === 0) {
    const heads: string[] = [];
    walk(tree, (n) => {
      if (n.type === 'heading') heads.push(blockText(n));
      return undefined;
    });
    return [tree.metadata.title, ...heads].filter(Boolean).slice(0, maxSentences).join('. ');
  }
  const words = (s: string) =>
    (s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 2 && !STOP.has(w));
  const freq = new Map<string, number>();
  for (const s of usable) for (const w of new Set(words(s))) freq.set(w, (freq.get(w) ?? 0) + 1);
  const scored = usable.map((s, i) => {
    const ws = words(s);
    const score = ws.reduce((acc, w) => acc + (freq.get(w) ?? 0), 0) / Math.sqrt(ws.length + 1);
    return { s, i, score: score * (1 + 0.5 / (1 + i)) };
  });
  const top = [...scored].sort((a, b) => b.score - a.score || a.i - b.i).slice(0, maxSentences);
  return top
    .sort((a, b) => a.i - b.i)
    .map((t) => t.s)
    .join(' ');
}
