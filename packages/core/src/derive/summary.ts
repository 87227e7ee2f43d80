import type { Block, Root } from '../tree/types.ts';
import { blockText, inlineText } from '../tree/walk.ts';
import { digestOf, summarizeRecord } from './digest.ts';

/**
 * Extractive summary without a model: TextRank over the sentences of the block tree. Sentences are
 * graph nodes joined by shared content words; the random walk restarts preferentially at lead
 * sentences (first paragraph under a heading, first sentence of a paragraph, abstract/introduction/
 * conclusion sections), so what a section opens with weighs more than what it trails off into.
 * The best sentences that fit the length bound are returned in document order. Deterministic.
 */

/** Summary length bound: a share of the document's text, and an absolute cap for long documents. */
export const SUMMARY_SHARE = 0.15;
export const SUMMARY_MAX_CHARS = 1500;
/** A document is read as a record, not prose, below this share of its text in sentences… */
export const PROSE_SHARE = 0.2;
/** …with at least this share in labelled values and data tables… */
export const RECORD_SHARE = 0.25;
/** …and no complete sentence in this first share of its text. */
export const OPENING_SHARE = 1 / 3;

const STOP = new Set(
  (
    'a an and are as at be but by for from has have he her his i if in into is it its of on or our she so than that the ' +
    'their them then there these they this to was we were which will with you your not no can may also been more such ' +
    'each other some any all both only own same too very just should would could do does did being having while where ' +
    'when who whom what how why about above after again against below between during before under over up down out off ' +
    'further once here through until most few nor one two us et al'
  ).split(' '),
);

interface Sentence {
  text: string;
  index: number;
  prior: number;
  /** Distinct content words. */
  words: Set<string>;
  /** Starts and ends like a sentence (not cut by a page or column break). */
  complete: boolean;
}

const SKIP_SECTION = /^(references|bibliography|acknowledg|appendix|table of contents|contents)/i;
const LEAD_SECTION = /^(abstract|summary|executive summary|introduction|overview|conclusions?|key findings)\b/i;

/** Cue phrases that announce a document's own claims (Edmundson's cue method), English only. */
const CLAIM_CUE =
  /\b(?:this (?:paper|work|article|report|study|document)|in this (?:paper|work|study)|we (?:propose|present|introduce|show|demonstrate|find|describe|report)|introduces?|our results|we conclude|findings)\b/i;

const stem = (w: string) => (w.length > 4 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w);
const contentWords = (s: string) =>
  (s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
    .filter((w) => w.length > 2 && !STOP.has(w) && !/^\d+$/.test(w))
    .map(stem);

/** Sentence split that keeps "e.g.", "Fig. 3", decimals and initials inside their sentence. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  // A footnote mark may follow the full stop ("benchmarks.1 Open-domain …").
  const re = /(?:[.!?]|(?<=\p{L})[.!?]\d{1,2})(?=["')\]]?\s+["'(]?[\p{Lu}\p{N}])/gu;
  for (const m of text.matchAll(re)) {
    const end = (m.index ?? 0) + m[0].length;
    const before = text.slice(Math.max(start, end - 6), end);
    if (/\b(?:e\.g|i\.e|etc|vs|Fig|Figs|Eq|No|Dr|Mr|Mrs|Ms|al|cf|approx|Sec|[A-Z])\.$/.test(before)) continue;
    out.push(text.slice(start, end).trim());
    start = end;
  }
  const rest = text.slice(start).trim();
  if (rest) out.push(rest);
  return out;
}

function collectSentences(tree: Root): {
  sentences: Sentence[];
  textLength: number;
  headings: string[];
  /** Text of the paragraphs outside skipped sections, in order (the fallback when no sentence qualifies). */
  prose: string[];
  /** Characters in the sentences that qualify for ranking, cut ones included: how much of the text reads as prose. */
  proseChars: number;
  /** Most complete sentences in one paragraph. */
  longestRun: number;
  /** Characters of text before the first complete sentence (the whole text when there is none). */
  openingChars: number;
} {
  const sentences: Sentence[] = [];
  const headings: string[] = [];
  const prose: string[] = [];
  let textLength = 0;
  let proseChars = 0;
  let longestRun = 0;
  let openingChars = -1;
  let section = '';
  let paraInSection = 0;
  const visit = (blocks: readonly Block[], inList: boolean) => {
    for (const b of blocks) {
      if (b.type === 'heading') {
        section = inlineText(b.children).trim();
        headings.push(section);
        textLength += section.length;
        paraInSection = 0;
        continue;
      }
      if (b.type === 'section' || b.type === 'blockquote') {
        visit(b.children, inList);
        continue;
      }
      if (b.type === 'list') {
        for (const item of b.children) visit(item.children, true);
        continue;
      }
      const text = blockText(b).replace(/\s+/g, ' ').trim();
      textLength += text.length;
      if (b.type !== 'paragraph' || SKIP_SECTION.test(section)) continue;
      if (text) prose.push(text);
      // A paragraph that opens with "Abstract." is its own lead section in papers without headings.
      const lead = LEAD_SECTION.test(section) || LEAD_SECTION.test(text);
      let kept = 0;
      splitSentences(text).forEach((s, i) => {
        const words = new Set(contentWords(s));
        const n = s.split(/\s+/).length;
        if (n < 6 || n > 80 || words.size < 3 || /@|https?:\/\//.test(s)) return;
        if (/^(?:Table|Figure|Fig\.|Listing|Algorithm)\s*\d+/.test(s)) return;
        // Mostly symbols, dot leaders or formula debris: not prose.
        const letters = (s.match(/\p{L}/gu) ?? []).length;
        if (letters < 0.7 * s.replace(/\s/g, '').length || /(?:\. ){2,}\./.test(s)) return;
        // Cut by a page or column break at either end: reads badly on its own.
        const complete = /[.!?]["')\]]?\d{0,2}$/.test(s) && !/^(?:\p{Ll}|\d+\]|[\]),;:])/u.test(s);
        const prior =
          1 +
          (paraInSection === 0 ? 1 : 0) +
          (i === 0 ? 0.5 : 0) +
          (lead ? 1 : 0) +
          (CLAIM_CUE.test(s) ? 0.75 : 0) -
          (inList ? 0.3 : 0) -
          (complete ? 0 : 0.75);
        sentences.push({ text: s, index: sentences.length, prior, words, complete });
        proseChars += s.length;
        if (complete && openingChars < 0) openingChars = textLength - text.length;
        if (complete) kept++;
      });
      // Lead paragraph = the first with a complete sentence (author lines and captions do not count).
      if (kept) paraInSection++;
      longestRun = Math.max(longestRun, kept);
    }
  };
  visit(tree.children, false);
  return {
    sentences,
    textLength,
    headings,
    prose,
    proseChars,
    longestRun,
    openingChars: openingChars < 0 ? textLength : openingChars,
  };
}

function common(a: Sentence, b: Sentence): number {
  const [small, big] = a.words.size <= b.words.size ? [a.words, b.words] : [b.words, a.words];
  let n = 0;
  for (const w of small) if (big.has(w)) n++;
  return n;
}

/** TextRank's edge weight: shared words, normalised by the sentences' lengths. */
function similarity(a: Sentence, b: Sentence): number {
  const n = common(a, b);
  return n ? n / (Math.log(a.words.size + 1) + Math.log(b.words.size + 1)) : 0;
}

/** Share of distinct content words two sentences have in common (repeated running heads, boilerplate). */
function overlap(a: Sentence, b: Sentence): number {
  const n = common(a, b);
  return n / (a.words.size + b.words.size - n || 1);
}

/** Personalized PageRank over the sentence graph (damping 0.85, at most 50 rounds). */
function rank(sentences: Sentence[]): number[] {
  const n = sentences.length;
  // Adjacency lists: the graph is sparse, and typed arrays keep the walk off holey arrays.
  const nbr: number[][] = Array.from({ length: n }, () => []);
  const wts: number[][] = Array.from({ length: n }, () => []);
  const sums = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const w = similarity(sentences[i] as Sentence, sentences[j] as Sentence);
      if (!w) continue;
      (nbr[i] as number[]).push(j);
      (wts[i] as number[]).push(w);
      (nbr[j] as number[]).push(i);
      (wts[j] as number[]).push(w);
      sums[i] = (sums[i] ?? 0) + w;
      sums[j] = (sums[j] ?? 0) + w;
    }
  }
  const priorSum = sentences.reduce((a, s) => a + s.prior, 0);
  const restart = Float64Array.from(sentences, (s) => s.prior / priorSum);
  let score = Float64Array.from(restart);
  for (let round = 0; round < 50; round++) {
    const next = restart.map((r) => 0.15 * r);
    let dangling = 0;
    for (let j = 0; j < n; j++) {
      const sj = sums[j] ?? 0;
      if (!sj) {
        // A sentence sharing nothing hands its weight back through the restart distribution.
        dangling += score[j] ?? 0;
        continue;
      }
      const share = (0.85 * (score[j] ?? 0)) / sj;
      const ns = nbr[j] as number[];
      const ws = wts[j] as number[];
      for (let k = 0; k < ns.length; k++) {
        const i = ns[k] as number;
        next[i] = (next[i] ?? 0) + share * (ws[k] ?? 0);
      }
    }
    let delta = 0;
    for (let i = 0; i < n; i++) {
      next[i] = (next[i] ?? 0) + 0.85 * dangling * (restart[i] ?? 0);
      delta += Math.abs((next[i] ?? 0) - (score[i] ?? 0));
    }
    score = next;
    if (delta < 1e-6) break;
  }
  return Array.from(score, (v, i) => v * (sentences[i]?.prior ?? 1));
}

/** Characters of text in a tree (what the length bound is relative to). */
export function textLengthOf(tree: Root): number {
  let n = 0;
  const visit = (node: unknown) => {
    const o = node as { value?: unknown; children?: unknown[] };
    if (typeof o.value === 'string') n += o.value.length;
    if (Array.isArray(o.children)) for (const c of o.children) visit(c);
  };
  visit(tree);
  return n;
}

/** Characters a summary of a document with `textLength` characters of text may use. */
export const summaryBudget = (textLength: number): number =>
  Math.min(SUMMARY_MAX_CHARS, Math.floor(textLength * SUMMARY_SHARE));

function clip(text: string, budget: number): string {
  if (text.length <= budget) return text;
  const cut = text.slice(0, Math.max(0, budget - 1));
  const space = cut.lastIndexOf(' ');
  return `${(space > budget / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * Whole units (sentences, headings) in order while they fit `budget`. The first is kept whole even
 * when it alone is over the share: a short document's summary is its first sentence, not a cut one
 * ("Revenue grew 12% on…"). Only a unit over the absolute cap is clipped.
 */
function wholeUnits(units: readonly string[], budget: number, sep: string): string {
  const out: string[] = [];
  let used = 0;
  for (const u of units) {
    const cost = u.length + (out.length ? sep.length : 0);
    if (out.length && used + cost > budget) break;
    out.push(u);
    used += cost;
  }
  return clip(out.join(sep), Math.max(budget, Math.min(used, SUMMARY_MAX_CHARS)));
}

export function summarizeOffline(tree: Root): string {
  const { sentences, textLength, headings, prose, proseChars, longestRun, openingChars } = collectSentences(tree);
  const budget = summaryBudget(textLength);
  if (budget <= 0) return '';
  // Little prose and mostly fields and tables (an invoice, a form, a spreadsheet): its few
  // sentences are closing terms or an address, so the summary says what the document is and what
  // its fields and tables hold. A document that opens with prose, or has a paragraph of two complete
  // sentences, keeps the sentence summary.
  if (proseChars < PROSE_SHARE * textLength && longestRun < 2 && openingChars >= OPENING_SHARE * textLength) {
    const digest = digestOf(tree);
    const record = digest.covered >= RECORD_SHARE * textLength ? summarizeRecord(digest, budget) : '';
    if (record) return clip(record, SUMMARY_MAX_CHARS);
  }
  if (!sentences.length) {
    // No sentence long enough to rank: the title and headings, or else the first short sentences.
    const title = typeof tree.metadata.title === 'string' ? tree.metadata.title : undefined;
    const names = [...new Set([title, ...headings].filter((h): h is string => !!h))];
    if (names.length) return wholeUnits(names, budget, '. ');
    return wholeUnits(splitSentences(prose.join(' ')), budget, ' ');
  }
  // Large documents: rank the lead-weighted first 400 sentences; O(n²) edges stay cheap.
  const pool =
    sentences.length > 400
      ? [...sentences]
          .sort((a, b) => b.prior - a.prior || a.index - b.index)
          .slice(0, 400)
          .sort((a, b) => a.index - b.index)
      : sentences;
  pool.forEach((s, i) => {
    s.index = i;
  });
  const scores = rank(pool);
  const order = pool
    .map((s, i) => ({ s, score: scores[i] ?? 0 }))
    .sort((a, b) => b.score - a.score || a.s.index - b.s.index);
  const chosen: Sentence[] = [];
  let used = 0;
  for (const { s } of order) {
    if (!s.complete && chosen.length) continue;
    const cost = s.text.length + (chosen.length ? 1 : 0);
    if (used + cost > budget) continue;
    if (chosen.some((c) => overlap(c, s) > 0.8)) continue;
    chosen.push(s);
    used += cost;
    if (chosen.length >= 12) break;
  }
  // Not even one sentence fits the share (a short page): the best complete sentence, whole.
  if (!chosen.length) return wholeUnits([(order.find((o) => o.s.complete) ?? order[0])?.s.text ?? ''], budget, ' ');
  return chosen
    .sort((a, b) => a.index - b.index)
    .map((s) => s.text)
    .join(' ');
}
