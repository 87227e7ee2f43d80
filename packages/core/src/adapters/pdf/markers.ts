// Symbol-font glyphs (boxes, arrows, pointing hands) come through as private-use characters, or,
// from fonts whose codes were mapped to Latin-1 unchanged, as one or two C1 control characters:
// never text, and at a line's start a list marker.
const GLYPH = '[•◦▪▫‣●○■□►▸➢✓✔·☐☑☒\\uf000-\\uf0ff]|[\\u0080-\\u009f]+';
/** A bullet opening a line, a glyph or a dash; its group is the mark. */
export const bullet = new RegExp(`^(${GLYPH}|[-–—*])\\s+(?=\\S)`);
/** A bullet glyph (no dash) opening a line's words. */
export const glyphWord = new RegExp(`^(?:${GLYPH})\\s+\\S`);
/** A bullet glyph drawn as a run of its own. */
export const bulletAlone = new RegExp(`^(${GLYPH})$`);
/**
 * Glyphs that mark a list's items and nothing else: ticks, boxes and filled or empty dots are also
 * a table's values ("●" supported, "○" not), and a middle dot separates. The private-use ones are
 * Word's default bullets in Symbol and Wingdings.
 */
const ITEM_GLYPH = '[•◦▪▫‣►▸➢\\uf0b7\\uf0a7\\uf076\\uf0d8]';
/** An item glyph drawn as a run of its own. */
export const itemGlyphAlone = new RegExp(`^${ITEM_GLYPH}$`);
/** An item glyph opening a run's words; the match is the glyph and its blank. */
export const itemGlyphOpening = new RegExp(`^${ITEM_GLYPH}\\s+(?=\\S)`);
/** A dash marking an item drawn as a run of its own (the item's text must open with a letter). */
export const itemDashAlone = /^[-–—]$/;
/** A dash opening an item's words, before a letter (a table's nil, "–", and "-12" open none). */
export const itemDashOpening = /^[-–—]\s+(?=\p{L})/u;
/**
 * A figure numbering an item, "1." or "2)"; its group is the figure. Letters open names as often
 * ("A. Smith" over "B. Jones"), and a number in brackets ("(1)", a clause's) would lose them when
 * the list numbers its items again.
 */
const ITEM_FIGURE = '(\\d{1,3})[.)]';
/** A figure opening an item, alone or before the item's words; the match is the figure and its blank. */
export const itemFigure = new RegExp(`^${ITEM_FIGURE}(?:\\s+(?=\\S)|$)`);
/** A run that may open an item: its glyph, dash or figure (a cheap first test). */
export const mayOpenItem = new RegExp(`^\\s*(?:${ITEM_GLYPH}|[-–—](?:\\s|$)|${ITEM_FIGURE}(?:\\s|$))`);
/**
 * A bullet opening an item: a glyph, or a dash before a letter (a table's nil, "– 12", or a
 * negative figure opens none).
 */
export const bulletWord = new RegExp(`^(?:(?:${GLYPH})\\s+\\S|[-–—*]\\s+\\p{L})`, 'u');
/** An enumerator's mark: "1.", "(a)", "iv)"; its group is the number or letter. */
const ENUMERATOR_MARK = /\(?(\d{1,3}|[a-zA-Z]|[ivxlc]{1,5})[.)]/.source;
// "1.1:" numbers an item of a list kept per section (a strategy's objectives under its pillars); a
// section number without the colon ("2.3 Methods") is a heading's, and stays text.
export const enumerator = new RegExp(`^(${ENUMERATOR_MARK}|\\d{1,2}\\.\\d{1,2}:)\\s+(?=\\S)`);
/** An enumerator's mark drawn as a run of its own. */
export const enumeratorAlone = new RegExp(`^${ENUMERATOR_MARK}$`);

/**
 * Where an item a line opens stands in its list's sequence: a number, or a letter's place in the
 * alphabet ("c)" 3); null for a line no enumerator opens, or one numbered in roman figures of
 * more than one letter (which a letter's place would misread).
 */
export function enumeratorValue(text: string): number | null {
  const e = enumerator.exec(text);
  const mark = e?.[2];
  if (!mark) return null;
  if (/^\d+$/.test(mark)) return yearLike(mark) ? null : Number(mark);
  return mark.length === 1 ? mark.toLowerCase().charCodeAt(0) - 96 : null;
}

/** Whether an enumerator's figures are a year's or a measure's ("2020. The year…", "3.5 mm"), not an item's. */
export const yearLike = (digits: string): boolean => digits.length > 2 && Number(digits) > 100;
