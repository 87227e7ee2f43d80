import { isBlank } from '../../util/blank.ts';
import type { TokenCounter, TokenizerName } from './types.ts';

/** Token counting as chunking needs it. */
export interface Counter {
  count(text: string): number;
  /** The count when it is at most `limit`, otherwise false (may stop counting early). */
  within(text: string, limit: number): number | false;
  /**
   * Exact tokens of `a + "\n\n" + b` minus those of `a` and of `b`, when the tokenizer lets that be
   * known without counting the whole (both trimmed); undefined otherwise.
   */
  joint(a: string, b: string): number | undefined;
  /**
   * True when cutting `text` at `at` splits no pre-token: counts of any two pieces meeting there
   * add up to the count of the two together. False when unknown.
   */
  seam(text: string, at: number): boolean;
}

/** What chunking uses of a gpt-tokenizer encoding module. */
export interface Encoding {
  countTokens(text: string, options: { disallowedSpecial: Set<string> }): number;
  isWithinTokenLimit(text: string, limit: number, options: { disallowedSpecial: Set<string> }): number | false;
}

/** Special-token text (`<|endoftext|>`) in a document is text: counted as ordinary tokens, never refused. */
const NO_SPECIAL = { disallowedSpecial: new Set<string>() };
const JOIN = '\n\n';
/** Longer texts are counted with an early stop: past the limit the rest does not matter. */
const EARLY_STOP_LENGTH = 4096;
const SMALL = 48;
const CACHE_SIZE = 4096;

/** Counts of short texts (joints, header rows, fences) that come back again and again. */
function cached(fn: (text: string) => number): (text: string) => number {
  const cache = new Map<string, number>();
  return (text) => {
    if (!text) return 0;
    if (text.length > SMALL) return fn(text);
    let n = cache.get(text);
    if (n === undefined) {
      n = fn(text);
      if (cache.size >= CACHE_SIZE) cache.clear();
      cache.set(text, n);
    }
    return n;
  };
}

const TRAILING_SYMBOLS = /(?: ?)[^\s\p{L}\p{N}]+$/u;

/**
 * o200k_base and cl100k_base split text into pieces before BPE (a regular expression), and the
 * pieces of `a + "\n\n" + b` are those of `a`, the blank line, then those of `b`, with one
 * exception: a run of symbols ending `a` (with the space before it) takes the newlines in (and, in
 * o200k, slashes starting `b`). So the joint costs the blank line's tokens, or the difference the
 * newlines make to that last run; `b` starting with "/" after such a run is left to a full count.
 */
export function encodingCounter(enc: Encoding, name: TokenizerName): Counter {
  const count = cached((text) => enc.countTokens(text, NO_SPECIAL));
  const join = count(JOIN);
  return {
    count,
    within: (text, limit) => {
      if (morePiecesThan(text, limit)) return false;
      if (text.length <= EARLY_STOP_LENGTH) {
        const n = count(text);
        return n <= limit ? n : false;
      }
      return enc.isWithinTokenLimit(text, limit, NO_SPECIAL);
    },
    joint: (a, b) => {
      const run = TRAILING_SYMBOLS.exec(a.slice(-SMALL));
      if (!run) return join;
      // A combining mark belongs to the letters before it in o200k: not a run of its own.
      if (run[0].length >= SMALL || /\p{M}/u.test(run[0]) || (name === 'o200k_base' && b.startsWith('/')))
        return undefined;
      return count(run[0] + JOIN) - count(run[0]);
    },
    seam,
  };
}

/** A single space between two non-blanks at `at`: no pre-token spans it. */
const spaceSeam = (text: string, at: number): boolean =>
  at > 0 &&
  at + 1 < text.length &&
  text.charCodeAt(at) === 0x20 &&
  !isBlank(text.charCodeAt(at - 1)) &&
  !isBlank(text.charCodeAt(at + 1));

/**
 * True when `text` has more pre-tokens than `limit`, so more tokens: each single space between
 * non-blanks starts one. A block far over the budget is known so without counting it (it is cut
 * and its parts counted anyway).
 */
function morePiecesThan(text: string, limit: number): boolean {
  if (text.length <= 2 * limit) return false;
  let pieces = 1;
  for (let at = text.indexOf(' ', 1); at > 0; at = text.indexOf(' ', at + 1))
    if (spaceSeam(text, at) && ++pieces > limit) return true;
  return false;
}

/**
 * Two seams the pre-split of o200k/cl100k never crosses (no regular-expression branch spans them,
 * none looks behind): after a non-blank before a single space and a non-blank ("end. Next"), and
 * after a newline that follows a non-blank, before spaces or tabs and then a non-blank other than
 * "/" ("| a |\n| b |", "x\n  y"; o200k lets a symbol run take newlines and slashes).
 */
function seam(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return false;
  if (text[at - 1] !== '\n') return spaceSeam(text, at);
  if (at < 2 || isBlank(text.charCodeAt(at - 2))) return false;
  let k = at;
  while (text[k] === ' ' || text[k] === '\t') k++;
  return k < text.length && !isBlank(text.charCodeAt(k)) && (k > at || text[k] !== '/');
}

/** A caller's counter: nothing is known about joints, every chunk is counted whole. */
export function customCounter(fn: TokenCounter): Counter {
  const count = cached((text) => checked(fn(text)));
  return {
    count,
    within: (text, limit) => {
      const n = count(text);
      return n <= limit ? n : false;
    },
    joint: () => undefined,
    seam: () => false,
  };
}

/** A caller's counter must give whole, non-negative numbers: anything else would break the budget. */
function checked(n: number): number {
  if (!Number.isInteger(n) || n < 0)
    throw new TypeError(`The tokenizer returned ${n}; a token count must be a whole number ≥ 0.`);
  return n;
}
