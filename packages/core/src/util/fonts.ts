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
  /[{}();=<>[\]]|^[ \t]*(def|class|import|from|return|select|print|function|var|let|const|#include)\b/im;

/**
 * A line that reads as a sentence: three words or more ending in a full stop, question or
 * exclamation mark. Brackets do not stop it: "(beat)", "(see p. 4).".
 */
const SENTENCE_LINE =
  /(?:["'‘“(]?[\p{L}\p{N}][\p{L}\p{N}'’-]*["'’”),.:;]*\s+){2,}["'‘“(]?[\p{L}\p{N}][\p{L}\p{N}'’-]*["'’”)]*[.!?]["'’”)]*$/u;
/** Characters of a line's end read for a sentence's end: enough for three words, and a bound on the work. */
const SENTENCE_TAIL = 160;
/** A sign only code shows: braces, "=", angle or square brackets, a call's bracket straight after a name, a closing ";". */
const CODE_SIGN = /[{}=<>[\]]|[\p{L}\p{N}_]\(|;$/u;
/** An e-mail or web address in angle brackets, as a letter writes it: neither a comparison nor a tag. */
const BRACKETED_ADDRESS = /<(?:[^<>\s@]+@[^<>\s]+|https?:\/\/[^<>\s]+)>/g;
/**
 * A line only code opens so, in lower case as programs write it ("Return the form" opens a
 * sentence): an import, a definition, a return, a block's head (`if x:`, `else:`), a lone `pass`,
 * and SQL's verbs in capitals. Read on a line without trailing blanks.
 */
const KEYWORD_LINE =
  /^\s*(?:import\s+[\w.*{]|from\s+[\w.]+\s+import\b|return\b|def\s|class\s+\w|#include\b|(?:if|elif|for|while|with|except)\b.*:$|(?:else|try|finally):$|(?:pass|break|continue)$|(?:SELECT|INSERT|UPDATE|DELETE)\s)/;
/**
 * A shell command opening a line: a prompt's "$ ", or a command no English sentence opens with, in
 * lower case (`npm install docmill`, `git clone …`, `cd src`).
 */
const SHELL =
  /^[ \t]*(?:\$ \S|(?:npm|npx|pnpm|pip3?|git|docker|kubectl|curl|wget|sudo|apt-get|cd|ls|mkdir|chmod)[ \t]+[\w.~/$"'-])/m;
/** A comment only code opens a line with (`# `, `//`, `/*`): a sign, though it reads as a sentence. */
const COMMENT_LINE = /^[ \t]*(?:#(?:[ \t!]|$)|\/\/|\/\*|\*\/)/m;
/** A line opened by a mark that may open a comment or a list (`*`, `--`, `;`, `%`): no sentence, no sign. */
const MARKED_LINE = /^[ \t]*(?:\*|--|;|%)/;
/** A docstring's quotes: the lines they open and close, and those between, are no sentences of prose. */
const DOCSTRING = /"""|'''/g;
/** A line opening with a bracket that opens another before it closes: a Lisp form (`(defun f (x)`), not "(555) 123". */
const LISP_FORM = /^[ \t]*\([^()\n]*\(/m;

/** Whether a line (no trailing blanks) shows a sign of code. */
function signed(line: string): boolean {
  const bare = line.includes('<') ? line.replace(BRACKETED_ADDRESS, '') : line;
  return CODE_SIGN.test(bare) || KEYWORD_LINE.test(line) || SHELL.test(line) || COMMENT_LINE.test(line);
}

/** Whether a line (no trailing blanks) without a sign of code reads as a sentence. */
const sentence = (line: string): boolean => !MARKED_LINE.test(line) && SENTENCE_LINE.test(line.slice(-SENTENCE_TAIL));

/** Whether a line (no trailing blanks) reads as a sentence and shows no sign of code. */
const proseLine = (line: string): boolean => !signed(line) && sentence(line);

/** Whether one line of a typewriter face shows a sign of code (a line going on with a block of code). */
export const showsCodeSign = (line: string): boolean => CODE_LIKE.test(line) || signed(line.trimEnd());

/**
 * Whether lines set wholly in a monospaced face are code: they show signs of code (`CODE_LIKE`, a
 * shell command, a comment), and no more of them read as sentences than show a sign only code has.
 * A letter or a screenplay typed in Courier has brackets too ("(beat)", "(ref. 123)"), but its lines
 * are sentences; a program's comments and docstrings, which read so, are not counted as sentences.
 * Where no line shows such a sign, only a Lisp form is code: a name with a bracket after it ("Jane
 * Doe (Platform Team)"), a telephone number, are not.
 */
export function codeLike(snippet: string): boolean {
  if (!CODE_LIKE.test(snippet) && !SHELL.test(snippet) && !COMMENT_LINE.test(snippet)) return false;
  let signs = 0;
  let sentences = 0;
  let docstring = false;
  for (const raw of snippet.split('\n')) {
    const line = raw.trimEnd();
    const quotes = line.match(DOCSTRING)?.length ?? 0;
    if (quotes % 2) docstring = !docstring;
    if (signed(line)) signs++;
    else if (!quotes && !docstring && sentence(line)) sentences++;
  }
  return signs >= sentences && (signs > 0 || LISP_FORM.test(snippet));
}

/** Whether a paragraph's text reads as prose: each of its lines a sentence with no sign of code. */
function readsAsProse(text: string): boolean {
  let any = false;
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (!line) continue;
    if (!proseLine(line)) return false;
    any = true;
  }
  return any;
}

/**
 * Where the code lies in a run of paragraphs set wholly in a monospaced face (each its text, '' for
 * a blank one), decided together: a line of code need not show a sign of code itself ("else:"). The
 * paragraphs of prose opening and closing the run stay text ("Install it, then run this."); those
 * between are one block of code, `[start, end)`, when they are `codeLike`. Undefined where none is.
 */
function snippetSpan(paras: readonly string[]): [start: number, end: number] | undefined {
  let a = 0;
  while (a < paras.length && (!(paras[a] as string).trim() || readsAsProse(paras[a] as string))) a++;
  let b = paras.length;
  while (b > a && (!(paras[b - 1] as string).trim() || readsAsProse(paras[b - 1] as string))) b--;
  return a < b && codeLike(paras.slice(a, b).join('\n')) ? [a, b] : undefined;
}

/**
 * A run of paragraphs set wholly in a monospaced face, in order (`snippetSpan`): `text(k)` for each
 * paragraph that stays text, `code(value)` once for the block of code, where there is one.
 */
export function divideSnippet(
  paras: readonly string[],
  code: (value: string) => void,
  text: (k: number) => void,
): void {
  const [start, end] = snippetSpan(paras) ?? [paras.length, paras.length];
  for (let k = 0; k < paras.length; k++) {
    if (k === start) code(paras.slice(start, end).join('\n'));
    if (k < start || k >= end) text(k);
  }
}

/** A word processor's code text: a tab four blanks, a no-break blank a blank (a Python line's indent). */
export const codeBlanks = (s: string): string => s.replace(/\t/g, '    ').replace(/\u00a0/g, ' ');
