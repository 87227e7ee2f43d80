/**
 * What a font's name says about its face, for both backends (each also has the font's own flags).
 * Names may carry a subset prefix (`ABCDEF+CMBX12`), which says nothing about the face.
 */

/**
 * Bold by name: the words, `Bd` as foundries shorten it (MyriadBd, HelveticaNeueLTPro-Bd), and TeX's
 * bold faces, whose names abbreviate it: Computer Modern (CMBX12, CMB10, CMSSBX10, CMBXTI10), EC and
 * cm-super (ECBX1000, SFBX1000, SFBI1000, SFSX1000), Euler (EUB10). LaTeX sets headings and run-in
 * labels ("Abstract.", "Keywords:") in them.
 */
const boldWords = /bold|black|heavy|semibold|demi|Bd(?:It|Italic)?$/i;
const texBold = /^(?:CM(?:BX|B\d|SSBX|MIB|BSY)|EC(?:BX|BI|SX)|SF(?:BX|BI|SX)|EUB)/i;

/**
 * Italic by name: the words, `It` and `Ital` closing a name as foundries shorten them (MinionPro-It,
 * MyriadBdIt, NimbusRomNo9L-ReguItal; capital I after a lower-case letter or a hyphen, so a family
 * name ending in "it" is not one), and TeX's italic and slanted faces (CMTI10, CMBXTI10, CMSL10,
 * CMMI10, CMSSI10; EC and cm-super's ECTI, SFTI, SFSL, SFBI). pdf.js reads italic from the name
 * alone, PDFium also from the descriptor's flags: a name that says it makes the two agree.
 */
const italicWords = /italic|oblique/i;
const italicSuffix = /(?:[a-z]|-)(?:It|Ital)$/;
const texItalic = /^(?:CM(?:TI|BXTI|SL|MI|SSI)|EC(?:TI|BI|SI)|SF(?:TI|BI|SL|SI))\d/i;

/** The name without its subset prefix. */
export function baseFontName(name: string): string {
  return name.replace(/^[A-Z]{6}\+/, '');
}

/**
 * Bold by a weight in figures, as type foundries name weights: 600 to 900 (CSS and OpenType's
 * scale: "Inter-600", "Montserrat-700Italic") or W6 to W9 (the Japanese foundries' scale, W3 the
 * text weight: "HiraKakuProN-W6"). Medium (500, "Md", "Medi") is not bold: renderers and type
 * pickers set it as a text weight. One family is the exception: URW's Nimbus Roman No9 L, the Times
 * of TeX's `times` and of Ghostscript, names its bold "Medi" (NimbusRomNo9L-Medi, -MediItal).
 */
const figureBold = /(?:^|[^0-9])[6-9]00(?![0-9])|(?:^|[-_ ,])W[6-9](?![0-9])/;
const nimbusBold = /^NimbusRomNo9L-Medi/i;

export function boldByName(name: string): boolean {
  const base = baseFontName(name);
  return boldWords.test(base) || texBold.test(base) || figureBold.test(base) || nimbusBold.test(base);
}

export function italicByName(name: string): boolean {
  const base = baseFontName(name);
  return italicWords.test(base) || italicSuffix.test(base) || texItalic.test(base);
}

/** Font descriptor flags (PDF 32000 9.8.2): Italic, bit 7; ForceBold, bit 19. */
const FLAG_ITALIC = 1 << 6;
const FLAG_FORCE_BOLD = 1 << 18;

/**
 * Names that leave the weight open, where the descriptor's weight decides: a producer's resource
 * names (F1, T1_0, TT2) and a foundry's own figures (Yoon Gothic's 740 and 780, not the 600–900
 * of CSS, which `boldByName` reads). A name that says its weight (Medium, Semibold, 600, W6)
 * decides by `boldByName` alone: Medium stays regular.
 */
const openName = /^(?:[A-Z]{1,3}\d+(?:_\d+)?|CIDFont\+F\d+)$|\d[1-9]\d|\d\d[1-9]/;

/**
 * Bold by the font's facts, as both backends read them: the descriptor's force-bold flag, the name,
 * and the weight where the name leaves it open. `name` is without its subset prefix; `weight` is
 * PDFium's (`weightOfStem`), -1 where unknown. A name that says which face a font is decides: the
 * weight is worked out from the descriptor's StemV alone, which producers often get wrong
 * (TimesNewRomanPSMT at 130 and Arial at 139 read as 650 and 695: every word bold).
 */
export function boldByFacts(name: string, flags: number, weight: number): boolean {
  return (flags & FLAG_FORCE_BOLD) !== 0 || boldByName(name) || (weight >= 600 && (!name || openName.test(name)));
}

/** Italic by the descriptor's flag or by name. */
export function italicByFacts(name: string, flags: number): boolean {
  return (flags & FLAG_ITALIC) !== 0 || italicByName(name);
}

/**
 * PDFium's font weight (`FPDFFont_GetWeight`) from a descriptor's StemV, for pdf.js, which has none;
 * -1, as PDFium's unknown, for a descriptor without one. PDFium reads StemV as an integer.
 */
export function weightOfStem(stemV: number | null | undefined): number {
  if (typeof stemV !== 'number') return -1;
  const stem = Math.trunc(stemV);
  return stem < 140 ? stem * 5 : stem * 4 + 140;
}
