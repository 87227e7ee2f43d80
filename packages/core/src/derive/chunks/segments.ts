/**
 * Boundaries a too-long text may be cut at, coarsest first. A range is `[start, end)` into the text;
 * the ranges of one level cover the text without gaps, so cutting between them loses nothing.
 */
export type Range = [start: number, end: number];

/** A fixed locale: the default one differs between machines and would change the cuts. */
const LOCALE = 'en';
let sentenceSegmenter: Intl.Segmenter | undefined;
let wordSegmenter: Intl.Segmenter | undefined;

/**
 * How many UTF-16 units `Intl.Segmenter` reads at a time. V8 walks a long text's segments in time
 * that grows with the square of its length (the words of a paragraph of 200,000 characters took
 * 17 s; 1,024 at a time, well under a second), so a text is read in windows of this size.
 */
const WINDOW = 1024;

interface Piece {
  index: number;
  segment: string;
  isWordLike: boolean | undefined;
}

/**
 * How far from a window's end a boundary must lie to be taken from it: a boundary may depend on the
 * characters after it ("4.2" is one word, "4." at a window's end two).
 */
const MARGIN = 64;

/**
 * What ends a rule's look ahead: for words, a character that is no mark, format character or
 * joiner (the rules look past those, then one character further); for sentences, a letter, a line
 * break or a sentence's end (a full stop before "1, 1, … and" ends no sentence: the rule looks past
 * figures and punctuation for the next letter).
 */
const SETTLES: Record<string, RegExp> = {
  word: /[^\p{M}\p{Cf}]/u,
  sentence: /[\p{L}\n\r.!?]/u,
};

/**
 * Where the boundaries taken from the window `[at, end)` stop: `MARGIN` before its end, and before
 * the last two characters there that settle a rule's look ahead (`SETTLES`), so every boundary
 * taken is decided by text inside the window. With fewer than two, none is taken: the window is
 * widened.
 */
function takenUpTo(text: string, at: number, end: number, settles: RegExp): number {
  let found = 0;
  for (let i = end - 1; i > at; i--)
    if (settles.test(text[i] as string) && ++found === 2) return Math.min(i, end - MARGIN);
  return at;
}

/**
 * The segments of `text`, read window by window: each window's boundaries up to `takenUpTo`, the
 * rest read again from the last of them, so every boundary is found with the text that follows
 * it, as in one reading of the whole. A window holding no such boundary (a word longer than it, or
 * figures after a full stop and no letter) is widened, and from a widened window only its first segment is
 * taken beyond a plain window's reach, as each segment read from it copies all of it.
 */
export function segmentsOf(segmenter: Intl.Segmenter, text: string): Piece[] {
  const out: Piece[] = [];
  const settles = SETTLES[segmenter.resolvedOptions().granularity] ?? (SETTLES.word as RegExp);
  let at = 0;
  let size = WINDOW;
  while (at < text.length) {
    const end = safeCut(text, Math.min(text.length, at + size));
    const whole = end >= text.length;
    let limit = whole ? Number.POSITIVE_INFINITY : takenUpTo(text, at, end, settles);
    let next = at;
    for (const s of segmenter.segment(text.slice(at, end))) {
      const index = s.index + at;
      const stop = index + s.segment.length;
      if (stop > limit) break;
      out.push({ index, segment: s.segment, isWordLike: s.isWordLike });
      if (next === at && size > WINDOW) limit = Math.min(limit, Math.max(stop, at + WINDOW - MARGIN));
      next = stop;
    }
    if (next >= text.length) break;
    if (next === at) size *= 2;
    else {
      at = next;
      size = WINDOW;
    }
  }
  return out;
}

/** Ends of segments that ICU takes for sentence ends but rarely are. */
const ABBREVIATION =
  /(?:^|[\s(])(?:Mr|Mrs|Ms|Dr|Prof|Sr|Jr|St|vs|etc|e\.g|i\.e|cf|Fig|Figs|No|Nos|Vol|pp|Inc|Ltd|Co|approx)\.\s*$/i;

function rangesAt(text: string, pattern: RegExp): Range[] {
  const out: Range[] = [];
  let start = 0;
  for (const m of text.matchAll(pattern)) {
    const end = (m.index as number) + m[0].length;
    if (end > start && end < text.length) {
      out.push([start, end]);
      start = end;
    }
  }
  out.push([start, text.length]);
  return out;
}

/** Paragraphs: a blank line ends one (the blank line stays with it). */
export const paragraphRanges = (text: string): Range[] => rangesAt(text, /\n[ \t]*\n\s*/g);

/** Lines: each keeps its newline. */
export const lineRanges = (text: string): Range[] => rangesAt(text, /\n/g);

/**
 * Markdown a cut must not fall into: links and images with their destinations, code spans, HTML
 * tags and superscript/subscript runs (Wikipedia-style citations). Cutting there leaves broken
 * syntax in two chunks.
 */
const ATOM =
  /<(sup|sub)>[\s\S]*?<\/\1>|!?\[(?:[^\]\\\n]|\\.)*\]\((?:<[^>\n]*>|[^()\s]|\([^()\s]*\))*(?:\s+"(?:[^"\\\n]|\\.)*")?\)|(`+)[^`\n][\s\S]*?\2|<\/?[A-Za-z][^<>\n]*>/g;

function atomsOf(text: string): Range[] {
  const out: Range[] = [];
  for (const m of text.matchAll(ATOM)) out.push([m.index as number, (m.index as number) + m[0].length]);
  return out;
}

/** Drops the cuts that fall inside an atom (ranges and atoms are both in text order). */
function keepAtomsWhole(ranges: Range[], atoms: readonly Range[]): Range[] {
  if (!atoms.length) return ranges;
  const out: Range[] = [];
  let a = 0;
  for (const r of ranges) {
    const prev = out[out.length - 1];
    while (a < atoms.length && (atoms[a] as Range)[1] <= r[0]) a++;
    const atom = atoms[a];
    if (prev && atom && atom[0] < r[0] && r[0] < atom[1]) prev[1] = r[1];
    else out.push([r[0], r[1]]);
  }
  return out;
}

/**
 * The text the sentence segmenter reads: citations and tags blanked, link syntax blanked around
 * the link text, so "ducks.<sup>[9]</sup> The" ends a sentence where a reader sees one end.
 */
function maskedForSentences(text: string, atoms: readonly Range[]): string {
  if (!atoms.length) return text;
  let out = '';
  let at = 0;
  for (const [s, e] of atoms) {
    const atom = text.slice(s, e);
    const link = /^!?\[((?:[^\]\\\n]|\\.)*)\]/.exec(atom);
    const blank = (n: number) => ' '.repeat(n);
    out += text.slice(at, s);
    if (link && !atom.startsWith('`')) {
      const open = atom.indexOf('[') + 1;
      out += blank(open) + (link[1] as string) + blank(atom.length - open - (link[1] as string).length);
    } else if (atom.startsWith('`')) out += atom.replace(/[.!?]/g, ',');
    else out += blank(atom.length);
    at = e;
  }
  return out + text.slice(at);
}

/** Sentences by `Intl.Segmenter`, joined again after common abbreviations ("Dr.", "e.g."). */
export function sentenceRanges(text: string): Range[] {
  sentenceSegmenter ??= new Intl.Segmenter(LOCALE, { granularity: 'sentence' });
  const atoms = atomsOf(text);
  const out: Range[] = [];
  for (const s of segmentsOf(sentenceSegmenter, maskedForSentences(text, atoms))) {
    const end = s.index + s.segment.length;
    const prev = out[out.length - 1];
    if (prev && ABBREVIATION.test(text.slice(prev[0], prev[1]))) prev[1] = end;
    else out.push([s.index, end]);
  }
  return out.length ? keepAtomsWhole(out, atoms) : [[0, text.length]];
}

/** Words with the blanks and punctuation after them (`Intl.Segmenter`, so CJK text has words too). */
export function wordRanges(text: string): Range[] {
  wordSegmenter ??= new Intl.Segmenter(LOCALE, { granularity: 'word' });
  const out: Range[] = [];
  for (const s of segmentsOf(wordSegmenter, text)) {
    const end = s.index + s.segment.length;
    const prev = out[out.length - 1];
    // A word starts a range; what follows it (blanks, punctuation) joins it.
    if (prev && !s.isWordLike) prev[1] = end;
    else out.push([s.index, end]);
  }
  return out.length ? keepAtomsWhole(out, atomsOf(text)) : [[0, text.length]];
}

/**
 * Blanks between two ranges move to the start of the second: "end. " + "Next" becomes "end." +
 * " Next", which is where a BPE pre-split puts the space too, so counts of the pieces add up.
 */
function blanksForward(text: string, ranges: Range[]): Range[] {
  for (let k = 1; k < ranges.length; k++) {
    const prev = ranges[k - 1] as Range;
    const cur = ranges[k] as Range;
    let p = cur[0];
    while (p > prev[0] + 1 && /\s/.test(text[p - 1] as string)) p--;
    prev[1] = p;
    cur[0] = p;
  }
  return ranges;
}

/** Cut levels, coarsest first. */
export const levels: ReadonlyArray<(text: string) => Range[]> = [
  paragraphRanges,
  lineRanges,
  (text) => blanksForward(text, sentenceRanges(text)),
  (text) => blanksForward(text, wordRanges(text)),
];

/** Code-point safe: never cuts between the halves of a surrogate pair. */
export function safeCut(text: string, at: number): number {
  const c = text.charCodeAt(at);
  return at > 0 && at < text.length && c >= 0xdc00 && c <= 0xdfff ? at - 1 : at;
}
