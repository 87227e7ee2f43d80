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

export type TextSet = 'labelled' | 'heldout' | 'corpus';

export function evalDocs(set: 'labelled' | 'heldout'): EvalDoc[] {
  return loadEvalSet(set === 'heldout' ? 'eval-heldout.json' : 'eval.json');
}

export function texts(set: TextSet): string[] {
  return set === 'corpus' ? corpusParagraphs() : evalDocs(set).map((d) => d.text);
}

export const megabytes = (list: readonly string[]) =>
  list.reduce((a, t) => a + Buffer.byteLength(t), 0) / (1024 * 1024);
