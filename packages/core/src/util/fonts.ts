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

/**
 * A line that reads as a sentence: three words or more ending in a full stop, question or
 * exclamation mark. Brackets do not stop it: "(beat)", "(see p. 4).".
 */
const SENTENCE_LINE =
  /(?:["'‘“(]?[\p{L}\p{N}][\p{L}\p{N}'’-]*["'’”),.:;]*\s+){2,}["'‘“(]?[\p{L}\p{N}][\p{L}\p{N}'’-]*["'’”)]*[.!?]["'’”)]*$/u;
/** Characters of a line's end read for a sentence's end: enough for three words, and a bound on the work. */
const SENTENCE_TAIL = 160;
/** A sign only code shows: braces, "=", angle or square brackets, a call's bracket straight after a name, a closing ";". */
const CODE_SIGN = /[{}=<>[\]]|[\p{L}\p{N}_]\(|;\s*$/u;
/**
 * A line only code opens so, in lower case as programs write it ("Return the form" opens a
 * sentence): an import, a definition, a return, a block's head (`if x:`, `else:`), a lone `pass`, and SQL's verbs
 * in capitals.
 */
const KEYWORD_LINE =
  /^\s*(?:import\s+[\w.*{]|from\s+[\w.]+\s+import\b|return\b|def\s|class\s+\w|#include\b|(?:(?:if|elif|for|while|with|except)\b[^\n]*|else|try|finally)\s*:\s*$|(?:pass|break|continue)\s*$|(?:SELECT|INSERT|UPDATE|DELETE)\s)/;
/**
 * A shell command opening a line: a prompt's "$ ", or a command no English sentence opens with, in
 * lower case (`npm install docmill`, `git clone …`, `cd src`).
 */
const SHELL =
  /^\s*(?:\$ \S|(?:npm|npx|pnpm|pip3?|git|docker|kubectl|curl|wget|sudo|apt-get|cd|ls|mkdir|chmod)\s+[\w.~/$"'-])/m;

/** Whether one line of a typewriter face shows a sign of code (a line going on with a block of code). */
export const showsCodeSign = (line: string): boolean =>
  CODE_LIKE.test(line) || KEYWORD_LINE.test(line) || SHELL.test(line);

/** A line opening with a bracket: a Lisp form, code with none of `CODE_SIGN`'s signs. */
const LISP_FORM = /^\s*\(/m;

/**
 * Whether lines set wholly in a monospaced face are code: they show signs of code (`CODE_LIKE`) or a
 * shell command, and no more of them read as sentences than show a sign only code has. A letter or a screenplay typed
 * in Courier has brackets too ("(beat)", "(ref. 123)"), but its lines are sentences; a program's
 * comments that read so are fewer than its statements. Where no line shows such a sign, only a Lisp
 * form is code: a name with a bracket after it ("Jane Doe (Platform Team)") is not.
 */
export function codeLike(snippet: string): boolean {
  if (!CODE_LIKE.test(snippet) && !SHELL.test(snippet)) return false;
  let signs = 0;
  let sentences = 0;
  for (const line of snippet.split('\n')) {
    if (CODE_SIGN.test(line) || KEYWORD_LINE.test(line) || SHELL.test(line)) signs++;
    else if (SENTENCE_LINE.test(line.trimEnd().slice(-SENTENCE_TAIL))) sentences++;
  }
  return signs >= sentences && (signs > 0 || LISP_FORM.test(snippet));
}
