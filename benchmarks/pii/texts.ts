/**
 * The texts the PII benchmark times, shared by the main run and the fast-mode child process so
 * both measure the very same input.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { corpusRoot } from '../harness.ts';
import { type EvalDoc, loadEvalSet } from './score.ts';

/** The corpus's ground-truth Markdown split into paragraphs, as the tree walker would hand them over. */
export function corpusParagraphs(): string[] {
  const out: string[] = [];
  const visit = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) visit(p);
      else if (name.endsWith('.md') && name !== 'README.md')
        out.push(
          ...readFileSync(p, 'utf8')
            .split(/\n{2,}/)
            .filter((t) => t.trim()),
        );
    }
  };
  if (existsSync(corpusRoot)) visit(corpusRoot);
  return out;
}

export type TextSet = 'labelled' | 'heldout' | 'corpus' | 'dense';

/** How often `dense` repeats both labelled sets: about 1 MB of PII-dense text. */
export const DENSE_REPEAT = 16;

export function evalDocs(set: 'labelled' | 'heldout'): EvalDoc[] {
  return loadEvalSet(set === 'heldout' ? 'eval-heldout.json' : 'eval.json');
}

export function texts(set: TextSet): string[] {
  if (set === 'corpus') return corpusParagraphs();
  if (set !== 'dense') return evalDocs(set).map((d) => d.text);
  // A labelled set is 0.03 MB: timed alone, a round lasts ~10 ms and JIT compilation and GC
  // threads weigh on its CPU time; repeated, it measures the heuristics on PII-dense text.
  const both = [...texts('labelled'), ...texts('heldout')];
  return Array.from({ length: DENSE_REPEAT }, () => both).flat();
}

export const megabytes = (list: readonly string[]) =>
  list.reduce((a, t) => a + Buffer.byteLength(t), 0) / (1024 * 1024);
