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

const monoWords = /mono|courier|consol/i;

/** Monospaced by name (Courier, Consolas, the many *Mono faces), where the font's flags do not say so. */
export function monoByName(name: string): boolean {
  return monoWords.test(name);
}
