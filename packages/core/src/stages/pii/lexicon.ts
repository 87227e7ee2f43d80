/**
 * Name and place vocabularies from compromise's lexicon (offline, ~3,000 first names, ~900 surnames,
 * cities, regions, countries). Only the word lists are used: compromise's full tagger reads about
 * 0.07 MB/s, far below what fast mode must do, so matching happens in `names.ts` with plain scans.
 * Loaded lazily with a dynamic import so documents that never ask for PII pay nothing.
 */
export interface NameLexicon {
  first: Set<string>;
  last: Set<string>;
  place: Set<string>;
  /** Lowercase words compromise knows as something other than a name or place. */
  common: Set<string>;
  /** Function words and document vocabulary that never continue a name. */
  stop: Set<string>;
  /** Words that make a capitalised run an organisation or a job title, not a person. */
  org: Set<string>;
  /** Multi-word places and surnames by first word ("new" → ["new york", …]). */
  multi: Map<string, string[]>;
  longestMulti: number;
  /** Every set above a word belongs to, as bits (KIND): one lookup per word instead of one per set. */
  kinds: Map<string, number>;
}

/** Bits of `NameLexicon.kinds`. */
export const KIND = { first: 1, last: 2, place: 4, common: 8, stop: 16, org: 32, multi: 64 } as const;

let loading: Promise<NameLexicon> | undefined;
let loaded: NameLexicon | undefined;

export function nameLexicon(): NameLexicon | undefined {
  return loaded;
}

export function loadNameLexicon(): Promise<NameLexicon> {
  loading ??= import('compromise').then((mod) => {
    const model = mod.default.model() as {
      one: { lexicon: Record<string, string | string[]> };
      two: { orgWords: Record<string, boolean> };
    };
    loaded = buildLexicon(model.one.lexicon, Object.keys(model.two.orgWords));
    return loaded;
  });
  return loading;
}

const FIRST_TAGS = new Set(['FirstName', 'MaleName', 'FemaleName', 'Person']);
const PLACE_TAGS = new Set(['City', 'Country', 'Region', 'Place']);

const STOP_TAGS = new Set([
  'Determiner',
  'Preposition',
  'Conjunction',
  'Pronoun',
  'Possessive',
  'Modal',
  'Copula',
  'QuestionWord',
  'Reflexive',
  'Negative',
  'Month',
  'WeekDay',
]);

function buildLexicon(lexicon: Record<string, string | string[]>, orgWords: string[]): NameLexicon {
  const lex: NameLexicon = {
    first: new Set(),
    last: new Set(),
    place: new Set(),
    common: new Set(),
    stop: new Set(EXTRA_COMMON),
    org: new Set([...orgWords, ...ROLE_WORDS]),
    multi: new Map(),
    longestMulti: 1,
    kinds: new Map(),
  };
  for (const [word, tagOrTags] of Object.entries(lexicon)) {
    const tags = Array.isArray(tagOrTags) ? tagOrTags : [tagOrTags];
    const isFirst = tags.some((t) => FIRST_TAGS.has(t));
    const isLast = tags.includes('LastName');
    const isPlace = tags.some((t) => PLACE_TAGS.has(t));
    if (isFirst) lex.first.add(word);
    if (isLast) lex.last.add(word);
    if (isPlace) lex.place.add(word);
    if (!isFirst && !isLast && !isPlace) lex.common.add(word);
    if (tags.some((t) => STOP_TAGS.has(t))) lex.stop.add(word);
    else if (word.includes(' ')) {
      const parts = word.split(' ');
      const head = parts[0] ?? '';
      const list = lex.multi.get(head) ?? [];
      list.push(word);
      lex.multi.set(head, list);
      lex.longestMulti = Math.max(lex.longestMulti, parts.length);
    }
  }
  for (const w of EXTRA_COMMON) lex.common.add(w);
  const mark = (words: Iterable<string>, bit: number) => {
    for (const w of words) lex.kinds.set(w, (lex.kinds.get(w) ?? 0) | bit);
  };
  mark(lex.first, KIND.first);
  mark(lex.last, KIND.last);
  mark(lex.place, KIND.place);
  mark(lex.common, KIND.common);
  mark(lex.stop, KIND.stop);
  mark(lex.org, KIND.org);
  mark(lex.multi.keys(), KIND.multi);
  return lex;
}

// Job titles follow names in signatures and headers; a run holding one is a role, not a name.
const ROLE_WORDS =
  'manager director engineer officer analyst consultant specialist coordinator administrator liaison strategist associate assistant supervisor technician architect designer developer planner agent executive representative producer facilitator orchestrator head lead senior junior chief principal president vice intern accountant attorney counsel editor founder partner secretary treasurer chair chairman ceo cto cfo coo vp solutions international global corporate'.split(
    ' ',
  );

// Capitalised words of documents (headings, table heads, sentence starts) the lexicon lacks.
const EXTRA_COMMON =
  'the a an this that these those our your my his her their its we you they he she it i in on at for from to by with and or of as is are was were be if then than when where which who what how why all any each every no not new old total date name address phone email street city state country page table figure section chapter part item order invoice number account customer client report summary note notes project team company department office january february march april may june july august september october november december monday tuesday wednesday thursday friday saturday sunday dear hi hello regards thanks sincerely best kind warm yours cheers signed signature contact please call ask see tel fax mobile re fw subject cc attn attention mr mrs ms dr prof inc ltd llc corp co plc gmbh university college school hospital bank street road avenue north south east west upper lower central general annual quarterly monthly weekly daily first second third final draft version release update product service services support sales marketing finance legal human resources meeting agenda minutes review overview introduction conclusion appendix references'.split(
    ' ',
  );
