/**
 * Letter tests the text heuristics share, held as module constants: a `\p{…}` pattern written
 * inside a function is rebuilt by `new RegExp` on every call once esbuild lowers it (tsx does, and
 * the benchmarks and tests run the sources through tsx). None is global, so sharing one is safe.
 */
export const LETTER = /\p{L}/u;
export const STARTS_LETTER = /^\p{L}/u;
export const ENDS_LETTER = /\p{L}$/u;
export const STARTS_LOWER = /^\p{Ll}/u;
export const ENDS_LOWER = /\p{Ll}$/u;
/** A full stop, question or exclamation mark, colon or semicolon ends the text. */
export const ENDS_SENTENCE = /[.!?:;]$/;
/** Three words at least: a line of prose, not a label. */
export const THREE_WORDS = /\S\s+\S+\s+\S/;

/**
 * Whether `below` goes on from `above` as one sentence does from line to line: no full stop, colon
 * or semicolon ends `above`, and `below` starts in lower case.
 */
export const readsOn = (above: string, below: string): boolean =>
  !ENDS_SENTENCE.test(above) && STARTS_LOWER.test(below);

/**
 * CJK and Hangul, scripts their fixed-width faces set as running text: a run of them is never code
 * by its font alone (PDF, PowerPoint, RTF).
 */
export const WIDE_SCRIPT = /[\u1100-\u11ff\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]/;
