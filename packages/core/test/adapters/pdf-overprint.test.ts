import { describe, expect, it } from 'vitest';
import type { TextItem } from '../../src/adapters/pdf/model.ts';
import { dropOverprints } from '../../src/adapters/pdf/overprint.ts';
import { textRun } from '../helpers/text-items.ts';

/** The texts `dropOverprints` keeps, in order. */
const kept = (items: TextItem[]): string[] => dropOverprints(items).map((it) => it.str);

// 12-point runs of 6 points a character (`textRun`): a copy's glyphs stand where the same
// characters of the whole line do.
const whole = 'Specifies that the row permission is to be initially disabled';
const at = (k: number) => 72 + k * 6;

describe('dropOverprints', () => {
  it('drops a partial copy drawn first, in pieces over the whole line drawn as one run (pdf.js)', () => {
    const items = [
      textRun('S ', at(0), 700),
      textRun('ifi ', at(4), 700),
      textRun('th t th ', at(10), 700),
      textRun('i t b i iti ll ', at(37), 700),
      textRun(whole, at(0), 700),
    ];
    expect(kept(items)).toEqual([whole]);
  });

  it('drops a partial copy over a whole line parted where its glyphs are (PDFium)', () => {
    const parts = ['Spec', 'ifi', 'es ', 'th', 'a', 't ', 'th', 'e row']; // "Specifies that the row"
    let k = 0;
    const full = parts.map((p) => {
      const run = textRun(p, at(k), 700);
      k += p.length;
      return run;
    });
    const items = [textRun('S', at(0), 700), textRun('ifi', at(4), 700), textRun('th t th', at(10), 700), ...full];
    expect(kept(items)).toEqual(parts);
  });

  it('keeps both copies of a word drawn twice (fake bold), which the line code makes one bold word', () => {
    expect(kept([textRun('See the ', 72, 700), textRun('Note', 120, 700), textRun('Note', 120.3, 700)])).toEqual([
      'See the ',
      'Note',
      'Note',
    ]);
  });

  it('keeps text drawn later into the blank part of a run, or after a line it goes on from', () => {
    // A cell drawn into a run padded with blanks, and a line finished after the next column's.
    expect(kept([textRun('Total 100    ', 72, 700), textRun('300', 300, 700), textRun('10', 138, 700)])).toEqual([
      'Total 100    ',
      '300',
      '10',
    ]);
    expect(
      kept([textRun('results are shown', 72, 700), textRun('Other column', 330, 700), textRun(' on', 174, 700)]),
    ).toEqual(['results are shown', 'Other column', ' on']);
  });

  it('reads a line of 200,000 runs drawn right to left, a layer each, without comparing them pair by pair', {
    timeout: 60_000,
  }, () => {
    // Pair by pair this is 2·10^10 comparisons (20,000 runs took 3 s); read linearly, well under a
    // second: the bound is far above the one and far below the other, on a busy machine too.
    const items = Array.from({ length: 200_000 }, (_, k) => textRun('ab', 2_500_000 - k * 12, 700));
    expect(dropOverprints(items)).toBe(items);
  });

  it('keeps a copy in another font or size, and returns the same array when nothing is dropped', () => {
    const other = { ...textRun('S ifi', at(0), 700), fontId: 'Courier', fontName: 'Courier' };
    const items = [other, textRun(whole, at(0), 700)];
    expect(dropOverprints(items)).toBe(items);
  });
});
