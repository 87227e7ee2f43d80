import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { workspaceRoot } from './packages.ts';

/** A fenced code block of a Markdown file and the heading it sits under. */
export interface CodeBlock {
  /** The fence's info string (`ts`, `sh`, …), empty when there is none. */
  lang: string;
  code: string;
  /** Text of the nearest heading above the block (`Install`, `OCR and workers`, …). */
  section: string;
}

/** Every fenced block of the workspace README (or `file`), in order; indented fences included. */
export function readmeBlocks(file = join(workspaceRoot, 'README.md')): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  let section = '';
  let open: { lang: string; indent: number; lines: string[] } | undefined;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const fence = /^( *)```(\S*)\s*$/.exec(line);
    if (open) {
      if (fence && fence[2] === '') {
        blocks.push({ lang: open.lang, code: `${open.lines.join('\n')}\n`, section });
        open = undefined;
      } else open.lines.push(line.slice(Math.min(open.indent, /^ */.exec(line)?.[0].length ?? 0)));
      continue;
    }
    const heading = /^#{1,6} (.+)$/.exec(line);
    if (heading) section = (heading[1] as string).trim();
    else if (fence) open = { lang: fence[2] ?? '', indent: (fence[1] ?? '').length, lines: [] };
  }
  return blocks;
}

/** The `index`th block of language `lang` under the heading `section`; throws when there is none. */
export function readmeBlock(section: string, lang: string, index = 0, file?: string): string {
  const found = readmeBlocks(file).filter((b) => b.section === section && b.lang === lang)[index];
  if (!found) throw new Error(`README has no ${lang} block #${index} under "${section}"`);
  return found.code;
}
