/**
 * Line-end hyphens: a PDF draws the same "-" for a word broken by justification ("informa-/tion")
 * and for a compound that happens to fall at a line end ("high-/dimensional"). Nothing in the
 * drawing tells them apart, so each break is decided from what the document itself writes
 * elsewhere, then from word shape; when nothing decides, the hyphen stays (a kept hyphen in a
 * broken word reads better than a compound glued into a non-word).
 */
import { STARTS_LOWER } from '../../util/letters.ts';
import type { Line } from './lines.ts';
import { addressRunsOn, nonAscii, runsOnAt } from './text.ts';

/** What a document writes outside its line ends: its words and its hyphenated compounds. */
export interface Vocabulary {
  words: Set<string>;
  compounds: Set<string>;
  /** Distinct words: a small document cannot vouch that a fragment is no word. */
  size: number;
  /**
   * Runs of two to six Hangul syllables found inside words written away from line ends: what
   * vouches that a Korean line end fell inside a word.
   */
  hangul: Set<string>;
}

const wordRe = /\p{L}+/gu;
const compoundRe = /\p{L}+(?:-\p{L}+)+/gu;
/**
 * The same patterns for text of ASCII alone, where the letters are A–Z and a–z: without Unicode
 * property classes they match about twice as fast, and most lines of most documents are ASCII.
 */
const asciiWordRe = /[A-Za-z]+/g;
const asciiCompoundRe = /[A-Za-z]+(?:-[A-Za-z]+)+/g;
export const endsHyphen = /\p{L}-$/u;
const lettersHyphen = /\p{L}+-$/u;
const blankLetters = /^\s*\p{L}+/u;
const lettersEnd = /\p{L}+$/u;
const lettersStart = /^\p{L}+/u;

/**
 * The last three UTF-16 units: room for a letter outside the BMP and a hyphen. A pattern anchored
 * at the end is tried from every position of its subject, so end tests look at this tail only.
 */
export const lastChars = (s: string): string => (s.length > 3 ? s.slice(-3) : s);

/**
 * The document's vocabulary, collected on first use: only a line-end hyphen before a lower-case
 * word consults it, and many documents have none. The line texts are taken now because block
 * building later edits some lines (a bullet drawn apart is folded into the line after it).
 */
export function lazyVocabulary(pages: { lines: Line[] }[]): () => Vocabulary {
  // Loops into literals, not map: a page without lines would make another kind of array than the
  // rest, and the collecting loop would meet both.
  const texts: string[][] = [];
  for (const p of pages) {
    const page: string[] = [];
    for (const l of p.lines) page.push(l.text);
    texts.push(page);
  }
  let vocab: Vocabulary | undefined;
  return () => {
    vocab ??= collectVocabulary(texts);
    return vocab;
  };
}

/**
 * The vocabulary of one page's text runs, collected on first use: table cells are read before the
 * document's lines exist, so a cell's line-end hyphen is decided by what its page writes elsewhere.
 */
export function runVocabulary(items: readonly { str: string }[]): () => Vocabulary {
  let vocab: Vocabulary | undefined;
  return () => {
    if (!vocab) {
      const texts: string[] = [];
      for (const it of items) texts.push(it.str);
      vocab = collectVocabulary([texts]);
    }
    return vocab;
  };
}

/**
 * Collects the vocabulary of each page's line texts in reading order, leaving out the two fragments
 * around every line-end hyphen (they are what is being decided, so they must not vouch for themselves).
 */
function collectVocabulary(pages: string[][]): Vocabulary {
  const words = new Set<string>();
  const compounds = new Set<string>();
  const hangul = new Set<string>();
  for (const lines of pages) {
    let brokenBefore = false;
    for (const text of lines) {
      // Most lines are ASCII: no Hangul in them, and none in their lower case either.
      const asciiLine = !nonAscii.test(text);
      if (!asciiLine && syllable.test(text)) innerSyllables(text, hangul);
      const t = text.toLowerCase();
      const broken = endsHyphen.test(lastChars(t));
      let body = t;
      if (broken) body = body.replace(lettersHyphen, '');
      if (brokenBefore) body = body.replace(blankLetters, '');
      const ascii = asciiLine || !nonAscii.test(body);
      // Most lines hold no hyphen, and the compound pattern is slow to fail on every word of them.
      if (body.includes('-')) for (const c of body.match(ascii ? asciiCompoundRe : compoundRe) ?? []) compounds.add(c);
      for (const w of body.match(ascii ? asciiWordRe : wordRe) ?? []) words.add(w);
      brokenBefore = broken;
    }
  }
  return { words, compounds, size: words.size, hangul };
}

const syllable = /[\uac00-\ud7a3]/;
const syllablesRe = /[\uac00-\ud7a3]+/g;

/** Adds the Hangul runs of two to six syllables inside the line's words, its first and last word left out. */
function innerSyllables(text: string, out: Set<string>): void {
  const words = text.split(/\s+/);
  for (let k = 1; k < words.length - 1; k++) {
    for (const m of (words[k] as string).matchAll(syllablesRe)) {
      const run = m[0].slice(0, 12);
      for (let a = 0; a < run.length; a++)
        for (let n = 2; n <= 6 && a + n <= run.length; n++) out.add(run.slice(a, a + n));
    }
  }
}

/** Particles and endings that never start a Korean word: on a line of their own they end the last. */
const particles = new Set([
  '은',
  '는',
  '이',
  '가',
  '을',
  '를',
  '의',
  '에',
  '로',
  '와',
  '과',
  '도',
  '만',
  '으로',
  '에서',
  '에게',
  '까지',
  '부터',
  '하여',
  '하고',
  '하는',
  '했다',
  '한다',
]);

/**
 * Whether a Korean line end fell inside a word ("보" at one line's end, "험금의" at the next's
 * start): Korean puts blanks between words, and justified text breaks lines inside them too. The
 * two halves join when the next line opens with a particle alone, or when the document writes the
 * end of the first half with the start of the second inside a word elsewhere ("보험" in "질병보험금").
 */
export function joinsKorean(left: string, right: string, vocab: (() => Vocabulary) | undefined): boolean {
  const a = /[\uac00-\ud7a3]+$/.exec(left)?.[0];
  const b = /^[\uac00-\ud7a3]+/.exec(right)?.[0];
  if (!a || !b) return false;
  if (particles.has(b) && !syllable.test(right.charAt(b.length))) return true;
  return vocab?.().hangul.has(a.slice(-4) + b.charAt(0)) ?? false;
}

const ALNUM_HYPHEN = /[\p{L}\p{N}]-$/u;
const STARTS_ALNUM = /^[\p{L}\p{N}]/u;

/**
 * What goes where a line's text (`end`, its last characters suffice; `before`, the whole line)
 * runs on into the next line's `next`: where the line ends in a hyphen after a letter or figure and
 * the next opens with one, the word runs on, `join` where the document's words say the hyphen goes
 * (`left`: the text before it) and `hyphen` where it stays; nothing after a blank, a slash, between
 * CJK characters, inside a Korean word or an address cut after a dot; otherwise a blank.
 */
export function lineSeam(
  end: string,
  next: string,
  before: string,
  vocab: (() => Vocabulary) | undefined,
  left: () => string,
): 'join' | 'hyphen' | ' ' | '' {
  if (ALNUM_HYPHEN.test(end) && STARTS_ALNUM.test(next)) return removeHyphen(left(), next, vocab) ? 'join' : 'hyphen';
  if (/\s$/.test(end) || runsOnAt(end, next) || addressRunsOn(before, next) || joinsKorean(before, next, vocab))
    return '';
  return ' ';
}

/** Prefixes written with a hyphen far more often than fused into one word. */
const prefixes = new Set([
  'non',
  'self',
  'well',
  'co',
  'high',
  'low',
  'open',
  'multi',
  'cross',
  'semi',
  'anti',
  'ex',
  'all',
  'half',
  'full',
  'long',
  'short',
  'large',
  'small',
  'two',
  'three',
  'single',
  'double',
  'first',
  'second',
  'third',
  'quasi',
  'pseudo',
  'never',
]);

/**
 * Endings that are no word on their own, after at most one consonant of the stem ("run-ning",
 * "ta-ble"): a second part made of one is a broken word's tail.
 */
const tails =
  /^[b-df-hj-np-tv-z]?(?:tion|tions|sion|sions|ment|ments|ing|ings|ly|ed|ness|ity|ities|able|ible|ance|ence|ances|ences|ive|ives|ous|ful|less|ism|ist|ists|ize|ized|izes|ise|ised|ical|ally|ary|ory|ure|ures|ial|ian|ians|er|ers|est|es|al|ic|ics|age|ages|ant|ants|ent|ents|ty|ties|ry|ries|cy|cies|le|les|ling|lings)$/;

/** Below this many distinct words a document says too little to call a fragment "no word". */
const SIZEABLE = 150;

/**
 * Whether the hyphen between `left` (letters before a line-end hyphen) and `right` (what starts the
 * next line) is a break to remove (`true`) or part of the text (`false`).
 */
export function removeHyphen(left: string, right: string, vocab: (() => Vocabulary) | undefined): boolean {
  return hyphenVerdict(left, right, vocab) === 'join';
}

/** How far back from a text's end its last word is looked for before the whole text is searched. */
const TAIL = 64;

/**
 * The letters ending `text` (`/\p{L}+$/u`'s match, or ''): searched in the text's tail, as a pattern
 * anchored at the end is tried from every position and a table cell asks with all its text so far.
 * Only a match that may go on before the tail (at its first or second unit: a letter outside the BMP
 * may be cut in two there) is looked for in the whole text.
 */
function lastWord(text: string): string {
  if (text.length <= TAIL) return lettersEnd.exec(text)?.[0] ?? '';
  const m = lettersEnd.exec(text.slice(-TAIL));
  if (!m) return '';
  return m.index > 1 ? m[0] : (lettersEnd.exec(text)?.[0] ?? '');
}

/**
 * `removeHyphen`'s answer, with `open` where the words given said nothing and the hyphen stays
 * only for want of evidence: what a table cell asks of its page's words and leaves to the
 * document's (`OPEN_HYPHEN`).
 */
export function hyphenVerdict(
  left: string,
  right: string,
  vocab: (() => Vocabulary) | undefined,
): 'join' | 'keep' | 'open' {
  // Capitals or digits after the break ("Lucene-BM25", "top-20") name things; they are not a
  // word's second half.
  if (!STARTS_LOWER.test(right)) return 'keep';
  const a = lastWord(left).toLowerCase();
  const b = (lettersStart.exec(right)?.[0] ?? '').toLowerCase();
  if (!a || !b) return 'keep';
  const v = vocab?.();
  if (v) {
    if (v.compounds.has(`${a}-${b}`)) return 'keep';
    if (v.words.has(a + b)) return 'join';
  }
  if (prefixes.has(a)) return 'keep';
  if (tails.test(b)) return 'join';
  // In a document of some size, two halves that never occur as words are a broken word.
  if (v && v.size >= SIZEABLE && !v.words.has(a) && !v.words.has(b)) return 'join';
  return 'open';
}

/**
 * Stands in a table cell's text for a line-end hyphen its page's words left open: cells are read
 * page by page, before the document's lines exist, and a paragraph decides the same break with
 * the whole document's words. A noncharacter, so no text carries it (`cleanText` drops it from
 * runs); `settleHyphens` replaces every one before the cell's table is placed.
 */
export const OPEN_HYPHEN = '\ufdd0';

const openBreak = /(\p{L}*)\ufdd0(\p{L}*)/gu;

/** Decides the open hyphens of a text (`OPEN_HYPHEN`) with the document's words. */
export function settleHyphens(s: string, vocab: () => Vocabulary): string {
  return s.replace(openBreak, (_, a: string, b: string) => (removeHyphen(a, b, vocab) ? a + b : `${a}-${b}`));
}
