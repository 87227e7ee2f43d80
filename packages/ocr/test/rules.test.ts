import { describe, expect, it } from 'vitest';
import type { Gray } from '../src/raster.ts';
import { removeRules, rulesOf } from '../src/rules.ts';

const blank = (width: number, height: number): Gray => ({
  width,
  height,
  data: new Uint8Array(width * height).fill(255),
});
const paint = (g: Gray, x0: number, y0: number, x1: number, y1: number, v: number) => {
  for (let y = y0; y < y1; y++) g.data.fill(v, y * g.width + x0, y * g.width + x1);
};
const dark = (g: Gray) => g.data.filter((v) => v < 128).length;

describe('scanned rulings', () => {
  it('finds a skewed three-pixel grid as one centre line per rule and whitens it, leaving letters', () => {
    const g = blank(400, 300);
    // A horizontal rule that drops a pixel every 100 columns (a scan a little askew), 3 px thick.
    for (let k = 0; k < 3; k++) paint(g, 20 + k * 120, 50 + k, 20 + (k + 1) * 120, 53 + k, 0);
    paint(g, 20, 250, 380, 252, 0);
    paint(g, 20, 50, 22, 252, 0);
    paint(g, 378, 50, 380, 252, 0);
    // A letter-sized blob inside the frame.
    paint(g, 100, 120, 110, 140, 0);
    const found = removeRules(g, 100, 6);
    expect(found.rows.map((r) => [Math.round(r.at), r.from, r.to])).toEqual([
      [53, 20, 380],
      [251, 20, 380],
    ]);
    expect(found.cols.map((c) => [Math.round(c.at), c.from, c.to])).toEqual([
      [21, 50, 252],
      [379, 50, 252],
    ]);
    expect(dark(g)).toBe(200);
  });

  it('keeps a hairline drawn in mid grey, but not grey runs along bold text, thick bars or short strokes', () => {
    const g = blank(600, 300);
    paint(g, 20, 40, 580, 42, 140);
    // Blurred bold letters: a grey baseline run with dense ink just above it.
    paint(g, 100, 100, 340, 102, 150);
    for (let x = 100; x < 340; x += 12) paint(g, x, 80, x + 8, 100, 0);
    // A black bar 20 px high: a filled area, not a ruling; its ink still goes.
    paint(g, 20, 200, 580, 220, 0);
    // A stroke past the minimum but shorter than a cell border (display type): whitened, no ruling.
    paint(g, 20, 260, 170, 262, 0);
    const found = removeRules(g, 100, 6);
    expect(found.rows.map((r) => Math.round(r.at))).toEqual([41]);
    expect(found.cols).toEqual([]);
    expect(g.data[41 * 600 + 300]).toBe(255);
    // The letters keep their ink; the bar is whitened.
    expect(g.data[90 * 600 + 104]).toBe(0);
    expect(g.data[210 * 600 + 300]).toBe(255);
    expect(g.data[261 * 600 + 100]).toBe(255);
  });

  it('finds a one-pixel rule that steps down a row every 30 pixels (a scan 2° askew)', () => {
    const g = blank(500, 100);
    for (let x = 20; x < 480; x++)
      paint(g, x, 30 + Math.floor((x - 20) / 30), x + 1, 31 + Math.floor((x - 20) / 30), 0);
    // At 150 dpi (a fax): each row holds only 30 dark pixels, under the 50 a ruling needs.
    const found = removeRules(g, 50, 6);
    expect(found.rows.map((r) => [Math.round(r.at), r.from, r.to])).toEqual([[38, 20, 480]]);
    expect(dark(g)).toBe(0);
  });

  it('turns rulings with the page', () => {
    const strokes = { rows: [{ at: 10, from: 20, to: 80 }], cols: [{ at: 30, from: 5, to: 45 }] };
    // A 100 × 50 image turned 90° clockwise is 50 × 100: (x, y) goes to (50 − y, x).
    expect(rulesOf(strokes, 100, 50, 90)).toEqual([
      { x0: 40, y0: 20, x1: 40, y1: 80 },
      { x0: 5, y0: 30, x1: 45, y1: 30 },
    ]);
    expect(rulesOf(strokes, 100, 50, 180)).toEqual([
      { x0: 20, y0: 40, x1: 80, y1: 40 },
      { x0: 70, y0: 5, x1: 70, y1: 45 },
    ]);
  });
});
