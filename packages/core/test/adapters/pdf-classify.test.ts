import { describe, expect, it } from 'vitest';
import { countChars, pageClass } from '../../src/adapters/pdf/classify.ts';
import type { TextItem } from '../../src/adapters/pdf/model.ts';
import { textRun } from '../helpers/text-items.ts';

/** One upright run per line of a page's text layer. */
const page = (lines: string[]): TextItem[] => lines.map((str, i) => textRun(str, 72, 72 + i * 16, true));

const verdict = (lines: string[]) => pageClass(countChars(page(lines)), 0).text;

describe('PDF page verdict (which pages OCR reads in auto mode)', () => {
  it('judges a contents page whose dot leaders outnumber its letters a text page', () => {
    const leaders = '.'.repeat(60);
    expect(verdict(['Contents', `Introduction ${leaders} 1`, `Methods ${leaders} 7`, `Results ${leaders} 12`])).toBe(
      'text',
    );
  });

  it('judges a page of a short title over ruled blanks a text page, not an empty one to OCR', () => {
    // A notes page or a form: the blanks are part of an exact text layer. They count as text for
    // whether the page has any (OCR would replace it), though not for whether that text is junk.
    const blank = '_'.repeat(40);
    expect(verdict(['Notes', blank, blank, blank, blank, blank])).toBe('text');
    expect(verdict(['Sign', `${'\u2026'.repeat(30)}`])).toBe('text');
  });

  it('still judges junk glyphs garbled and a near-empty layer none, leaders or not', () => {
    const junk = '\ue001\ue002\ue003\ue004\ue005 \ue006\ue007\ue008';
    expect(verdict([junk, junk, `${junk} ${'.'.repeat(40)}`])).toBe('garbled');
    expect(verdict(['.'.repeat(80), '_'.repeat(40)])).toBe('garbled');
    expect(verdict(['\u0084\u0085\u0086\u0087 \u0088\u0089\u008a', 'ab \u0091\u0092\u0093\u0094'])).toBe('garbled');
    expect(verdict(['12'])).toBe('none');
    expect(verdict(['   '])).toBe('none');
  });
});
