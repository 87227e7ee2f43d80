/**
 * Monospaced faces by name, for the formats that name a run's font but not always its pitch:
 * Courier (and Nimbus Mono, its clone), Consolas, Menlo, Monaco, Fixedsys, Andale Mono, the many
 * *Mono faces (not Monotype's: a foundry, its Corsiva a script; but Monotype.com, Andale Mono's
 * first name; nor the display faces Monoton and Monofett), Source Code, Fira Code, Cascadia Code,
 * Lucida Sans and Latin Modern Typewriter, and TeX's (CMTT9, SFTT1000, txtt). Not every name with
 * "code" or "typewriter" in it: Code Pro is a geometric sans, Code 128 a barcode, American
 * Typewriter a proportional slab. As Office names faces ("Source Code Pro") and as PDFs do
 * (`SourceCodePro-Regular`, `ABCDEF+CMTT9`).
 */
const MONOSPACED =
  /mono(?!type(?!\.com)|ton|fett)|courier|consol|menlo|monaco|fixedsys|source ?code|fira ?code|cascadia ?code|(?:lucida ?sans ?|lm ?)typewriter|letter ?gothic|gyrecursor|nimbus ?mon|\bfixed\b|(?:^|\+)(?:cm|ec|sf)(?:sl|it|i)?tt\d|(?:^|\+)t?xtt/i;

export const monospacedByName = (name: string): boolean => MONOSPACED.test(name);

/**
 * Signs and keywords of code: a paragraph set wholly in a monospaced face is code when it has them,
 * and a font choice when not (a title or an address in Courier).
 */
export const CODE_LIKE =
  /[{}();=<>[\]]|^\s*(def|class|import|from|return|select|print|function|var|let|const|#include)\b/im;
