import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACCEPTED_EXTENSIONS, chunk, chunkSchema, createEngine, render } from '../../src/index.ts';
import { contextOverBudget, offsetErrors, overBudget, wordCoverage } from '../helpers/chunks.ts';
import { corpusRoot, corpusSkipReason, hasCorpus } from '../helpers/corpus.ts';

/**
 * The chunk guarantees on real documents: every document of the corpus's docling, markitdown and
 * tables folders (pdfbench's 1,210 pages and the OCR'd images are left to `pnpm bench:chunks`,
 * which covers the whole corpus), at 256, 512 and 1,024 tokens: no chunk over budget, its text
 * or its contextualized text; the Markdown's words in the chunks in order; offsets that point at
 * the chunk's own content; every chunk as `chunkSchema` describes it.
 */

const FOLDERS = ['docling', 'markitdown', 'tables'];
const BUDGETS = [256, 512, 1024];

function documents(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        if (!['groundtruth', 'expected_outputs', 'ocr'].includes(name)) walk(path);
      } else if ((ACCEPTED_EXTENSIONS as readonly string[]).includes(extname(name).toLowerCase())) out.push(path);
    }
  };
  for (const f of FOLDERS) walk(join(corpusRoot, f));
  return out;
}

describe.skipIf(!hasCorpus)(`chunks of corpus documents${hasCorpus ? '' : ` (${corpusSkipReason})`}`, () => {
  it('stay within budget, keep every word in order and point at their own text', { timeout: 1_200_000 }, async () => {
    const engine = createEngine();
    const problems: string[] = [];
    let words = 0;
    let found = 0;
    let parsed = 0;
    try {
      for (const path of documents()) {
        const name = relative(corpusRoot, path);
        let tree: Awaited<ReturnType<typeof engine.parseTree>>['tree'];
        try {
          ({ tree } = await engine.parseTree(
            new Uint8Array(readFileSync(path)),
            { parsers: [{ type: 'pdf', mode: 'fast' }], timeout: 300_000 },
            { filename: name },
          ));
        } catch {
          continue; // Refused documents (encrypted, unsupported) have no chunks to check.
        }
        parsed++;
        const markdown = render(tree, 'markdown');
        for (const maxTokens of BUDGETS) {
          const chunks = await chunk(tree, { maxTokens });
          const over = [...overBudget(chunks, maxTokens), ...contextOverBudget(chunks, maxTokens)];
          if (over.length) problems.push(`${name} @${maxTokens}: over budget ${JSON.stringify(over.slice(0, 3))}`);
          const unlike = chunks.flatMap((c) => chunkSchema.safeParse(c).error?.issues ?? []);
          if (unlike.length)
            problems.push(`${name} @${maxTokens}: not as chunkSchema says ${JSON.stringify(unlike[0])}`);
          const offsets = offsetErrors(markdown, chunks);
          if (offsets.length) problems.push(`${name} @${maxTokens}: offsets ${offsets.slice(0, 3).join('; ')}`);
          const cov = wordCoverage(markdown, chunks);
          words += cov.words;
          found += cov.found;
          // Words are only lost where one longer than the budget is cut: never many in one document.
          if (cov.found < cov.words * 0.98) problems.push(`${name} @${maxTokens}: missing ${cov.missing.join(' ')}`);
        }
      }
    } finally {
      await engine.close();
    }
    expect(parsed).toBeGreaterThan(100);
    expect(problems).toEqual([]);
    expect(found / words).toBeGreaterThanOrEqual(0.995);
  });
});
