/**
 * Word counts of text runs, asked for every run of every row a table try reads: a scan of the
 * characters where splitting at `\s+` and testing each piece with Unicode patterns cost most of it.
 */

import { isBlank } from '../../../util/blank.ts';

/** Whether a text ends in white space (`/\s$/`, by its last unit alone: a pattern anchored at the end is tried from every position). */
export const endsInSpace = (t: string): boolean => t.length > 0 && isBlank(t.charCodeAt(t.length - 1));

/** Words of a text: its pieces between white space (`t.split(/\s+/).filter(Boolean).length`). */
export function wordCount(t: string): number {
  let n = 0;
  let inWord = false;
  for (let k = 0; k < t.length; k++) {
    const space = isBlank(t.charCodeAt(k));
    if (!space && !inWord) n++;
    inWord = !space;
  }
  return n;
}

/** A word whose first letter is a capital (what precedes it, quotes and brackets, aside). */
const capitalised = /^\P{L}*\p{Lu}/u;
export const twoLetters = /\p{L}{2}/u;
const nonAscii = /[^\x00-\x7f]/;

/** What `letterWords` found: words of two letters or more in a row, and whether one of them starts in lower case. */
export interface LetterWords {
  words: number;
  lower: boolean;
}

/**
 * Adds to `out` the pieces of `t` between white space that hold two letters in a row, and whether
 * one of them has no capital for its first letter. ASCII text is scanned (letters A–Z, a–z); other
 * text goes piece by piece through the Unicode patterns.
 */
export function letterWords(t: string, out: LetterWords): void {
  if (nonAscii.test(t)) {
    for (const w of t.split(/\s+/)) {
      if (!twoLetters.test(w)) continue;
      out.words++;
      if (!capitalised.test(w)) out.lower = true;
    }
    return;
  }
  let k = 0;
  while (k < t.length) {
    while (k < t.length && isBlank(t.charCodeAt(k))) k++;
    if (k >= t.length) break;
    // One piece: whether two letters stand together in it, and the case of its first letter.
    let pair = false;
    let first = 0;
    let letterBefore = false;
    for (; k < t.length; k++) {
      const c = t.charCodeAt(k);
      if (isBlank(c)) break;
      const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
      if (letter && !first) first = c;
      if (letter && letterBefore) pair = true;
      letterBefore = letter;
    }
    if (!pair) continue;
    out.words++;
    if (first > 90) out.lower = true;
  }
}
