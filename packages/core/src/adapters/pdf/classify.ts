import type { PageClass } from '../types.ts';
import type { TextItem } from './model.ts';

/** Character counts of a page's text layer: what its verdict rests on, whatever its images cover. */
export interface CharCounts {
  /** Characters other than spaces, leaders included: whether the page has a text layer at all. */
  present: number;
  /** Characters other than spaces and leaders: what the share of junk and of letters is taken of. */
  chars: number;
  bad: number;
  /** Letters and digits: a page of figures is still a readable page. */
  letters: number;
}

/**
 * Leader and fill-in characters: a contents page's dot leaders or a form's blanks can outnumber its
 * letters many times over, and are not junk, so they weigh on neither side of the garbled test. They
 * are still text: a notes page's title over ruled blanks has a text layer, not none for OCR to replace.
 */
function isLeader(c: number): boolean {
  return c === 0x2e || c === 0x5f || c === 0xb7 || (c >= 0x2024 && c <= 0x2026);
}

export function countChars(items: TextItem[]): CharCounts {
  let present = 0;
  let chars = 0;
  let bad = 0;
  let letters = 0;
  for (const it of items) {
    const s = it.str;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === 32) continue;
      present++;
      if (isLeader(c)) continue;
      chars++;
      if ((c >= 0xe000 && c <= 0xf8ff) || c === 0xfffd || c < 32 || (c >= 0x7f && c <= 0x9f)) bad++;
      else if ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c !== 0x7f)) letters++;
    }
  }
  return { present, chars, bad, letters };
}

/**
 * Cheap text-layer verdict for the OCR stage: no text, text that decodes to junk (private-use
 * glyphs, replacement characters, C0 and C1 control codes — fonts without a usable ToUnicode map),
 * or text.
 * It takes counts made once: fast mode asks before and after measuring the page's images.
 */
export function pageClass({ present, chars, bad, letters }: CharCounts, imageCoverage: number): PageClass {
  // One literal for all verdicts: a verdict first met late (the first garbled page) then does not
  // reach code that has never run.
  // A layer of leaders alone (no character besides them) reads as nothing: as before leaders were
  // set aside, it goes to OCR like other junk.
  const junk = chars === 0 || bad > chars * 0.25 || letters < chars * 0.2;
  const text = present < 10 ? 'none' : junk ? 'garbled' : 'text';
  return { text, imageCoverage: Math.round(imageCoverage * 1000) / 1000 };
}
