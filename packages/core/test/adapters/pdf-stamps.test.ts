import { describe, expect, it } from 'vitest';
import { findStamps } from '../../src/adapters/pdf/furniture.ts';
import type { TextItem } from '../../src/adapters/pdf/model.ts';
import { textRun } from '../helpers/text-items.ts';

/** A run set askew at (x, y), its box `w` × `h` (the box of a line tilted by some angle). */
const tilted = (str: string, x: number, y: number, w = 200, h = 110): TextItem => ({
  ...textRun(str, x, y),
  w,
  h,
  rotated: 'askew',
});

describe('findStamps: text tilted the same way at the same place on half the pages', () => {
  it('takes a stamp on every page, a point or two apart and its copy number folded, and nothing else', () => {
    const stamp = [0, 1, 2].map((p) => tilted(`Copy ${p + 1} of 10 - do not distribute`, 300 + p, 400 - p));
    const caption = tilted('The mill race in June', 90, 250);
    const found = findStamps([[stamp[0] as TextItem], [stamp[1] as TextItem, caption], [stamp[2] as TextItem]]);
    expect([...found]).toEqual(stamp);
  });

  it('leaves the same words at another angle, another place or on too few pages', () => {
    const text = 'DRAFT - for internal use only';
    // The box of the same line turned further: another angle.
    expect(findStamps([[tilted(text, 300, 400)], [tilted(text, 300, 400, 150, 160)]]).size).toBe(0);
    // Half a page away.
    expect(findStamps([[tilted(text, 300, 400)], [tilted(text, 300, 100)]]).size).toBe(0);
    // Two of five pages.
    expect(findStamps([[tilted(text, 300, 400)], [tilted(text, 300, 400)], [], [], []]).size).toBe(0);
    // Three of five: at least half.
    expect(
      findStamps([[tilted(text, 300, 400)], [tilted(text, 300, 400)], [tilted(text, 300, 400)], [], []]).size,
    ).toBe(3);
  });

  it('finds none in a one-page document, however often a run recurs on its page', () => {
    expect(findStamps([[tilted('DRAFT', 300, 400), tilted('DRAFT', 300, 400)]]).size).toBe(0);
  });

  it('counts pages of one body once: a page printed twice is one page', () => {
    const page = () => [tilted('DRAFT - for internal use only', 300, 400)];
    expect(findStamps([page(), page()], [0, 0]).size).toBe(0);
    expect(findStamps([page(), page()], [0, 1]).size).toBe(2);
  });
});
