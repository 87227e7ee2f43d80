import { describe, expect, it } from 'vitest';
import { countNear, nearRange } from '../../src/util/arrays.ts';

describe('countNear', () => {
  it('counts by x - d <= value <= x + d, the bounds computed first', () => {
    // 64.56294724358321 - 62.5629472435832 rounds above 2, while 62.5629472435832 + 2 rounds to
    // 64.56294724358321 itself: the table and reading-order callers compared against the bound.
    expect(countNear([64.56294724358321], 62.5629472435832, 2)).toBe(1);
    expect(countNear([1, 2, 3, 4, 5, 9], 3, 1)).toBe(3);
    expect(countNear([1, 2, 3, 4, 5, 9], 3, 0.5)).toBe(1);
    expect(countNear([], 3, 1)).toBe(0);
  });
});

describe('nearRange', () => {
  it('gives the places of the values whose difference from x is within d', () => {
    expect(nearRange([1, 2, 3, 4, 5, 9], 3, 1)).toEqual([1, 4]);
    expect(nearRange([1, 2, 3, 4, 5, 9], 20, 1)).toEqual([6, 6]);
    // By |value - x| <= d, not by the bound x + d: the one value is past it.
    expect(nearRange([64.56294724358321], 62.5629472435832, 2)).toEqual([0, 0]);
  });
});
