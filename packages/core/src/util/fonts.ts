/**
 * Monospaced faces by name, for the formats that name a run's font but not always its pitch:
 * Courier (and Nimbus Mono, its clone), Consolas, Menlo, Monaco, Fixedsys, Andale, the many *Mono
 * faces (not Monotype's: a foundry, its Corsiva a script), Source Code, Fira Code, Cascadia,
 * typewriter faces, and TeX's (CMTT9, SFTT1000, txtt). As Office names them ("Source Code Pro")
 * and as PDFs do (`SourceCodePro-Regular`, `ABCDEF+CMTT9`).
 */
const MONOSPACED =
  /mono(?!type)|courier|consol|menlo|monaco|fixedsys|andale|source ?code|fira ?code|cascadia|typewriter|letter ?gothic|gyrecursor|nimbus ?mon|\bfixed\b|\bcode\b|(?:^|\+)(?:cm|ec|sf)(?:sl|it|i)?tt\d|(?:^|\+)t?xtt/i;

export const monospacedByName = (name: string): boolean => MONOSPACED.test(name);
