import type { PageClass } from '../types.ts';
import type { TextItem } from './model.ts';

/**
 * Cheap text-layer verdict for the OCR stage: no text, text that decodes to junk (private-use
 * glyphs, replacement characters, control codes — fonts without a usable ToUnicode map), or text.
 */
export function classifyPage(items: TextItem[], imageCoverage: number): PageClass {
  let chars = 0;
  let bad = 0;
  /** Letters and digits: a page of figures is still a readable page. */
  let letters = 0;
  for (const it of items) {
    const s = it.str;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === 32) continue;
      chars++;
      if ((c >= 0xe000 && c <= 0xf8ff) || c === 0xfffd || c < 32) bad++;
      else if ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c !== 0x7f)) letters++;
    }
  }
  const coverage = Math.round(imageCoverage * 1000) / 1000;
  if (chars < 10) return { text: 'none', imageCoverage: coverage };
  if (bad > chars * 0.25 || letters < chars * 0.2) return { text: 'garbled', imageCoverage: coverage };
  return { text: 'text', imageCoverage: coverage };
}
