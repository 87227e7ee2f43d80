import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { workspaceRoot } from './packages.ts';

/**
 * The first fenced ```lang block of the README section under `heading` (the exact heading line,
 * `### LangChain.js`), as printed: tests run README snippets from here, so the README cannot drift
 * from what is tested.
 */
export function readmeBlock(heading: string, lang: string, file = join(workspaceRoot, 'README.md')): string {
  const lines = readFileSync(file, 'utf8').split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`README has no heading "${heading}"`);
  const level = heading.indexOf(' ');
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i] as string;
    const h = /^(#+) /.exec(line);
    if (h && (h[1] as string).length <= level) break;
    if (line === `\`\`\`${lang}`) {
      const end = lines.indexOf('```', i + 1);
      if (end < 0) throw new Error(`README: unclosed block under "${heading}"`);
      return `${lines.slice(i + 1, end).join('\n')}\n`;
    }
  }
  throw new Error(`README: no \`\`\`${lang} block under "${heading}"`);
}
