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

/** Italic by name. */
const italicWords = /italic|oblique/i;

/** The name without its subset prefix. */
export function baseFontName(name: string): string {
  return name.replace(/^[A-Z]{6}\+/, '');
}

export function boldByName(name: string): boolean {
  const base = baseFontName(name);
  return boldWords.test(base) || texBold.test(base);
}

export function italicByName(name: string): boolean {
  return italicWords.test(name);
}
