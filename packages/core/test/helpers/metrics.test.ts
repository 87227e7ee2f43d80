import { describe, expect, it } from 'vitest';
import { headingF1, tableNeighbourF1, textSimilarity } from './metrics.ts';

describe('test metrics', () => {
  it('text similarity ignores markup and rewards order', () => {
    expect(textSimilarity('# Hello **world**', 'hello world')).toBe(1);
    expect(textSimilarity('a b c d', 'a b x y')).toBe(0.5);
    expect(textSimilarity('', 'a')).toBe(0);
  });
  it('table F1 compares neighbours', () => {
    const t = '| a | b |\n| --- | --- |\n| 1 | 2 |';
    expect(tableNeighbourF1(t, t)).toBe(1);
    expect(tableNeighbourF1('| a | 1 |\n| --- | --- |\n| b | 2 |', t)).toBe(0);
    expect(tableNeighbourF1('text', 'text')).toBeNull();
    // One-dash delimiter rows (Docling's style) are syntax, not a row of "-" cells.
    expect(tableNeighbourF1('| a | b |\n| - | :-: |\n| 1 | 2 |', t)).toBe(1);
  });
  it('heading F1 ignores levels', () => {
    expect(headingF1('## Intro\n\n### Scope', '# Intro\n\n# Scope')).toBe(1);
    expect(headingF1('# Other', '# Intro')).toBe(0);
  });
});
