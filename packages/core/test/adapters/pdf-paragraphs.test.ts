import { describe, expect, it } from 'vitest';
import { buildBlocks, docStats } from '../../src/adapters/pdf/blocks.ts';
import { buildLines } from '../../src/adapters/pdf/lines.ts';
import type { TextItem } from '../../src/adapters/pdf/model.ts';
import { blockText } from '../../src/tree/walk.ts';
import { textRun } from '../helpers/text-items.ts';

/** The blocks of a page of `lines` lines, one under the other, line `k` reading `line(k)`. */
function blocksOf(lines: number, line: (k: number) => string) {
  const items: TextItem[] = [];
  for (let k = 0; k < lines; k++) items.push(textRun(line(k), 40, 40 + k * 14));
  const page = {
    number: 1,
    width: 612,
    height: 40 + lines * 14 + 100,
    lines: buildLines(items),
    tables: [],
    images: [],
  };
  return buildBlocks(page, docStats([page], new Set(), new Map()));
}

describe('PDF paragraphs of thousands of lines', () => {
  it('reads a paragraph of 20,000 lines, hyphens at its line ends joined, in one pass', () => {
    // Each line ends in a word broken at a hyphen that the next line ends. The paragraph's end and
    // edges were measured again from its start at every line: quadratic in its lines.
    const lines = 20_000;
    const blocks = blocksOf(lines, (k) =>
      k === 0 ? 'An exam-' : k === lines - 1 ? `ple ${k} ends here.` : `ple ${k} runs on to an exam-`,
    );
    expect(blocks).toHaveLength(1);
    expect(blocks[0]?.type).toBe('paragraph');
    const text = blockText(blocks[0] as (typeof blocks)[number]);
    expect(text.startsWith('An example 1 runs on to an example 2 runs on')).toBe(true);
    expect(text.endsWith(`an example ${lines - 1} ends here.`)).toBe(true);
    expect(text.split('example')).toHaveLength(lines);
  }, 120_000);

  it('joins a paragraph of 8,000 lines that each end at a hyphen into one word', () => {
    // "walk-", "ing-" ... "ing.": every hyphen is removed, so the word before each one is the whole
    // paragraph so far; it was read back whole at each line, in a walk over all its pieces that
    // tested the growing text at every step: cubic, 1.7 s CPU at 1,000 lines, 11 s at 2,000, some
    // 12 minutes at 8,000. Nothing times it: such a walk would run past the suite's bounds.
    const lines = 8_000;
    const blocks = blocksOf(lines, (k) => (k === 0 ? 'walk-' : k === lines - 1 ? 'ing.' : 'ing-'));
    expect(blocks).toHaveLength(1);
    expect(blockText(blocks[0] as (typeof blocks)[number])).toBe(`walk${'ing'.repeat(lines - 1)}.`);
  }, 120_000);
});
